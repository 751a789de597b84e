package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ftpurl/ftpurl"
)

// A key names the sessions that can serve one another's URLs: the same
// server, the same login, the same TLS mode.
type key struct {
	scheme, addr, user, password string
	tls                          tlsMode
}

type tlsMode int

const (
	plain    tlsMode = iota
	explicit         // AUTH TLS on an ftp:// URL (RFC 4217 §4)
	implicit         // ftps://: TLS from the first byte
)

// A session is one logged-in control connection and the data
// connections it opens: the connection's state only (its connections,
// TLS, where it stands, the TYPE in force, what the server offers). The
// use at hand (its context, URL and secrets) is an exchange's. A Client
// keeps idle sessions for reuse.
type session struct {
	key    key
	client *Client
	ctl    *control
	dl     deadlines
	tls    *tls.Config // this connection's own clone; nil in clear text
	proxy  *url.URL    // every connection goes through it; nil: none

	// Where the session stands, for the next plan on it.
	home      string          // the PWD answer after login ("" unknown)
	dataHost  string          // where data connections go: the control connection's IP
	cwdDirs   []string        // CWD arguments sent since the login directory
	cwdKnown  bool            // cwdDirs says where the session is
	typ       ftpurl.Typecode // the TYPE in force; 0 unknown
	sizeIn150 bool            // a 150 of this session gave "(N bytes)"
	noEPSV    bool            // the server refused EPSV: PASV from now on
	epsvOK    bool            // an EPSV worked: it goes out with the transfer command
	ready     int             // a port that an EPSV opened for the next transfer (renameAfter); 0: none
	renamed   int             // the uploads renamed into place (WithTempName) on this connection
	sizeLate  bool            // SIZE waits for an upload's 226: the server answered one sent with the upload's end before the file was whole, or a proxy is between
	noEPRT    bool            // the server refused EPRT as unknown: PORT from now on
	mlstAsked bool            // OPTS MLST went out (askFacts)
	tr        *tracer         // the tracer of the exchange that holds it
	helpVerbs map[string]bool // the verbs HELP lists (hash.go); nil until asked

	loggedIn bool // counted in its hostPool's logins (c.mu)

	mu    sync.Mutex
	conns []net.Conn
	done  bool        // the connections are closed
	timer *time.Timer // closes the idle session
	watch *idleWatch
}

// dialTCP connects to addr with the Client's DialContext, within
// dialTimeout (or StallTimeout when there is none) and the context.
func (s *session) dialTCP(ctx context.Context, addr string, dialTimeout time.Duration) (net.Conn, error) {
	if dialTimeout <= 0 {
		dialTimeout = s.client.stall()
	}
	if dialTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, dialTimeout)
		defer cancel()
	}
	var c net.Conn
	var err error
	switch {
	case s.proxy != nil:
		c, err = s.dialProxy(ctx, s.proxy, addr)
	case s.client.DialContext != nil:
		c, err = s.client.DialContext(ctx, "tcp", addr)
	default:
		var d net.Dialer
		c, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		c.Close()
		return nil, net.ErrClosed
	}
	s.conns = append(s.conns, c)
	return c, nil
}

// connect makes the control connection to u's server: TCP, then TLS
// from the first byte for an ftps:// URL (implicit TLS), ready for the
// greeting.
func (s *session) connect(ctx context.Context, u *ftpurl.URL, dialTimeout time.Duration) error {
	c, err := s.dialTCP(ctx, u.Address(), dialTimeout)
	if err != nil {
		return err
	}
	t := &timed{Conn: c, dl: &s.dl}
	var conn net.Conn = t
	if s.key.tls != plain {
		s.tls = s.client.tlsConfig(u)
	}
	if s.key.tls == implicit {
		tc := tls.Client(t, s.tls)
		if err := tc.HandshakeContext(ctx); err != nil {
			return err
		}
		conn = tc
	}
	// Data connections go to the control connection's address,
	// whatever PASV says; to the URL's host where DialContext or a
	// proxy made the connection (a proxy's address is not the server's).
	s.dataHost = u.Host
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok && a.IP != nil && s.client.DialContext == nil && s.proxy == nil {
		s.dataHost = a.IP.String()
	}
	s.ctl = newControl(conn, t)
	s.ctl.tr = s.tr
	return nil
}

// tlsConfig returns the TLS configuration of one control connection
// and its data connections: a clone with a session cache of its own,
// so that the data connections resume the control connection's TLS
// session (RFC 4217 §10.2), which vsftpd and ProFTPD demand, and no
// other's.
func (c *Client) tlsConfig(u *ftpurl.URL) *tls.Config {
	var cfg *tls.Config
	if c.TLSConfig != nil {
		cfg = c.TLSConfig.Clone()
	} else {
		cfg = &tls.Config{}
	}
	cfg.ClientSessionCache = tls.NewLRUClientSessionCache(4)
	if cfg.ServerName == "" {
		cfg.ServerName = u.Host
	}
	return cfg
}

// startTLS makes the TLS handshake on the control connection after the
// server accepted AUTH TLS (RFC 4217 §4).
func (s *session) startTLS(ctx context.Context) error {
	t := s.ctl.t
	tc := tls.Client(t, s.tls)
	if err := tc.HandshakeContext(ctx); err != nil {
		return err
	}
	s.ctl = newControl(tc, t)
	s.ctl.tr = s.tr
	return nil
}

// loggedInAt notes that the session has logged in and stands in its
// login directory home ("" when the server did not say it).
func (s *session) loggedInAt(home string) {
	s.home, s.cwdKnown = home, true
}

// abort closes every connection of the session at once.
func (s *session) abort() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
	if s.timer != nil {
		s.timer.Stop()
	}
}

func (s *session) closed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

// quit sends QUIT and closes the session (RFC 959 §4.1.1), waiting a
// second at most for the server's 221.
func (s *session) quit() {
	if !s.closed() && s.ctl != nil {
		s.dl.set(time.Second, time.Time{})
		_, _ = s.ctl.cmd("QUIT")
	}
	s.abort()
}

// forget closes and drops the data connections of the use that ended,
// so that a long session does not keep them.
func (s *session) forget() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.conns) > 1 {
		// Closed, not only dropped: a transfer that failed has not
		// closed its data connection, and abort no longer would.
		for _, c := range s.conns[1:] {
			c.Close()
		}
		s.conns = s.conns[:1]
	}
}

// moved notes a CWD to dir that the server took: from the root for an
// absolute dir, else one level down from where the session stands.
func (s *session) moved(dir string) {
	if strings.HasPrefix(dir, "/") {
		s.cwdDirs, s.cwdKnown = []string{dir}, true
		return
	}
	s.cwdDirs = append(s.cwdDirs, dir)
}

// atHome notes that the session stands in its login directory.
func (s *session) atHome() { s.cwdDirs, s.cwdKnown = nil, true }

// canGoHome reports whether the next plan can start where it must: the
// session is in the login directory, or knows it (PWD answered).
func (s *session) canGoHome() bool {
	return s.home != "" || s.cwdKnown && len(s.cwdDirs) == 0
}

var errNoHome = errors.New("the server did not say its login directory (PWD): the session cannot go back to it")

func isAbsolute(p *ftpurl.Plan) bool {
	dirs := nonNull(p.Dirs)
	if len(dirs) > 0 {
		return strings.HasPrefix(dirs[0], "/")
	}
	return strings.HasPrefix(p.Name, "/")
}

func nonNull(dirs []string) []string {
	if !slices.Contains(dirs, "") {
		return dirs
	}
	var out []string
	for _, d := range dirs {
		if d != "" {
			out = append(out, d)
		}
	}
	return out
}

// cwdStep is the CWD step to dir.
func cwdStep(dir string) ftpurl.Step { return ftpurl.Step{Command: "CWD", Arg: dir} }

// scheme returns the URL's scheme, "ftp" or "ftps".
func scheme(u *ftpurl.URL) string {
	if u.Scheme == "" {
		return "ftp"
	}
	return u.Scheme
}

// sleep makes s idle: its control connection is watched for the
// server's leaving, and after d it expires.
func (s *session) sleep(d time.Duration, expire func()) {
	s.mu.Lock()
	s.timer = time.AfterFunc(d, expire)
	s.mu.Unlock()
	s.watch = s.ctl.watchIdle()
}

// wake ends the idle watch; it reports whether the session is still
// usable (the server sent nothing and did not close it).
func (s *session) wake() bool {
	s.mu.Lock()
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.mu.Unlock()
	if s.watch == nil {
		return !s.closed()
	}
	ok := s.watch.stop()
	s.watch = nil
	return ok && !s.closed()
}
