// Command ftpurl parses ftp URLs and prints them normalized, as parts,
// as the FTP commands a client sends, or finds them in text. It is to
// ftp URLs what curl's trurl is to URLs in general.
//
// Usage:
//
//	ftpurl [flags] [URL ...]
//
// Flags may come before, between or after the URLs, as with trurl and
// curl, and apply to every URL; "--" ends the flags, so that every
// argument after it is a URL. With no URL arguments it reads URLs from
// standard input, one a line, trimming white space (a final CR
// included) and skipping empty lines; when standard input is a
// terminal it first says so on standard error, so that it does not
// wait in silence. Arguments are taken as they are, never trimmed.
//
// Output modes (at most one):
//
//	(none)         the normalized URL (URL.String)
//	-json          one JSON object a URL: "input", the URL as given (the
//	               argument, or the line trimmed) with its password hidden as
//	               in ftpurl.Error's URL, then the parts, the login and the
//	               plan; for an invalid URL, "input" and "error"
//	-plan          the FTP commands: USER, PASS xxxxx, then Plan.Commands,
//	               then, each after a "#" line, Plan.Fallback's and Plan.Verify's
//	-get TEMPLATE  the parts named in TEMPLATE, e.g. '{host}:{port}'
//	-find          each URL found in the text on standard input, with its byte offset
//
// -json, -plan and -get never print a password: it is shown as "xxxxx".
// The default output and -find print the URL as String writes it, with
// its password, unless -redact is given.
//
// An invalid URL prints its error on standard error (with -json, also
// an object with "input" and "error" on standard output) and the next
// URL is processed; the exit status is then 1. A usage error exits
// with 2.
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
arguments it reads URLs from standard input, one a line. Flags may come
before or after the URLs and apply to all of them; "--" ends the flags.

Modes (choose at most one), each with an example:
  (none)          the normalized URL
                    ftpurl 'FTP://Ftp.Example.COM:21/pub/a%2fb;TYPE=I'
  -json           one JSON object a URL: "input", the URL as given with its
                  password hidden, then its parts, login and plan; for an
                  invalid URL, "input" and "error"
                    ftpurl -json 'ftp://anonymous:secret@ftp.example.com/pub/'
  -plan           the FTP commands a client sends: USER, PASS, then CWD,
                  TYPE and RETR, LIST or NLST ("PASS ?" when the URL names
                  a user without a password: a client must ask for one);
                  after a "#" line, those it sends when RETR is refused,
                  or the CWD that checks a listing that came back empty
                    ftpurl -plan 'ftp://ftp.example.com/pub/file.tar.gz;type=i'
  -get TEMPLATE   the parts named in TEMPLATE; "{{" is a literal "{"
                    ftpurl -get '{address} {dirs} {name}' 'ftp://[2001:db8::1]:2121/a/b/c.txt'
  -find           read text on standard input and print each ftp URL found
                  in it, after its byte offset and a tab
                    ftpurl -find < message.txt

Options, each with an example:
  -grammar NAME   the grammar: lenient (the default), rfc1738, rfc2396, rfc3986
                    ftpurl -grammar rfc1738 'ftp://h/a?b'
  -method NAME    how -plan and -json change directory: multicwd, singlecwd, nocwd
                    ftpurl -plan -method nocwd 'ftp://ftp.example.com/pub/file.tar.gz'
  -absolute       -plan and -json: the path starts at the root
                    ftpurl -plan -absolute 'ftp://ftp.example.com/pub/file.tar.gz'
  -redact         the default output and -find: the password as xxxxx
                    ftpurl -redact 'ftp://alice:secret@ftp.example.com/'

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
  ftpurl 'ftp://ftp.example.com/pub/file.tar.gz' -plan -method nocwd
  ftpurl -json < urls.txt
  ftpurl -get '{host}' -- 'ftp://h/a' 'ftp://h/b'

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
	if len(urls) == 0 && isTerminal(stdin) {
		if cfg.find {
			fmt.Fprintln(stderr, "ftpurl: -find: reading text from standard input; end it with Ctrl-D (ftpurl -h for usage)")
		} else {
			fmt.Fprintln(stderr, "ftpurl: reading URLs from standard input, one a line; end with Ctrl-D (ftpurl -h for usage)")
		}
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

// isTerminal reports whether stdin is a terminal, where reading it
// without a word would look like a hang: a character device that is not
// the null device (which is one too, and where reading ends at once).
func isTerminal(stdin io.Reader) bool {
	f, ok := stdin.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	if null, err := os.Stat(os.DevNull); err == nil && os.SameFile(fi, null) {
		return false
	}
	return true
}

// parseFlags returns the configuration and the URL arguments, or a nil
// config and the exit status when run must stop. Flags may follow URLs,
// as in trurl and curl: the flag package stops at the first argument
// that is not a flag, so parseFlags takes it as a URL and parses the
// rest again, until none is left or a "--" has ended the flags.
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
	fs.BoolVar(&cfg.json, "json", false, "print one JSON object a URL: input, parts, login and plan; for an invalid URL, input and error")
	fs.BoolVar(&cfg.plan, "plan", false, "print the FTP commands for each URL")
	fs.StringVar(&get, "get", "", "print the parts named in `TEMPLATE`, e.g. '{host}:{port}'")
	fs.BoolVar(&cfg.find, "find", false, "find ftp URLs in the text on standard input")
	fs.BoolVar(&cfg.redact, "redact", false, "replace the password with xxxxx in the default and -find output")
	fs.TextVar(&method, "method", ftpurl.MultiCWD, "how -plan and -json change directory (`name`): multicwd, one CWD a directory;\nsinglecwd, one CWD of the joined path; nocwd, the whole path in RETR, LIST or NLST")
	fs.BoolVar(&absolute, "absolute", false, "-plan and -json: the path starts at the root (the 1997 draft §3.1)")
	var urls []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, nil, exitOK
			}
			return nil, nil, exitUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if endsFlags(fs, args[:len(args)-len(rest)]) {
			urls = append(urls, rest...)
			break
		}
		urls = append(urls, rest[0])
		args = rest[1:]
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
	if cfg.find && len(urls) > 0 {
		return usageError("-find reads text on standard input and takes no arguments")
	}
	cfg.planOpts = []ftpurl.PlanOption{ftpurl.WithMethod(method)}
	if absolute {
		cfg.planOpts = append(cfg.planOpts, ftpurl.WithAbsolutePaths())
	}
	return &cfg, urls, exitOK
}

// endsFlags reports whether parsed, the arguments that fs.Parse took,
// ends with the "--" that ends the flags, rather than with a "--" that
// is the value of a flag (as in -get --).
func endsFlags(fs *flag.FlagSet, parsed []string) bool {
	for i := 0; i < len(parsed); i++ {
		a := parsed[i]
		if a == "--" {
			return true
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if strings.Contains(name, "=") {
			continue
		}
		if f := fs.Lookup(name); f != nil {
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
				continue
			}
			i++ // the flag's value
		}
	}
	return false
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

// bad reports err for the URL raw: with -json, also as an object on
// standard output, so that every input has its line there.
func (p *printer) bad(raw string, err error) {
	if p.cfg.json {
		p.encode(errorJSON{Input: ftpurl.Redact(raw), Error: err.Error()})
	}
	p.fail(err)
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
func (p *printer) recoverBug(report func(error)) {
	if r := recover(); r != nil {
		report(fmt.Errorf("ftpurl: internal error, a bug in package ftpurl (please report it): %v", r))
	}
}

// one parses raw and prints it in the selected mode.
func (p *printer) one(raw string) {
	defer p.recoverBug(func(err error) { p.bad(raw, err) })
	u, err := p.cfg.grammar.Parse(raw)
	if err != nil {
		p.bad(raw, err)
		return
	}
	switch {
	case p.cfg.json:
		p.json(raw, u)
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
	defer p.recoverBug(p.fail)
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
	Input     string    `json:"input"`  // the input, password hidden (ftpurl.Redact)
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

// errorJSON is -json's object for an invalid URL.
type errorJSON struct {
	Input string `json:"input"` // the input, password hidden (ftpurl.Redact)
	Error string `json:"error"` // the error message, as on standard error
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

// json prints the object of u, parsed from raw.
func (p *printer) json(raw string, u *ftpurl.URL) {
	v := urlJSON{
		Input:    ftpurl.Redact(raw),
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
	p.encode(v)
}

// encode prints v as one line of JSON.
func (p *printer) encode(v any) {
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
