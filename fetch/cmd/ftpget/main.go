// Command ftpget fetches what one ftp URL names, as curl does: a file
// to standard output or to a file, a listing as its lines, or, with -I,
// what the server says of the name.
//
// Usage:
//
//	ftpget [flags] URL
//
// Flags may come before or after the URL; "--" ends them.
//
//	-o FILE             write to FILE instead of standard output
//	-O                  write to the URL's last segment, in the current
//	                    directory (refused unless it is a plain local
//	                    name: filepath.IsLocal, no separator)
//	-C -                resume: start at the size of the -o/-O file and
//	                    append to it (REST, RFC 3659 §5)
//	-C N                start at byte N, appending to the output
//	-T FILE             upload FILE ("-": standard input) to the URL, as
//	                    curl does (a URL ending in "/" takes FILE's name);
//	                    -C - resumes it (SIZE, then APPE)
//	--ftp-create-dirs   with -T, make the URL's missing directories
//	-I                  print what the server says of the name: its type,
//	                    size (Content-Length) and time (Last-Modified)
//	--password-file F   the password for a URL with a user and none
//	                    ("-": standard input); without it ftpget asks on
//	                    the terminal, without echo (RFC 1738 §3.2.1)
//	--tls               secure an ftp:// URL with AUTH TLS (RFC 4217)
//	-k, --insecure      do not verify the server's TLS certificate
//	--method M          multicwd (default), singlecwd or nocwd
//	--absolute          read the path from the root, not the login
//	                    directory
//	--timeout D         limit the whole fetch to D (as 30s, 2m)
//	-h, --help          print this help
//
// A progress bar is drawn on standard error when it is a terminal and
// a file is fetched (not when the file goes to standard output that is
// a terminal too).
//
// Exit statuses, as curl's where one fits:
//
//	0   done
//	1   another failure
//	2   a usage error (a flag, no URL, no way to get a password)
//	3   the URL is not a valid ftp URL (or its plan is refused)
//	6   the host name does not resolve
//	7   no connection to the server
//	18  partial file: the transfer ended before the file did
//	23  the output could not be written, or -O has no safe name
//	25  upload: the server refused it, or does not hold it whole
//	26  upload: the local file could not be read
//	28  timeout (--timeout, or the server stalled)
//	36  -C: the output is larger than the remote file, or the URL
//	    names a directory
//	67  the server refused the login (530)
//	78  the URL names nothing on the server (550)
package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

func main() {
	// The terminal to ask a password on: the controlling terminal, or
	// standard input when it is one.
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		tty = nil
		if term.IsTerminal(int(os.Stdin.Fd())) {
			tty = os.Stdin
		}
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, tty))
}

// Exit statuses.
const (
	exitOK        = 0
	exitFailed    = 1
	exitUsage     = 2
	exitURL       = 3
	exitResolve   = 6
	exitConnect   = 7
	exitPartial   = 18
	exitWrite     = 23
	exitTimeout   = 28
	exitResume    = 36
	exitLogin     = 67
	exitNotFound  = 78
	resumeFromEnd = -1 // -C -
)

const usage = `Usage: ftpget [flags] URL

Fetches what an ftp URL names: a file to standard output (or -o, -O), a
listing as its lines, or with -I what the server says of the name.
Flags may come before or after the URL.

  -o FILE             write to FILE instead of standard output
  -O                  write to the URL's file name, in this directory
  -C -                resume: start at the size of the -o/-O file, append
  -C N                start at byte N, appending to the output
  -T FILE             upload FILE to the URL (a URL ending in / takes its
                      name); -C - resumes it; --ftp-create-dirs makes the
                      URL's missing directories
  -I                  print the type, size and time of the name
  --password-file F   the password for a URL with a user and none ("-":
                      standard input); else it is asked on the terminal
  --tls               secure an ftp:// URL with AUTH TLS (RFC 4217)
  -k, --insecure      do not verify the server's TLS certificate
  --method M          multicwd (default), singlecwd or nocwd
  --absolute          read the path from the root, not the login directory
  --timeout D         limit the whole fetch to D (30s, 2m)
  -h, --help          print this help

Exit statuses: 0 done, 1 other failure, 2 usage, 3 bad URL, 6 unknown
host, 7 no connection, 18 partial file, 23 write error, 25 upload failed,
26 read error, 28 timeout, 36 cannot resume, 67 login refused, 78 not
found.
`

// options are what the flags say.
type options struct {
	url          string
	output       string
	remoteName   bool
	resume       int64 // resumeFromEnd, or a byte offset
	head         bool
	passwordFile string
	tls          bool
	insecure     bool
	method       ftpurl.Method
	absolute     bool
	timeout      time.Duration
	uploadOptions
}

// parseArgs reads the flags and the URL, in any order. It returns nil
// and the exit status when there is nothing to fetch.
func parseArgs(args []string, stdout, stderr io.Writer) (*options, int) {
	o := &options{}
	var resume string
	set := flag.NewFlagSet("ftpget", flag.ContinueOnError)
	set.SetOutput(io.Discard)
	set.StringVar(&o.output, "o", "", "")
	set.BoolVar(&o.remoteName, "O", false, "")
	set.StringVar(&resume, "C", "", "")
	set.BoolVar(&o.head, "I", false, "")
	set.StringVar(&o.passwordFile, "password-file", "", "")
	set.BoolVar(&o.tls, "tls", false, "")
	set.BoolVar(&o.insecure, "k", false, "")
	set.BoolVar(&o.insecure, "insecure", false, "")
	set.TextVar(&o.method, "method", ftpurl.MultiCWD, "")
	set.BoolVar(&o.absolute, "absolute", false, "")
	set.DurationVar(&o.timeout, "timeout", 0, "")
	uploadFlags(set, &o.uploadOptions)

	fail := func(msg string) (*options, int) {
		fmt.Fprintf(stderr, "ftpget: %s\nTry 'ftpget -h'.\n", msg)
		return nil, exitUsage
	}
	var urls []string
	for len(args) > 0 {
		if err := set.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				io.WriteString(stdout, usage)
				return nil, exitOK
			}
			return fail(err.Error())
		}
		rest := set.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			urls = append(urls, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		urls = append(urls, rest[0])
		args = rest[1:]
	}
	switch {
	case len(urls) == 0:
		return fail("no URL")
	case len(urls) > 1:
		return fail(fmt.Sprintf("one URL at a time, not %d", len(urls)))
	case o.output != "" && o.remoteName:
		return fail("-o and -O: give one of them")
	case o.timeout < 0:
		return fail("--timeout must not be negative")
	}
	o.url = urls[0]
	switch resume {
	case "":
	case "-":
		if o.output == "" && !o.remoteName && o.upload == "" {
			return fail("-C - resumes the file of -o or -O: give one of them")
		}
		o.resume = resumeFromEnd
	default:
		n, err := strconv.ParseInt(resume, 10, 64)
		if err != nil || n < 0 {
			return fail(fmt.Sprintf("-C takes - or a byte offset, not %q", resume))
		}
		o.resume = n
	}
	if o.head && resume != "" {
		return fail("-C does not go with -I")
	}
	return o, exitOK
}

// run is the whole command, testable in-process: args without the
// program's name; stdin for --password-file -; tty (nil for none) is
// the terminal that a password is asked on. It returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, tty *os.File) int {
	o, code := parseArgs(args, stdout, stderr)
	if o == nil {
		return code
	}
	g := &getter{o: o, stdin: stdin, stdout: stdout, stderr: stderr, tty: tty}
	return g.get()
}

// A getter runs one fetch.
type getter struct {
	o      *options
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	tty    *os.File
	client *fetch.Client
	u      *ftpurl.URL
	name   string // the output file; "": standard output
	opts   []fetch.Option
}

// fail prints err and returns its exit status.
func (g *getter) fail(err error, reading bool) int {
	fmt.Fprintf(g.stderr, "ftpget: %v\n", err)
	return exitCode(err, reading)
}

// exitCode is curl's exit status for err. reading tells an error of
// the transfer from one of Open.
func exitCode(err error, reading bool) int {
	var ue *ftpurl.Error
	var pe *promptError
	var fe *fetch.Error
	var dns *net.DNSError
	var ne interface{ Timeout() bool }
	isFetch := errors.As(err, &fe)
	switch {
	case errors.As(err, &pe):
		return exitUsage
	case errors.As(err, &ue):
		return exitURL
	case errors.Is(err, fetch.ErrNotFound):
		return exitNotFound
	case isFetch && fe.Code == 530:
		return exitLogin
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return exitTimeout
	case reading && errors.Is(err, io.ErrUnexpectedEOF):
		return exitPartial
	case errors.As(err, &dns):
		return exitResolve
	case isFetch && fe.Op == "dial" && fe.Code == 0:
		return exitConnect
	}
	return exitFailed
}

func (g *getter) get() int {
	o := g.o
	u, err := ftpurl.Parse(o.url)
	if err != nil {
		return g.fail(err, false)
	}
	g.u = u
	if g.name, err = g.outputName(); err != nil {
		fmt.Fprintf(g.stderr, "ftpget: %v\n", err)
		return exitWrite
	}
	g.client = &fetch.Client{IdleTimeout: -1} // one fetch: QUIT at the end
	if o.insecure {
		g.client.TLSConfig = &tls.Config{InsecureSkipVerify: true}
	}
	g.opts = []fetch.Option{fetch.WithMethod(o.method), fetch.WithTimeout(o.timeout)}
	if o.tls {
		g.opts = append(g.opts, fetch.WithTLS())
	}
	if o.absolute {
		g.opts = append(g.opts, fetch.WithAbsolutePaths())
	}
	if o.passwordFile != "" {
		pw, err := g.readPasswordFile()
		if err != nil {
			fmt.Fprintf(g.stderr, "ftpget: %v\n", err)
			return exitUsage
		}
		g.opts = append(g.opts, fetch.WithPassword(pw))
	}
	if o.upload != "" {
		return g.upload()
	}
	if o.head {
		return g.head()
	}
	return g.fetch()
}

// readPasswordFile reads --password-file: its content without one
// final line end.
func (g *getter) readPasswordFile() (string, error) {
	var b []byte
	var err error
	if g.o.passwordFile == "-" {
		b, err = io.ReadAll(g.stdin)
	} else {
		b, err = os.ReadFile(g.o.passwordFile)
	}
	if err != nil {
		return "", fmt.Errorf("--password-file: %w", err)
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// login runs try with the options; when the URL has a user and no
// password (fetch.ErrPasswordRequired, before connecting), it asks for
// the password on the terminal, as RFC 1738 §3.2.1 says a client
// should, and runs try once more.
func (g *getter) login(try func(opts []fetch.Option) error) error {
	err := try(g.opts)
	if !errors.Is(err, fetch.ErrPasswordRequired) {
		return err
	}
	pw, err := g.askPassword()
	if err != nil {
		return &promptError{err}
	}
	g.opts = append(g.opts, fetch.WithPassword(pw))
	return try(g.opts)
}

// A promptError is a password that could not be asked for: a usage
// error.
type promptError struct{ err error }

func (e *promptError) Error() string { return e.err.Error() }

var errNoTerminal = errors.New("no terminal to ask for the password on: give it with --password-file")

// askPassword reads the password from the terminal without echo.
func (g *getter) askPassword() (string, error) {
	if g.tty == nil || !term.IsTerminal(int(g.tty.Fd())) {
		return "", fmt.Errorf("the URL names the user %q without a password, and there is %w", g.u.User.Username(), errNoTerminal)
	}
	prompt := fmt.Sprintf("Password for %s@%s: ", g.u.User.Username(), g.u.Address())
	if _, err := io.WriteString(g.tty, prompt); err != nil {
		io.WriteString(g.stderr, prompt)
	}
	pw, err := term.ReadPassword(int(g.tty.Fd()))
	io.WriteString(g.tty, "\n")
	if err != nil {
		return "", fmt.Errorf("reading the password: %w", err)
	}
	return string(pw), nil
}

// head prints what Stat finds, like curl -I.
func (g *getter) head() int {
	var fi fs.FileInfo
	err := g.login(func(opts []fetch.Option) (err error) {
		fi, err = g.client.Stat(context.Background(), g.o.url, opts...)
		return err
	})
	if err != nil {
		return g.fail(err, false)
	}
	var b strings.Builder
	if fi.IsDir() {
		b.WriteString("Type: directory\n")
	} else {
		b.WriteString("Type: file\n")
		if fi.Size() >= 0 {
			fmt.Fprintf(&b, "Content-Length: %d\n", fi.Size())
		}
	}
	if t := fi.ModTime(); !t.IsZero() {
		fmt.Fprintf(&b, "Last-Modified: %s\n", t.UTC().Format(http.TimeFormat))
	}
	return g.writeText(b.String())
}

// outputName is the file that -o or -O names; "" for standard output.
func (g *getter) outputName() (string, error) {
	if g.o.output != "" {
		return g.o.output, nil
	}
	if !g.o.remoteName {
		return "", nil
	}
	name := g.u.Name
	switch {
	case name == "":
		return "", errors.New("-O: the URL names no file (its path ends with /)")
	case name == "." || !filepath.IsLocal(name) || filepath.Base(name) != name || strings.ContainsRune(name, '/'):
		return "", fmt.Errorf("-O: the URL's name %q is not a plain local file name", name)
	}
	return name, nil
}

// openOutput opens where the output goes: standard output, or the file
// writeText writes text (Stat's lines, a listing) to the output and
// returns the exit status.
func (g *getter) writeText(text string) int {
	w, code := g.openOutput(false)
	if w == nil {
		return code
	}
	if _, err := io.WriteString(w, text); err != nil {
		return g.writeFailed(err)
	}
	return g.closeOutput(w)
}

// (appending when resuming).
func (g *getter) openOutput(appending bool) (io.Writer, int) {
	name := g.name
	if name == "" {
		return g.stdout, exitOK
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appending {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(name, flags, 0o666)
	if err != nil {
		fmt.Fprintf(g.stderr, "ftpget: %v\n", err)
		return nil, exitWrite
	}
	return f, exitOK
}

func (g *getter) closeOutput(w io.Writer) int {
	if f, ok := w.(*os.File); ok && w != g.stdout {
		if err := f.Close(); err != nil {
			return g.writeFailed(err)
		}
	}
	return exitOK
}

func (g *getter) writeFailed(err error) int {
	fmt.Fprintf(g.stderr, "ftpget: writing the output: %v\n", err)
	return exitWrite
}

// fetch fetches the file or the listing.
func (g *getter) fetch() int {
	o := g.o
	offset := o.resume
	if offset == resumeFromEnd {
		offset = 0
		switch fi, err := os.Stat(g.name); {
		case err == nil:
			offset = fi.Size()
		case !errors.Is(err, fs.ErrNotExist):
			fmt.Fprintf(g.stderr, "ftpget: -C -: %v\n", err)
			return exitWrite
		}
	}
	var resp *fetch.Response
	err := g.login(func(opts []fetch.Option) (err error) {
		if offset > 0 {
			opts = append(opts[:len(opts):len(opts)], fetch.WithOffset(offset))
		}
		resp, err = g.client.Open(context.Background(), o.url, opts...)
		return err
	})
	if err != nil {
		return g.fail(err, false)
	}
	defer resp.Close()

	resuming := o.resume != 0
	if resp.Action != ftpurl.Retrieve {
		if resuming && offset > 0 {
			fmt.Fprintf(g.stderr, "ftpget: cannot resume: %s is a directory listing\n", resp.URL)
			return exitResume
		}
		lines := resp.Lines
		if resp.Action == ftpurl.NameList {
			lines = resp.Names
		}
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		return g.writeText(b.String())
	}
	if offset > 0 && resp.Size >= 0 && offset > resp.Size {
		fmt.Fprintf(g.stderr, "ftpget: cannot resume: the output has %d bytes, the file on the server %d\n", offset, resp.Size)
		return exitResume
	}

	w, code := g.openOutput(resuming)
	if w == nil {
		return code
	}
	src := &readErr{r: resp}
	var r io.Reader = src
	bar := g.progressBar(w, resp, offset)
	if bar != nil {
		r = io.TeeReader(src, bar)
	}
	_, err = io.Copy(w, r)
	if bar != nil {
		if err == nil {
			bar.Finish()
		} else {
			bar.Exit()
			io.WriteString(g.stderr, "\n")
		}
	}
	switch {
	case src.err != nil:
		g.closeOutput(w)
		return g.fail(src.err, true)
	case err != nil:
		g.closeOutput(w)
		return g.writeFailed(err)
	}
	return g.closeOutput(w)
}

// readErr notes the error of the transfer, to tell it from a write
// error.
type readErr struct {
	r   io.Reader
	err error
}

func (r *readErr) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if err != nil && err != io.EOF {
		r.err = err
	}
	return n, err
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBar returns a bar on standard error when it is a terminal
// and the file does not go to that terminal too; nil otherwise.
func (g *getter) progressBar(w io.Writer, resp *fetch.Response, offset int64) *progressbar.ProgressBar {
	if !isTerminal(g.stderr) || w == g.stdout && isTerminal(g.stdout) {
		return nil
	}
	total := int64(-1)
	if resp.Size >= 0 {
		total = resp.Size - offset
	}
	desc := g.u.Name
	if n := []rune(desc); len(n) > 30 {
		desc = string(n[:29]) + "…"
	}
	return progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(g.stderr),
		progressbar.OptionSetDescription(printable(desc)),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetWidth(10),
		progressbar.OptionThrottle(65*time.Millisecond),
		progressbar.OptionShowCount(),
		progressbar.OptionOnCompletion(func() { io.WriteString(g.stderr, "\n") }),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionFullWidth(),
		progressbar.OptionSetRenderBlankState(true),
	)
}

// printable replaces what a terminal would not show as text.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}
