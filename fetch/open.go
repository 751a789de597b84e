package fetch

import (
	"context"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

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
	return c.open(ctx, r)
}

// open is Open of a request made already.
func (c *Client) open(ctx context.Context, r *request) (*Response, error) {
	ctx, cancel := r.withTimeout(ctx)
	x := c.newExchange(ctx, r)
	err := x.run(x.open)
	resp := x.resp
	if err != nil {
		cancel()
		return nil, err
	}
	if resp.body == nil {
		// A listing, or an empty file: the session went back already.
		cancel()
		return resp, nil
	}
	resp.live, resp.cancel = x.s, cancel
	return resp, nil
}

// asDirectory returns u with its Name as its last directory and no
// typecode: a URL of the directory u names, whatever it names.
func asDirectory(u *ftpurl.URL) *ftpurl.URL {
	d := *u
	if d.Name != "" {
		d.Dirs = append(slices.Clip(u.Dirs), u.Name)
	}
	d.Name, d.Type = "", 0
	return &d
}

// fileOf returns the URL of the file that d, a directory URL, names:
// its last directory as its Name.
func fileOf(d *ftpurl.URL) *ftpurl.URL {
	f := *d
	for i := len(d.Dirs) - 1; i >= 0; i-- {
		if d.Dirs[i] != "" {
			f.Dirs, f.Name = slices.Clip(d.Dirs[:i]), d.Dirs[i]
			break
		}
	}
	return &f
}

// baseName is the FileInfo name of u: its last path segment.
func baseName(u *ftpurl.URL) string {
	if u.Name != "" {
		return u.Name
	}
	for i := len(u.Dirs) - 1; i >= 0; i-- {
		if u.Dirs[i] != "" {
			return path.Base(u.Dirs[i])
		}
	}
	return "/"
}
