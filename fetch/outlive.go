package fetch

import (
	"errors"
	"io"
	"net"
	"net/textproto"
	"syscall"

	"github.com/ftpurl/ftpurl"
)

// controlLost reports whether err, the end of a transfer whose data
// went whole, is the loss of the control connection (its end or reset,
// a write to it refused, a stall waiting for the final reply), not a
// reply of the server: a middlebox that dropped the control connection
// as idle while the data flowed.
func (x *exchange) controlLost(err error) bool {
	var tp *textproto.Error
	if errors.As(err, &tp) || x.ctx.Err() != nil {
		return false
	}
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) || isTimeout(err)
}

// again replaces x's session, whose control connection is lost, with
// another of the Client's (idle, or new) and enters the plan's
// directories on it, for the proof of a transfer that outlived it.
func (x *exchange) again() *Error {
	x.release(false)
	if err := x.acquire(false); err != nil {
		var e *Error
		if errors.As(err, &e) {
			return e
		}
		return x.fail("dial", "", err)
	}
	if _, e := x.enter(x.req.plan, false); e != nil {
		return e
	}
	return nil
}

// proveLost proves on a new session that the server holds want bytes
// of name, after an upload whose control connection was lost before
// its 226: SIZE (RFC 3659 §4) in TYPE I, where FEAT lists it. Without
// it nothing proves the upload, and proveLost fails.
func (x *exchange) proveLost(name string, want int64) *Error {
	if e := x.again(); e != nil {
		return e
	}
	if x.s.typ != ftpurl.TypeImage || !x.s.ctl.has("SIZE") {
		return x.fail("size", "", errors.New("no SIZE in TYPE I (RFC 3659 §4) to prove the upload"))
	}
	return x.proveSize(name, want, false, nil)
}
