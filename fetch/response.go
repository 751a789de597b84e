package fetch

import (
	"context"
	"errors"
	"io"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ftpurl/ftpurl"
)

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

	// ModTime is the file's modification time, in UTC, from MDTM (RFC
	// 3659 §3) when Open ran WithModTime and the server has MDTM; zero
	// otherwise, and for a listing.
	ModTime time.Time

	// Entries is the LIST listing, each line that [ParseListLine] reads
	// (Unix "ls -l" and its variants, DOS/IIS, EPLF, MLSD facts); it is
	// nil for an empty listing, and when Action is not List. LIST output
	// has no standard form (RFC 959 §4.1.3 leaves it to the server): a
	// line that does not parse is in Unparsed, never dropped.
	//
	// Names are as the server sent them: they may hold "/", "..",
	// control characters (never CR, LF or NUL) or nothing at all. A
	// program that makes files from them must check them first
	// (filepath.IsLocal).
	Entries []Entry

	// Unparsed holds the lines of the LIST listing that are no entry
	// [ParseListLine] can read, in order, without the "total N" line of
	// "ls -l"; nil when every line parsed.
	Unparsed []string

	// Lines is the LIST listing as the server sent it, one line each,
	// without the line ends; nil when Action is not List.
	Lines []string

	// Names is the NLST listing: one name a line, as the server sent
	// them (RFC 959 §4.1.3), without the CRLF. Some servers include
	// "." and "..". It is nil for an empty listing, and when Action is
	// not NameList. As with Entries, the names are the server's and
	// must be checked before they name a file (filepath.IsLocal).
	Names []string

	x       *exchange // the Open that made it, which holds the session
	cancel  context.CancelFunc
	offset  int64
	retrCmd string          // the RETR step, for Read's errors
	typ     ftpurl.Typecode // the TYPE of the transfer

	mu      sync.Mutex // held by Read and by Close's bookkeeping
	body    *transfer  // the file's transfer; nil once it ended
	peek    []byte     // bytes read ahead to tell a file from a refusal
	n       int64      // bytes read from the data connection
	readErr error      // the error every later Read returns
	closed  bool

	// closing is set by Close before it cuts the connections, without
	// mu, which a blocked Read holds: the Read it cuts off tells that
	// error from a broken transfer.
	closing atomic.Bool

	liveMu sync.Mutex
	live   *session // the session until it is given back or closed
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
	if r.closing.Load() {
		// Close cut the transfer, or the wait for its final reply.
		r.readErr = errReadClosed
		return n, r.readErr
	}
	r.body = nil
	if err != io.EOF {
		r.readErr = r.x.fail("retr", r.retrCmd, err)
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
	if r.Size < 0 || r.typ != ftpurl.TypeImage || r.n >= want {
		return nil
	}
	e := r.x.fail("retr", r.retrCmd, io.ErrUnexpectedEOF)
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
		r.x.release(ok)
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

// Abort ends the file's transfer before its end and keeps the session
// for the Client's next call, as curl ends a range (-r) after its last
// byte: it closes the data connection, sends ABOR (RFC 959 §4.1.3) and
// reads to its 225 or 226, then NOOP to its 200, every reply between
// being the transfer's; where the server answers otherwise (more than
// eight replies, a connection that ends), the session is closed
// instead, as Close does. After Abort, Read returns an error and Close
// does nothing. For a file read to its end, a listing, or a closed
// Response it does nothing more than Close.
func (r *Response) Abort() {
	if r == nil {
		return
	}
	r.cut()
}

// cut ends the file's transfer before its end and gives the session
// back in step (transfer.cut), or closes it where that fails: Close
// for a reader that moves (FS's Seek and ReadAt), which would otherwise
// cost a new login each time.
func (r *Response) cut() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	r.closed = true
	ok := true
	if r.body != nil && r.readErr == nil {
		ok = r.body.cut() == nil
	}
	r.peek, r.body = nil, nil
	r.finish(ok)
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
