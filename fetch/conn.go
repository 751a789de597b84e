package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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
	maxListing    = 64 << 20 // the data of one LIST or NLST
	defaultStall  = 2 * time.Minute
	defaultIdle   = 30 * time.Second
	defaultMaxPer = 2
)

var (
	errReplyLineTooLong = fmt.Errorf("the server sent a reply line over %d KiB", maxReplyLine>>10)
	errReplyTooLong     = fmt.Errorf("the server sent a multi-line reply over %d MiB", maxReply>>20)
	errListingTooLong   = fmt.Errorf("the listing is over %d MiB", maxListing>>20)
	errTooMany120       = fmt.Errorf("the server sent over %d KiB of 120 replies and no 220 (RFC 959 §5.4)", maxReplyLine>>10)
	errBadReply         = errors.New("the server sent a line that is not an FTP reply (RFC 959 §4.2)")
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

// dataConn is a data connection (RFC 959 §3.2): it counts the bytes
// read, and a listing's bytes are kept, up to maxListing.
type dataConn struct {
	net.Conn
	listing *bytes.Buffer // nil for RETR
}

func (c *dataConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.listing != nil && n > 0 {
		if c.listing.Len()+n > maxListing {
			return 0, errListingTooLong
		}
		c.listing.Write(p[:n])
	}
	return n, err
}

// control is the control connection (RFC 959 §3.2) as jlaffaye/ftp
// sees it. Every reply of the server passes through it, whole and
// bounded: a line over maxReplyLine or a reply over maxReply is an
// error, and a connection that ends inside or before a reply is
// io.ErrUnexpectedEOF, never io.EOF. It hands jlaffaye/ftp one reply
// at a time, after these repairs, which RFC 959 allows and jlaffaye/ftp
// v0.2.4 refuses:
//
//   - a 120 ("service ready in nnn minutes") before the greeting's 220
//     is passed over (§4.2, §5.4 "Connection Establishment"): fetch
//     reads the greeting itself (greeting) and replays the 220;
//   - a PASV reply whose address lacks the parentheses (§4.1.2 leaves
//     the wording of 227 free) gets them;
//   - a transfer that ends with 250 (§5.4 lists 250 after RETR, LIST
//     and NLST) is passed as 226;
//   - PRET in a FEAT reply is passed over, so jlaffaye/ftp never sends
//     that command, which is not in the plan.
//
// It also records what fetch needs and jlaffaye/ftp keeps to itself:
// the FEAT lines, the 150 that opened the last transfer, the last
// command sent and the last reply read. Between two commands of
// jlaffaye/ftp, fetch may send commands of its own with cmd.
type control struct {
	conn net.Conn // the connection: t, or TLS over t
	t    *timed
	r    *bufio.Reader

	out []byte // what jlaffaye/ftp has not read yet of the current reply

	mu       sync.Mutex
	lastCmd  string // the last command line written, without CRLF
	partial  []byte // a command line being written
	last     reply  // the last reply read
	opened   string // the text of the 1xx that opened the last transfer
	transfer bool   // a RETR, LIST or NLST has had its 1xx
	feat     map[string]string
}

func newControl(c net.Conn, t *timed) *control {
	return &control{conn: c, t: t, r: bufio.NewReaderSize(c, 4096)}
}

// Read hands jlaffaye/ftp the next reply.
func (c *control) Read(p []byte) (int, error) {
	if len(c.out) == 0 {
		rep, raw, err := c.readReply()
		if err != nil {
			return 0, err
		}
		c.out = c.repair(rep, raw)
	}
	n := copy(p, c.out)
	c.out = c.out[n:]
	return n, nil
}

// Write sends jlaffaye/ftp's commands, noting each command line.
func (c *control) Write(p []byte) (int, error) {
	c.mu.Lock()
	for _, b := range p {
		switch {
		case b == '\n':
			c.lastCmd = strings.TrimSuffix(string(c.partial), "\r")
			c.partial = c.partial[:0]
			c.startCommand()
		case len(c.partial) < 4096:
			c.partial = append(c.partial, b)
		}
	}
	c.mu.Unlock()
	return c.conn.Write(p)
}

// startCommand resets what belongs to one command; c.mu is held.
func (c *control) startCommand() {
	switch c.verb() {
	case "RETR", "LIST", "NLST", "MLSD":
		c.transfer, c.opened = false, ""
	}
}

// verb returns the last command's verb in upper case; c.mu is held.
func (c *control) verb() string {
	v, _, _ := strings.Cut(c.lastCmd, " ")
	return strings.ToUpper(v)
}

func (c *control) Close() error        { return c.conn.Close() }
func (c *control) LocalAddr() net.Addr { return c.conn.LocalAddr() }

// RemoteAddr is the server's TCP address; a DialContext connection of
// another kind (a pipe, a proxy's own type) shows as the zero TCP
// address, since jlaffaye/ftp asserts *net.TCPAddr.
func (c *control) RemoteAddr() net.Addr {
	if a, ok := c.conn.RemoteAddr().(*net.TCPAddr); ok {
		return a
	}
	return &net.TCPAddr{}
}
func (c *control) SetDeadline(t time.Time) error      { return nil }
func (c *control) SetReadDeadline(t time.Time) error  { return nil }
func (c *control) SetWriteDeadline(t time.Time) error { return nil }

// readReply reads one whole reply, bounded, and returns it parsed and
// as the bytes the server sent. The lines are kept once, in raw, until
// the reply is whole, so that a reply that grows to maxReply costs
// little more than maxReply.
func (c *control) readReply() (reply, []byte, error) {
	var raw []byte
	line, err := c.readLine(&raw)
	if err != nil {
		return reply{}, nil, err
	}
	head := string(line[:min(4, len(line))])
	code, ok := replyCode(head)
	if !ok {
		return reply{}, nil, fmt.Errorf("%w: %q", errBadReply, clip(string(line)))
	}
	multi := len(head) > 3 && head[3] == '-'
	if multi {
		end := []byte(head[:3] + " ")
		for {
			line, err := c.readLine(&raw)
			if err != nil {
				return reply{}, nil, err
			}
			if bytes.HasPrefix(line, end) {
				break
			}
		}
	}
	rep := reply{code: code, text: replyText(raw, multi)}
	c.mu.Lock()
	c.last = rep
	c.mu.Unlock()
	return rep, raw, nil
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

func replyCode(line string) (int, bool) {
	if len(line) < 3 || (len(line) > 3 && line[3] != ' ' && line[3] != '-') {
		return 0, false
	}
	code, err := strconv.Atoi(line[:3])
	if err != nil || code < 100 || code > 599 {
		return 0, false
	}
	return code, true
}

// repair returns the bytes jlaffaye/ftp gets for rep (see control).
func (c *control) repair(rep reply, raw []byte) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	verb := c.verb()
	switch {
	case verb == "PASV" && rep.code == 227:
		// jlaffaye/ftp slices between the first "(" and the last ")"
		// and panics when they come the other way round: it gets the
		// address written one way, or none (an error), whatever the
		// server wrote. fetch dials the control connection's address
		// anyway; only the port counts.
		if addr := pasvNumbers(rep.text); addr != "" {
			return []byte("227 Entering Passive Mode (" + addr + ").\r\n")
		}
		return []byte("227 no address\r\n")
	case verb == "FEAT" && rep.code == 211:
		c.feat = parseFeat(rep.text)
		// jlaffaye/ftp takes a line for a feature when its text (after
		// "211-" or "211 ", where the line has them) begins with a
		// space, and the feature's name is the first word: PRET goes
		// wherever that reads "PRET", the code kept.
		var b []byte
		for _, line := range bytes.SplitAfter(raw, []byte("\n")) {
			text := strings.TrimRight(string(line), "\r\n")
			head := ""
			if len(text) >= 4 && text[:3] == strconv.Itoa(rep.code) && (text[3] == ' ' || text[3] == '-') {
				head, text = text[:4], text[4:]
			}
			if name, _, _ := strings.Cut(strings.TrimSpace(text), " "); strings.HasPrefix(text, " ") && name == "PRET" {
				if head == "" {
					continue
				}
				line = []byte(head + "\r\n")
			}
			b = append(b, line...)
		}
		return b
	case verb == "RETR" || verb == "LIST" || verb == "NLST":
		if rep.code >= 100 && rep.code < 200 {
			c.transfer, c.opened = true, rep.text
		} else if c.transfer && rep.code == 250 {
			c.transfer = false
			return append([]byte("226"), raw[3:]...)
		} else {
			c.transfer = false
		}
	}
	return raw
}

// pasvNumbers finds "h1,h2,h3,h4,p1,p2" in a 227 reply without
// parentheses.
func pasvNumbers(text string) string {
	f := strings.FieldsFunc(text, func(r rune) bool { return !(r >= '0' && r <= '9' || r == ',') })
	for _, s := range f {
		if strings.Count(s, ",") == 5 && !strings.Contains(s, ",,") && !strings.HasPrefix(s, ",") && !strings.HasSuffix(s, ",") {
			return s
		}
	}
	return ""
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

// cmd sends a command of fetch's own and reads its reply. It must run
// only between two commands of jlaffaye/ftp.
func (c *control) cmd(line string) (reply, error) {
	if strings.ContainsAny(line, "\r\n\x00") {
		return reply{}, errors.New("a command holds CR, LF or NUL")
	}
	if _, err := c.Write([]byte(line + "\r\n")); err != nil {
		return reply{}, err
	}
	rep, raw, err := c.readReply()
	if err != nil {
		return reply{}, err
	}
	c.repair(rep, raw)
	if rep.code < 200 {
		// None of fetch's own commands opens a transfer: a 1xx here
		// leaves a reply unread, and the session out of step.
		return reply{}, fmt.Errorf("the server answered %q with a preliminary reply (%d), where RFC 959 §4.2 wants a final one", clip(line), rep.code)
	}
	return rep, nil
}

// greeting reads the server's greeting (RFC 959 §5.4: 220, after any
// 120) for fetch itself, before jlaffaye/ftp takes the connection.
func (c *control) greeting() (reply, error) {
	n := 0 // the bytes of 120 replies so far: maxReplyLine in all
	for {
		rep, raw, err := c.readReply()
		if err != nil {
			return reply{}, err
		}
		if rep.code == 120 {
			if n += len(raw); n > maxReplyLine {
				return reply{}, errTooMany120
			}
			continue
		}
		return rep, nil
	}
}

// replay makes the next Read return rep, as the greeting fetch read
// itself, for jlaffaye/ftp's Dial, which reads a 220.
func (c *control) replay(rep reply) {
	lines := strings.Split(rep.text, "\n")
	code := strconv.Itoa(rep.code)
	var b strings.Builder
	for i, l := range lines {
		if i < len(lines)-1 {
			b.WriteString(code + "-" + l + "\r\n")
		} else {
			b.WriteString(code + " " + l + "\r\n")
		}
	}
	c.out = []byte(b.String())
}

// status returns the last command, the last reply and the 1xx of the
// last transfer.
func (c *control) status() (lastCmd string, last reply, opened string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lastCmd, c.last, c.opened
}

func (c *control) features() map[string]string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.feat
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
