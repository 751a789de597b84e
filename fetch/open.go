package fetch

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/ftpurl/ftpurl"
	"github.com/jlaffaye/ftp"
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
	r := &request{}
	for _, opt := range opts {
		if opt != nil {
			opt(&r.cfg)
		}
	}
	u, err := r.cfg.grammar.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	plan, err := u.Plan(r.cfg.planOpts...)
	if err != nil {
		return nil, err
	}
	r.u, r.plan, r.redacted = u, plan, u.Redacted()
	if err := r.login(); err != nil {
		return nil, err
	}
	if err := r.checkOffset(); err != nil {
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
// or a new one.
func (c *Client) connect(ctx context.Context, r *request) (s *session, reused bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, false, &Error{Op: "dial", URL: r.redacted, Err: err}
	}
	s, fresh, err := c.get(ctx, r.key)
	if err != nil {
		return nil, false, &Error{Op: "dial", URL: r.redacted, Err: err}
	}
	s.bind(ctx, r.redacted, r.secrets())
	if fresh {
		if err := s.dial(ctx, r.u, r.user, r.password, &r.cfg); err != nil {
			c.release(s, false)
			return nil, false, err
		}
	}
	return s, !fresh, nil
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
// ctx bounds the whole fetch, reading included. Every other error of Open,
// and of Read but io.EOF and a Read after Close, is an *[Error] that names
// the step and holds the server's reply; none shows the password.
func (c *Client) Open(ctx context.Context, rawURL string, opts ...Option) (*Response, error) {
	r, err := newRequest(rawURL, opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := r.withTimeout(ctx)
	for retried := false; ; retried = true {
		s, reused, err := c.connect(ctx, r)
		if err != nil {
			cancel()
			return nil, err
		}
		resp := &Response{URL: r.redacted, Plan: r.plan, Size: -1, client: c, sess: s, live: s, cancel: cancel, offset: r.cfg.offset}
		if err := resp.run(r); err != nil {
			resp.release(reusable(err))
			if reused && !retried && gone(ctx, err) {
				continue
			}
			cancel()
			return nil, err
		}
		return resp, nil
	}
}

// gone reports whether err shows that a reused session's server had
// left (421, or the connection ended) by the time the plan began: the
// plan, which only reads, runs again once on a new session, as
// net/http retries an idempotent request on a reused connection that
// the server closed.
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
	if !errors.As(err, &e) || e.Code < 200 || e.Code == 421 {
		return false
	}
	return !e.Timeout() && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, context.Canceled)
}

// run runs the plan on resp's session.
func (resp *Response) run(r *request) error {
	p := r.plan
	st, e := resp.steps(p, false)
	if e != nil {
		return e
	}
	switch st.Command {
	case "LIST":
		if e := resp.list(p, st, false); e != nil {
			return e
		}
		return nil
	case "NLST":
		if e := resp.nameList(p, st); e != nil {
			return e
		}
		return nil
	case "RETR":
		if p.Action == ftpurl.RetrieveOrList {
			return resp.retrieveOrList(p, st)
		}
		body, err := resp.retr(st)
		if err != nil {
			return err
		}
		resp.body, resp.Action, resp.retrCmd = body, ftpurl.Retrieve, st.String()
		return nil
	}
	return &Error{Op: "plan", URL: resp.sess.redacted, Err: errors.New("the plan has no action: " + p.Action.String())}
}

// steps sends the CWD and TYPE steps of p (ftpurl.Plan.Steps) and
// returns its last step, the action (RETR, LIST or NLST; none for a
// Verify). The first plan of a reused session starts from where the
// plan starts (goHome), and skips the CWDs the session has made
// already.
func (resp *Response) steps(p *ftpurl.Plan, fallback bool) (ftpurl.Step, *Error) {
	s := resp.sess
	steps := p.Steps()
	if steps == nil {
		return ftpurl.Step{}, &Error{Op: "plan", URL: s.redacted, Err: errors.New("the plan fails ftpurl's checks (Plan.Steps is nil)")}
	}
	skip := 0
	if !fallback {
		var err error
		if skip, err = s.goHome(p); err != nil {
			return ftpurl.Step{}, s.fail("cwd", "CWD "+s.home, err)
		}
	}
	for _, st := range steps {
		switch st.Command {
		case "CWD":
			if skip > 0 {
				skip--
				continue
			}
			if err := s.cwdTo(st.Arg, true); err != nil {
				e := s.fail("cwd", st.String(), err)
				e.Fallback = fallback
				e.notFound = e.Code == ftp.StatusFileUnavailable
				return ftpurl.Step{}, e
			}
		case "TYPE":
			if err := s.setType(ftpurl.Typecode(strings.ToLower(st.Arg)[0])); err != nil {
				e := s.fail("type", st.String(), err)
				e.Fallback = fallback
				return ftpurl.Step{}, e
			}
		default:
			return st, nil
		}
	}
	return ftpurl.Step{}, nil
}

// retr starts RETR name, after REST for an offset and SIZE where the
// 150 reply may not give the size.
func (resp *Response) retr(st ftpurl.Step) (*ftp.Response, error) {
	s, name := resp.sess, st.Arg
	_, hasSize := s.ctl.features()["SIZE"]
	if hasSize && s.typ == ftpurl.TypeImage && (!s.sizeIn150 || resp.offset > 0) {
		n, _, err := s.size(name)
		if err != nil {
			return nil, s.fail("size", "SIZE "+name, err)
		}
		resp.Size = n
	}
	body, err := s.conn.RetrFrom(name, uint64(resp.offset))
	if err != nil {
		cmd, _, _ := s.ctl.status()
		if strings.HasPrefix(cmd, "REST ") {
			return nil, s.fail("rest", cmd, err)
		}
		if cmd != st.String() {
			// jlaffaye/ftp's RetrFrom sends EPSV or PASV first: name
			// the command that failed, not the RETR it was for.
			return nil, s.fail("retr", cmd, err)
		}
		e := s.fail("retr", st.String(), err)
		e.notFound = e.Code == ftp.StatusFileUnavailable
		return nil, e
	}
	_, _, opened := s.ctl.status()
	if n := sizeIn150(opened); n >= 0 {
		s.sizeIn150 = true
		if resp.offset == 0 {
			resp.Size = n
		}
	}
	return body, nil
}

// sizeIn150 reads "(N bytes)" from the reply that opened a transfer,
// as vsftpd, ProFTPD and Pure-FTPd word it; -1 if there is none.
func sizeIn150(text string) int64 {
	i := strings.LastIndex(text, " bytes)")
	if i < 0 {
		return -1
	}
	j := strings.LastIndexByte(text[:i], '(')
	if j < 0 {
		return -1
	}
	n, err := strconv.ParseInt(text[j+1:i], 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// list runs LIST and gives the session back.
func (resp *Response) list(p *ftpurl.Plan, st ftpurl.Step, fallback bool) *Error {
	s := resp.sess
	cmd := st.String()
	var buf bytes.Buffer
	s.setListing(&buf)
	entries, err := s.conn.List(st.Arg)
	s.setListing(nil)
	if err != nil {
		e := s.fail("list", cmd, err)
		e.Fallback = fallback
		// LIST of a name (a directory, RFC 959 §4.1.3) refused with
		// 550: pyftpdlib's "No such file or directory".
		e.notFound = e.Code == ftp.StatusFileUnavailable
		return e
	}
	lines := splitLines(buf.String())
	if len(entries) == 0 {
		if err := resp.verify(p, st, lines, fallback); err != nil {
			return err
		}
	}
	resp.Action, resp.Entries, resp.Lines, resp.Fallback = ftpurl.List, entries, lines, fallback
	resp.endListing()
	return nil
}

// nameList runs NLST and gives the session back.
func (resp *Response) nameList(p *ftpurl.Plan, st ftpurl.Step) *Error {
	s := resp.sess
	var buf bytes.Buffer
	s.setListing(&buf)
	names, err := s.conn.NameList(st.Arg)
	s.setListing(nil)
	if err != nil {
		return s.fail("nlst", st.String(), err)
	}
	if len(names) == 0 {
		if err := resp.verify(p, st, nil, false); err != nil {
			return err
		}
	}
	resp.Action, resp.Names = ftpurl.NameList, names
	resp.endListing()
	return nil
}

// verify checks an empty listing: vsftpd and Pure-FTPd answer "LIST
// absent" and "NLST absent" with 150, nothing, 226, as for an empty
// directory. The plan's Verify ("CWD name") tells the two apart: 250
// for a directory, 550 for nothing (ErrNotFound). A listing that has
// lines but no entry is an error too: an "ls" error text is no
// directory.
func (resp *Response) verify(p *ftpurl.Plan, listing ftpurl.Step, lines []string, fallback bool) *Error {
	s := resp.sess
	op := strings.ToLower(listing.Command)
	if v := p.Verify; v != nil {
		for _, st := range v.Steps() {
			if st.Command != "CWD" {
				continue
			}
			if err := s.cwdTo(st.Arg, true); err != nil {
				e := s.fail("verify", st.String(), err)
				e.Fallback = fallback
				e.notFound = e.Code == ftp.StatusFileUnavailable
				if e.notFound {
					e.note = listing.String() + " listed nothing"
				}
				return e
			}
		}
	}
	for _, l := range lines {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "total" {
			continue
		}
		e := s.fail(op, listing.String(), errors.New("the listing holds no entry that fetch can read; its first line: "+strconv.Quote(clip(l))))
		e.Fallback = fallback
		return e
	}
	return nil
}

func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

func (s *session) setListing(b *bytes.Buffer) {
	s.mu.Lock()
	s.listing = b
	s.mu.Unlock()
}

// endListing gives the session back once a listing is read. Read of a
// listing returns io.EOF, after Close too.
func (resp *Response) endListing() {
	resp.readErr = io.EOF
	resp.finish(true)
}

// retrieveOrList runs RETR, and the plan's Fallback when the server
// refuses it with 550: at once, or after the 150, when the transfer
// ends without a byte (ftpserverlib answers so for a directory).
func (resp *Response) retrieveOrList(p *ftpurl.Plan, st ftpurl.Step) error {
	s := resp.sess
	body, err := resp.retr(st)
	var retrErr *Error
	if err == nil {
		// Read until the first byte or the end of the transfer.
		buf := make([]byte, 4096)
		for {
			n, rerr := body.Read(buf)
			if n > 0 {
				resp.body, resp.peek, resp.Action, resp.retrCmd = body, buf[:n], ftpurl.Retrieve, st.String()
				resp.n = int64(n)
				return nil
			}
			if rerr == nil {
				continue
			}
			cerr := body.Close()
			if rerr != io.EOF {
				// A data connection that breaks where the server refuses
				// the transfer (ftpserverlib over TLS, for a directory):
				// the reply decides.
				cause := errors.Join(cerr, rerr)
				if cerr != nil && isTimeout(cerr) && isTimeout(rerr) {
					cause = cerr // one stall, said once
				}
				retrErr = s.fail("retr", st.String(), cause)
				break
			}
			if cerr == nil {
				// An empty transfer: the reply confirmed it. Open
				// releases the session once if it falls short of Size.
				resp.Action, resp.retrCmd = ftpurl.Retrieve, st.String()
				if e := resp.shortErr(); e != nil {
					return e
				}
				if resp.Size < 0 && resp.offset == 0 {
					// The file is read and whole: its size is known,
					// even where the 150 left it out (ProFTPD does for
					// 0 bytes).
					resp.Size = 0
				}
				resp.readErr = io.EOF
				resp.finish(true)
				return nil
			}
			retrErr = s.fail("retr", st.String(), cerr)
			break
		}
	} else if !errors.As(err, &retrErr) {
		return err
	}
	if retrErr.Op != "retr" || retrErr.Code != ftp.StatusFileUnavailable || p.Fallback == nil {
		retrErr.notFound = retrErr.Op == "retr" && retrErr.Code == ftp.StatusFileUnavailable
		return retrErr
	}
	fb := p.Fallback
	fst, e := resp.steps(fb, true)
	if e != nil {
		e.prior = retrErr
		return e
	}
	if e := resp.list(fb, fst, true); e != nil {
		e.prior = retrErr
		return e
	}
	return nil
}

// A Response is what Open fetched: a file to read, or a listing.
//
// For a file (Action [ftpurl.Retrieve]), Read gives the bytes in the plan's
// TYPE (TYPE I when the URL has no typecode, so the file's own bytes). The
// end checks the server's final reply (226, RFC 959 §4.2) and, in TYPE I,
// the byte count against Size: a transfer that failed or ended short is an
// *[Error], never io.EOF. For a listing ([ftpurl.List], [ftpurl.NameList]),
// Entries or Names hold it, Read returns io.EOF, and the session is free.
//
// Close must be called for a file. It may be called from another goroutine
// while Read blocks, as with net.Conn; otherwise a Response is not safe for
// concurrent use.
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

	// Size is the size of the file in bytes, the whole file even with
	// WithOffset: from the server's 150 reply ("(N bytes)") or, where
	// that may lack it, from SIZE (RFC 3659 §4). -1 when the server
	// gives none, and for a listing.
	Size int64

	// Entries is the LIST listing, parsed by github.com/jlaffaye/ftp.
	// LIST output has no standard form (RFC 959 §4.1.3 leaves it to
	// the server); lines the parser does not understand are left out.
	// It is nil for an empty listing, and when Action is not List.
	//
	// Names are as the server sent them: they may hold "/", "..",
	// control characters or nothing at all. A program that makes files
	// from them must check them first (filepath.IsLocal).
	Entries []*ftp.Entry

	// Lines is the LIST listing as the server sent it, one line each,
	// without the line ends; nil when Action is not List.
	Lines []string

	// Names is the NLST listing: one name a line, as the server sent
	// them (RFC 959 §4.1.3), without the CRLF. Some servers include
	// "." and "..". It is nil for an empty listing, and when Action is
	// not NameList. As with Entries, the names are the server's and
	// must be checked before they name a file (filepath.IsLocal).
	Names []string

	client  *Client
	cancel  context.CancelFunc
	offset  int64
	retrCmd string // the RETR step, for Read's errors

	mu      sync.Mutex // held by Read and by Close's bookkeeping
	sess    *session   // the session of this use (see live)
	body    *ftp.Response
	peek    []byte // bytes read ahead to tell a file from a refusal
	n       int64  // bytes read from the data connection
	readErr error  // the error every later Read returns
	closed  bool

	// closing is set by Close before it cuts the connections, without
	// mu, which a blocked Read holds: the Read it cuts off tells that
	// error from a broken transfer.
	closing atomic.Bool

	liveMu sync.Mutex
	live   *session // sess until it is given back or closed
}

var errReadClosed = errors.New("fetch: read from a closed Response")

// Read reads the file's bytes. It returns io.EOF after the last byte, once
// the server has confirmed the transfer and the count agrees with Size, and
// an *[Error] with Op "retr" when the transfer fails (the server says so,
// it ends short, wrapping io.ErrUnexpectedEOF, the connection breaks, or
// the context ends). Later calls return the same, Close or not. After
// Close, a Read with no error yet returns the plain error "fetch: read from
// a closed Response". For a listing, Read returns io.EOF.
func (r *Response) Read(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.readErr != nil {
		return 0, r.readErr
	}
	if r.closed {
		r.readErr = errReadClosed
		return 0, r.readErr
	}
	if len(r.peek) > 0 {
		n := copy(p, r.peek)
		r.peek = r.peek[n:]
		return n, nil
	}
	if r.body == nil {
		r.readErr = io.EOF
		return 0, io.EOF
	}
	n, err := r.body.Read(p)
	r.n += int64(n)
	if err == nil {
		return n, nil
	}
	s := r.sess
	if r.closing.Load() {
		r.readErr = errReadClosed
		return n, r.readErr
	}
	if err != io.EOF {
		r.readErr = s.fail("retr", r.retrCmd, err)
		r.finish(false)
		return n, r.readErr
	}
	// The data connection closed: the reply on the control connection
	// says whether the file is whole.
	body := r.body
	r.body = nil
	if cerr := body.Close(); cerr != nil {
		if r.closing.Load() { // Close cut the wait for the final reply
			r.readErr = errReadClosed
			return n, r.readErr
		}
		r.readErr = s.fail("retr", r.retrCmd, cerr)
		r.finish(reusable(r.readErr))
		return n, r.readErr
	}
	if e := r.shortErr(); e != nil {
		r.readErr = e
		r.finish(false)
		return n, e
	}
	r.readErr = io.EOF
	r.finish(true)
	return n, io.EOF
}

// shortErr returns the error of a transfer that the server confirmed
// with fewer bytes than Size (curl's "partial file"), or nil. TYPE A
// may change the count (RFC 959 §3.1.1.1), so it is checked in TYPE I
// only.
func (r *Response) shortErr() *Error {
	want := r.Size - r.offset
	if r.Size < 0 || r.sess.typ != ftpurl.TypeImage || r.n >= want {
		return nil
	}
	e := r.sess.fail("retr", r.retrCmd, io.ErrUnexpectedEOF)
	e.note = "the server ended the transfer after " + strconv.FormatInt(r.n, 10) + " of " + strconv.FormatInt(want, 10) + " bytes"
	e.partial = true
	return e
}

// release ends the Response's use of its session, once: back to the
// Client when ok, closed otherwise.
func (r *Response) release(ok bool) {
	r.liveMu.Lock()
	s := r.live
	r.live = nil
	r.liveMu.Unlock()
	if s != nil {
		r.client.release(s, ok)
	}
}

// finish releases the session and ends WithTimeout's context.
func (r *Response) finish(ok bool) {
	r.release(ok)
	if r.cancel != nil {
		r.cancel()
	}
}

// Close ends the transfer if it still runs: the connections are closed
// at once, without waiting for the server (a session whose transfer
// was cut short is never reused), and a Read that blocks in another
// goroutine returns. A file read to its end has already given its
// session back. Close returns nil; calling it again, for a listing, or
// for a nil *Response does nothing.
func (r *Response) Close() error {
	if r == nil {
		return nil
	}
	// Unblock a Read first, without the lock it holds; a session
	// already given back is the Client's, and left alone.
	r.closing.Store(true)
	r.liveMu.Lock()
	if r.live != nil {
		r.live.abort()
	}
	r.liveMu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	r.peek, r.body = nil, nil
	r.finish(false)
	return nil
}

// WriteTo writes the file to w until its end, as Read reads it, with a
// buffer sized to the file (up to 256 KiB), so that io.Copy moves a
// large file in few system calls. It returns the bytes written and nil
// at the file's end, or the first error of Read or w.
func (r *Response) WriteTo(w io.Writer) (int64, error) {
	size := 256 << 10
	if rest := r.Size - r.offset; r.Size >= 0 && rest < int64(size) {
		size = max(int(rest)+1, 512)
	}
	buf := make([]byte, size)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			m, werr := w.Write(buf[:n])
			total += int64(m)
			if werr != nil {
				return total, werr
			}
			if m < n {
				return total, io.ErrShortWrite
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
