package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
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
// connections it opens. A Client keeps idle sessions for reuse.
type session struct {
	key    key
	client *Client
	ctl    *control
	dl     deadlines
	tls    *tls.Config // this connection's own clone; nil in clear text

	// Where the session stands, for the next plan on it.
	home      string          // the PWD answer after login ("" unknown)
	dataHost  string          // where data connections go: the control connection's IP
	cwdDirs   []string        // CWD arguments sent since the login directory
	cwdKnown  bool            // cwdDirs says where the session is
	typ       ftpurl.Typecode // the TYPE in force; 0 unknown
	sizeIn150 bool            // a 150 of this session gave "(N bytes)"
	noEPSV    bool            // the server refused EPSV: PASV from now on
	epsvOK    bool            // an EPSV worked: it goes out with the transfer command

	dialTimeout time.Duration // WithDialTimeout of the use at hand
	loggedIn    bool          // counted in its hostPool's logins (c.mu)

	// The use at hand.
	ctx      context.Context
	redacted string // the URL, redacted
	secrets  []string
	stop     func() bool // stops the context watcher

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
	if s.client.DialContext != nil {
		c, err = s.client.DialContext(ctx, "tcp", addr)
	} else {
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

// dial connects, reads the greeting, starts TLS where the key says,
// logs in, reads the features (FEAT, RFC 2389 §3), asks for TLS on the
// data connections (PBSZ 0, PROT P) and notes the login directory
// (PWD): the login of DESIGN, each command once.
func (s *session) dial(ctx context.Context, u *ftpurl.URL, user, password string) error {
	c, err := s.dialTCP(ctx, u.Address(), s.dialTimeout)
	if err != nil {
		return s.fail("dial", "", err)
	}
	t := &timed{Conn: c, dl: &s.dl}
	var conn net.Conn = t
	if s.key.tls != plain {
		s.tls = s.client.tlsConfig(u)
	}
	if s.key.tls == implicit {
		tc := tls.Client(t, s.tls)
		if err := tc.HandshakeContext(ctx); err != nil {
			return s.fail("dial", "", err)
		}
		conn = tc
	}
	// Data connections go to the control connection's address,
	// whatever PASV says; to the URL's host where DialContext made the
	// connection (a proxy's address is not the server's).
	s.dataHost = u.Host
	if a, ok := c.RemoteAddr().(*net.TCPAddr); ok && a.IP != nil && s.client.DialContext == nil {
		s.dataHost = a.IP.String()
	}
	s.ctl = newControl(conn, t)
	greeting, err := s.ctl.greeting()
	if err != nil {
		return s.fail("dial", "", err)
	}
	if greeting.code != 220 {
		return s.failReply("dial", "", greeting)
	}
	if s.key.tls == explicit {
		// RFC 4217 §4: AUTH TLS, then the handshake. Any answer but
		// 234 ends the session: fetch never goes on in clear text.
		rep, err := s.ctl.cmd("AUTH TLS")
		if err != nil {
			return s.fail("tls", "AUTH TLS", err)
		}
		if rep.code != 234 {
			e := s.failReply("tls", "AUTH TLS", rep)
			e.note = "the server refused TLS (RFC 4217 §4); fetch does not go on in clear text"
			return e
		}
		tc := tls.Client(t, s.tls)
		if err := tc.HandshakeContext(ctx); err != nil {
			return s.fail("tls", "AUTH TLS", err)
		}
		s.ctl = newControl(tc, t)
	}
	if err := s.login(user, password); err != nil {
		return err
	}
	rep, err := s.ctl.cmd("FEAT")
	if err != nil {
		return s.fail("login", "FEAT", err)
	}
	s.ctl.feat = map[string]string{}
	if rep.code == 211 {
		s.ctl.feat = parseFeat(rep.text)
	}
	if s.tls != nil {
		// RFC 4217 §9: PBSZ 0 and PROT P make every data connection
		// TLS too.
		for _, line := range []string{"PBSZ 0", "PROT P"} {
			rep, err := s.ctl.cmd(line)
			if err != nil {
				return s.fail("tls", line, err)
			}
			if rep.code != 200 {
				return s.failReply("tls", line, rep)
			}
		}
	}
	// The login directory, where a reused session goes back to
	// (curl's "entry path").
	if rep, err := s.ctl.cmd("PWD"); err != nil {
		return s.fail("login", "PWD", err)
	} else if rep.code == 257 {
		s.home = parsePWD(rep.text)
	}
	s.cwdKnown = true
	return nil
}

// login sends USER, and PASS where the server asks for it (RFC 959
// §4.1.1, §5.4: 230 after either, 331 for a password). A refusal is an
// *Error of Op "login" whose Command is "USER name" whichever of the
// two was refused, so that no error quotes the password.
func (s *session) login(user, password string) error {
	command := "USER " + user
	rep, err := s.ctl.cmd(command)
	if err == nil && rep.code == 331 {
		rep, err = s.ctl.cmd("PASS " + password)
	}
	switch {
	case err != nil:
		return s.fail("login", command, err)
	case rep.code != 230 && rep.code != 202:
		// 332 asks for ACCT, which a URL cannot give.
		return s.failReply("login", command, rep)
	}
	return nil
}

// parsePWD reads the directory of a 257 reply (RFC 959 §7: the name in
// quotes, a quote in it doubled).
func parsePWD(text string) string {
	i := strings.IndexByte(text, '"')
	if i < 0 {
		return ""
	}
	var b strings.Builder
	for j := i + 1; j < len(text); j++ {
		if text[j] == '"' {
			if j+1 < len(text) && text[j+1] == '"' {
				b.WriteByte('"')
				j++
				continue
			}
			return b.String()
		}
		b.WriteByte(text[j])
	}
	return ""
}

// bind gives the session to one use under ctx.
func (s *session) bind(ctx context.Context, redacted string, secrets []string) {
	s.ctx, s.redacted, s.secrets = ctx, redacted, secrets
	s.dl.set(s.client.stall(), contextDeadline(ctx))
	s.stop = context.AfterFunc(ctx, s.abort)
}

// unbind ends the use: the context no longer reaches the session.
func (s *session) unbind() bool {
	ok := true
	if s.stop != nil {
		ok = s.stop()
		s.stop = nil
	}
	s.dl.set(0, time.Time{})
	return ok
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

// goHome brings a reused session back to where plan p starts: the
// login directory, unless p's path is absolute. It returns how many of
// p's directories the session has already entered, and the CWD it sent
// ("" for none), which an error names.
func (s *session) goHome(p *ftpurl.Plan) (skip int, sent string, err error) {
	dirs := nonNull(p.Dirs)
	if s.cwdKnown && len(s.cwdDirs) <= len(dirs) && slices.Equal(s.cwdDirs, dirs[:len(s.cwdDirs)]) {
		return len(s.cwdDirs), "", nil
	}
	if isAbsolute(p) {
		s.cwdDirs, s.cwdKnown = nil, false
		return 0, "", nil
	}
	if s.home == "" {
		return 0, "", errNoHome
	}
	st := cwdStep(s.home)
	if err := s.cwd(st, false); err != nil {
		// The login directory is gone: this session cannot serve a
		// relative plan again, and goes when this use ends.
		s.home, s.cwdKnown = "", false
		return 0, st.String(), err
	}
	s.cwdDirs, s.cwdKnown = nil, true
	return 0, "", nil
}

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

// cwd sends a CWD step (RFC 959 §4.1.1) as it renders itself, and,
// with track, notes where the session is. A refusal is returned as the
// reply's error.
func (s *session) cwd(st ftpurl.Step, track bool) error {
	s.cwdKnown = s.cwdKnown && track
	rep, err := s.ctl.cmd(st.String())
	if err != nil {
		s.cwdKnown = false
		return err
	}
	if rep.code != 250 && rep.code != 200 {
		return rep.err()
	}
	if track {
		if strings.HasPrefix(st.Arg, "/") {
			s.cwdDirs, s.cwdKnown = []string{st.Arg}, true
		} else {
			s.cwdDirs = append(s.cwdDirs, st.Arg)
		}
	}
	return nil
}

// cwdStep is the CWD step to dir.
func cwdStep(dir string) ftpurl.Step { return ftpurl.Step{Command: "CWD", Arg: dir} }

// setType sends TYPE t unless it is in force already (RFC 959 §3.1.1:
// the type holds until the next TYPE).
func (s *session) setType(st ftpurl.Step) error {
	t := ftpurl.Typecode(strings.ToLower(st.Arg)[0])
	if t == s.typ {
		return nil
	}
	s.typ = 0
	rep, err := s.ctl.cmd(st.String())
	if err != nil {
		return err
	}
	if rep.code != 200 {
		return rep.err()
	}
	s.typ = t
	return nil
}

// scheme returns the URL's scheme, "ftp" or "ftps".
func scheme(u *ftpurl.URL) string {
	if u.Scheme == "" {
		return "ftp"
	}
	return u.Scheme
}
