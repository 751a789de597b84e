// Command ftpget fetches what ftp URLs name, as curl does: a file to
// standard output or to a file, a listing as its lines, or, with -I,
// what the server says of the name.
//
// Usage:
//
//	ftpget [flags] URL...
//
// Flags may come before or after the URLs; "--" ends them. Each -o or
// -O goes with one URL, in order, as curl pairs them: the first -o or
// -O with the first URL, the second with the second, wherever they
// stand; a URL without one goes to standard output.
//
//	-o FILE             write the URL's file to FILE ("-": standard
//	                    output, binary or not)
//	-O                  write it to the URL's last segment, in the
//	                    current directory (refused unless it is a plain
//	                    local name: filepath.IsLocal, no separator)
//	--remote-name-all   -O for every URL without -o or -O
//	-C -                resume: start at the size of the -o/-O file and
//	                    append to it (REST, RFC 3659 §5)
//	-C N                start at byte N, appending to the output
//	-I                  print what the server says of the name: its type,
//	                    size (Content-Length) and time (Last-Modified)
//	--mirror DIR        copy the tree that the one directory URL names
//	                    into DIR (made if missing); see below
//	-r, --recursive     the same, into a directory named as the URL's
//	                    last segment (the host's name for its root), here
//	-P N, --parallel N  with a mirror: N files at once, 1 to 64 (4), each on
//	                    a session of its own, and one session that lists,
//	                    as lftp mirror --parallel=N
//	-N, --newer         with a mirror: fetch only the files whose size
//	                    or server UTC time differs from the copy's
//	-C -                with a mirror: resume each partial file
//	                    (NAME.ftpget-part) where it stopped
//	--password-file F   the password for a URL with a user and none
//	                    ("-": standard input); without it ftpget asks on
//	                    the terminal, without echo (RFC 1738 §3.2.1)
//	--tls               secure an ftp:// URL with AUTH TLS (RFC 4217)
//	--cacert FILE       verify the server's certificate against the PEM
//	                    certificates in FILE instead of the system's
//	-k, --insecure      do not verify the server's TLS certificate
//	--proxy URL, -x URL connect through the proxy URL (socks5://,
//	                    socks5h://, http://, https://; "": none), see below
//	-p, --proxytunnel   tunnel through an HTTP proxy (CONNECT)
//	--ftp-port ADDR     active mode (PORT/EPRT): ADDR or "-"; --ftp-pasv
//	                    undoes it; --disable-epsv: PASV alone (network.go)
//	--noproxy LIST      hosts to reach without the proxy, as NO_PROXY
//	--method M          multicwd (default), singlecwd or nocwd
//	--absolute          read the path from the root, not the login
//	                    directory
//	--timeout D         limit each fetch to D (as 30s, 2m)
//	-h, --help          print this help
//
// Standard output that is a terminal gets no binary file (one holding
// a NUL byte, or not UTF-8 at its start): ftpget refuses, with curl's
// message and exit status 23, unless "-o -" asks for it.
//
// A progress bar is drawn on standard error when it is a terminal and
// a file is fetched (not when the file goes to standard output that is
// a terminal too). It shows what has been written to the output, out
// of the whole file (a resumed file starts at its offset), and is
// drawn again every half second while nothing arrives.
//
// Proxies, as curl's: --proxy, else ftp_proxy (FTP_PROXY; ftps_proxy
// for an ftps:// URL), else all_proxy (ALL_PROXY); no_proxy (NO_PROXY)
// or --noproxy lists the hosts to reach directly ("*": all). SOCKS5
// proxies (RFC 1928): socks5:// resolves the host name here and hands
// the proxy its address, socks5h:// hands the proxy the name; every
// connection, control and data, goes through the proxy. HTTP proxies
// (http://, https://, or no scheme): with -p every connection is a
// CONNECT tunnel; without it ftpget asks the proxy's FTP gateway
// ("GET ftp://...", as curl does; see network.go). Another scheme is
// refused (exit 5), never ignored.
//
// Mirror. --mirror DIR (or -r) copies the tree that a directory URL
// names, as wget -m and lftp mirror do: regular files and directories
// only. Links, FIFOs, devices and sockets are named on standard error
// and counted, never followed or made; a name that is not one safe
// local path element is skipped and named. Nothing is written outside
// DIR, not even through a symbolic link already in DIR (all writes go
// through os.Root). Each file is written as NAME.ftpget-part and renamed
// to NAME once its bytes match the server's size; its time is then set
// to the server's UTC time (MLSD, else MDTM; never a LIST time, whose
// year and zone are guesses), so that -N fetches nothing the second
// time. -C - resumes the .ftpget-part files (REST) and checks the size.
// One line on standard error ends the mirror: the files and bytes
// fetched, the files up to date (-N), the directories, what was
// skipped, and how many failed. The exit status is 0 when nothing
// failed, else the status (below) of the first failure: 78 a file or
// directory the server refused (an unreadable directory too), 18 a file
// cut short, 23 a file that could not be written in DIR, 36 a refused
// REST, 56 a transfer reset. On a terminal, a progress line counts the
// files and bytes.
//
// Exit statuses, as curl's where one fits (curl(1), EXIT CODES). With
// several URLs, ftpget fetches each in turn and exits with the status
// of the last one, as curl does (a usage error stops at once):
//
//	0   done
//	1   another failure
//	2   a usage error (a flag, no URL, no way to get a password)
//	3   the URL is not a valid ftp URL (or its plan is refused)
//	5   the proxy is not one ftpget takes, or its name does not resolve
//	6   the host name does not resolve
//	7   no connection to the server (or to the proxy)
//	18  partial file: the transfer ended before the file did, or the
//	    server's final reply to it is not 226 or 250 (as 426)
//	9   the server refused to enter a directory of the URL that exists
//	    (a file used as a directory: MLST, MDTM or SIZE shows it)
//	23  the output could not be written (a closed pipe too), -O has no
//	    safe name, or a binary file would go to a terminal
//	25  upload: the server refused it, or does not hold it whole
//	26  upload: the local file could not be read
//	28  timeout (--timeout, or the server stalled)
//	36  -C: the output is larger than the remote file, the server
//	    refused the offset, the URL names a directory, or ;type=a
//	56  the transfer was reset, or another network read failed, once
//	    the file had begun; an HTTP proxy answered CONNECT with other
//	    than 2xx (-p)
//	60  the server's TLS certificate does not verify
//	67  the server refused the login (530)
//	77  --cacert: the file cannot be read or holds no certificate
//	78  the URL names nothing on the server (550)
//	97  the SOCKS5 proxy refused or failed the connection, or an
//	    HTTP proxy's FTP gateway refused ftpget (407)
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
	"golang.org/x/term"
)

func main() {
	// A closed pipe on standard output is a write error (EPIPE), exit
	// 23 as curl's, not a death by SIGPIPE: with the signal ignored,
	// the runtime returns EPIPE from the write (os/signal, "SIGPIPE").
	signal.Ignore(syscall.SIGPIPE)
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
	exitOK         = 0
	exitFailed     = 1
	exitUsage      = 2
	exitURL        = 3
	exitProxy      = 5
	exitResolve    = 6
	exitConnect    = 7
	exitCWD        = 9
	exitPartial    = 18
	exitWrite      = 23
	exitTimeout    = 28
	exitResume     = 36
	exitRecv       = 56
	exitCert       = 60
	exitLogin      = 67
	exitCACert     = 77
	exitNotFound   = 78
	exitProxyError = 97
	resumeFromEnd  = -1 // -C -
)

const usage = `Usage: ftpget [flags] URL...

Fetches what ftp URLs name: a file to standard output (or -o, -O), a
listing as its lines, or with -I what the server says of the name.
Flags may come before or after the URLs; each -o or -O goes with one
URL, in order, as curl pairs them.

  -o FILE             write the next URL's file to FILE ("-": stdout)
  -O                  write the next URL's file to its name, here
  --remote-name-all   -O for every URL without -o or -O
  -C -                resume: start at the size of the -o/-O file, append
  -C N                start at byte N, appending to the output
  -I                  print the type, size and time of the name
  -T FILE URL         upload FILE to URL (a URL ending in / takes its name)
  --ftp-create-dirs   with -T: make the URL's missing directories
  --mirror DIR        copy the tree the directory URL names into DIR:
                      only the files whose size or server time (MLSD,
                      MDTM) differs from the local copy's
  -r, --recursive     the same, into the URL's last segment, here
  -T DIR --mirror URL upload the tree DIR into the directory URL: only
                      what changed, each file under a temporary name
                      then renamed, its time set on the server
  --parallel-max N    with a mirror: N files at once (default 4), and a
  -P N                session that lists, as lftp mirror --parallel=N
  --mirror-all        with a mirror: every file, changed or not
  --delete            with a mirror: remove what the source no longer
                      has (never after a listing that failed)
  --max-delete N      with --delete: delete nothing where over N would go
  --dry-run           with a mirror: print each action, change nothing
  -C -                with a mirror: resume the partial files (.ftpget-part)
  --password-file F   the password for a URL with a user and none ("-":
                      standard input); else it is asked on the terminal
  --tls               secure an ftp:// URL with AUTH TLS (RFC 4217)
  --cacert FILE       verify TLS certificates against the PEM FILE
  -k, --insecure      do not verify the server's TLS certificate
  --proxy URL, -x URL through a proxy: socks5://HOST[:PORT] (name
                      resolved here), socks5h:// (by the proxy), or
                      http:// and https:// (the proxy's FTP gateway;
                      with -p a CONNECT tunnel); else ftp_proxy or
                      ALL_PROXY; "" for none
  -p, --proxytunnel   tunnel every connection through the HTTP proxy
  --ftp-port ADDR     active mode: the server connects to ADDR
                      (HOST[:PORT[-PORT]], or - for this end's address)
  --ftp-pasv          passive mode (the default; undoes --ftp-port)
  --disable-epsv      passive mode by PASV alone
  --noproxy LIST      hosts reached without the proxy (as NO_PROXY)
  --method M          multicwd (default), singlecwd or nocwd
  --absolute          read the path from the root, not the login directory
  --timeout D         limit each fetch to D (30s, 2m)
  -h, --help          print this help

Exit statuses (the last URL's; a mirror's first failure's): 0 done, 1
other failure, 2 usage, 3 bad URL, 5 unusable proxy, 6 unknown host, 7
no connection, 9 directory refused, 18 partial file, 23 write error, 25
upload failed, 26 read error, 28 timeout, 36 cannot resume, 56 transfer
reset, 60 certificate not verified, 67 login refused, 77 bad --cacert,
78 not found, 97 proxy refused.
`

// options are what the flags say.
type options struct {
	transfers     []transfer
	resume        int64 // resumeFromEnd, or a byte offset
	resumeSet     bool
	head          bool
	passwordFile  string
	tls           bool
	cacert        string
	insecure      bool
	proxy         string
	proxySet      bool
	noProxy       string
	noProxySet    bool
	method        ftpurl.Method
	absolute      bool
	timeout       time.Duration
	remoteNameAll bool
	mirror        mirrorFlags  // --mirror, -r, -P, -N: see mirror.go
	network       networkFlags // --ftp-port, -p, --disable-epsv: see network.go
	uploadOptions
}

// A transfer is one URL and where its file goes.
type transfer struct {
	url        string
	output     string // -o; "-" is standard output
	remoteName bool   // -O
}

// An outputFlag is one -o or -O, in the order given.
type outputFlag struct {
	name       string
	remoteName bool
}

// parseArgs reads the flags and the URLs, in any order. It returns nil
// and the exit status when there is nothing to fetch.
func parseArgs(args []string, stdout, stderr io.Writer) (*options, int) {
	o := &options{}
	var resume string
	var outputs []outputFlag
	set := flag.NewFlagSet("ftpget", flag.ContinueOnError)
	set.SetOutput(io.Discard)
	addOutput := func(name string) error {
		if name == "" {
			return errors.New("an empty file name")
		}
		outputs = append(outputs, outputFlag{name: name})
		return nil
	}
	addRemote := func(string) error {
		outputs = append(outputs, outputFlag{remoteName: true})
		return nil
	}
	set.Func("o", "", addOutput)
	set.Func("output", "", addOutput)
	set.BoolFunc("O", "", addRemote)
	set.BoolFunc("remote-name", "", addRemote)
	set.BoolVar(&o.remoteNameAll, "remote-name-all", false, "")
	set.Func("C", "", func(s string) error { resume = s; o.resumeSet = true; return nil })
	set.Func("continue-at", "", func(s string) error { resume = s; o.resumeSet = true; return nil })
	uploadFlags(set, &o.uploadOptions)
	set.BoolVar(&o.head, "I", false, "")
	set.BoolVar(&o.head, "head", false, "")
	set.StringVar(&o.passwordFile, "password-file", "", "")
	set.BoolVar(&o.tls, "tls", false, "")
	set.StringVar(&o.cacert, "cacert", "", "")
	set.BoolVar(&o.insecure, "k", false, "")
	set.BoolVar(&o.insecure, "insecure", false, "")
	set.Func("proxy", "", func(s string) error { o.proxy, o.proxySet = s, true; return nil })
	set.Func("x", "", func(s string) error { o.proxy, o.proxySet = s, true; return nil })
	set.Func("noproxy", "", func(s string) error { o.noProxy, o.noProxySet = s, true; return nil })
	set.TextVar(&o.method, "method", ftpurl.MultiCWD, "")
	set.BoolVar(&o.absolute, "absolute", false, "")
	set.DurationVar(&o.timeout, "timeout", 0, "")
	o.mirror.add(set)
	o.network.add(set)

	fail := func(msg string) (*options, int) {
		fmt.Fprintf(stderr, "ftpget: %s; try 'ftpget -h'\n", oneLine(msg))
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
	if o.mirror.on() && o.upload != "" {
		// -T DIR --mirror URL: the tree DIR up into the URL's
		// directory; --mirror's value is the URL.
		if o.mirror.recursive || len(urls) > 0 || !strings.Contains(o.mirror.dir, "://") {
			return fail("-T FILE URL uploads one file; -T DIR --mirror URL uploads the tree DIR (no -r)")
		}
		urls, o.mirror.dir, o.mirror.up = []string{o.mirror.dir}, "", true
		if o.createDirs || o.resumeSet {
			return fail("-T DIR --mirror makes the directories it needs and sends whole files: no --ftp-create-dirs or -C")
		}
	}
	switch {
	case len(urls) == 0:
		return fail("no URL")
	case len(outputs) > len(urls):
		return fail(fmt.Sprintf("%d -o/-O for %d URLs: each -o or -O goes with one URL, in order", len(outputs), len(urls)))
	case o.timeout < 0:
		return fail("--timeout must not be negative")
	}
	if msg := o.mirror.check(o, urls, len(outputs), resume); msg != "" {
		return fail(msg)
	} else if o.mirror.on() {
		o.transfers = []transfer{{url: urls[0]}}
		return o, exitOK
	}
	for i, u := range urls {
		t := transfer{url: u, remoteName: o.remoteNameAll}
		if i < len(outputs) {
			t.output, t.remoteName = outputs[i].name, outputs[i].remoteName
		}
		o.transfers = append(o.transfers, t)
	}
	switch resume {
	case "":
		if o.resumeSet {
			return fail("-C takes - or a byte offset, not \"\"")
		}
	case "-":
		for _, t := range o.transfers {
			if o.upload == "" && (t.output == "" && !t.remoteName || t.output == "-") {
				return fail("-C - resumes the file of -o or -O: give one for " + t.url)
			}
		}
		o.resume = resumeFromEnd
	default:
		n, err := strconv.ParseInt(resume, 10, 64)
		if err != nil || n < 0 {
			return fail(fmt.Sprintf("-C takes - or a byte offset, not %q", resume))
		}
		o.resume = n
	}
	if o.head && o.resumeSet {
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
	c := &command{o: o, stdin: stdin, stdout: stdout, stderr: stderr, tty: tty,
		clients: map[string]*fetch.Client{}, gateways: map[string]*url.URL{}, passwords: map[string]string{}}
	defer c.closeClients()
	if o.passwordFile != "" {
		pw, err := c.readPasswordFile()
		if err != nil {
			c.printf("%v", err)
			return exitUsage
		}
		c.password = &pw
	}
	if code := c.loadCACert(); code != exitOK {
		return code
	}
	for _, t := range o.transfers {
		g := &getter{command: c, t: t}
		code = g.get()
		if code == exitUsage || c.outputGone {
			break
		}
	}
	return code
}

// A command is one run of ftpget: what its transfers share.
type command struct {
	o      *options
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	tty    *os.File

	roots      *x509.CertPool           // --cacert; nil: the system's
	clients    map[string]*fetch.Client // by proxy ("": direct)
	gateways   map[string]*url.URL      // by proxy: the HTTP proxies used as FTP gateways (network.go)
	password   *string                  // --password-file
	passwords  map[string]string        // asked, by user@address
	outputGone bool                     // standard output's reader left
	sayMu      sync.Mutex               // say's lines, one at a time
}

// say prints one line of what the run does on standard output: a dry
// run's actions.
func (c *command) say(format string, args ...any) {
	c.sayMu.Lock()
	defer c.sayMu.Unlock()
	fmt.Fprintf(c.stdout, "%s\n", oneLine(fmt.Sprintf(format, args...)))
}

// printf prints one message on one line.
func (c *command) printf(format string, args ...any) {
	fmt.Fprintf(c.stderr, "ftpget: %s\n", oneLine(fmt.Sprintf(format, args...)))
}

// oneLine makes s one line: a message never holds a line break.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\n", "; ")
}

// loadCACert reads --cacert.
func (c *command) loadCACert() int {
	if c.o.cacert == "" {
		return exitOK
	}
	b, err := os.ReadFile(c.o.cacert)
	if err != nil {
		c.printf("--cacert: %v", err)
		return exitCACert
	}
	c.roots = x509.NewCertPool()
	if !c.roots.AppendCertsFromPEM(b) {
		c.printf("--cacert %s: no PEM certificate in the file", c.o.cacert)
		return exitCACert
	}
	return exitOK
}

// client returns the Client for u: one per proxy, so that URLs of one
// server share its sessions.
func (c *command) client(u *ftpurl.URL) (*fetch.Client, error) {
	scheme := u.Scheme
	if scheme == "" {
		scheme = "ftp"
	}
	raw, from := c.o.proxyFor(scheme, u.Host, getenv)
	if cl, ok := c.clients[raw]; ok {
		return cl, nil
	}
	cl := &fetch.Client{}
	if c.o.insecure {
		cl.TLSConfig = &tls.Config{InsecureSkipVerify: true}
	} else if c.roots != nil {
		cl.TLSConfig = &tls.Config{RootCAs: c.roots}
	}
	gw, err := c.setNetwork(cl, raw, from)
	if err != nil {
		return nil, err
	}
	c.gateways[raw] = gw
	c.clients[raw] = cl
	return cl, nil
}

// closeClients ends every session (QUIT).
func (c *command) closeClients() {
	for _, cl := range c.clients {
		cl.CloseIdleConnections()
	}
}

// readPasswordFile reads --password-file: its content without one
// final line end.
func (c *command) readPasswordFile() (string, error) {
	var b []byte
	var err error
	if c.o.passwordFile == "-" {
		b, err = io.ReadAll(c.stdin)
	} else {
		b, err = os.ReadFile(c.o.passwordFile)
	}
	if err != nil {
		return "", fmt.Errorf("--password-file: %w", err)
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

// A getter runs the fetch of one URL.
type getter struct {
	*command
	t      transfer
	client *fetch.Client
	u      *ftpurl.URL
	name   string // the output file; "": standard output
	opts   []fetch.Option
}

// fail prints err and returns its exit status.
func (g *getter) fail(err error, reading bool) int {
	g.printf("%v", err)
	return exitCode(err, reading)
}

// exitCode is curl's exit status for err (curl(1), EXIT CODES).
// reading tells an error of the transfer from one of Open.
func exitCode(err error, reading bool) int {
	var ue *ftpurl.Error
	var pe *promptError
	var fe *fetch.Error
	var dns *net.DNSError
	var ne interface{ Timeout() bool }
	var pse *proxySetupError
	var pxe *proxyError
	var pce *proxyConnectError
	var fre *fileRootError
	isFetch := errors.As(err, &fe)
	if code := proxyExitCode(err); code != 0 {
		return code
	}
	switch {
	case errors.As(err, &pe):
		return exitUsage
	case errors.As(err, &ue):
		return exitURL
	case errors.As(err, &pse):
		return exitProxy
	case isCertificateError(err):
		return exitCert
	case errors.Is(err, fetch.ErrNotFound):
		return exitNotFound
	case isFetch && fe.Code == 530:
		return exitLogin
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return exitTimeout
	case reading && errors.Is(err, io.ErrUnexpectedEOF):
		return exitPartial
	case reading && isFetch && fe.Op == "retr" && fe.Code != 0 && fe.Code != 226 && fe.Code != 250:
		// curl's CURLE_PARTIAL_FILE (curl(1), EXIT CODES, 18: "Partial
		// file. Only a part of the file was transferred."): the
		// transfer began and its final reply is not 226 or 250, as 426
		// or 451 (curl's ftp_done: "server did not report OK").
		return exitPartial
	case (reading || isFetch && fe.Op == "retr") && isRecvError(err):
		// curl's CURLE_RECV_ERROR (curl(1), EXIT CODES, 56: "Failure
		// in receiving network data."): the transfer began, and its
		// data or control connection was reset, or failed a read;
		// before Open returned too, where it reads the first bytes to
		// tell a file from a directory.
		return exitRecv
	case errors.As(err, &pce):
		if errors.As(err, &dns) {
			return exitProxy
		}
		return exitConnect
	case errors.As(err, &pxe):
		return exitProxyError
	case errors.As(err, &dns):
		return exitResolve
	case isFetch && fe.Op == "dial" && fe.Code == 0:
		return exitConnect
	case errors.As(err, &fre), isFetch && fe.Op == "cwd" && fe.Code >= 500:
		// curl's CURLE_REMOTE_ACCESS_DENIED: "For FTP, this occurs
		// while trying to change to the remote directory."
		return exitCWD
	}
	return exitFailed
}

// isRecvError reports whether err is a read of a connection that
// failed other than by a timeout: a reset (ECONNRESET), or another
// network read error; not a connection closed on this side
// (net.ErrClosed).
func isRecvError(err error) bool {
	var oe *net.OpError
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	return errors.Is(err, syscall.ECONNRESET) || errors.As(err, &oe) && oe.Op == "read"
}

// isCertificateError reports whether err is a TLS certificate that
// did not verify: curl's exit 60 (CURLE_PEER_FAILED_VERIFICATION),
// whether the handshake was of ftps:// or of AUTH TLS.
func isCertificateError(err error) bool {
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}

func (g *getter) get() int {
	o := g.o
	u, err := ftpurl.Parse(g.t.url)
	if err != nil {
		return g.fail(err, false)
	}
	g.u = u
	if o.upload == "" {
		if g.name, err = g.outputName(); err != nil {
			g.printf("%v", err)
			return exitWrite
		}
	}
	if g.client, err = g.command.client(u); err != nil {
		return g.fail(err, false)
	}
	g.opts = []fetch.Option{fetch.WithMethod(o.method), fetch.WithTimeout(o.timeout)}
	if o.tls {
		g.opts = append(g.opts, fetch.WithTLS())
	}
	if o.absolute {
		g.opts = append(g.opts, fetch.WithAbsolutePaths())
	}
	if g.password != nil {
		g.opts = append(g.opts, fetch.WithPassword(*g.password))
	} else if u.User != nil {
		if pw, ok := g.passwords[u.User.Username()+"@"+u.Address()]; ok {
			g.opts = append(g.opts, fetch.WithPassword(pw))
		}
	}
	if gw := g.gateway(); gw != nil {
		return g.viaGateway(gw)
	}
	if o.upload != "" {
		if o.mirror.up {
			return g.deploy()
		}
		return g.upload()
	}
	if o.mirror.on() {
		return g.mirror()
	}
	if o.head {
		return g.head()
	}
	return g.fetch()
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
	g.passwords[g.u.User.Username()+"@"+g.u.Address()] = pw
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
		fi, err = g.client.Stat(context.Background(), g.t.url, opts...)
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
			g.printf("-C -: %v", err)
			return exitWrite
		}
	}
	// An offset counts the file's bytes: TYPE I only (RFC 3659 §5.1).
	if offset > 0 && g.u.Type != ftpurl.TypeNone && g.u.Type != 'i' && g.u.Type != 'd' {
		g.printf("-C: cannot resume %s: its ;type=%c transfers other bytes than the file holds, so an offset does not count them (RFC 3659 §5.1)", g.u.Redacted(), rune(g.u.Type))
		return exitResume
	}
	var resp *fetch.Response
	err := g.login(func(opts []fetch.Option) (err error) {
		if offset > 0 {
			opts = append(opts[:len(opts):len(opts)], fetch.WithOffset(offset))
		}
		resp, err = g.client.Open(context.Background(), g.t.url, opts...)
		return err
	})
	if err != nil {
		var fe *fetch.Error
		if offset > 0 && errors.As(err, &fe) && (fe.Op == "rest" && fe.Code != 0 || fe.Code == 554) {
			// RFC 3659 §5.4: "554 Requested action not taken: invalid
			// REST parameter", on REST or on the RETR after it.
			g.printf("-C: the server refused to start at byte %d: %v", offset, err)
			return exitResume
		}
		return g.fail(err, false)
	}
	defer resp.Close()

	resuming := o.resume != 0
	if resp.Action != ftpurl.Retrieve {
		if resuming && offset > 0 {
			g.printf("-C: cannot resume: %s is a directory listing", resp.URL)
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
		g.printf("-C: cannot resume: the output has %d bytes, the file on the server %d", offset, resp.Size)
		return exitResume
	}

	w, code := g.openOutput(resuming)
	if w == nil {
		return code
	}
	bar := g.progressBar(w, resp.Size, offset)
	cw := &countingWriter{w: w, bar: bar}
	_, err = io.Copy(cw, resp)
	if bar != nil {
		bar.End(err == nil)
	}
	switch {
	case err != nil && cw.err != nil:
		g.closeOutput(w)
		return g.writeFailed(cw.err)
	case err != nil:
		g.closeOutput(w)
		return g.fail(err, true)
	}
	return g.closeOutput(w)
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
