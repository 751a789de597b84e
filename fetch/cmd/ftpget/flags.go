package main

// The flags: what each one sets, with curl's letters and meanings
// (DESIGN, "The command, as familiar as curl"; curl(1)), read by
// parseCommandLine (args.go).

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
)

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
	proxyCACert   string // --proxy-cacert: the https:// proxy's roots
	proxyInsecure bool   // --proxy-insecure
	proxy         string
	proxySet      bool
	noProxy       string
	noProxySet    bool
	method        ftpurl.Method
	absolute      bool
	timeout       time.Duration // -m, --max-time; --timeout
	timeoutFlag   string        // the flag that set it, for messages
	remoteNameAll bool
	mirror        mirrorFlags  // --mirror, --recursive, --newer...: see mirror.go
	network       networkFlags // -P, -p, --disable-epsv: see network.go
	uploadOptions
	segmentOptions // --segments, --checksum: see segments.go

	silent      bool // -s
	showError   bool // -S
	verbose     bool // -v
	progressBar bool // -#
	noMeter     bool // --no-progress-meter

	user      string // -u USER[:PASSWORD]: USER
	userPass  string // PASSWORD
	userSet   bool
	userHasPw bool
	netrc     netrcMode
	netrcFile string // --netrc-file; "": ~/.netrc

	byteRange      *byteRange    // -r
	remoteTime     bool          // -R
	createDirs     bool          // --create-dirs (local)
	listOnly       bool          // -l
	quoteBefore    []string      // -Q CMD
	quoteAfter     []string      // -Q -CMD
	limitRate      int64         // --limit-rate, bytes a second; 0: none
	retries        int           // --retry
	retryDelay     time.Duration // --retry-delay; 0: curl's doubling from 1 s
	retryMaxTime   time.Duration // --retry-max-time; 0: none
	connectTimeout time.Duration // --connect-timeout
	parallel       bool          // -Z
	maxFilesize    int64         // --max-filesize; 0: none
	family         string        // -4: "tcp4", -6: "tcp6"; "": either
	writeOut       string        // -w FORMAT
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

// flagSpecs returns the command's flags, setting o and the parse's
// state p.
func (o *options) flagSpecs(p *parseState) []flagSpec {
	boolean := func(v *bool) func(bool) error { return func(on bool) error { *v = on; return nil } }
	addOutput := func(name string) error {
		if name == "" {
			return errors.New("an empty file name")
		}
		p.outputs = append(p.outputs, outputFlag{name: name})
		return nil
	}
	resume := func(s string) error { p.resume, o.resumeSet = s, true; return nil }
	timeout := func(flag string, d *time.Duration) func(string) error {
		return func(s string) error {
			v, err := seconds(s)
			*d = v
			if flag != "" {
				o.timeoutFlag = flag
			}
			return err
		}
	}
	specs := []flagSpec{
		// Output.
		{short: 'o', long: []string{"output"}, set: addOutput},
		{short: 'O', long: []string{"remote-name"}, on: func(bool) error {
			p.outputs = append(p.outputs, outputFlag{remoteName: true})
			return nil
		}},
		{long: []string{"remote-name-all"}, on: boolean(&o.remoteNameAll)},
		{long: []string{"create-dirs"}, on: boolean(&o.createDirs)},
		{short: 'C', long: []string{"continue-at"}, set: resume},
		{short: 'R', long: []string{"remote-time"}, on: boolean(&o.remoteTime)},
		// What is fetched.
		{short: 'I', long: []string{"head"}, on: boolean(&o.head)},
		{short: 'l', long: []string{"list-only"}, on: boolean(&o.listOnly)},
		{short: 'r', long: []string{"range"}, set: func(s string) (err error) { o.byteRange, err = parseRange(s); return err }},
		{short: 'Q', long: []string{"quote"}, set: o.addQuote},
		{long: []string{"limit-rate"}, set: func(s string) (err error) { o.limitRate, err = parseRate(s); return err }},
		{long: []string{"max-filesize"}, set: func(s string) (err error) { o.maxFilesize, err = parseSize(s); return err }},
		{short: 'Z', long: []string{"parallel"}, on: boolean(&o.parallel)},
		// Login.
		{short: 'u', long: []string{"user"}, set: func(s string) error {
			o.user, o.userPass, o.userHasPw = strings.Cut(s, ":")
			o.userSet = true
			return nil
		}},
		{short: 'n', long: []string{"netrc"}, on: func(on bool) error { o.netrc = netrcIf(on, netrcRequired); return nil }},
		{long: []string{"netrc-optional"}, on: func(on bool) error { o.netrc = netrcIf(on, netrcOptional); return nil }},
		{long: []string{"netrc-file"}, set: func(s string) error {
			o.netrcFile = s
			if o.netrc == netrcOff {
				o.netrc = netrcOptional // curl: --netrc-file implies --netrc-optional
			}
			return nil
		}},
		{long: []string{"password-file"}, set: func(s string) error { o.passwordFile = s; return nil }},
		// Connection.
		{long: []string{"connect-timeout"}, set: timeout("", &o.connectTimeout)},
		{short: 'm', long: []string{"max-time"}, set: timeout("-m", &o.timeout)},
		{long: []string{"timeout"}, set: func(s string) (err error) {
			o.timeout, err = time.ParseDuration(s)
			if err == nil && o.timeout < 0 {
				err = errors.New("must not be negative")
			}
			o.timeoutFlag = "--timeout"
			return err
		}},
		{long: []string{"retry"}, set: func(s string) (err error) { o.retries, err = count(s); return err }},
		{long: []string{"retry-delay"}, set: timeout("", &o.retryDelay)},
		{long: []string{"retry-max-time"}, set: timeout("", &o.retryMaxTime)},
		{long: []string{"tls", "ssl-reqd"}, on: boolean(&o.tls)},
		{long: []string{"cacert"}, set: func(s string) error { o.cacert = s; return nil }},
		{short: 'k', long: []string{"insecure"}, on: boolean(&o.insecure)},
		{long: []string{"proxy-cacert"}, set: func(s string) error { o.proxyCACert = s; return nil }},
		{long: []string{"proxy-insecure"}, on: boolean(&o.proxyInsecure)},
		{short: 'x', long: []string{"proxy"}, set: func(s string) error {
			// An http:// proxy is refused where the proxy is chosen
			// (proxy.go), as one from ftp_proxy is: exit 5.
			o.proxy, o.proxySet = s, true
			return nil
		}},
		{short: '4', long: []string{"ipv4"}, on: func(on bool) error { o.family = map[bool]string{true: "tcp4"}[on]; return nil }},
		{short: '6', long: []string{"ipv6"}, on: func(on bool) error { o.family = map[bool]string{true: "tcp6"}[on]; return nil }},
		{long: []string{"noproxy"}, set: func(s string) error { o.noProxy, o.noProxySet = s, true; return nil }},
		{long: []string{"method", "ftp-method"}, set: func(s string) error { return o.method.UnmarshalText([]byte(s)) }},
		{long: []string{"absolute"}, on: boolean(&o.absolute)},
		// Active mode and the proxy's tunnel: network.go.
		{short: 'P', long: []string{"ftp-port"}, set: func(s string) error {
			if s == "" {
				return errors.New(`takes an address, or "-" for the control connection's`)
			}
			o.network.ftpPort = s
			return nil
		}},
		{short: 'p', long: []string{"proxytunnel"}, on: func(b bool) error { o.network.tunnel = b; return nil }},
		{long: []string{"ftp-pasv"}, on: func(b bool) error {
			if b {
				o.network.ftpPort = ""
			}
			return nil
		}},
		{long: []string{"disable-epsv"}, on: func(b bool) error { o.network.disableEPSV = b; return nil }},
		// What is shown.
		{short: 's', long: []string{"silent"}, on: boolean(&o.silent)},
		{short: 'S', long: []string{"show-error"}, on: boolean(&o.showError)},
		{short: 'v', long: []string{"verbose"}, on: boolean(&o.verbose)},
		{short: '#', long: []string{"progress-bar"}, on: boolean(&o.progressBar)},
		{short: 'w', long: []string{"write-out"}, set: func(s string) error { o.writeOut = s; return nil }},
		{short: 'V', long: []string{"version"}, on: boolean(&p.version)},
		{short: 'h', long: []string{"help"}, on: boolean(&p.help)},
	}
	specs = append(specs, ignoredSpecs(o)...)
	specs = append(specs, o.uploadOptions.specs()...)
	specs = append(specs, o.segmentOptions.specs()...)
	return append(specs, o.mirror.specs()...)
}

// parseState is what the flags say that is read once they all are.
type parseState struct {
	outputs       []outputFlag
	resume        string
	help, version bool
}

// parseArgs reads the flags and the URLs, in any order. It returns nil
// and the exit status when there is nothing to fetch.
func parseArgs(args []string, stdout, stderr io.Writer) (*options, int) {
	o := &options{}
	var p parseState
	fail := func(msg string) (*options, int) {
		fmt.Fprintf(stderr, "ftpget: %s; try 'ftpget -h'\n", oneLine(msg))
		return nil, exitUsage
	}
	urls, err := parseCommandLine(args, o.flagSpecs(&p))
	switch {
	case p.help:
		io.WriteString(stdout, usage)
		return nil, exitOK
	case p.version:
		io.WriteString(stdout, versionText())
		return nil, exitOK
	case err != nil:
		return fail(err.Error())
	}
	outputs, resume := p.outputs, p.resume
	if o.mirror.on() && o.upload != "" {
		// -T DIR --mirror URL: the tree DIR up into the URL's
		// directory; --mirror's value is the URL.
		if o.mirror.recursive || len(urls) > 0 || !strings.Contains(o.mirror.dir, "://") {
			return fail("-T FILE URL uploads one file; -T DIR --mirror URL uploads the tree DIR (no --recursive)")
		}
		urls, o.mirror.dir, o.mirror.up = []string{o.mirror.dir}, "", true
		if o.ftpCreateDirs || o.resumeSet {
			return fail("-T DIR --mirror makes the directories it needs and sends whole files: no --ftp-create-dirs or -C")
		}
	}
	switch {
	case len(urls) == 0:
		return fail("no URL")
	case len(outputs) > len(urls):
		return fail(fmt.Sprintf("%d -o/-O for %d URLs: each -o or -O goes with one URL, in order", len(outputs), len(urls)))
	case o.ftpCreateDirs && o.upload == "":
		return fail("--ftp-create-dirs makes the server's directories of an upload: it goes with -T (--create-dirs makes the local ones of -o)")
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
	switch {
	case o.head && o.resumeSet:
		return fail("-C does not go with -I")
	case o.byteRange != nil && (o.resumeSet || o.upload != "" || o.head):
		return fail("-r takes a range of a download: not with -C, -T or -I")
	}
	return o, exitOK
}

// addQuote reads -Q CMD: CMD before the transfer, -CMD after it, a
// leading "*" keeping a refusal from failing the run (curl(1),
// "--quote"). A CR, LF or NUL is refused here, before any connection
// (RFC 959 §4.1.3: a command is one line).
func (o *options) addQuote(cmd string) error {
	after := strings.HasPrefix(cmd, "-")
	if after {
		cmd = cmd[1:]
	}
	line := strings.TrimPrefix(cmd, "*")
	switch {
	case strings.ContainsAny(cmd, "\r\n\x00"):
		return fmt.Errorf("the command %q holds CR, LF or NUL: a command is one line (RFC 959 §4.1.3)", cmd)
	case strings.HasPrefix(line, "+"):
		return fmt.Errorf("%q: ftpget sends a command before or after the transfer (CMD, -CMD), not between the CWDs and RETR (+CMD)", cmd)
	case strings.TrimSpace(line) == "":
		return errors.New("an empty command")
	}
	if after {
		o.quoteAfter = append(o.quoteAfter, cmd)
	} else {
		o.quoteBefore = append(o.quoteBefore, cmd)
	}
	return nil
}

// seconds reads a number of seconds as curl's --connect-timeout and -m
// take it: decimal, not negative ("2", "0.5").
func seconds(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) || f > 1e9 {
		return 0, fmt.Errorf("takes a number of seconds (as 2 or 0.5), not %q", s)
	}
	return time.Duration(f * float64(time.Second)), nil
}

// count reads a count that is not negative.
func count(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("takes a number, not %q", s)
	}
	return n, nil
}

// parseSize reads --max-filesize's BYTES: as --limit-rate's RATE, a
// number with K, M or G after it.
func parseSize(s string) (int64, error) {
	n, err := parseRate(s)
	if err != nil {
		return 0, fmt.Errorf("takes bytes, as 500K, 2M or 1G, not %q", s)
	}
	return n, nil
}

// parseRate reads --limit-rate's RATE as curl does: bytes a second, or
// with a suffix K, M, G (kibibytes, mebibytes, gibibytes; either case),
// a decimal number allowed before it ("1.5M").
func parseRate(s string) (int64, error) {
	mult := 1.0
	num := s
	if s != "" {
		switch s[len(s)-1] {
		case 'k', 'K':
			mult, num = 1<<10, s[:len(s)-1]
		case 'm', 'M':
			mult, num = 1<<20, s[:len(s)-1]
		case 'g', 'G':
			mult, num = 1<<30, s[:len(s)-1]
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("takes bytes a second, as 200K, 1M or 1.5G, not %q", s)
	}
	return int64(f * mult), nil
}
