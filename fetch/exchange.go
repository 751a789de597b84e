package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// An exchange is one use of a Client: an Open, a Stat, a listing of
// ReadDir or Walk, a Put, a Mkdir. As net/http's transportRequest is
// beside persistConn, it holds what belongs to the use (its context,
// the request with the redacted URL and the secrets, whether it may
// run again) apart from the session, which holds only the
// connection's state. It gets a session (an idle one, a new one it
// dials and logs in, or one it waits for under a server's learnt
// limit), gives it back, and talks to the wire through cmd, which
// states the reply it wants.
type exchange struct {
	c       *Client
	ctx     context.Context
	req     *request
	secrets []string // the password's forms, replaced by "xxxxx" in every text kept

	s      *session    // the session in use; nil between tries
	stop   func() bool // ends the context's watch of s
	reused bool        // s served an earlier use

	// keep says that s went to a Response, which gives it back.
	keep bool
	// sent says that the use may have changed what the server holds
	// (a Put whose STOR or APPE began): it never runs again.
	sent bool

	resp *Response // Open's

	proxy *url.URL // the server's proxy (checkNetwork); nil: none

	// For the plan runner (runner.go): WithCreateDirs's MKDs, and a
	// ReadDir's unique fact of the directory (MLSD's cdir, or MLST's
	// where self).
	mkdirs bool
	self   bool
	links  bool // readDirUnique's links
	unique string
}

// newExchange is one use of c for r, under ctx. Its secrets are the
// password's forms where the URL or WithPassword gives one: an
// anonymous login's password is no secret.
func (c *Client) newExchange(ctx context.Context, r *request) *exchange {
	x := &exchange{c: c, ctx: ctx, req: r}
	if r.u.User != nil {
		if _, has := r.u.User.Password(); has || r.cfg.hasPassword {
			x.secrets = secretsOf(r.password)
		}
	}
	return x
}

// secretsOf returns the forms of a password that a server may echo:
// as sent, and percent-encoded as in a URL; and each as fetch quotes
// a line it cannot read (%q), the longest first.
func secretsOf(password string) []string {
	if password == "" {
		return nil
	}
	forms := []string{password}
	for _, f := range []string{url.PathEscape(password), url.QueryEscape(password), strings.TrimPrefix(url.UserPassword("", password).String(), ":")} {
		if !slices.Contains(forms, f) {
			forms = append(forms, f)
		}
	}
	for _, f := range forms {
		if q := strconv.Quote(f); !slices.Contains(forms, q[1:len(q)-1]) {
			forms = append(forms, q[1:len(q)-1])
		}
	}
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return forms
}

// run runs act on a session of the Client: an idle one or a new one.
// When act fails on a reused session that the server had left (421,
// or the connection's end or reset: gone) before any of the result
// reached the caller, it runs once more, on a new session, as net/http
// retries an idempotent request that failed on a reused connection: a
// server restarted while sessions were idle leaves each of them dead,
// and the next idle one would most likely fail the same way. A new
// session's failure is the caller's, and an act that set x.sent is
// never run again.
func (x *exchange) run(act func() error) error {
	if err := x.checkNetwork(); err != nil {
		return err
	}
	for retry := false; ; retry = true {
		if err := x.acquire(retry); err != nil {
			return err
		}
		err := act()
		if err == nil {
			if !x.keep {
				x.release(true)
			}
			return nil
		}
		reused := x.reused
		x.release(reusable(err))
		if reused && !x.sent && gone(x.ctx, err) {
			continue
		}
		return err
	}
}

// acquire gives x a logged-in session: an idle one or a new one (with
// onlyNew, a new one). A new session that the server turns away at its
// limit (atLimit) while the Client holds others of that server lowers
// the Client's limit for it, and acquire waits, under x.ctx, for one of
// those instead.
func (x *exchange) acquire(onlyNew bool) error {
	c, k := x.c, x.req.key
	for {
		if err := x.ctx.Err(); err != nil {
			return &Error{Op: "dial", URL: x.req.redacted, Err: err}
		}
		s, fresh, err := c.get(x.ctx, k, onlyNew)
		if err != nil {
			return &Error{Op: "dial", URL: x.req.redacted, Err: err}
		}
		x.bind(s)
		x.reused = !fresh
		if !fresh {
			return nil
		}
		c.dialing(k, 1)
		err = x.dial()
		if err == nil {
			c.loggedIn(s)
			c.dialing(k, -1)
			return nil
		}
		x.unbind()
		x.s = nil
		s.abort()
		c.dialing(k, -1)
		if limit, sameLogin := atLimit(err); limit && x.ctx.Err() == nil && c.lower(x.ctx, k, sameLogin) {
			continue
		}
		c.drop(k, s)
		return err
	}
}

// dial connects the new session x.s, reads the greeting, starts TLS
// where the key says, logs in, reads the features (FEAT, RFC 2389 §3),
// asks for TLS on the data connections (PBSZ 0, PROT P) and notes the
// login directory (PWD): the login of DESIGN, each command once.
func (x *exchange) dial() error {
	s, r := x.s, x.req
	s.proxy = x.proxy
	// Through a proxy the data connection and the control connection
	// are two tunnels, and the end of the data connection that fetch
	// sees may be the proxy's: an upload's last bytes may reach the
	// server after a SIZE sent at that end, which the server then
	// answers with a part of the file (ProFTPD, pyftpdlib) or refuses
	// during the transfer (Pure-FTPd's 500), as
	// TestSquidTunnelsEveryConnection found. SIZE waits for the 226.
	s.sizeLate = x.proxy != nil
	// Op "dial": connecting, and the greeting (RFC 959 §5.4: 220,
	// after any 120).
	if _, err := x.check("dial", 220, "", func() (reply, error) {
		if err := s.connect(x.ctx, r.u, r.cfg.dialTimeout); err != nil {
			return reply{}, err
		}
		return s.ctl.greeting()
	}); err != nil {
		return err
	}
	if s.key.tls == explicit {
		// RFC 4217 §4: AUTH TLS, then the handshake. Any answer but
		// 234 ends the session: fetch never goes on in clear text.
		if _, e := x.cmd("tls", 234, "AUTH TLS"); e != nil {
			if e.declined() {
				e.note = "the server refused TLS (RFC 4217 §4); fetch does not go on in clear text"
			}
			return e
		}
		if err := s.startTLS(x.ctx); err != nil {
			return x.fail("tls", "AUTH TLS", err)
		}
	}
	if err := x.login(); err != nil {
		return err
	}
	feat, e := x.cmd("login", 211, "FEAT")
	switch {
	case e == nil:
		s.ctl.feat = parseFeat(feat.text)
	case e.declined():
		s.ctl.feat = map[string]string{}
	default:
		return e
	}
	if s.tls != nil {
		// RFC 4217 §9: PBSZ 0 and PROT P make every data connection
		// TLS too.
		for _, line := range []string{"PBSZ 0", "PROT P"} {
			if _, e := x.cmd("tls", 200, line); e != nil {
				return e
			}
		}
	}
	// The login directory, where a reused session goes back to
	// (curl's "entry path").
	home := ""
	pwd, e := x.cmd("login", 257, "PWD")
	switch {
	case e == nil:
		home = parsePWD(pwd.text)
	case !e.declined():
		return e
	}
	s.loggedInAt(home)
	return nil
}

// login sends USER, and PASS where the server asks for it (RFC 959
// §4.1.1, §5.4: 230 after either, 331 for a password; a 332 asks for
// ACCT, which a URL cannot give). A refusal is an *Error of Op "login"
// whose Command is "USER name", or "PASS xxxxx" when the server refused
// the password: no error quotes a password (an anonymous login's is no
// secret, and is quoted as sent).
func (x *exchange) login() error {
	user := "USER " + x.req.user
	_, e := x.cmd("login", 2, user)
	if e != nil && e.Code == 331 && e.declined() {
		if _, e = x.cmd("login", 2, "PASS "+x.req.password); e != nil {
			e.Command = "PASS " + x.mask(x.req.password)
			return e
		}
	}
	if e != nil {
		e.Command = user
		return e
	}
	return nil
}

// atLimit reports whether a new session's err shows a server that
// takes no more connections from this client: a 421 in place of the
// greeting (RFC 959 §5.4: "Service not available, closing control
// connection"; vsftpd's max_per_ip, Pure-FTPd's -C, pyftpdlib's
// max_cons_per_ip), the connection refused, reset or closed before the
// greeting, as a server or a firewall at its limit does; or a login
// refused (530, a 421: sameLogin), which counts only where the Client
// holds a session of that user and password (Client.lower), since a
// wrong password is refused so too (ProFTPD's MaxClientsPerHost greets
// every connection and refuses PASS: "530 Sorry, the maximum number of
// clients (2) from your host are already connected.").
func atLimit(err error) (limit, sameLogin bool) {
	var e *Error
	if !errors.As(err, &e) {
		return false, false
	}
	switch e.Op {
	case "dial":
		return e.Code == 421 || e.Code == 0 && (errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF)), false
	case "login":
		return e.Code == 530 || e.Code == 421, true
	}
	return false, false
}

// gone reports whether err shows that a reused session's server had
// left (421, or the connection ended or was reset) by the time the
// plan began: the plan, which only reads, runs again on a new session
// (run), as net/http retries an idempotent request on a reused
// connection that the server closed. A transfer confirmed short
// (partial) is the server's answer, not its leaving.
func gone(ctx context.Context, err error) bool {
	var e *Error
	if ctx.Err() != nil || !errors.As(err, &e) || e.partial {
		return false
	}
	return e.Code == 421 || e.Code == 0 && (errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE))
}

// reusable reports whether a session that failed with err can serve
// another URL: the server refused a command and the connection is
// whole.
func reusable(err error) bool {
	var e *Error
	// A 1xx is no final reply: the one that follows is still unread.
	var cut *cutReply
	if !errors.As(err, &e) || e.Code < 200 || e.Code == 421 || errors.As(err, &cut) {
		return false
	}
	return !e.Timeout() && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, context.Canceled)
}

// bind gives s to x: the context's deadline and StallTimeout bound its
// reads and writes, and the context's end closes it.
func (x *exchange) bind(s *session) {
	x.s = s
	s.setTracer(x.newTracer())
	s.dl.set(x.c.stall(), contextDeadline(x.ctx))
	x.stop = context.AfterFunc(x.ctx, s.abort)
}

// unbind ends x's hold on its session's deadlines and context; it
// reports false when the context ended meanwhile and closed it.
func (x *exchange) unbind() bool {
	ok := true
	if x.stop != nil {
		ok = x.stop()
		x.stop = nil
	}
	if x.s != nil {
		x.s.dl.set(0, time.Time{})
		x.s.setTracer(nil)
	}
	return ok
}

// release ends x's use of its session: back to the pool when ok, else
// closed. It does nothing once the session went back.
func (x *exchange) release(ok bool) {
	s := x.s
	if s == nil {
		return
	}
	if !x.unbind() {
		ok = false // the context ended meanwhile and closed it
	}
	x.s = nil
	if ok && !s.closed() {
		x.c.put(s)
		return
	}
	s.abort()
	x.c.drop(s.key, s)
}

// cmd sends line and reads its final reply (RFC 959 §4.2), as
// net/smtp's cmd does: a reply whose code is not want is the *Error of
// op, as is a failure to get one. want is a code ("250"), or its first
// digits for any code that begins so (2: any 2xx, 23: 230-239), as
// textproto.Reader.ReadResponse takes it; 0 takes any final reply.
func (x *exchange) cmd(op string, want int, line string) (reply, *Error) {
	return x.check(op, want, line, func() (reply, error) { return x.s.ctl.cmd(line) })
}

// reply reads the final reply to line, sent already (a command that
// went out with another), as cmd does.
func (x *exchange) reply(op string, want int, line string) (reply, *Error) {
	return x.check(op, want, line, x.s.ctl.readFinal)
}

// check reads a reply with read and returns it, or the *Error of op
// and command: the reply's refusal when its code is not want (see
// cmd), or the failure to get one.
func (x *exchange) check(op string, want int, command string, read func() (reply, error)) (reply, *Error) {
	rep, err := read()
	if err == nil && !rep.is(want) {
		err = rep.err()
	}
	if err != nil {
		return rep, x.fail(op, command, err)
	}
	return rep, nil
}

// start opens the transfer of line (RETR, LIST, STOR: Op op) on a data
// connection, after the queries, whose replies it returns once all
// came, and "REST offset" where offset is above 0 (see session.start).
// A failure is the *Error of the command that failed: a query's own
// Op, "rest", else op.
func (x *exchange) start(op, line string, offset int64, queries ...query) (*transfer, []reply, *Error) {
	return x.startWith(op, opening{line: line, offset: offset, queries: queries})
}

// startWith is start of the opening o (its line, offset, queries,
// whether an upload starts early; RANG and outlive: Download), under
// x's context and WithDialTimeout.
func (x *exchange) startWith(op string, o opening) (*transfer, []reply, *Error) {
	o.ctx, o.dialTimeout = x.ctx, x.req.cfg.dialTimeout
	t, replies, err := x.s.start(o)
	if err == nil {
		return t, replies, nil
	}
	command := ""
	var se *stepError
	if errors.As(err, &se) {
		command, err = se.line, se.err
		if se.op != "" {
			op = se.op
		}
	}
	return nil, replies, x.fail(op, command, err)
}

func (c *Client) stall() time.Duration {
	switch {
	case c.StallTimeout == 0:
		return defaultStall
	case c.StallTimeout < 0:
		return 0
	}
	return c.StallTimeout
}

func (c *Client) maxConns() int {
	if c.MaxConnsPerHost <= 0 {
		return defaultMaxPer
	}
	return c.MaxConnsPerHost
}

func (c *Client) idleTimeout() time.Duration {
	if c.IdleTimeout == 0 {
		return defaultIdle
	}
	return c.IdleTimeout
}

// hostKey names one server's sessions in the pool.
type hostKey struct{ scheme, addr string }

// hostPool holds one server's sessions.
type hostPool struct {
	n       int             // sessions, busy, idle and being dialed
	idle    []*session      // most recently used last
	waiters []chan *session // nil sent: a slot is free, dial

	// The server's own limit, learnt when it turned a session away
	// (lower): limit sessions until the time until; 0: none known.
	limit int
	until time.Time

	logins  map[key]int // logged-in sessions, busy and idle, per login
	dialing int         // new sessions connecting and logging in
}

// max returns how many sessions hp may hold: c's MaxConnsPerHost, or
// the server's lower limit while it holds; c.mu is held.
func (hp *hostPool) max(c *Client) int {
	m := c.maxConns()
	if hp.limit > 0 && hp.limit < m && time.Now().Before(hp.until) {
		return hp.limit
	}
	return m
}

// lower notes that the server turned away a new session of k (atLimit);
// sameLogin says the refusal was of the login, which counts only where
// c holds a session of k's user and password (a wrong password would
// have failed it too). It first lets the other new sessions of that
// server finish logging in, within ctx, since the server counted them
// before c knows of them.
// When c then holds logged-in sessions of that server (of k's login,
// for sameLogin), their number becomes its limit until IdleTimeout
// from now, the refused session's slot is freed, and lower reports
// true: the caller waits for one of them. With none, it changes
// nothing and reports false: the caller fails, and drops the slot.
func (c *Client) lower(ctx context.Context, k key, sameLogin bool) bool {
	hk := hostKey{k.scheme, k.addr}
	stop := context.AfterFunc(ctx, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.settled().Broadcast()
	})
	defer stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	hp := c.hosts[hk]
	proven := func() bool { return len(hp.logins) > 0 && (!sameLogin || hp.logins[k] > 0) }
	for hp.dialing > 0 && !proven() && ctx.Err() == nil {
		c.settled().Wait()
	}
	if !proven() || ctx.Err() != nil {
		return false
	}
	hp.n--
	hp.limit = 0
	for _, n := range hp.logins {
		hp.limit += n
	}
	d := c.idleTimeout()
	if d <= 0 {
		d = defaultIdle
	}
	hp.until = time.Now().Add(d)
	// When the limit ends, the Opens waiting for it may dial.
	time.AfterFunc(d, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.hosts[hk] == hp {
			hp.wake(c)
		}
	})
	hp.wake(c)
	return true
}

// settled returns the condition that a new session has logged in or
// failed; c.mu is held.
func (c *Client) settled() *sync.Cond {
	if c.cond == nil {
		c.cond = sync.NewCond(&c.mu)
	}
	return c.cond
}

// dialing counts a new session of k that connects and logs in (d 1) or
// has done so, well or not (d -1).
func (c *Client) dialing(k key, d int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hosts[hostKey{k.scheme, k.addr}].dialing += d
	c.settled().Broadcast()
}

// loggedIn notes that s, a new session, has logged in.
func (c *Client) loggedIn(s *session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hp := c.hosts[hostKey{s.key.scheme, s.key.addr}]
	if hp.logins == nil {
		hp.logins = map[key]int{}
	}
	hp.logins[s.key]++
	s.loggedIn = true
}

// retire notes that s, logged in, is gone; c.mu is held.
func (hp *hostPool) retire(s *session) {
	if s == nil || !s.loggedIn {
		return
	}
	s.loggedIn = false
	if hp.logins[s.key]--; hp.logins[s.key] == 0 {
		delete(hp.logins, s.key)
	}
}

// wake gives each free slot under hp's limit to a waiter, which
// dials; c.mu is held.
func (hp *hostPool) wake(c *Client) {
	for len(hp.waiters) > 0 && hp.n < hp.max(c) {
		hp.n++
		hp.nextWaiter() <- nil
	}
}

// get returns a session for k: an idle one that still works, or a new
// one once there is room under MaxConnsPerHost. fresh reports a new
// session, which the caller must dial.
//
// With onlyNew, the session is always a new one: an idle session (of
// any login) is closed to make room where the Client is at its limit,
// and one handed over by another use is closed and its slot taken.
func (c *Client) get(ctx context.Context, k key, onlyNew bool) (s *session, fresh bool, err error) {
	hk := hostKey{k.scheme, k.addr}
retry:
	for {
		c.mu.Lock()
		if c.hosts == nil {
			c.hosts = map[hostKey]*hostPool{}
		}
		hp := c.hosts[hk]
		if hp == nil {
			hp = &hostPool{}
			c.hosts[hk] = hp
		}
		// An idle session with the same login, most recent first.
		for i := len(hp.idle) - 1; i >= 0 && !onlyNew; i-- {
			if s := hp.idle[i]; s.key == k {
				hp.idle = slices.Delete(hp.idle, i, i+1)
				c.mu.Unlock()
				if s.wake() {
					return s, false, nil
				}
				s.abort()
				c.drop(k, s)
				continue retry
			}
		}
		if hp.n < hp.max(c) {
			hp.n++
			c.mu.Unlock()
			return &session{key: k, client: c}, true, nil
		}
		// Full: an idle session of another login (or, for onlyNew, of
		// any) makes room.
		if len(hp.idle) > 0 {
			old := hp.idle[0]
			hp.idle = hp.idle[1:]
			hp.retire(old)
			c.mu.Unlock()
			old.wake()
			old.quit()
			return &session{key: k, client: c}, true, nil
		}
		w := make(chan *session, 1)
		hp.waiters = append(hp.waiters, w)
		c.mu.Unlock()
		select {
		case s := <-w:
			if s == nil {
				return &session{key: k, client: c}, true, nil
			}
			if s.key == k && !onlyNew {
				return s, false, nil
			}
			c.mu.Lock()
			hp.retire(s)
			c.mu.Unlock()
			s.quit()
			return &session{key: k, client: c}, true, nil
		case <-ctx.Done():
			c.mu.Lock()
			i := slices.Index(hp.waiters, w)
			if i >= 0 {
				hp.waiters = slices.Delete(hp.waiters, i, i+1)
			}
			c.mu.Unlock()
			if i < 0 {
				// Handed a session or a slot meanwhile: give it back.
				if s := <-w; s != nil {
					c.put(s)
				} else {
					c.drop(k, nil)
				}
			}
			return nil, false, ctx.Err()
		}
	}
}

// put gives back a session whose last use ended cleanly: to a waiter,
// or to the idle list.
func (c *Client) put(s *session) {
	s.forget()
	// A byte already waiting on the control connection is a reply no
	// command asked for: the session is out of step.
	if c.idleTimeout() < 0 || s.closed() || !s.canGoHome() || s.ctl.r.Buffered() > 0 {
		s.quit()
		c.drop(s.key, s)
		return
	}
	c.mu.Lock()
	hp := c.hosts[hostKey{s.key.scheme, s.key.addr}]
	if w := hp.nextWaiter(); w != nil {
		c.mu.Unlock()
		w <- s
		return
	}
	s.sleep(c.idleTimeout(), func() { c.expire(s) })
	hp.idle = append(hp.idle, s)
	c.mu.Unlock()
}

// nextWaiter takes the longest-waiting use off hp's queue, or returns
// nil; c.mu is held.
func (hp *hostPool) nextWaiter() chan *session {
	if len(hp.waiters) == 0 {
		return nil
	}
	w := hp.waiters[0]
	hp.waiters = hp.waiters[1:]
	return w
}

// drop notes that a session of k has ended (s, or a slot no session
// took when s is nil), and lets a waiter dial.
func (c *Client) drop(k key, s *session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	hk := hostKey{k.scheme, k.addr}
	hp := c.hosts[hk]
	hp.n--
	hp.retire(s)
	hp.wake(c)
	c.prune(hk, hp)
}

// prune forgets a server with no session and no waiter, so that a
// crawler's Client does not keep one entry a host ever met; c.mu is
// held.
func (c *Client) prune(hk hostKey, hp *hostPool) {
	if hp.n == 0 && len(hp.idle) == 0 && len(hp.waiters) == 0 {
		delete(c.hosts, hk)
	}
}

// expire closes an idle session whose IdleTimeout has passed.
func (c *Client) expire(s *session) {
	c.mu.Lock()
	hp := c.hosts[hostKey{s.key.scheme, s.key.addr}]
	i := slices.Index(hp.idle, s)
	if i < 0 {
		c.mu.Unlock()
		return
	}
	hp.idle = slices.Delete(hp.idle, i, i+1)
	c.mu.Unlock()
	s.wake()
	s.quit()
	c.drop(s.key, s)
}

// CloseIdleConnections ends every idle session (QUIT, RFC 959 §4.1.1), as
// net/http.Transport's method of that name does. Sessions in use are
// left alone.
func (c *Client) CloseIdleConnections() {
	c.mu.Lock()
	var idle []*session
	for _, hp := range c.hosts {
		idle = append(idle, hp.idle...)
		hp.idle = nil
	}
	c.mu.Unlock()
	for _, s := range idle {
		s.wake()
		s.quit()
		c.drop(s.key, s)
	}
}
