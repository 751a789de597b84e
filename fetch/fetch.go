// Package fetch retrieves what an ftp URL names: the file as a stream of
// bytes, or the listing of a directory, in one call.
//
//	resp, err := fetch.Open(ctx, "ftp://ftp.example.org/pub/README")
//	if err != nil {
//		return err
//	}
//	defer resp.Close()
//	_, err = io.Copy(os.Stdout, resp)
//
// Open parses the URL with package ftpurl, logs in as [ftpurl.URL.Login]
// says, and runs the [ftpurl.Plan] of the URL exactly, command by
// command, with github.com/jlaffaye/ftp, as the 2011 draft
// (draft-yevstifeyev-ftp-uri-scheme-06) §3.2.3 says: one CWD per
// directory (1), one TYPE (2), then RETR, LIST or NLST (4a)-(4d). A URL whose
// last segment may name a file or a directory (no ";type=", §3.2.3
// (4d)) is tried with RETR first and listed when the server refuses it
// with 550 (RFC 959 §4.2: "Requested action not taken. File
// unavailable").
//
// Where jlaffaye/ftp would depart from the plan, it is told not to: it
// lists with LIST, never MLSD (RFC 3659 §7 makes MLSD an extension, and
// the plan says LIST), and it does not send "OPTS UTF8 ON" (the 2011
// draft §3.3 sends the octets of the path as they are). Its login sends
// "TYPE I" of its own; the plan's TYPE comes after it, so the plan's
// type is the one in force.
//
// The package is tested against five servers on loopback: ftpserverlib
// (in-process, in every run of go test), vsftpd, ProFTPD, Pure-FTPd and
// pyftpdlib. Where they answer the same plan differently, the tests say
// so server by server.
package fetch

import (
	"context"
	"errors"
	"io"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/jlaffaye/ftp"
)

// An Option changes how Open fetches a URL. Open applies its options in
// order, so when two set the same thing the later one wins; a nil
// Option is ignored.
type Option func(*config)

type config struct {
	grammar     ftpurl.Grammar
	planOpts    []ftpurl.PlanOption
	password    string
	hasPassword bool
	timeout     time.Duration
	dialTimeout time.Duration
}

// WithGrammar parses the URL with g instead of [ftpurl.Lenient]. A g
// that is not one of the four grammars (Lenient, RFC1738, RFC2396,
// RFC3986) is a programming error: Open then returns, before it
// connects, the *[ftpurl.Error] of [ftpurl.Grammar.Parse] as it is, with
// Op "parse" and Offset -1, wrapping none of ftpurl's sentinel errors
// (errors.Is(err, ftpurl.ErrScheme) and the others are false).
func WithGrammar(g ftpurl.Grammar) Option {
	return func(c *config) { c.grammar = g }
}

// WithMethod walks the directories with m ([ftpurl.MultiCWD] by
// default); see [ftpurl.WithMethod]. An m that is not one of the three
// methods is a programming error: Open then returns, before it
// connects, the *[ftpurl.Error] of [ftpurl.URL.Plan] as it is, with Op
// "plan", wrapping none of ftpurl's sentinel errors.
func WithMethod(m ftpurl.Method) Option {
	return func(c *config) { c.planOpts = append(c.planOpts, ftpurl.WithMethod(m)) }
}

// WithAbsolutePaths reads the path from the root of the server's file
// system, as browsers do, instead of from the login directory (the 1997
// draft §3.1 convention); see [ftpurl.WithAbsolutePaths].
func WithAbsolutePaths() Option {
	return func(c *config) { c.planOpts = append(c.planOpts, ftpurl.WithAbsolutePaths()) }
}

// WithPassword gives the password for a URL that names a user without
// one ("ftp://alice@host/file"): the answer to the server's 331 that the
// 2011 draft §3.2.2 says a client asks its user for. It is not used
// when the URL has a password, or no user, or an anonymous user
// ("anonymous" or "ftp", in any case).
//
// A password that would be used and holds CR, LF or NUL (which would
// end the PASS command early, RFC 959 §4.1.3) makes Open fail before it
// connects, with an *Error whose Op is "login", Command "" and Code 0,
// and whose Err is a plain error, "the WithPassword password holds CR,
// LF or NUL": not ErrPasswordRequired, nor any other sentinel.
func WithPassword(password string) Option {
	return func(c *config) { c.password, c.hasPassword = password, true }
}

// WithTimeout limits the whole fetch to d: dialing, logging in, running
// the plan, and reading the file until Close. It is the same as a
// context deadline d from now; the earlier of the two applies. Zero or
// a negative d sets no limit.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// WithDialTimeout limits each connection attempt (the control
// connection and every data connection) to d. Zero or a negative d sets
// no limit of its own; the context's deadline still applies.
func WithDialTimeout(d time.Duration) Option {
	return func(c *config) { c.dialTimeout = d }
}

// ErrPasswordRequired is the Err of the *Error (Op "login", Command "",
// Code 0) that Open returns, before it connects, for a URL with a user
// name other than "anonymous" or "ftp" (in any case) and no password
// ("ftp://alice@host/") when no WithPassword option gives one.
var ErrPasswordRequired = errors.New("the URL names a user without a password: give one with WithPassword")

// A Response is what Open fetched: a file to read, or a listing.
//
// For a file (Action is [ftpurl.Retrieve]), Read reads the bytes as the
// data connection brings them, in the TYPE that the plan sent: "TYPE I"
// when the URL has no typecode, so the bytes are the file's own.
// Reading to the end checks the server's final reply (226, RFC 959
// §4.2): a transfer the server reports as failed ends with an *Error
// instead of io.EOF, so a cut-short file never looks whole.
//
// For a listing (Action is [ftpurl.List] or [ftpurl.NameList]), Entries
// or Names holds it (nil for an empty listing), Read returns io.EOF at
// once, and the session has already ended.
//
// Close ends the transfer, if it is still running, and the session
// (QUIT, RFC 959 §4.1.1). It must be called for a file; calling it
// again, or for a listing, does nothing and returns nil. A Response is
// not safe for concurrent use, except that cancelling Open's context
// ends the session at any time, as a deadline does.
type Response struct {
	// URL is the URL fetched, redacted (ftpurl.URL.Redacted).
	URL string

	// Plan is the plan that Open ran: Plan.Fallback's steps ran too when
	// Fallback is true.
	Plan *ftpurl.Plan

	// Action is what ran: Retrieve (a file), List (Entries) or
	// NameList (Names). A RetrieveOrList plan gives Retrieve when RETR
	// succeeded and List when its fallback ran.
	Action ftpurl.Action

	// Fallback reports whether RETR of a RetrieveOrList plan was refused
	// with 550 and Plan.Fallback (CWD Name, TYPE A, LIST) ran instead
	// (2011 draft §3.2.3 (4d)).
	Fallback bool

	// Entries is the LIST listing, parsed by github.com/jlaffaye/ftp.
	// LIST output has no standard form (RFC 959 §4.1.3 leaves it to
	// the server); lines the parser does not understand are left out.
	// It is nil for an empty listing, and when Action is not List.
	Entries []*ftp.Entry

	// Names is the NLST listing: one name a line, as the server sent
	// them (RFC 959 §4.1.3), without the CRLF. Some servers include
	// "." and "..". It is nil for an empty listing, and when Action is
	// not NameList.
	Names []string

	body     *ftp.Response // the RETR data connection; nil when done
	sess     *session
	peek     []byte // bytes read ahead to tell a file from a refusal
	readErr  error  // the error every later Read returns
	finished bool   // the transfer ended (reply read) or was abandoned
}

// Read reads the file's bytes. It returns io.EOF after the last byte,
// once the server has confirmed the transfer (at once for an empty
// file), and an *Error with Op "retr" if the transfer fails: the server
// reports it failed, the connection breaks, or the context ends. Once
// Read has returned io.EOF or an error, every later call returns 0 and
// the same error, Close or not.
//
// After Close, a Read that had not returned an error yet returns 0 and
// a plain error (not an *Error): "fetch: read from a closed Response".
// For a listing Read returns 0, io.EOF, before and after Close. Read of
// a nil *Response panics.
func (r *Response) Read(p []byte) (int, error) {
	if r.readErr != nil {
		return 0, r.readErr
	}
	if len(r.peek) > 0 {
		n := copy(p, r.peek)
		r.peek = r.peek[n:]
		return n, nil
	}
	if r.body == nil {
		// An empty file, or a listing: every later Read says so too,
		// after Close as well.
		r.readErr = io.EOF
		return 0, io.EOF
	}
	n, err := r.body.Read(p)
	if err == nil {
		return n, nil
	}
	if err != io.EOF {
		r.readErr = r.sess.fail("retr", "RETR "+r.Plan.Name, err)
		return n, r.readErr
	}
	// The data connection closed: the reply on the control connection
	// says whether the file is whole.
	r.readErr = io.EOF
	if cerr := r.endTransfer(); cerr != nil {
		r.readErr = r.sess.fail("retr", "RETR "+r.Plan.Name, cerr)
	}
	return n, r.readErr
}

// endTransfer closes the data connection and reads the server's final
// reply to RETR.
func (r *Response) endTransfer() error {
	if r.finished || r.body == nil {
		return nil
	}
	r.finished = true
	return r.body.Close()
}

// Close ends the transfer, if it still runs, and the session. A
// transfer ended before its last byte is abandoned: the data
// connection is closed without waiting for the server's reply.
//
// Close returns nil unless sending QUIT on a connection still open
// failed: then an *Error with Op "quit" and Command "QUIT". It closes
// the connections either way. Once the context has ended (which closes
// the connections) it sends no QUIT and returns nil. Calling it again,
// for a listing (whose session Open has already ended), or for a nil
// *Response does nothing and returns nil.
func (r *Response) Close() error {
	if r == nil || r.sess == nil {
		return nil
	}
	s := r.sess
	r.sess = nil
	r.finished = true
	if r.readErr == nil {
		r.readErr = errors.New("fetch: read from a closed Response")
	}
	r.peek = nil
	r.body = nil
	return s.end()
}

// session is one control connection and the data connections it opens.
type session struct {
	ctx    context.Context
	url    string // redacted
	conn   *ftp.ServerConn
	cancel context.CancelFunc
	stop   func() bool // stops the context watcher

	mu    sync.Mutex
	conns []net.Conn
	done  bool
}

// dial is the dial function jlaffaye/ftp uses for the control and the
// data connections: it honours ctx and keeps each connection, so that
// cancelling ctx or ending the session closes them all.
func (s *session) dial(ctx context.Context, timeout time.Duration) func(network, address string) (net.Conn, error) {
	return func(network, address string) (net.Conn, error) {
		d := net.Dialer{Timeout: timeout}
		c, err := d.DialContext(ctx, network, address)
		if err != nil {
			return nil, err
		}
		if dl, ok := ctx.Deadline(); ok {
			_ = c.SetDeadline(dl)
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
}

// closeAll closes every connection of the session at once.
func (s *session) closeAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}

// end sends QUIT and closes every connection.
func (s *session) end() error {
	if s.stop != nil {
		s.stop()
	}
	var err error
	if s.conn != nil {
		s.mu.Lock()
		done := s.done
		s.mu.Unlock()
		if !done {
			// Quit writes QUIT and closes the control connection; it
			// does not wait for the 221.
			if qerr := s.conn.Quit(); qerr != nil && !errors.Is(qerr, net.ErrClosed) {
				err = s.fail("quit", "QUIT", qerr)
			}
		}
	}
	s.closeAll()
	if s.cancel != nil {
		s.cancel()
	}
	return err
}

// fail builds the *Error of a step.
func (s *session) fail(op, command string, err error) *Error {
	e := &Error{Op: op, URL: s.url, Command: command, Err: err}
	var tp *textproto.Error
	if errors.As(err, &tp) {
		e.Code, e.Msg = tp.Code, tp.Msg
	} else if s.ctx != nil && s.ctx.Err() != nil {
		// The step failed because the context ended and closed the
		// connections: say so (errors.Is(err, context.Canceled)).
		e.Err = errors.Join(s.ctx.Err(), err)
	}
	return e
}

// Open fetches what rawURL names and returns it as a Response, which
// the caller must Close. On failure it returns a nil *Response and an
// error; it never returns nil and nil.
//
// It parses rawURL (with [ftpurl.Lenient] unless WithGrammar says
// otherwise) and makes its [ftpurl.Plan]; a URL that does not parse, or
// that Plan refuses, returns the *ftpurl.Error as it is. It takes the
// login from [ftpurl.URL.Login]: a user without a password needs
// WithPassword, or Open returns an *Error wrapping ErrPasswordRequired
// before it connects. Then it dials the URL's address (port 21 by
// default), logs in, and runs the plan:
//
//   - "CWD dir" for each of Plan.Dirs (2011 draft §3.2.3 (1));
//   - "TYPE t" for Plan.Type (§3.2.3 (2)), after the login's own TYPE I;
//   - for Retrieve, "RETR name" (§3.2.3 (4c)): the Response reads the
//     file;
//   - for List, "LIST" or "LIST name" (§3.2.3 (4a)): Response.Entries;
//   - for NameList, "NLST" or "NLST name" (§3.2.3 (4b)): Response.Names;
//   - for RetrieveOrList (§3.2.3 (4d)), "RETR name", and when the server
//     refuses it with 550, before or after the 150 that opens the
//     transfer, Plan.Fallback from the directory the plan reached:
//     "CWD name", "TYPE A", "LIST". A file of zero bytes is told from a
//     refusal by the server's final reply.
//
// The context bounds the whole fetch, reading the file included:
// cancelling it, or its deadline passing, closes the connections, and
// Read or Open return an error. Every error of Open but a parse or plan
// error is an *Error that names the step that failed and carries the
// server's reply when there was one; so is every error of Read but
// io.EOF and the one after Close. None shows the URL's password.
func Open(ctx context.Context, rawURL string, opts ...Option) (*Response, error) {
	var c config
	for _, opt := range opts {
		if opt != nil {
			opt(&c)
		}
	}
	u, err := c.grammar.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	plan, err := u.Plan(c.planOpts...)
	if err != nil {
		return nil, err
	}
	redacted := u.Redacted()
	user, password, ok := u.Login()
	if !ok {
		var name string
		var hasPass bool
		if u.User != nil {
			name = u.User.Username()
			_, hasPass = u.User.Password()
		}
		switch {
		case u.User == nil || hasPass || strings.ContainsAny(name, "\r\n\x00"):
			return nil, &Error{Op: "login", URL: redacted, Err: errors.New("the user name or password holds CR, LF or NUL")}
		case !c.hasPassword:
			return nil, &Error{Op: "login", URL: redacted, Err: ErrPasswordRequired}
		case strings.ContainsAny(c.password, "\r\n\x00"):
			return nil, &Error{Op: "login", URL: redacted, Err: errors.New("the WithPassword password holds CR, LF or NUL")}
		}
		user, password = name, c.password
	}

	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer func() {
			if cancel != nil {
				cancel()
			}
		}()
		s := &session{url: redacted}
		resp, err := open(ctx, s, u, plan, user, password, c)
		if err == nil && resp.sess != nil {
			resp.sess.cancel, cancel = cancel, nil
		}
		return resp, err
	}
	return open(ctx, &session{url: redacted}, u, plan, user, password, c)
}

func open(ctx context.Context, s *session, u *ftpurl.URL, plan *ftpurl.Plan, user, password string, c config) (resp *Response, err error) {
	if err := ctx.Err(); err != nil {
		return nil, &Error{Op: "dial", URL: s.url, Err: err}
	}
	s.stop = context.AfterFunc(ctx, s.closeAll)
	s.ctx = ctx
	defer func() {
		if err != nil {
			s.end()
		}
	}()

	conn, err := ftp.Dial(u.Address(),
		ftp.DialWithDialFunc(s.dial(ctx, c.dialTimeout)),
		ftp.DialWithDisabledMLSD(true),
		ftp.DialWithDisabledUTF8(true),
	)
	if err != nil {
		return nil, s.fail("dial", "", err)
	}
	s.conn = conn
	if err := conn.Login(user, password); err != nil {
		// jlaffaye/ftp reports a refused USER by its text alone.
		return nil, s.fail("login", "USER "+user, err)
	}

	resp = &Response{URL: s.url, Plan: plan, sess: s}
	if err := runSteps(s, plan, false); err != nil {
		return nil, err
	}
	switch plan.Action {
	case ftpurl.List:
		if err := resp.list(plan, false); err != nil {
			return nil, err
		}
		return resp, nil
	case ftpurl.NameList:
		if err := resp.nameList(plan); err != nil {
			return nil, err
		}
		return resp, nil
	case ftpurl.Retrieve:
		body, err := conn.Retr(plan.Name)
		if err != nil {
			return nil, s.fail("retr", "RETR "+plan.Name, err)
		}
		resp.body, resp.Action = body, ftpurl.Retrieve
		return resp, nil
	case ftpurl.RetrieveOrList:
		if err := resp.retrieveOrList(plan); err != nil {
			return nil, err
		}
		return resp, nil
	}
	return nil, &Error{Op: "plan", URL: s.url, Err: errors.New("the plan has no action: " + plan.Action.String())}
}

// runSteps sends the CWD and TYPE commands of p.
func runSteps(s *session, p *ftpurl.Plan, fallback bool) error {
	for _, d := range p.Dirs {
		if d == "" {
			continue // a null segment sends nothing (§3.2.3 (1))
		}
		if err := s.conn.ChangeDir(d); err != nil {
			e := s.fail("cwd", "CWD "+d, err)
			e.Fallback = fallback
			return e
		}
	}
	if t := p.Type; t != 0 {
		arg := strings.ToUpper(string(rune(t)))
		if err := s.conn.Type(ftp.TransferType(arg)); err != nil {
			e := s.fail("type", "TYPE "+arg, err)
			e.Fallback = fallback
			return e
		}
	}
	return nil
}

// list runs LIST and ends the session.
func (r *Response) list(p *ftpurl.Plan, fallback bool) error {
	s := r.sess
	entries, err := s.conn.List(p.Name)
	if err != nil {
		e := s.fail("list", strings.TrimSpace("LIST "+p.Name), err)
		e.Fallback = fallback
		return e
	}
	r.Action, r.Entries, r.Fallback = ftpurl.List, entries, fallback
	r.endListing()
	return nil
}

// endListing ends the session once a listing is read. Read of a
// listing returns io.EOF, after Close too; the listing is whole, so a
// failed QUIT changes nothing.
func (r *Response) endListing() {
	r.readErr = io.EOF
	_ = r.Close()
}

// nameList runs NLST and ends the session.
func (r *Response) nameList(p *ftpurl.Plan) error {
	s := r.sess
	names, err := s.conn.NameList(p.Name)
	if err != nil {
		return s.fail("nlst", strings.TrimSpace("NLST "+p.Name), err)
	}
	r.Action, r.Names = ftpurl.NameList, names
	r.endListing()
	return nil
}

// retrieveOrList runs RETR, and the plan's Fallback when the server
// refuses it with 550: at once, or after the 150, when the transfer
// ends without a byte (ftpserverlib answers so for a directory).
func (r *Response) retrieveOrList(p *ftpurl.Plan) error {
	s := r.sess
	body, err := s.conn.Retr(p.Name)
	if err == nil {
		// Read until the first byte or the end of the transfer.
		buf := make([]byte, 4096)
		for {
			n, rerr := body.Read(buf)
			if n > 0 {
				r.body, r.peek, r.Action = body, buf[:n], ftpurl.Retrieve
				return nil
			}
			if rerr == nil {
				continue
			}
			cerr := body.Close()
			if rerr != io.EOF {
				return s.fail("retr", "RETR "+p.Name, errors.Join(rerr, cerr))
			}
			if cerr == nil {
				// An empty file: the reply confirmed the transfer.
				r.finished, r.Action = true, ftpurl.Retrieve
				return nil
			}
			err = cerr
			break
		}
	}
	retrErr := s.fail("retr", "RETR "+p.Name, err)
	if retrErr.Code != ftp.StatusFileUnavailable {
		return retrErr
	}
	fb := p.Fallback
	if fb == nil {
		return retrErr
	}
	if err := runSteps(s, fb, true); err != nil {
		err.(*Error).prior = retrErr
		return err
	}
	if err := r.list(fb, true); err != nil {
		if e, ok := err.(*Error); ok {
			e.prior = retrErr
		}
		return err
	}
	return nil
}
