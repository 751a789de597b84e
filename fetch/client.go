package fetch

import (
	"context"
	"crypto/tls"
	"net"
	"sync"
	"time"

	"github.com/ftpurl/ftpurl"
)

// A Client fetches ftp and ftps URLs and keeps the sessions it logged
// in for the next URL of the same server, as curl, wget and
// net/http.Client do: 300 files from one mirror cost one login. Its
// zero value is ready to use, with the defaults below; [DefaultClient]
// is the one that [Open] and [Stat] use.
//
// Sessions are kept per scheme, address, user, password and TLS mode.
// A reused session first goes back to the login directory (the PWD
// after login) unless the URL's path is absolute. A file read to its
// end gives its session back; one closed early, or broken, ends it.
//
// Faults are recovered from as net/http's Transport does. A session
// the server left while idle (a 421, the connection's end) is replaced
// before the plan starts. When a reused session fails as the plan runs
// because the server has left it (a 421 reply to any command, the
// connection ended or reset: a server restarted while the session was
// idle, its FIN lost on the way), Open, Stat, ReadDir, Walk and Put run
// again once, on a new session (the other idle sessions of a server
// that restarted are as dead), within their context: nothing of the
// result has reached the caller then (Open returns only once the
// transfer has begun; a Read's error is never retried). A Put whose
// STOR or APPE the server accepted is never sent again. A new
// session's failure is the caller's.
//
// A server's own connection limit is waited out. A new session that
// the server turns away (a 421 in place of its greeting, RFC 959 §5.4,
// as vsftpd's max_per_ip, Pure-FTPd's -C and pyftpdlib's
// max_cons_per_ip answer; a connection refused, reset or closed before
// the greeting; or a login refused with 530 while the Client holds
// another session of that user and password, as ProFTPD's
// MaxClientsPerHost refuses PASS) while the Client holds other
// sessions of that server lowers the Client's limit for that server to
// the sessions it holds, and the Open waits for one of them, within
// its context. The limit rises again to
// MaxConnsPerHost after IdleTimeout (30 seconds where sessions are not
// reused), and the Opens still waiting may then dial. With no other
// session, the refusal is the caller's error: an *[Error] of Op "dial"
// (Code 421, or 0 for a connection refused) or "login" (Code 530).
//
// A Client is safe for concurrent use by several goroutines. Its
// fields must not change once it is in use.
type Client struct {
	// TLSConfig configures TLS for ftps:// URLs and WithTLS. Each
	// control connection gets its own clone, with a ClientSessionCache
	// of its own, and ServerName set to the URL's host when the config
	// has none (see the package doc, "TLS"). nil: a zero tls.Config,
	// which verifies certificates against the system's roots, as
	// net/http does.
	TLSConfig *tls.Config

	// DialContext makes the TCP connections, control and data alike: a
	// proxy or a test network goes here. nil: a net.Dialer.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)

	// MaxConnsPerHost caps the sessions to one server (scheme, host
	// and port) at once, busy and idle: FTP servers limit connections
	// per address and answer 421 beyond it. An Open or Stat beyond it
	// waits for a session, within its context. A server whose limit is
	// lower sets the cap for a while (see above). 0: 2.
	MaxConnsPerHost int

	// IdleTimeout is how long an idle session is kept for reuse. 0: 30
	// seconds; negative: sessions are never reused (each fetch logs in
	// and ends with QUIT).
	IdleTimeout time.Duration

	// StallTimeout fails the step at hand when the server sends nothing
	// (or takes nothing) for this long, with or without a context
	// deadline: a greeting, a reply or a byte of a transfer that does
	// not come. One stall costs one StallTimeout wherever it happens: a
	// transfer that stalled does not wait again for its final reply,
	// and an EPSV that got no answer is not followed by PASV. The
	// *[Error] names the command that stalled, and errors.Is(err,
	// os.ErrDeadlineExceeded) holds. 0: 2 minutes; negative: none.
	StallTimeout time.Duration

	mu    sync.Mutex
	cond  *sync.Cond // on mu: a new session has logged in or failed
	hosts map[hostKey]*hostPool
}

// DefaultClient is the Client that the package functions Open and Stat
// use.
var DefaultClient = &Client{}

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
				hp.idle = append(hp.idle[:i], hp.idle[i+1:]...)
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
		{
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
				i := indexOf(hp.waiters, w)
				if i >= 0 {
					hp.waiters = append(hp.waiters[:i], hp.waiters[i+1:]...)
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
}

func indexOf(ws []chan *session, w chan *session) int {
	for i, x := range ws {
		if x == w {
			return i
		}
	}
	return -1
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

// nextWaiter takes the longest-waiting Open or Stat off hp's queue, or
// returns nil; c.mu is held.
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

// release ends a session's use: back to the pool when ok, else closed.
func (c *Client) release(s *session, ok bool) {
	if !s.unbind() {
		ok = false // the context ended meanwhile and closed it
	}
	if ok && !s.closed() {
		c.put(s)
		return
	}
	s.abort()
	c.drop(s.key, s)
}

// expire closes an idle session whose IdleTimeout has passed.
func (c *Client) expire(s *session) {
	c.mu.Lock()
	hp := c.hosts[hostKey{s.key.scheme, s.key.addr}]
	i := -1
	for j, x := range hp.idle {
		if x == s {
			i = j
		}
	}
	if i < 0 {
		c.mu.Unlock()
		return
	}
	hp.idle = append(hp.idle[:i], hp.idle[i+1:]...)
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
