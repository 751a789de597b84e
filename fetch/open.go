package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"syscall"

	"github.com/ftpurl/ftpurl"
)

// A request is one Open or Stat, parsed and planned, before it
// connects.
type request struct {
	u        *ftpurl.URL
	plan     *ftpurl.Plan
	cfg      config
	user     string
	password string
	redacted string
	key      key
}

// newRequest parses rawURL, makes its plan and its login, and checks
// the options against them: everything that can fail before
// connecting.
func newRequest(rawURL string, opts []Option) (*request, error) {
	r, err := parseRequest(rawURL, opts)
	if err != nil {
		return nil, err
	}
	if err := r.checkOffset(); err != nil {
		return nil, err
	}
	return r, nil
}

// parseRequest is newRequest without the check of WithOffset, which
// Put makes its own way.
func parseRequest(rawURL string, opts []Option) (*request, error) {
	cfg := newConfig(opts)
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return newRequestFor(u, cfg)
}

// newConfig applies opts in order.
func newConfig(opts []Option) config {
	var cfg config
	for _, opt := range opts {
		if opt != nil {
			opt(&cfg)
		}
	}
	return cfg
}

// newRequestFor is newRequest for a URL parsed already.
func newRequestFor(u *ftpurl.URL, cfg config) (*request, error) {
	r := &request{cfg: cfg}
	plan, err := u.Plan(r.cfg.planOpts...)
	if err != nil {
		return nil, err
	}
	r.u, r.plan, r.redacted = u, plan, u.Redacted()
	if err := r.login(); err != nil {
		return nil, err
	}
	r.key = key{scheme: scheme(u), addr: u.Address(), user: r.user, password: r.password, tls: plain}
	switch {
	case r.key.scheme == "ftps":
		r.key.tls = implicit
	case r.cfg.tls:
		r.key.tls = explicit
	}
	return r, nil
}

// login takes the user and password from the URL (ftpurl.URL.Login),
// or from WithPassword.
func (r *request) login() error {
	u := r.u
	user, password, ok := u.Login()
	if !ok {
		switch {
		case !u.NeedsPassword():
			return &Error{Op: "login", URL: r.redacted, Err: errors.New("the user name or password holds CR, LF or NUL")}
		case !r.cfg.hasPassword:
			return &Error{Op: "login", URL: r.redacted, Err: ErrPasswordRequired}
		case strings.ContainsAny(r.cfg.password, "\r\n\x00"):
			return &Error{Op: "login", URL: r.redacted, Err: errors.New("the WithPassword password holds CR, LF or NUL")}
		}
		user, password = u.User.Username(), r.cfg.password
	}
	r.user, r.password = user, password
	return nil
}

func (r *request) checkOffset() error {
	off := r.cfg.offset
	switch {
	case off == 0:
		return nil
	case off < 0:
		return &Error{Op: "rest", URL: r.redacted, Err: errors.New("WithOffset: the offset " + strconv.FormatInt(off, 10) + " is negative")}
	case r.plan.Action != ftpurl.Retrieve && r.plan.Action != ftpurl.RetrieveOrList:
		return nil // a listing has no offset: it is listed as without one
	case r.plan.Type != ftpurl.TypeImage:
		return &Error{Op: "rest", URL: r.redacted, Err: errors.New("WithOffset needs TYPE I: the URL's ;type=" + string(rune(r.plan.Type)) + " transfers other bytes than the file holds (RFC 3659 §5.1)")}
	}
	return nil
}

func (r *request) secrets() []string {
	if r.u.User == nil {
		return nil
	}
	if _, has := r.u.User.Password(); !has && !r.cfg.hasPassword {
		return nil
	}
	return secretsOf(r.password)
}

// connect gives r a logged-in session of c, bound to ctx: an idle one
// or a new one (with onlyNew, a new one). A new session that the server turns away at its limit
// (atLimit) while c holds others of that server lowers c's limit for
// it, and connect waits, under ctx, for one of those instead.
func (c *Client) connect(ctx context.Context, r *request, onlyNew bool) (s *session, reused bool, err error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, &Error{Op: "dial", URL: r.redacted, Err: err}
		}
		s, fresh, err := c.get(ctx, r.key, onlyNew)
		if err != nil {
			return nil, false, &Error{Op: "dial", URL: r.redacted, Err: err}
		}
		s.bind(ctx, r.redacted, r.secrets())
		s.dialTimeout = r.cfg.dialTimeout
		if !fresh {
			return s, true, nil
		}
		c.dialing(s.key, 1)
		err = s.dial(ctx, r.u, r.user, r.password)
		if err == nil {
			c.loggedIn(s)
			c.dialing(s.key, -1)
			return s, false, nil
		}
		s.unbind()
		s.abort()
		c.dialing(s.key, -1)
		if limit, sameLogin := atLimit(err); limit && ctx.Err() == nil && c.lower(ctx, s.key, sameLogin) {
			continue
		}
		c.drop(s.key, s)
		return nil, false, err
	}
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

// withTimeout applies WithTimeout to ctx.
func (r *request) withTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	if r.cfg.timeout > 0 {
		return context.WithTimeout(ctx, r.cfg.timeout)
	}
	return ctx, func() {}
}

// Open fetches what rawURL names with [DefaultClient]; see
// [Client.Open].
func Open(ctx context.Context, rawURL string, opts ...Option) (*Response, error) {
	return DefaultClient.Open(ctx, rawURL, opts...)
}

// Open fetches what rawURL names and returns it as a Response, which the
// caller must Close; on failure, a nil Response and an error, never nil
// and nil.
//
// It parses rawURL ([ftpurl.Lenient] unless [WithGrammar]) and makes its
// [ftpurl.Plan]; a parse or plan error is returned as the *[ftpurl.Error]
// it is, and a user without a password fails with [ErrPasswordRequired]
// before connecting, unless [WithPassword] gives one. Open then reuses an
// idle session of the same server and login, or dials and logs in
// ([ftpurl.URL.Login]), and runs the Plan's steps (2011 draft §3.2.3),
// skipping a CWD or TYPE already in force: a file is read from the
// Response, a listing is in Response.Entries or Response.Names. A RETR
// refused with 550, before or after its 150, runs Plan.Fallback; an empty
// listing with an argument runs Plan.Verify, whose 550 is [ErrNotFound].
//
// A reused session that the server had left (a restart, a 421) makes
// Open run again on another session, as the [Client] doc says; ctx
// bounds the whole fetch, retries and reading included. Every other error of Open,
// and of Read but io.EOF and a Read after Close, is an *[Error] that names
// the step and holds the server's reply; none shows the password.
func (c *Client) Open(ctx context.Context, rawURL string, opts ...Option) (*Response, error) {
	r, err := newRequest(rawURL, opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := r.withTimeout(ctx)
	var resp *Response
	err = c.do(ctx, r, func(rn *runner) error {
		resp = &Response{URL: r.redacted, Plan: r.plan, Size: -1, client: c, sess: rn.s, offset: r.cfg.offset}
		return rn.open(resp)
	})
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.body == nil {
		// A listing, or an empty file: the session went back already.
		cancel()
		return resp, nil
	}
	resp.live, resp.cancel = resp.sess, cancel
	return resp, nil
}

// gone reports whether err shows that a reused session's server had
// left (421, or the connection ended or was reset) by the time the
// plan began: the plan, which only reads, runs again on a new session
// (Client.do), as net/http retries an idempotent request on a
// reused connection that the server closed. A transfer confirmed short
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
