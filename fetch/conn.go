package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits on what a server may send, so that a hostile or broken server
// cannot make fetch hold unbounded memory. curl caps a reply at 300 KB,
// Python's ftplib a line at 8 KB.
const (
	maxReplyLine  = 64 << 10 // one line of a reply, CRLF included
	maxReply      = 1 << 20  // a whole multi-line reply (RFC 959 §4.2)
	maxListing    = 64 << 20 // the data of one LIST, NLST or MLSD
	defaultStall  = 2 * time.Minute
	defaultIdle   = 30 * time.Second
	defaultMaxPer = 2
)

var (
	errReplyLineTooLong   = fmt.Errorf("the server sent a reply line over %d KiB", maxReplyLine>>10)
	errReplyTooLong       = fmt.Errorf("the server sent a multi-line reply over %d MiB", maxReply>>20)
	errListingTooLong     = fmt.Errorf("the listing is over %d MiB", maxListing>>20)
	errListingLineTooLong = fmt.Errorf("the listing holds a line over %d KiB", maxReplyLine>>10)
	errTooMany120         = fmt.Errorf("the server sent over %d KiB of 120 replies and no 220 (RFC 959 §5.4)", maxReplyLine>>10)
	errBadReply           = errors.New("the server sent a line that is not an FTP reply (RFC 959 §4.2)")
)

// A stallError is a read or write that found no progress for the
// Client's StallTimeout. It is a timeout, so errors.Is(err,
// os.ErrDeadlineExceeded) holds, but it is not the context's.
type stallError struct{ d time.Duration }

func (e *stallError) Error() string {
	return "the server sent nothing for " + e.d.String()
}
func (e *stallError) Timeout() bool   { return true }
func (e *stallError) Temporary() bool { return true }

// Is makes errors.Is(err, os.ErrDeadlineExceeded) hold, as for a
// connection's own deadline.
func (e *stallError) Is(target error) bool { return target == os.ErrDeadlineExceeded }

// A reply is one reply of the server (RFC 959 §4.2): its code and its
// text, the lines joined with "\n" as net/textproto does.
type reply struct {
	code int
	text string
}

// err returns the reply as the *textproto.Error that an *Error wraps.
func (r reply) err() error { return &textproto.Error{Code: r.code, Msg: r.text} }

// is reports whether the reply's code is want, or begins with want's
// digits (2: any 2xx; 23: 230-239), as textproto.Reader.ReadResponse
// takes its expectCode; want 0 takes any reply.
func (r reply) is(want int) bool {
	switch {
	case want == 0:
		return true
	case want < 10:
		return r.code/100 == want
	case want < 100:
		return r.code/10 == want
	}
	return r.code == want
}

// isReply reports whether err is a reply of the server.
func isReply(err error) bool {
	var tp *textproto.Error
	return errors.As(err, &tp)
}

// sizeOf reads the size of a SIZE reply: a 213 with a decimal number
// (RFC 3659 §4.2), else -1.
func sizeOf(rep reply) int64 {
	if rep.code != 213 {
		return -1
	}
	n, err := strconv.ParseInt(strings.TrimSpace(rep.text), 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// timeOf reads the time of an MDTM reply: a 213 with a time-val (RFC
// 3659 §3.2), else the zero time.
func timeOf(rep reply) time.Time {
	if rep.code != 213 {
		return time.Time{}
	}
	return parseTime(strings.TrimSpace(rep.text))
}

// parseTime reads an RFC 3659 §2.3 time-val, YYYYMMDDHHMMSS[.sss] in
// UTC; the zero time if it is not one.
func parseTime(v string) time.Time {
	whole, frac, _ := strings.Cut(v, ".")
	t, err := time.ParseInLocation("20060102150405", whole, time.UTC)
	if err != nil {
		return time.Time{}
	}
	if frac != "" {
		if ms, err := strconv.Atoi((frac + "000")[:3]); err == nil {
			t = t.Add(time.Duration(ms) * time.Millisecond)
		}
	}
	return t
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

// A cutReply is a reply that leaves the control connection out of
// step: one fetch could not read whole (the line or the reply went
// over its bound, or the connection ended inside it), or a 1xx where a
// final reply was due (another reply is still to come). code is the
// three digits the server had sent, 0 when none. No command follows
// it, and the session is not reused.
type cutReply struct {
	code int
	err  error
}

func (e *cutReply) Error() string { return e.err.Error() }
func (e *cutReply) Unwrap() error { return e.err }

// deadlines gives a connection a deadline before each read and write:
// the earlier of the context's deadline and StallTimeout from now.
type deadlines struct {
	mu    sync.Mutex
	stall time.Duration // <= 0: none
	until time.Time     // the context's deadline; zero: none
	halt  bool          // every read fails at once (interrupt)
}

func (d *deadlines) set(stall time.Duration, until time.Time) {
	d.mu.Lock()
	d.stall, d.until = stall, until
	d.mu.Unlock()
}

// nextLocked returns the deadline for the next read or write, and
// whether StallTimeout (not the context) sets it; d.mu is held.
func (d *deadlines) nextLocked() (time.Time, bool) {
	if d.halt {
		return time.Unix(1, 0), false
	}
	if d.stall <= 0 {
		return d.until, false
	}
	t := time.Now().Add(d.stall)
	if !d.until.IsZero() && d.until.Before(t) {
		return d.until, false
	}
	return t, true
}

func (d *deadlines) stallFor() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.stall
}

// timed is a net.Conn whose every Read and Write has a deadline from
// dl, and whose timeouts caused by StallTimeout are *stallError.
type timed struct {
	net.Conn
	dl *deadlines
}

func (c *timed) Read(p []byte) (int, error) {
	stall := c.arm(c.Conn.SetReadDeadline)
	n, err := c.Conn.Read(p)
	return n, c.stalled(stall, err)
}

func (c *timed) Write(p []byte) (int, error) {
	stall := c.arm(c.Conn.SetWriteDeadline)
	n, err := c.Conn.Write(p)
	return n, c.stalled(stall, err)
}

// arm sets the next deadline with set, under dl's lock (so that
// interrupt cannot slip between), and reports whether StallTimeout
// set it.
func (c *timed) arm(set func(time.Time) error) bool {
	c.dl.mu.Lock()
	defer c.dl.mu.Unlock()
	t, stall := c.dl.nextLocked()
	_ = set(t)
	return stall
}

// stalled turns a timeout that StallTimeout caused into a *stallError.
func (c *timed) stalled(stall bool, err error) error {
	if err != nil && stall && isTimeout(err) {
		return &stallError{c.dl.stallFor()}
	}
	return err
}

// interrupt makes a Read that blocks, and every later one, fail at
// once, until resume.
func (c *timed) interrupt() {
	c.dl.mu.Lock()
	c.dl.halt = true
	_ = c.Conn.SetReadDeadline(time.Unix(1, 0))
	c.dl.mu.Unlock()
}

func (c *timed) resume() {
	c.dl.mu.Lock()
	c.dl.halt = false
	c.dl.mu.Unlock()
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// control is the control connection (RFC 959 §3.2), as net/smtp's
// Client is an SMTP connection: it writes command lines through a
// bufio.Writer, one write a call, and reads each reply whole and
// bounded, a refusal becoming a *textproto.Error (reply.err). A
// line over maxReplyLine or a reply over maxReply is an error, and a
// connection that ends inside or before a reply is
// io.ErrUnexpectedEOF, never io.EOF.
//
// It takes what RFC 959 allows: any reply code of three digits (the
// caller decides what a code it did not expect means), a multi-line
// reply whose inner lines have any shape (§4.2), and a 120 before the
// greeting's 220 (§5.4).
type control struct {
	t    *timed // the connection under TLS, for its deadlines
	r    *bufio.Reader
	w    *bufio.Writer
	feat map[string]string // the FEAT reply (RFC 2389 §3.2); nil before it
	tr   *tracer           // WithTrace's hooks; nil: none
}

// newControl reads and writes c: t, or TLS over t.
func newControl(c net.Conn, t *timed) *control {
	return &control{t: t, r: bufio.NewReaderSize(c, 4096), w: bufio.NewWriterSize(c, 512)}
}

// send writes command lines, each with its CRLF (RFC 959 §4.1.3), in
// one write. A line holding CR, LF or NUL is refused: no command can
// carry another.
func (c *control) send(lines ...string) error {
	for _, line := range lines {
		if strings.ContainsAny(line, "\r\n\x00") {
			return errors.New("a command holds CR, LF or NUL")
		}
	}
	for _, line := range lines {
		c.w.WriteString(line)
		c.w.WriteString("\r\n")
	}
	if err := c.w.Flush(); err != nil { // bufio.Writer keeps its first error for Flush
		return err
	}
	c.tr.sent(lines)
	return nil
}

// cmd sends line and reads its reply, which must be final: a 1xx (RFC
// 959 §4.2) to a command that opens no transfer leaves the session out
// of step, and is an error.
func (c *control) cmd(line string) (reply, error) {
	if err := c.send(line); err != nil {
		return reply{}, err
	}
	return c.readFinal()
}

// maxCutReplies bounds the replies readTo reads.
const maxCutReplies = 8

// readTo reads replies until one whose code is a or b, and discards
// the others (see transfer.cut); a 421, or more than maxCutReplies
// replies, is an error.
func (c *control) readTo(a, b int) error {
	for range maxCutReplies {
		rep, err := c.read()
		if err != nil {
			return err
		}
		if rep.code == a || rep.code == b {
			return nil
		}
	}
	return fmt.Errorf("no %03d reply in %d replies after ABOR", a, maxCutReplies)
}

// readFinal reads a reply that must be final (RFC 959 §4.2): a 1xx is a
// *cutReply, since the reply that follows it is still unread.
func (c *control) readFinal() (reply, error) {
	rep, err := c.read()
	if err != nil {
		return reply{}, err
	}
	if rep.code < 200 {
		return reply{}, &cutReply{code: rep.code, err: fmt.Errorf("the server answered with a preliminary reply (%03d), where RFC 959 §4.2 wants a final one", rep.code)}
	}
	return rep, nil
}

// read reads one whole reply, bounded (RFC 959 §4.2): "DDD text", or
// "DDD-text" through the first line that begins with the same "DDD ".
// A 421 is returned as the error it is: the server is closing the
// connection.
// The lines are kept once, in raw, until the reply is whole, so that a
// reply that grows to maxReply costs little more than maxReply. An
// error that ends a reply the server had begun is a *cutReply with the
// reply's code.
func (c *control) read() (reply, error) {
	var raw []byte
	line, err := c.readLine(&raw)
	if err != nil {
		return reply{}, &cutReply{code: codeOf(raw), err: err}
	}
	code, ok := replyCode(line)
	if !ok {
		return reply{}, fmt.Errorf("%w: %q", errBadReply, clip(string(line)))
	}
	multi := len(line) > 3 && line[3] == '-'
	if multi {
		end := append(line[:3:3], ' ')
		for {
			line, err := c.readLine(&raw)
			if err != nil {
				return reply{}, &cutReply{code: code, err: err}
			}
			if bytes.HasPrefix(line, end) || bytes.Equal(line, end[:3]) {
				break
			}
		}
	}
	c.tr.received(raw)
	rep := reply{code: code, text: replyText(raw, multi)}
	if code == 421 {
		// RFC 959 §4.2: "Service not available, closing control
		// connection", the answer to any command: the session ends
		// here, whatever the command was, and no command follows.
		return reply{}, rep.err()
	}
	return rep, nil
}

// replyText returns the text of a whole reply: its lines without their
// line ends, joined with "\n", the code taken off the first line and,
// in a multi-line reply, off the last.
func replyText(raw []byte, multi bool) string {
	if !multi {
		line := bytes.TrimSuffix(bytes.TrimSuffix(raw, []byte("\n")), []byte("\r"))
		return string(line[min(4, len(line)):])
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	lines = lines[:len(lines)-1] // raw ends with "\n"
	var b strings.Builder
	b.Grow(len(raw))
	for i, l := range lines {
		l = bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
		if i > 0 {
			b.WriteByte('\n')
		}
		if i == 0 || i == len(lines)-1 {
			l = l[min(4, len(l)):]
		}
		b.Write(l)
	}
	return b.String()
}

// readLine appends one line to *raw and returns it without its line
// end, as a slice of *raw.
func (c *control) readLine(raw *[]byte) ([]byte, error) {
	start := len(*raw)
	for {
		frag, err := c.r.ReadSlice('\n')
		if len(*raw)-start+len(frag) > maxReplyLine {
			// *raw holds the line's start (bufio's buffer is smaller
			// than the bound), for codeOf.
			return nil, errReplyLineTooLong
		}
		if len(*raw)+len(frag) > maxReply {
			return nil, errReplyTooLong
		}
		if cap(*raw)-len(*raw) < len(frag) {
			// Double, never past the limit: append's growth by a
			// quarter would allocate five times the reply.
			limit := maxReply
			if start == 0 {
				limit = maxReplyLine
			}
			grown := make([]byte, 0, len(*raw)+min(max(len(frag), cap(*raw)), limit-len(*raw)))
			*raw = append(grown, *raw...)
		}
		*raw = append(*raw, frag...)
		switch {
		case err == nil:
			line := (*raw)[start:]
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF:
			// RFC 959 §4.2: every reply ends with CRLF; the server
			// left before it did.
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// replyCode reads the code of a reply's first line: three digits, then
// a space, a hyphen or the line's end (RFC 959 §4.2). Any three digits
// count, 999 too: what a code outside RFC 959's means is the caller's
// to decide, and the *Error keeps it.
func replyCode(line []byte) (int, bool) {
	if len(line) < 3 || (len(line) > 3 && line[3] != ' ' && line[3] != '-') {
		return 0, false
	}
	code := 0
	for _, b := range line[:3] {
		if b < '0' || b > '9' {
			return 0, false
		}
		code = code*10 + int(b-'0')
	}
	return code, true
}

// codeOf returns the code of a reply whose first bytes are raw, or 0.
func codeOf(raw []byte) int {
	code, _ := replyCode(raw[:min(len(raw), 3)])
	return code
}

// greeting reads the server's greeting (RFC 959 §5.4: 220, after any
// 120 "service ready in nnn minutes").
func (c *control) greeting() (reply, error) {
	n := 0 // the bytes of 120 replies so far: maxReplyLine in all
	for {
		rep, err := c.read()
		if err != nil {
			return reply{}, err
		}
		if rep.code == 120 {
			if n += len(rep.text) + 6; n > maxReplyLine {
				return reply{}, errTooMany120
			}
			continue
		}
		return rep, nil
	}
}

// parseFeat reads the features of a FEAT reply (RFC 2389 §3.2): one
// a line, each beginning with a space; the name is upper-cased.
func parseFeat(text string) map[string]string {
	feat := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, " ") {
			continue
		}
		name, params, _ := strings.Cut(strings.TrimSpace(line), " ")
		feat[strings.ToUpper(name)] = params
	}
	return feat
}

// optsMLST returns the "OPTS MLST" command (RFC 3659 §7.9) that asks
// for the facts fetch reads (type, size, sizd, modify, UNIX.mode,
// unique), spelt as the server's FEAT line mlst lists them, when that
// line offers UNIX.mode without its '*' (not sent unless asked: RFC
// 3659 §7.8); ok is false where nothing is to ask.
func optsMLST(mlst string) (line string, ok bool) {
	var b strings.Builder
	b.WriteString("OPTS MLST ")
	for _, f := range strings.Split(mlst, ";") {
		name, on := strings.CutSuffix(f, "*")
		switch strings.ToLower(name) {
		case "unix.mode":
			ok = ok || !on
		case "type", "size", "sizd", "modify", "unique":
		default:
			continue
		}
		b.WriteString(name)
		b.WriteByte(';')
	}
	return b.String(), ok
}

// has reports whether the server's FEAT reply lists the feature.
func (c *control) has(feature string) bool {
	_, ok := c.feat[feature]
	return ok
}

// idle watches the control connection of an idle session: a reply the
// server sends unasked (421, RFC 959 §4.2) or the connection's end
// means the session is gone. stop ends the watch and reports whether
// the session is still usable.
type idleWatch struct {
	done chan bool
	c    *control
}

func (c *control) watchIdle() *idleWatch {
	w := &idleWatch{done: make(chan bool, 1), c: c}
	go func() {
		_, err := c.r.Peek(1)
		w.done <- err != nil && isTimeout(err)
	}()
	return w
}

// stop ends the watch; it reports true when nothing came from the
// server meanwhile.
func (w *idleWatch) stop() bool {
	w.c.t.interrupt()
	ok := <-w.done
	w.c.t.resume()
	return ok
}

// contextDeadline returns ctx's deadline, or the zero time.
func contextDeadline(ctx context.Context) time.Time {
	t, _ := ctx.Deadline()
	return t
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
