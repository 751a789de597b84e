package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
	"time"
)

// An Error is a failure of one step of Open, or of reading the file.
// It never holds the URL's password: URL is redacted, and the PASS
// command is never quoted. Use errors.As to get it; its Err is the
// cause, often a *textproto.Error (the server's reply), which
// errors.As also reaches.
//
// Parse and plan errors are not *Error: Open returns the
// *ftpurl.Error of ftpurl.Parse or ftpurl.URL.Plan as it is.
type Error struct {
	// Op is the step that failed: "dial" (connecting, and the 220
	// greeting; or the context had ended before), "tls" (AUTH TLS, PBSZ
	// or PROT of WithTLS, RFC 4217, or the TLS handshake), "login" (USER
	// and PASS, or, before connecting, a password missing or holding CR,
	// LF or NUL), "cwd", "type", "size" (SIZE, RFC 3659 §4: before
	// RETR; for Put, the size that WithOffset must find, and the proof
	// after the 226 that the server holds every byte), "mdtm" (MDTM of
	// WithModTime, RFC 3659 §3, when it got no reply), "rest" (REST of
	// WithOffset, RFC 3659 §5, or an offset refused before connecting),
	// "retr" (RETR, and reading the file), "list", "nlst", "mlsd"
	// (ReadDir), "verify" (the CWD of ftpurl.Plan.Verify), "stat" (a
	// step of Stat), "walk" (a name Walk will not enter: ErrUnsafeName),
	// or "plan" (a Plan with no Action). Put's steps: "stor" (STOR, sending the bytes,
	// and Put's reader failing; or, before connecting, a URL that names
	// no file), "appe" (APPE of WithOffset, the same; or an offset
	// refused before connecting), "mkd" (MKD of WithCreateDirs) and
	// "rename" (RNFR or RNTO of WithTempName, and of Rename). Download's:
	// "rang" (RANG of a range, draft-bryan-ftp-range), and "retr",
	// "rest", "size" as Open's; "hash" (Hash, and WithChecksum's proof:
	// ErrNoHash, ErrHashMismatch). The DELE
	// of a temporary file is never an Op: its outcome is part of the
	// message. The calls of the tree up: "mkd" (Mkdir), "dele" and "rmd"
	// (Remove), "rename" (Rename), "modtime" (SetModTime and
	// WithSetModTime: MFMT, SITE UTIME or MDTM, or none taken), "quote"
	// (Client.Quote's command). Active mode (Client.Active): "port"
	// (PORT or EPRT refused, the listener, the server's connection that
	// did not come, or, before connecting, an Active fetch cannot read).
	Op string

	// Fallback reports whether the step belongs to the plan's Fallback,
	// run after the server refused RETR of a RetrieveOrList plan with
	// 550; Retr is that refusal.
	Fallback bool

	// URL is the URL fetched, with the password replaced by "xxxxx"
	// (ftpurl.URL.Redacted).
	URL string

	// Command is the FTP command that failed ("CWD pub", "RETR a.txt");
	// for a refused login "USER alice", or "PASS xxxxx" when the server
	// refused the password (never the password itself; an anonymous
	// login's, no secret, as sent); "" for dial and a login refused
	// before connecting.
	Command string

	// Code and Msg are the server's reply (RFC 959 §4.2), Code 0 when
	// there was none (a network failure, a timeout, an error found
	// before connecting).
	Code int
	Msg  string

	// Err is the cause.
	Err error

	prior    *Error // the refusal this step came after: the RETR of a Fallback, Stat's SIZE
	notFound bool   // the URL names nothing on the server
	file     bool   // a CWD refused for a name that is a file (judge)
	partial  bool   // a transfer confirmed short of its size
	note     string // what the reply means, where fetch can tell
}

// ErrNotFound is what errors.Is finds in the *Error of a URL that
// names nothing on the server: a RETR refused with 550 whose fallback's
// CWD is refused too, a CWD of one of the URL's directories refused
// with 550, a listing whose Verify step is refused, and Stat of a
// missing name (RFC 959 §4.2: "550 Requested action not taken. File
// unavailable").
var ErrNotFound = errors.New("not found")

// Is reports whether target is ErrNotFound and e says the URL names
// nothing on the server.
func (e *Error) Is(target error) bool {
	return target == ErrNotFound && e.notFound
}

// Error returns the message, on one line:
//
//	fetch URL: OP (COMMAND): CAUSE[ (NOTE)]
//
// where CAUSE is the server's reply "CODE MSG", else the cause's text.
// A Fallback step's message leads with the RETR refusal that made it
// run ([Error.Retr]), the useful part first:
//
//	fetch ftp://h/m: retr (RETR m): 550 No such file; then fallback cwd (CWD m): 550 No such directory
//
// A step that the context's end cut short reads "context deadline
// exceeded" (or "context canceled"), whatever closed the connection.
// Error of a nil *Error panics.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("fetch ")
	b.WriteString(e.URL)
	b.WriteString(": ")
	if e.Fallback && e.prior != nil {
		e.prior.step(&b)
		b.WriteString("; then fallback ")
		e.step(&b)
		return b.String()
	}
	e.step(&b)
	if e.prior != nil {
		b.WriteString(" (after ")
		b.WriteString(e.prior.Command)
		b.WriteString(": ")
		e.prior.cause(&b)
		b.WriteString(")")
	}
	return b.String()
}

// step writes "OP (COMMAND): CAUSE[ (NOTE)]".
func (e *Error) step(b *strings.Builder) {
	b.WriteString(e.Op)
	if e.Command != "" {
		b.WriteString(" (")
		b.WriteString(e.Command)
		b.WriteString(")")
	}
	b.WriteString(": ")
	e.cause(b)
	if e.note != "" {
		b.WriteString(" (")
		b.WriteString(e.note)
		b.WriteString(")")
	}
}

// cause writes the reply "CODE MSG", or "CODE…: ERR" for a reply cut
// short, or the cause's text alone.
func (e *Error) cause(b *strings.Builder) {
	switch {
	case e.Code != 0 && (e.Msg != "" || e.Err == nil):
		b.WriteString(strconv.Itoa(e.Code))
		b.WriteByte(' ')
		b.WriteString(e.Msg)
	case e.Code != 0:
		b.WriteString(strconv.Itoa(e.Code))
		b.WriteString("…: ")
		b.WriteString(oneLine(e.Err.Error()))
	case e.Err != nil:
		b.WriteString(oneLine(e.Err.Error()))
	default:
		b.WriteString("failed")
	}
}

// oneLine returns text on one line: the lines of a multi-line text (a
// reply's, or errors.Join's) trimmed and joined with "; ", and every
// other control character escaped.
func oneLine(text string) string {
	if strings.ContainsAny(text, "\r\n") {
		lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\r' || r == '\n' })
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		text = strings.Join(slices.DeleteFunc(lines, func(l string) bool { return l == "" }), "; ")
	}
	return escape(text)
}

// escape writes the control characters of s (C0, DEL, C1, U+2028,
// U+2029) as \r, \n, \t, \xNN or \uNNNN, so that a server's text
// stays on one line and cannot forge a log line or a terminal escape.
func escape(s string) string {
	i := strings.IndexFunc(s, isControl)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case isControl(r) && r < 0x80:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[r>>4])
			b.WriteByte("0123456789abcdef"[r&15])
		case isControl(r):
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte("0123456789abcdef"[r>>shift&15])
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isControl reports the C0 and C1 controls, DEL, and the Unicode line
// and paragraph separators: NEL (U+0085) and U+2028 end a line too, and
// C1's CSI (U+009B) starts a terminal escape.
func isControl(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029
}

// refused reports whether the server refused the step with a whole
// reply of this code: not one cut at its bound, after which the
// control connection is out of step and no other command may follow.
func (e *Error) refused(code int) bool {
	var cut *cutReply
	return e.Code == code && !errors.As(e.Err, &cut)
}

// declined reports whether the server answered the step with a whole
// final reply that is not 421: its refusal, after which the control
// connection is in step and another command may follow.
func (e *Error) declined() bool {
	var cut *cutReply
	return e.Code >= 200 && e.Code != 421 && !errors.As(e.Err, &cut)
}

// Unwrap returns Err, so that [errors.Is] and [errors.As] reach the
// cause: ErrPasswordRequired, a *textproto.Error holding the server's
// reply, context.Canceled or context.DeadlineExceeded when the context
// ended the step. It returns nil when Err is nil, and panics for a nil
// *Error.
func (e *Error) Unwrap() error { return e.Err }

// Retr returns the server's refusal of RETR (550) that made a Fallback
// step run, and nil for any other step, including an *Error made
// outside this package. It panics for a nil *Error.
func (e *Error) Retr() *Error {
	if !e.Fallback {
		return nil
	}
	return e.prior
}

// fail builds the *Error of a step that failed with err. The server's
// text in it is cleaned: the password replaced by "xxxxx", the lines
// of a multi-line reply joined, control characters escaped. A
// connection that ended is io.ErrUnexpectedEOF, and a step that the
// context's end cut short wraps the context's error, and reads as it,
// even where a connection's deadline or Close fired first.
func (x *exchange) fail(op, command string, err error) *Error {
	e := &Error{Op: op, URL: x.req.redacted, Command: command}
	var tp *textproto.Error
	var cut *cutReply
	switch {
	case errors.As(err, &tp):
		e.Code, e.Msg = tp.Code, x.clean(tp.Msg)
	case errors.As(err, &cut):
		// The three digits the server sent, where it sent them.
		e.Code = cut.code
	}
	err = x.sanitize(err)
	e.Err = err
	if cerr := contextErr(x.ctx); cerr != nil && !errors.Is(err, cerr) {
		e.Err = &ctxError{ctx: cerr, cause: err}
	}
	if x.s != nil && x.s.tls != nil && (e.Code == 522 || e.Code == 425) {
		e.note = "the server may require each data connection to resume the control connection's TLS session (RFC 4217 §10.2)"
	}
	return e
}

// A ctxError is the failure of a step that the context's end cut
// short: it reads as the context's error alone, and errors.Is and
// errors.As reach both that and what the connection reported (a
// deadline, a closed connection).
type ctxError struct{ ctx, cause error }

func (e *ctxError) Error() string   { return e.ctx.Error() }
func (e *ctxError) Unwrap() []error { return []error{e.ctx, e.cause} }

// sanitize returns err with every part whose text holds a secret or a
// control character rebuilt without them (a *textproto.Error keeps its
// code, a joined error its other parts, a network error its type), and
// io.EOF as io.ErrUnexpectedEOF: a step that failed never ends in
// io.EOF.
func (x *exchange) sanitize(err error) error {
	switch {
	case err == nil:
		return nil
	case err == io.EOF:
		return io.ErrUnexpectedEOF
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var parts []error
		for _, p := range j.Unwrap() {
			parts = append(parts, x.sanitize(p))
		}
		return errors.Join(parts...)
	}
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("%s: %w", x.clean(err.Error()), io.ErrUnexpectedEOF)
	}
	if x.clean(err.Error()) == err.Error() {
		return err
	}
	if tp, ok := err.(*textproto.Error); ok {
		return &textproto.Error{Code: tp.Code, Msg: x.clean(tp.Msg)}
	}
	return errors.New(x.clean(err.Error()))
}

// contextErr returns ctx's error, or context.DeadlineExceeded once its
// deadline has passed even if ctx has not noticed yet.
func contextErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		return context.DeadlineExceeded
	}
	return nil
}

// mask replaces the session's secrets in text with "xxxxx".
func (x *exchange) mask(text string) string {
	for _, sec := range x.secrets {
		text = strings.ReplaceAll(text, sec, "xxxxx")
	}
	return text
}

// clean replaces the session's secrets in a server's text with
// "xxxxx", joins its lines (oneLine) and escapes its control
// characters.
func (x *exchange) clean(text string) string {
	for _, sec := range x.secrets {
		text = strings.ReplaceAll(text, sec, "xxxxx")
		// A text clipped ("…") inside a secret shows its start.
		for k := len(sec) - 1; k > 0 && strings.Contains(text, "…"); k-- {
			text = strings.ReplaceAll(text, sec[:k]+"…", "xxxxx…")
		}
	}
	return oneLine(text)
}

// Timeout reports whether the step failed because time ran out: the
// context's deadline, WithTimeout, WithDialTimeout or the Client's
// StallTimeout. net/http's url.Error asks its cause this, so an
// http.Client's error says Timeout() for an ftp URL as for an http
// one.
func (e *Error) Timeout() bool {
	if errors.Is(e.Err, context.DeadlineExceeded) {
		return true
	}
	var t interface{ Timeout() bool }
	return errors.As(e.Err, &t) && t.Timeout()
}
