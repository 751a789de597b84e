// Command ftpget fetches what ftp URLs name, as curl does, with curl's
// letters, meanings and exit statuses (DESIGN, "The command, as
// familiar as curl"): a file to standard output or to a file, a
// listing as its lines, or, with -I, what the server says of the name;
// -T uploads. docs/ftpget.md has every flag, the differences from curl
// and a table of command lines run with both.
//
// Usage:
//
//	ftpget [flags] URL...
//
// Flags may come before or after the URLs; "--" ends them. They are
// read as curl reads them (args.go): letters may share a dash ("-sS",
// "-sSo FILE"), a letter that takes a value takes the rest of its word
// ("-ofile", "-C-") or the next word, a boolean long flag takes "--no-"
// to turn it off; "--name=value" is read too. An unknown flag is named
// as typed with the nearest known one (exit 2). Each -o or -O goes with
// one URL, in order, as curl pairs them: the first -o or -O with the
// first URL, the second with the second, wherever they stand; a URL
// without one goes to standard output.
//
// Output:
//
//	-o, --output FILE      the URL's file to FILE ("-": standard output,
//	                       binary or not)
//	-O, --remote-name      to the URL's last segment, here (refused
//	                       unless a plain local name: filepath.IsLocal)
//	--remote-name-all      -O for every URL without -o or -O
//	--create-dirs          make the missing local directories of -o FILE
//	-C, --continue-at N|-  start at byte N, appending (REST, RFC 3659
//	                       §5); "-": at the size of the -o/-O file
//	-R, --remote-time      the file's time from the server (MDTM, RFC
//	                       3659 §3)
//	-r, --range A-B|A-|-N  bytes A to B: REST A, then exactly B-A+1
//	                       bytes, the transfer ended there; A to the
//	                       end; the last N (SIZE first)
//	-I, --head             the name's type, size (Content-Length) and
//	                       time (Last-Modified)
//	-l, --list-only        the names of the URL's directory (NLST; a URL
//	                       that names a file lists its directory, as
//	                       curl 7.88)
//
// Upload, FTP commands, login:
//
//	-T, --upload-file FILE URL  FILE ("-": standard input) to URL; a URL
//	                       ending in / takes FILE's name
//	--ftp-create-dirs      with -T: make the URL's missing directories
//	-Q, --quote CMD        CMD after the login, before the transfer;
//	                       -CMD after it; *CMD: a refusal is no failure
//	                       (else exit 21); CR, LF or NUL refused (exit 2)
//	--ftp-method, --method M  multicwd (default), singlecwd or nocwd
//	--absolute             the path from the root, not the login directory
//	-u, --user USER[:PASS] the login; PASS asked on the terminal when
//	                       missing (RFC 1738 §3.2.1); it wins over the
//	                       URL and .netrc
//	-n, --netrc            the login from ~/.netrc, by curl's rules
//	                       (netrc.go); --netrc-optional the same
//	--netrc-file FILE      the login from FILE
//	--password-file F      the password for a URL with a user and none
//	                       ("-": standard input)
//
// Connection:
//
//	--connect-timeout S    each connection within S seconds (exit 28)
//	-m, --max-time S       the whole transfer within S seconds (exit 28;
//	                       the message names -m and the bytes that
//	                       arrived of how many); --timeout D the same as
//	                       a duration (30s)
//	--retry N              a transient failure (a timeout, a 4xx reply)
//	                       tried again N times; never a 5xx, nor once
//	                       bytes went to standard output
//	--retry-delay S        S seconds between tries (1, doubled, up to 10
//	                       minutes); --retry-max-time S: none after S
//	--limit-rate RATE      at most RATE bytes a second (200K, 1M, 1G)
//	--max-filesize N       refuse a file over N bytes (exit 63)
//	-4, --ipv4, -6, --ipv6 the server's addresses of that family only
//	-Z, --parallel         the URLs at once, --parallel-max N at a time
//	                       (default 50)
//	--tls, --ssl-reqd      AUTH TLS on an ftp:// URL (RFC 4217)
//	--cacert FILE          verify against the PEM certificates in FILE
//	-k, --insecure         do not verify the server's TLS certificate
//	--proxy-cacert FILE    --cacert for an https:// proxy; --cacert and
//	                       -k are the server's alone, as in curl
//	--proxy-insecure       -k for an https:// proxy
//	-x, --proxy URL        a proxy: socks5://, socks5h://, or http://
//	                       and https:// (the proxy's FTP gateway; with -p
//	                       a CONNECT tunnel); "": none; see below;
//	                       --noproxy LIST as NO_PROXY
//	-p, --proxytunnel      tunnel every connection through the HTTP proxy
//	-P, --ftp-port ADDR    active mode (PORT/EPRT): ADDR or "-";
//	                       --ftp-pasv undoes it; --disable-epsv: PASV
//	                       alone (network.go)
//
// What is shown:
//
//	-s, --silent           no progress bar, no message; -S,
//	                       --show-error: the error messages still
//	-v, --verbose          the dialog on standard error, "> " sent and
//	                       "< " received, the password as xxxxx
//	-#, --progress-bar     the bar (ftpget's only meter)
//	-w, --write-out FORMAT after each URL, FORMAT on standard output,
//	                       with curl's %{response_code}, %{size_download},
//	                       %{exitcode} and others (writeout.go)
//	-V, --version          the version and the protocols
//	-h, --help             every flag
//
// Mirror (long flags only; -r, -P and -N are curl's):
//
//	--mirror DIR URL       the tree the directory URL names into DIR
//	--recursive URL        the same, into the URL's last segment, here
//	-T DIR --mirror URL    the tree DIR up into the directory URL
//	--newer, --mirror-all  only what changed (the default), or all
//	--delete, --max-delete N, --dry-run, --parallel-max N (default 4)
//	-C -                   resume each partial file (NAME.ftpget-part)
//
// Standard output that is a terminal gets no binary file (one holding
// a NUL byte, or not UTF-8 at its start): ftpget refuses, with curl's
// message and exit status 23, unless "-o -" asks for it.
//
// A progress bar is drawn on standard error when it is a terminal and
// a file is fetched (not when the file goes to standard output that is
// a terminal too), and for an upload (-T); not with -s or -Z. It
// shows what has been written to the output (or read of the file to
// send), out of the whole file (a resumed file starts at its offset),
// and is drawn again every half second while nothing arrives.
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
// Mirror. --mirror DIR (or --recursive) copies the tree that a directory URL
// names, as wget -m and lftp mirror do: regular files and directories
// only. Links, FIFOs, devices and sockets are named on standard error
// and counted, never followed or made; a name that is not one safe
// local path element is skipped and named. Nothing is written outside
// DIR, not even through a symbolic link already in DIR (all writes go
// through os.Root). Each file is written as NAME.ftpget-part and renamed
// to NAME once its bytes match the server's size; its time is then set
// to the server's UTC time (MLSD, else MDTM; never a LIST time, whose
// year and zone are guesses), so that --newer fetches nothing the second
// time. -C - resumes the .ftpget-part files (REST) and checks the size.
// One line on standard error ends the mirror: the files and bytes
// fetched, the files up to date, the directories, what was
// skipped, and how many failed. The exit status is 0 when nothing
// failed, else the status (below) of the first failure: 78 a file the
// server refused, 9 a directory it refused or that is missing, 18 a file
// cut short, 23 a file that could not be written in DIR, 36 a refused
// REST, 56 a transfer reset. On a terminal, a progress line counts the
// files and bytes done of those listed so far.
//
// Exit statuses, as curl's where one fits (curl(1), EXIT CODES). With
// several URLs, ftpget fetches each in turn and exits with the status
// of the last one, as curl does (a usage error stops at once); with
// -Z, all at once, and the status of the last URL:
//
//	0   done
//	1   another failure
//	2   a usage error (a flag, no URL, no way to get a password, a
//	    .netrc that cannot be read)
//	3   the URL is not a valid ftp URL (or its plan is refused)
//	5   the proxy is not one ftpget takes, or its name does not resolve
//	6   the host name does not resolve
//	7   no connection to the server (or to the proxy)
//	9   the server refused to enter a directory of the URL, a missing
//	    one too, as curl 7.88 (a file used as a directory: MLST, MDTM
//	    or SIZE shows it)
//	18  partial file: the transfer ended before the file did, or the
//	    server's final reply to it is not 226 or 250 (as 426)
//	21  a -Q command refused
//	23  the output could not be written (a closed pipe too), -O has no
//	    safe name, or a binary file would go to a terminal
//	25  upload: the server refused it, or does not hold it whole
//	26  upload: the local file could not be read
//	28  timeout (-m, --timeout, --connect-timeout, or the server
//	    stalled)
//	36  -C: the output is larger than the remote file, the server
//	    refused the offset, the URL names a directory, or ;type=a;
//	    -r: a range that begins past the end
//	56  the transfer was reset, or another network read failed, once
//	    the file had begun; an HTTP proxy answered CONNECT with other
//	    than 2xx (-p)
//	60  the server's (or the https:// proxy's) TLS certificate does
//	    not verify
//	63  the file is larger than --max-filesize
//	67  the server refused the login (530)
//	77  --cacert or --proxy-cacert: the file cannot be read or holds
//	    no certificate
//	78  the URL names nothing on the server (550)
//	97  the SOCKS5 proxy refused or failed the connection; the HTTP
//	    proxy's gateway asked for credentials (407)
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

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
	if o.parallel && len(o.transfers) > 1 {
		return c.runParallel()
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

// runParallel runs the transfers at once, as curl -Z does: at most
// --parallel-max (default 50, curl's) at a time, each with its own
// messages and no progress bar. It returns the status of the last URL,
// as a run one after the other does.
func (c *command) runParallel() int {
	max := 50
	if c.o.mirror.pSet {
		max = c.o.mirror.parallel
	}
	codes := make([]int, len(c.o.transfers))
	sem := make(chan struct{}, max)
	var wg sync.WaitGroup
	for i, t := range c.o.transfers {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			g := &getter{command: c, t: t}
			codes[i] = g.get()
		}()
	}
	wg.Wait()
	return codes[len(codes)-1]
}

// A command is one run of ftpget: what its transfers share.
type command struct {
	o      *options
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	tty    *os.File

	roots      *x509.CertPool           // --cacert; nil: the system's
	proxyRoots *x509.CertPool           // --proxy-cacert; nil: the system's
	clients    map[string]*fetch.Client // by proxy ("": direct)
	gateways   map[string]*url.URL      // by proxy: the HTTP proxies used as FTP gateways (network.go)
	password   *string                  // --password-file
	passwords  map[string]string        // asked, by user@address
	outputGone bool                     // standard output's reader left
	sayMu      sync.Mutex               // say's lines, one at a time
	errMu      sync.Mutex               // standard error's lines, one at a time
	mu         sync.Mutex               // clients, passwords, noted
	noted      map[string]bool          // noteOnce's notes given
}

// notef prints a note on standard error, one line; -s silences it.
func (c *command) notef(format string, args ...any) {
	if c.o.silent {
		return
	}
	c.errMu.Lock()
	defer c.errMu.Unlock()
	fmt.Fprintf(c.stderr, "ftpget: %s\n", oneLine(fmt.Sprintf(format, args...)))
}

// noteOnce is notef, once a run for each key.
func (c *command) noteOnce(key, format string, args ...any) {
	c.mu.Lock()
	seen := c.noted[key]
	if c.noted == nil {
		c.noted = map[string]bool{}
	}
	c.noted[key] = true
	c.mu.Unlock()
	if !seen {
		c.notef(format, args...)
	}
}

// say prints one line of what the run does on standard output: a dry
// run's actions.
func (c *command) say(format string, args ...any) {
	c.sayMu.Lock()
	defer c.sayMu.Unlock()
	fmt.Fprintf(c.stdout, "%s\n", oneLine(fmt.Sprintf(format, args...)))
}

// printf prints one message on one line: an error, which -s
// silences and -S shows again, as curl's.
func (c *command) printf(format string, args ...any) {
	if c.o.silent && !c.o.showError {
		return
	}
	c.errMu.Lock()
	defer c.errMu.Unlock()
	fmt.Fprintf(c.stderr, "ftpget: %s\n", oneLine(fmt.Sprintf(format, args...)))
}

// oneLine makes s one line: a message never holds a line break.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.ReplaceAll(s, "\n", "; ")
}

// loadCACert reads --cacert and --proxy-cacert.
func (c *command) loadCACert() int {
	var code int
	if c.roots, code = c.readCerts("--cacert", c.o.cacert); code != exitOK {
		return code
	}
	c.proxyRoots, code = c.readCerts("--proxy-cacert", c.o.proxyCACert)
	return code
}

// readCerts reads the PEM certificates in file, given by flag: nil for
// no file, exit 77 for one that cannot be read or holds none.
func (c *command) readCerts(flag, file string) (*x509.CertPool, int) {
	if file == "" {
		return nil, exitOK
	}
	b, err := os.ReadFile(file)
	if err != nil {
		c.printf("%s: %v", flag, err)
		return nil, exitCACert
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(b) {
		c.printf("%s %s: no PEM certificate in the file", flag, file)
		return nil, exitCACert
	}
	return pool, exitOK
}

// proxyTLSConfig is the TLS to an https:// proxy: --proxy-cacert and
// --proxy-insecure, never --cacert or -k, which are the server's (curl
// keeps them apart the same way).
func (c *command) proxyTLSConfig() *tls.Config {
	return &tls.Config{RootCAs: c.proxyRoots, InsecureSkipVerify: c.o.proxyInsecure}
}

// client returns the Client for u: one per proxy, so that URLs of one
// server share its sessions.
func (c *command) client(u *ftpurl.URL) (*fetch.Client, error) {
	scheme := u.Scheme
	if scheme == "" {
		scheme = "ftp"
	}
	raw, from := c.o.proxyFor(scheme, u.Host, getenv)
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[raw]; ok {
		return cl, nil
	}
	cl := &fetch.Client{}
	c.o.segmentOptions.raise(cl)
	if c.o.insecure {
		cl.TLSConfig = &tls.Config{InsecureSkipVerify: true}
	} else if c.roots != nil {
		cl.TLSConfig = &tls.Config{RootCAs: c.roots}
	}
	cl.ProxyTLSConfig = c.proxyTLSConfig()
	if fam := c.o.family; fam != "" && raw == "" {
		// -4, -6: the server's addresses of that family only, for
		// the control and the data connections.
		cl.DialContext = func(ctx context.Context, _, addr string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, fam, addr)
		}
	}
	// The proxy (SOCKS5, or an HTTP proxy as a tunnel or a gateway)
	// and active mode: network.go.
	gw, err := c.setNetwork(cl, raw, from)
	if err != nil {
		return nil, err
	}
	c.clients[raw], c.gateways[raw] = cl, gw
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

	lastErr     error        // the last failure, for --retry
	lastMsg     string       // the last message printed, for -w's %{errormsg}
	lastCode    atomic.Int32 // the last reply's code, for -w's %{response_code}
	exit        int          // the exit status, for -w's %{exitcode}
	start       time.Time    // for -w's %{time_total}
	wroteStdout bool         // bytes went to standard output: no retry
	got, total  int64        // the bytes written of the file's (-1: unknown), for messages
}

// fail prints err, in words first (describe), and returns its exit
// status.
func (g *getter) fail(err error, reading bool) int {
	g.lastErr = err
	g.lastMsg = g.describe(err, reading)
	g.printf("%s", g.lastMsg)
	return exitCode(err, reading)
}
