// Command ftpurl parses ftp URLs and prints them normalized, as parts,
// as the FTP commands a client sends, or finds them in text. It is to
// ftp URLs what curl's trurl is to URLs in general.
//
// Usage:
//
//	ftpurl [flags] [URL ...]
//
// With no URL arguments it reads URLs from standard input, one a line,
// trimming white space (a final CR included) and skipping empty lines.
// Arguments are taken as they are, never trimmed.
//
// Output modes (at most one):
//
//	(none)         the normalized URL (URL.String)
//	-json          one JSON object a line: the parts, the login and the plan
//	-plan          the FTP commands: USER, PASS xxxxx, then Plan.Commands,
//	               then, each after a "#" line, Plan.Fallback's and Plan.Verify's
//	-get TEMPLATE  the parts named in TEMPLATE, e.g. '{host}:{port}'
//	-find          each URL found in the text on standard input, with its byte offset
//
// -json, -plan and -get never print a password: it is shown as "xxxxx".
// The default output and -find print the URL as String writes it, with
// its password, unless -redact is given.
//
// An invalid URL prints its error on standard error and the next URL is
// processed; the exit status is then 1. A usage error exits with 2.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/ftpurl/ftpurl"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1 // a URL was invalid, or output failed
	exitUsage   = 2 // bad flags or template
)

// redacted is what every output shows instead of a password.
const redacted = "xxxxx"

const usageText = `Usage: ftpurl [flags] [URL ...]

ftpurl parses ftp URLs (RFC 1738, the 1997 and 2011 ftp URI drafts, and
what people paste) and prints each in its normalized form. With no URL
arguments it reads URLs from standard input, one a line.

Output modes (choose at most one):
  (none)          the normalized URL
  -json           one JSON object a line with the URL's parts, login and plan
  -plan           the FTP commands a client sends: USER, PASS, then CWD,
                  TYPE and RETR, LIST or NLST ("PASS ?" when the URL names
                  a user without a password: a client must ask for one);
                  after a "#" line, those it sends when RETR is refused,
                  or the CWD that checks a listing that came back empty
  -get TEMPLATE   the parts named in TEMPLATE; "{{" is a literal "{"
  -find           read text on standard input and print each ftp URL found
                  in it, after its byte offset and a tab

-json, -plan and -get show a password only as xxxxx.

Template names for -get:
  {url}       the normalized URL, password redacted
  {scheme}    ftp or ftps
  {user}      the user name, escaped as in the URL ("" when none)
  {password}  xxxxx when the URL has a password, else ""
  {host}      the host: lower-case A-labels, IPv4, or IPv6 without brackets
  {port}      the port; when the URL has none, 21 (ftp) or 990 (ftps)
  {address}   host:port for connecting (IPv6 in brackets)
  {path}      the path, escaped, without ";type="
  {dirs}      the directories joined with "/", each escaped as in the URL
  {name}      the last path segment, escaped as in the URL
  {type}      the typecode letter, "" when none
  {query}     the query, escaped, without "?"
  {fragment}  the fragment, escaped, without "#"

Flags:
`

const examplesText = `
Examples:
  ftpurl 'ftp://user@example.com/%2Fetc/motd;type=a'
  ftpurl -plan 'ftp://ftp.example.com/pub/file.tar.gz;type=i'
  ftpurl -plan -method nocwd 'ftp://ftp.example.com/pub/file.tar.gz'
  ftpurl -json 'ftp://anonymous:secret@ftp.example.com/pub/'
  ftpurl -get '{address} {dirs} {name}' 'ftp://[2001:db8::1]:2121/a/b/c.txt'
  ftpurl -grammar rfc1738 < urls.txt
  ftpurl -find < message.txt

Exit status: 0 when every URL is valid; 1 when one is not (its error goes to
standard error and the other URLs are still processed); 2 for a usage error.
`

// config is what the flags select.
type config struct {
	grammar  ftpurl.Grammar
	json     bool
	plan     bool
	find     bool
	redact   bool
	get      []piece // nil unless -get was given
	planOpts []ftpurl.PlanOption
}

// run is the whole command, testable without a process: it parses args
// (without the program name), reads stdin when it needs to, and returns
// the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cfg, urls, status := parseFlags(args, stderr)
	if cfg == nil {
		return status
	}
	out := bufio.NewWriter(stdout)
	p := &printer{cfg: cfg, out: out, stderr: stderr}
	if cfg.find {
		p.find(stdin)
	} else {
		p.each(urls, stdin)
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "ftpurl: writing output: %v\n", err)
		return exitInvalid
	}
	return p.status
}

// parseFlags returns the configuration and the URL arguments, or a nil
// config and the exit status when run must stop.
func parseFlags(args []string, stderr io.Writer) (*config, []string, int) {
	var (
		cfg      config
		get      string
		method   ftpurl.Method
		absolute bool
	)
	fs := flag.NewFlagSet("ftpurl", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), examplesText)
	}
	fs.TextVar(&cfg.grammar, "grammar", ftpurl.Lenient, "the grammar (`name`): lenient, rfc1738, rfc2396 or rfc3986")
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object a URL: parts, login and plan")
	fs.BoolVar(&cfg.plan, "plan", false, "print the FTP commands for each URL")
	fs.StringVar(&get, "get", "", "print the parts named in `TEMPLATE`, e.g. '{host}:{port}'")
	fs.BoolVar(&cfg.find, "find", false, "find ftp URLs in the text on standard input")
	fs.BoolVar(&cfg.redact, "redact", false, "replace the password with xxxxx in the default and -find output")
	fs.TextVar(&method, "method", ftpurl.MultiCWD, "how -plan and -json change directory (`name`): multicwd, one CWD a directory;\nsinglecwd, one CWD of the joined path; nocwd, the whole path in RETR, LIST or NLST")
	fs.BoolVar(&absolute, "absolute", false, "-plan and -json: the path starts at the root (the 1997 draft §3.1)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil, exitOK
		}
		return nil, nil, exitUsage
	}
	usageError := func(format string, a ...any) (*config, []string, int) {
		fmt.Fprintf(stderr, "ftpurl: "+format+"\n", a...)
		fmt.Fprintln(stderr, "Run 'ftpurl -h' for usage.")
		return nil, nil, exitUsage
	}

	getSet := false
	fs.Visit(func(f *flag.Flag) { getSet = getSet || f.Name == "get" })
	modes := 0
	for _, on := range []bool{cfg.json, cfg.plan, getSet, cfg.find} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return usageError("-json, -plan, -get and -find cannot be combined")
	}
	if getSet {
		pieces, err := compileTemplate(get)
		if err != nil {
			return usageError("%v", err)
		}
		cfg.get = pieces
	}
	if cfg.find && fs.NArg() > 0 {
		return usageError("-find reads text on standard input and takes no arguments")
	}
	cfg.planOpts = []ftpurl.PlanOption{ftpurl.WithMethod(method)}
	if absolute {
		cfg.planOpts = append(cfg.planOpts, ftpurl.WithAbsolutePaths())
	}
	return &cfg, fs.Args(), exitOK
}

// printer writes the output of each URL and keeps the exit status.
type printer struct {
	cfg    *config
	out    *bufio.Writer
	stderr io.Writer
	status int
	count  int // URLs printed, for the blank line between -plan blocks
}

// fail reports err for one URL and sets the exit status to 1. It
// flushes the standard output first, so that the error comes after the
// output of the URLs before it when both go to one terminal.
func (p *printer) fail(err error) {
	p.out.Flush()
	fmt.Fprintln(p.stderr, err)
	p.status = exitInvalid
}

// each handles the URL arguments or, with none, the lines of stdin.
func (p *printer) each(urls []string, stdin io.Reader) {
	if len(urls) > 0 {
		for _, raw := range urls {
			p.one(raw)
		}
		return
	}
	r := bufio.NewReader(stdin)
	for {
		line, err := r.ReadString('\n')
		if s := strings.TrimSpace(line); s != "" {
			p.one(s)
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			p.fail(fmt.Errorf("ftpurl: reading standard input: %w", err))
			return
		}
	}
}

// recoverBug turns a panic in package ftpurl, which is a bug there
// (Parse and Plan never panic by contract), into an error for the URL at
// hand, so that the URLs after it are still processed. The message does
// not quote the URL, which may hold a password.
func (p *printer) recoverBug() {
	if r := recover(); r != nil {
		p.fail(fmt.Errorf("ftpurl: internal error, a bug in package ftpurl (please report it): %v", r))
	}
}

// one parses raw and prints it in the selected mode.
func (p *printer) one(raw string) {
	defer p.recoverBug()
	u, err := p.cfg.grammar.Parse(raw)
	if err != nil {
		p.fail(err)
		return
	}
	switch {
	case p.cfg.json:
		p.json(u)
	case p.cfg.plan:
		p.plan(u)
	case p.cfg.get != nil:
		p.template(u)
	default:
		p.out.WriteString(p.urlString(u))
		p.out.WriteByte('\n')
	}
}

// mayHoldURL reports whether line holds "ftp:" or "ftps:" in any ASCII
// case, where every candidate URL starts.
func mayHoldURL(line []byte) bool {
	for i := 3; i < len(line); i++ {
		j := bytes.IndexByte(line[i:], ':')
		if j < 0 {
			return false
		}
		i += j
		if bytes.EqualFold(line[i-3:i], []byte("ftp")) || i >= 4 && bytes.EqualFold(line[i-4:i], []byte("ftps")) {
			return true
		}
	}
	return false
}

// urlString is the URL as the default and -find output show it.
func (p *printer) urlString(u *ftpurl.URL) string {
	if p.cfg.redact {
		return u.Redacted()
	}
	return u.String()
}

// find prints each URL that the grammar finds in the text on stdin,
// after its byte offset in the whole input. A URL never spans white
// space or a control character (RFC 3986 Appendix C), so the text is
// read a line at a time: memory stays bounded by the longest line,
// however long the input.
func (p *printer) find(stdin io.Reader) {
	defer p.recoverBug()
	r := bufio.NewReaderSize(stdin, 64<<10)
	var long []byte // a line longer than r's buffer, gathered
	base := 0       // offset of the current line in the whole input
	for {
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, line...)
			continue
		}
		if len(long) > 0 {
			line = append(long, line...)
			long = line[:0]
		}
		// Most lines of a log hold no "ftp:" and so no URL: they skip
		// the copy into a string.
		if mayHoldURL(line) {
			for _, m := range p.cfg.grammar.FindAll(string(line), -1) {
				p.out.WriteString(strconv.Itoa(base + m.Start))
				p.out.WriteByte('\t')
				p.out.WriteString(p.urlString(m.URL))
				p.out.WriteByte('\n')
			}
		}
		base += len(line)
		if err == io.EOF {
			return
		}
		if err != nil {
			p.fail(fmt.Errorf("ftpurl: reading standard input: %w", err))
			return
		}
	}
}

// plan prints the login lines and the commands of u's plan, with a
// blank line between the plans of successive URLs.
func (p *printer) plan(u *ftpurl.URL) {
	pl, err := u.Plan(p.cfg.planOpts...)
	if err != nil {
		p.fail(err)
		return
	}
	if p.count > 0 {
		p.out.WriteByte('\n')
	}
	p.count++
	user, _, ok := u.Login()
	p.out.WriteString("USER " + user + "\n")
	if ok {
		p.out.WriteString("PASS " + redacted + "\n")
	} else {
		p.out.WriteString("PASS ?\n")
	}
	for _, c := range pl.Commands() {
		p.out.WriteString(c)
		p.out.WriteByte('\n')
	}
	p.printAfter(fallbackComment, pl.Fallback)
	p.printAfter(verifyComment, pl.Verify)
	if pl.Fallback != nil {
		p.printAfter(verifyComment, pl.Fallback.Verify)
	}
}

// printAfter prints comment and the commands of sub, a Fallback or a
// Verify; nothing when sub is nil.
func (p *printer) printAfter(comment string, sub *ftpurl.Plan) {
	if sub == nil {
		return
	}
	p.out.WriteString(comment + "\n")
	for _, c := range sub.Commands() {
		p.out.WriteString(c)
		p.out.WriteByte('\n')
	}
}

// fallbackComment introduces the lines of a RetrieveOrList plan's
// Fallback in -plan's output (2011 draft §3.2.3 (4d)); verifyComment
// those of the Verify of a LIST or NLST with an argument (Plan's doc).
const (
	fallbackComment = "# when RETR is refused (550), list the name instead:"
	verifyComment   = "# when the listing is empty, tell an empty directory (250) from a missing name (550):"
)

// The -json output. Strings are decoded octets, as in ftpurl.URL; JSON
// shows a byte sequence that is not UTF-8 as U+FFFD, so "path" also
// gives the path escaped, exactly.
type urlJSON struct {
	URL       string    `json:"url"`    // Redacted
	Scheme    string    `json:"scheme"` // "ftp" or "ftps"
	User      *string   `json:"user,omitempty"`
	Password  string    `json:"password,omitempty"` // "xxxxx" when set
	Host      string    `json:"host"`
	Port      uint16    `json:"port"` // the scheme's default when the URL has none
	Address   string    `json:"address"`
	Path      string    `json:"path"` // escaped, without ";type="
	Dirs      []string  `json:"dirs"`
	Name      string    `json:"name"`
	Type      string    `json:"type,omitempty"`
	Query     string    `json:"query,omitempty"`
	Fragment  string    `json:"fragment,omitempty"`
	Login     loginJSON `json:"login"`
	Plan      *planJSON `json:"plan,omitempty"`
	PlanError string    `json:"plan_error,omitempty"`
}

type loginJSON struct {
	User     string `json:"user"`
	Password string `json:"password,omitempty"` // "xxxxx" when ok
	OK       bool   `json:"ok"`                 // false: a client must ask for the password
}

type planJSON struct {
	Host     string        `json:"host"`
	Dirs     []string      `json:"dirs"`
	Type     string        `json:"type,omitempty"` // "" only in a verify, which sends no TYPE
	Action   ftpurl.Action `json:"action"`         // MarshalText: "retrieve", "list", ..., "change-dir"
	Name     string        `json:"name,omitempty"`
	Commands []string      `json:"commands"`
	Fallback *planJSON     `json:"fallback,omitempty"` // retrieve-or-list: run when RETR is refused
	Verify   *planJSON     `json:"verify,omitempty"`   // LIST or NLST with an argument: run when it lists nothing
}

func newPlanJSON(pl *ftpurl.Plan) *planJSON {
	if pl == nil {
		return nil
	}
	return &planJSON{
		Host:     pl.Host,
		Dirs:     nonNil(pl.Dirs),
		Type:     pl.Type.String(),
		Action:   pl.Action,
		Name:     pl.Name,
		Commands: nonNil(pl.Commands()),
		Fallback: newPlanJSON(pl.Fallback),
		Verify:   newPlanJSON(pl.Verify),
	}
}

func (p *printer) json(u *ftpurl.URL) {
	v := urlJSON{
		URL:      u.Redacted(),
		Scheme:   u.Scheme,
		Host:     u.Host,
		Port:     u.PortOrDefault(),
		Address:  u.Address(),
		Path:     escapedPath(u),
		Dirs:     nonNil(u.Dirs),
		Name:     u.Name,
		Type:     u.Type.String(),
		Query:    u.RawQuery,
		Fragment: u.Fragment,
	}
	if u.User != nil {
		name := u.User.Username()
		v.User = &name
		if _, ok := u.User.Password(); ok {
			v.Password = redacted
		}
	}
	user, _, ok := u.Login()
	v.Login = loginJSON{User: user, OK: ok}
	if ok {
		v.Login.Password = redacted
	}
	pl, err := u.Plan(p.cfg.planOpts...)
	if err != nil {
		v.PlanError = err.Error()
	} else {
		v.Plan = newPlanJSON(pl)
	}
	enc := json.NewEncoder(p.out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		p.fail(fmt.Errorf("ftpurl: %w", err))
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
