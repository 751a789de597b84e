package fetch

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A transfer is one data connection and the command it serves (RETR,
// LIST, NLST, MLSD: RFC 959 §3.2, §4.1.3): the bytes come from the data
// connection, and the control connection's final reply, read once the
// data connection ends, says whether they are whole.
type transfer struct {
	s       *session
	ended   bool // end ran: endErr is its result
	endErr  error
	conn    net.Conn   // the data connection: timed, or TLS over it
	opened  reply      // the 1xx that opened it
	final   *reply     // the final reply, once read
	readErr error      // the error of the data connection, once it ended
	watch   chan error // the control connection's watch (watchControl)

	// An upload started early (opening.early): pending is its command,
	// whose opening reply is not read yet, and asked the reply to the
	// query that closeWrite sent after the upload's end, where it came
	// before the final reply.
	pending string
	asked   *reply

	// outlive keeps the data connection open when the control
	// connection ends while the data flows (Download and Put: a
	// middlebox that dropped the idle control connection), and dataEOF
	// notes that the data connection then reached its end: what
	// arrived is proven on another session.
	outlive bool
	dataEOF bool
}

// watchControl watches the control connection while the data flows: a
// server that closes it (or resets it) cannot confirm the transfer, so
// the data connection is closed at once and Read fails, where it would
// otherwise wait for data that may never end.
func (t *transfer) watchControl() {
	t.watch = make(chan error, 1)
	go func() {
		_, err := t.s.ctl.r.Peek(1)
		if err != nil && !isTimeout(err) && !t.outlive {
			t.conn.Close()
		}
		t.watch <- err
	}()
}

// unwatch ends the watch, and returns the control connection's error
// if it ended meanwhile (io.ErrUnexpectedEOF for its end).
func (t *transfer) unwatch() error {
	if t.watch == nil {
		return nil
	}
	var err error
	select {
	case err = <-t.watch:
	default:
		t.s.ctl.t.interrupt()
		err = <-t.watch
		t.s.ctl.t.resume()
	}
	t.watch = nil
	switch {
	case err == nil || isTimeout(err):
		return nil
	case err == io.EOF:
		return io.ErrUnexpectedEOF
	}
	return err
}

// Read reads the data connection. At its end, Read reads the final
// reply: io.EOF after a 226 or 250 (RFC 959 §5.4 lists both after a
// transfer), else an error that holds the reply.
func (t *transfer) Read(p []byte) (int, error) {
	if t.readErr != nil {
		return 0, t.readErr
	}
	n, err := t.conn.Read(p)
	if err == nil {
		return n, nil
	}
	t.dataEOF = err == io.EOF
	if cerr := t.unwatch(); cerr != nil {
		err = cerr // the control connection ended: the data's end is no proof
	}
	if err != io.EOF {
		t.readErr = err
		return n, err
	}
	t.readErr = t.Close()
	if t.readErr == nil {
		t.readErr = io.EOF
	}
	return n, t.readErr
}

// Close closes the data connection and reads the final reply (RFC 959
// §4.2): nil for a 226 or 250, else the reply as an error. A second
// call returns the first one's result: the reply is read once.
func (t *transfer) Close() error {
	if !t.ended {
		t.ended, t.endErr = true, t.readEnd()
	}
	return t.endErr
}

func (t *transfer) readEnd() error {
	t.conn.Close()
	if err := t.open(); err != nil {
		return err
	}
	if err := t.unwatch(); err != nil {
		return err
	}
	if t.final == nil {
		rep, err := t.s.ctl.read()
		if err != nil {
			return err
		}
		t.final = &rep
	}
	if t.final.code != 226 && t.final.code != 250 {
		return t.final.err()
	}
	return nil
}

// passive opens a data connection: EPSV (RFC 2428 §3), or PASV (RFC 959
// §4.1.2) where the server refuses EPSV with a 5xx. Either way the
// connection goes to the host of the control connection, whatever
// address the reply names (RFC 2577 §3: a PASV reply must not send data
// elsewhere). A failure is a *stepError naming the command.
func (s *session) passive(o *opening) (net.Conn, error) {
	var port int
	asked := "PASV"
	if !s.noEPSV && !s.client.DisableEPSV {
		rep, err := s.ctl.cmd("EPSV")
		if err != nil {
			return nil, &stepError{line: "EPSV", err: err}
		}
		switch {
		case rep.code == 229:
			if port, err = epsvPort(rep); err != nil {
				return nil, &stepError{line: "EPSV", err: err}
			}
			s.epsvOK, asked = true, "EPSV"
		case rep.code >= 500 && rep.code < 600:
			s.noEPSV = true
		default:
			return nil, &stepError{line: "EPSV", err: rep.err()}
		}
	}
	if port == 0 {
		rep, err := s.ctl.cmd("PASV")
		if err == nil && rep.code != 227 {
			err = rep.err()
		}
		if err != nil {
			return nil, &stepError{line: "PASV", err: err}
		}
		p, ok := pasvPort(rep.text)
		if !ok {
			return nil, &stepError{line: "PASV", err: errors.New("the server's 227 reply names no address (RFC 959 §4.1.2): " + strconv.Quote(clip(rep.text)))}
		}
		port = p
	}
	conn, err := s.dialData(o, port)
	if err != nil {
		// The data connection to the port the reply named.
		return nil, &stepError{line: asked, err: err}
	}
	return conn, nil
}

// dialData connects the data connection to port on the control
// connection's host, in TLS where the session is.
func (s *session) dialData(o *opening, port int) (net.Conn, error) {
	c, err := s.dialTCP(o.ctx, net.JoinHostPort(s.dataHost, strconv.Itoa(port)), o.dialTimeout)
	if err != nil {
		return nil, err
	}
	var conn net.Conn = &timed{Conn: c, dl: &s.dl}
	if s.tls != nil {
		// The handshake starts on the first Read or Write: servers
		// begin TLS on a data connection only once they have read the
		// command that it serves. The session's TLS configuration
		// resumes the control connection's TLS session (RFC 4217
		// §10.2).
		conn = tls.Client(conn, s.tls)
	}
	return conn, nil
}

// epsvPort reads the port of a 229 reply: "(|||port|)", where "|" may
// be any delimiter (RFC 2428 §3); a reply that fills in the protocol
// and address ("(|1|10.9.8.7|port|)") gives its port too, and the
// address is ignored. Any other reply is an error.
func epsvPort(rep reply) (int, error) {
	text := rep.text
	if rep.code == 229 {
		i := strings.IndexByte(text, '(')
		j := strings.LastIndexByte(text, ')')
		if i >= 0 && j >= i+6 {
			inner := text[i+1 : j]
			f := strings.Split(inner, inner[:1])
			if len(f) == 5 && f[0] == "" && f[4] == "" {
				if port, err := strconv.Atoi(f[3]); err == nil && port > 0 && port <= 65535 {
					return port, nil
				}
			}
		}
		return 0, errors.New("the server's 229 reply names no port (RFC 2428 §3): " + strconv.Quote(clip(text)))
	}
	return 0, rep.err()
}

// pasvPort reads the port of a 227 reply: "h1,h2,h3,h4,p1,p2" with or
// without parentheses (RFC 959 §4.1.2 leaves the wording free); the
// host is ignored.
func pasvPort(text string) (int, bool) {
	for _, s := range strings.FieldsFunc(text, func(r rune) bool { return !(r >= '0' && r <= '9' || r == ',') }) {
		f := strings.Split(s, ",")
		if len(f) != 6 {
			continue
		}
		var n [6]int
		ok := true
		for i, x := range f {
			v, err := strconv.Atoi(x)
			if err != nil || v > 255 {
				ok = false
				break
			}
			n[i] = v
		}
		if port := n[4]<<8 | n[5]; ok && port > 0 {
			return port, true
		}
	}
	return 0, false
}

// An opening is what starts a transfer: the command (RETR, LIST,
// NLST, MLSD, STOR, APPE), REST's offset, the queries asked first, and
// the use's context and WithDialTimeout for the data connection.
type opening struct {
	ctx         context.Context
	dialTimeout time.Duration
	line        string
	offset      int64
	queries     []query

	// early leaves the opening reply of an upload unread once the
	// data connection is dialed (see transfer.open), so that its first
	// bytes go out at once; only on a plain data connection.
	early bool

	// rang, when not "", goes in place of REST: "RANG start end"
	// (draft-bryan-ftp-range), answered 350.
	rang string
	// outlive: the transfer outlives its control connection
	// (transfer.outlive).
	outlive bool
}

// A query is a command that changes nothing on the server (SIZE,
// MDTM), asked before a transfer; op is the Op of its failure.
type query struct{ op, line string }

// A stepError is a command of a transfer's start that failed: its
// line as sent, the Op of its failure where it has one of its own
// (a query's, "rest"; "" for the transfer's), and why: the reply of a
// refusal, or the failure to get one.
type stepError struct {
	op, line string
	err      error
}

func (e *stepError) Error() string { return e.line + ": " + e.err.Error() }
func (e *stepError) Unwrap() error { return e.err }

// start opens a data connection and sends the command over the
// control connection (after "REST offset" when the offset is above 0,
// RFC 3659 §5.2: the last command before the transfer), then reads the
// reply that opens the transfer (125 or 150, RFC 959 §4.2). The
// queries go first, and their replies are returned in order once all
// came. On a session whose EPSV has worked, they go out in the same
// write as EPSV and the command, so they cost no round trip. A
// failure is a *stepError; a refusal closes the data connection.
func (s *session) start(o opening) (*transfer, []reply, error) {
	if port := s.ready; port > 0 {
		s.ready = 0
		if o.offset == 0 && o.rang == "" {
			if conn, err := s.dialData(&o, port); err == nil {
				return s.startReady(&o, conn)
			}
			// The port is gone (the server closed it): as usual.
		}
	}
	if s.epsvOK && o.offset == 0 && o.rang == "" {
		return s.startPipelined(&o)
	}
	var replies []reply
	for _, q := range o.queries {
		rep, err := s.ctl.cmd(q.line)
		if err != nil {
			return nil, nil, &stepError{op: q.op, line: q.line, err: err}
		}
		replies = append(replies, rep)
	}
	t, err := s.startAfter(&o)
	return t, replies, err
}

// startAfter is start without queries and without pipelining.
func (s *session) startAfter(o *opening) (*transfer, error) {
	conn, err := s.dataFor(o)
	if err != nil {
		return nil, err
	}
	if o.offset > 0 || o.rang != "" {
		rest, op := "REST "+strconv.FormatInt(o.offset, 10), "rest"
		if o.rang != "" {
			rest, op = o.rang, "rang"
		}
		rep, err := s.ctl.cmd(rest)
		if err == nil && rep.code != 350 {
			err = rep.err()
		}
		if err != nil {
			conn.Close()
			return nil, &stepError{op: op, line: rest, err: err}
		}
	}
	if err := s.ctl.send(o.line); err != nil {
		conn.Close()
		return nil, &stepError{line: o.line, err: err}
	}
	if a, ok := conn.(*activeListener); ok {
		return s.openedActive(o, a, o.line)
	}
	return s.opened(conn.(net.Conn), o)
}

// startPipelined is start on a session whose EPSV has worked: EPSV and
// the command go out together (RFC 959 §4.1 lets a client send a
// command before the reply to the one before it; the server reads them
// in order), which saves a round trip a transfer. The data connection
// is dialed once the 229 is read, as the server then waits for it. A
// dial that fails where the server has refused the command (and closed
// its port) gives that refusal.
func (s *session) startPipelined(o *opening) (*transfer, []reply, error) {
	lines := make([]string, 0, len(o.queries)+2)
	for _, q := range o.queries {
		lines = append(lines, q.line)
	}
	if err := s.ctl.send(append(lines, "EPSV", o.line)...); err != nil {
		return nil, nil, &stepError{line: "EPSV", err: err}
	}
	var replies []reply
	for _, q := range o.queries {
		rep, err := s.ctl.readFinal()
		if err != nil {
			return nil, nil, &stepError{op: q.op, line: q.line, err: err}
		}
		replies = append(replies, rep)
	}
	t, err := s.pipelined(o)
	return t, replies, err
}

// startReady is start on a data connection conn made already, to the
// port that an EPSV sent before opened (session.ready): the queries and
// the command go out together, and the command's reply is read as
// after a pipelined EPSV.
func (s *session) startReady(o *opening, conn net.Conn) (*transfer, []reply, error) {
	lines := make([]string, 0, len(o.queries)+1)
	for _, q := range o.queries {
		lines = append(lines, q.line)
	}
	if err := s.ctl.send(append(lines, o.line)...); err != nil {
		conn.Close()
		return nil, nil, &stepError{line: o.line, err: err}
	}
	var replies []reply
	for _, q := range o.queries {
		rep, err := s.ctl.readFinal()
		if err != nil {
			conn.Close()
			return nil, nil, &stepError{op: q.op, line: q.line, err: err}
		}
		replies = append(replies, rep)
	}
	if o.early && s.tls == nil {
		return &transfer{s: s, conn: conn, pending: o.line, outlive: o.outlive}, replies, nil
	}
	t, err := s.opened(conn, o)
	return t, replies, err
}

// pipelined reads the replies to EPSV and the command, sent already.
func (s *session) pipelined(o *opening) (*transfer, error) {
	line := o.line
	rep, err := s.ctl.read()
	if err != nil {
		return nil, &stepError{line: "EPSV", err: err}
	}
	port, perr := epsvPort(rep)
	if perr != nil {
		// The server had no passive port for line, so nothing was
		// transferred; line runs again, one command at a time (EPSV
		// again, or PASV after a 5xx), once the session is in step.
		s.epsvOK = false
		if err := s.afterRefusedEPSV(line); err != nil {
			return nil, err
		}
		if strings.HasPrefix(line, "STOR ") || strings.HasPrefix(line, "APPE ") {
			// ProFTPD may have made the file it then did not answer
			// for (an empty one, which it will not overwrite): the
			// upload decides what to send again (Put: a new
			// temporary name).
			return nil, &stepError{line: "EPSV", err: perr}
		}
		return s.startAfter(o)
	}
	conn, err := s.dialData(o, port)
	if err != nil {
		rep, rerr := s.ctl.read()
		switch {
		case isReply(rerr):
			return nil, &stepError{line: line, err: rerr} // a 421: the server is leaving
		case rerr == nil && rep.code >= 400:
			return nil, &stepError{line: line, err: rep.err()}
		}
		return nil, &stepError{line: "EPSV", err: err} // the data connection to the port it named
	}
	if o.early && s.tls == nil {
		return &transfer{s: s, conn: conn, pending: line, outlive: o.outlive}, nil
	}
	return s.opened(conn, o)
}

// afterRefusedEPSV brings the control connection back in step after a
// pipelined EPSV that named no port: whether the server answers line,
// sent after it, is its own. Most refuse it (425, 503); ProFTPD 1.3.8
// answers nothing to a transfer command after an EPSV whose listen(2)
// failed ("425 EPSV: Address already in use", two of its sessions
// racing for one port of its PassivePorts), and line's reply would be
// waited for a StallTimeout. A NOOP (RFC 959 §4.1.3), answered 200 as
// no transfer command is, fences the replies: line's, if any, comes
// before it.
func (s *session) afterRefusedEPSV(line string) error {
	if err := s.ctl.send("NOOP"); err != nil {
		return &stepError{line: "NOOP", err: err}
	}
	rep, err := s.ctl.readFinal()
	if err != nil {
		return &stepError{line: line, err: err}
	}
	if rep.code == 200 {
		return nil // the NOOP's: line got no reply
	}
	if _, err := s.ctl.readFinal(); err != nil {
		return &stepError{line: "NOOP", err: err}
	}
	return nil
}

// opened reads the reply to o's transfer command, whose data
// connection is conn.
func (s *session) opened(conn net.Conn, o *opening) (*transfer, error) {
	t := &transfer{s: s, conn: conn, pending: o.line, outlive: o.outlive}
	if err := t.open(); err != nil {
		return nil, &stepError{line: o.line, err: err}
	}
	return t, nil
}

// open reads the reply that opens t's transfer (125 or 150, RFC 959
// §4.2; a 226 or 250 where the server is done already), once: nil when
// the data flows. A refusal is the final reply, returned as an error
// (and Close returns it again), and the data connection is closed.
func (t *transfer) open() error {
	if t.pending == "" {
		return nil
	}
	t.pending = ""
	rep, err := t.s.ctl.read()
	if err != nil {
		t.conn.Close()
		t.ended, t.endErr = true, err
		return err
	}
	t.opened = rep
	switch {
	case rep.code < 200:
		t.watchControl()
	case rep.code == 226 || rep.code == 250:
		// Done without a preliminary reply: what the data connection
		// holds is all.
		t.final = &rep
	default:
		t.conn.Close()
		t.final = &rep
		t.ended, t.endErr = true, rep.err()
		return t.endErr
	}
	return nil
}

// refused reports whether the server refused t's command: a final
// reply that no preliminary one came before. Only an early upload
// (opening.early) gets that far with it; start returns the others.
func (t *transfer) refused() bool {
	return t.opened.code == 0 && t.final != nil && t.final.code >= 400
}

// why returns the reason a read of t failed with err (not io.EOF):
// where the data connection broke as the server refused the transfer
// (ftpserverlib over TLS, for a directory), the final reply's refusal;
// after a stall, err, without a second wait. The data connection is
// closed.
func (t *transfer) why(err error) error {
	if !isTimeout(err) && t.final == nil {
		if ferr := t.Close(); isReply(ferr) {
			err = ferr
		}
	}
	t.conn.Close()
	return err
}

// cut ends a transfer before its end and leaves the control
// connection in step, for the session to serve another use. The five
// servers answer a data connection closed early each their own way
// (docs/servers.md: vsftpd 426, ProFTPD 426, pyftpdlib 426 at times
// after a NOOP's 200, ftpserverlib 550 or 426, Pure-FTPd a stray 150 or
// 500 and nothing else, and it drops what follows ABOR in the same
// read), so cut closes the data connection, sends ABOR alone (RFC 959
// §4.1.3), reads replies to ABOR's 225 or 226 (the RETR's 226 where
// the transfer had ended), then sends NOOP and reads to its 200: every
// reply between is the transfer's or ABOR's. It gives up after
// maxCutReplies replies; an error leaves the session to be closed.
func (t *transfer) cut() error {
	if t.ended {
		return t.endErr
	}
	t.ended, t.endErr = true, errCut
	t.conn.Close()
	if err := t.unwatch(); err != nil {
		return err
	}
	ctl := t.s.ctl
	if t.final == nil {
		if err := ctl.send("ABOR"); err != nil {
			return err
		}
		if err := ctl.readTo(225, 226); err != nil {
			return err
		}
	}
	if err := ctl.send("NOOP"); err != nil {
		return err
	}
	return ctl.readTo(200, 200)
}

// errCut is the end of a transfer that cut ended.
var errCut = errors.New("the transfer was ended before its end")

// abort closes the data connection, leaving the final reply unread:
// the session is not reused.
func (t *transfer) abort() { t.conn.Close() }

// announced returns the size that the reply opening t gave (see
// sizeIn150), or -1.
func (t *transfer) announced() int64 { return sizeIn150(t.opened.text) }

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

// A listing is the text of one LIST, NLST or MLSD transfer, read into
// strings of up to listChunk bytes each as it arrives, so that a
// listing costs about its text in heap until it is split into lines
// once whole (and nothing more when it is cut at maxListing).
type listing struct {
	chunks []string
	size   int
}

const listChunk = maxReplyLine

// readListing reads t to its end, bounded by maxListing, and each
// line by maxReplyLine, as a reply line is: a line that grows past it
// is an error as soon as it does, whatever follows.
func readListing(t *transfer) (*listing, error) {
	l := &listing{}
	buf := make([]byte, listChunk)
	line := 0 // the bytes of the line under way, its LF included
	for {
		n, err := io.ReadFull(t, buf)
		if n > 0 {
			if l.size += n; l.size > maxListing {
				return nil, errListingTooLong
			}
			chunk := buf[:n]
			// A line within the chunk is shorter than the bound
			// (listChunk is maxReplyLine); one that spans chunks is
			// the carry and the start of this one.
			if i := bytes.IndexByte(chunk, '\n'); i < 0 {
				line += n
			} else {
				line += i + 1
				if line <= maxReplyLine {
					line = n - 1 - bytes.LastIndexByte(chunk, '\n')
				}
			}
			if line > maxReplyLine {
				return nil, errListingLineTooLong
			}
			l.chunks = append(l.chunks, string(chunk))
		}
		switch {
		case err == nil:
			continue
		case t.readErr == io.EOF: // ReadFull's io.EOF or io.ErrUnexpectedEOF: the transfer's end, confirmed
			return l, nil
		}
		return nil, err
	}
}

// each calls fn with each line of l, without its LF or CRLF; a line
// that spans two chunks is joined. Empty lines are passed too.
func (l *listing) each(fn func(line string)) {
	var carry strings.Builder
	for _, c := range l.chunks {
		for {
			i := strings.IndexByte(c, '\n')
			if i < 0 {
				carry.WriteString(c)
				break
			}
			line := c[:i]
			if carry.Len() > 0 {
				carry.WriteString(line)
				line = carry.String()
				carry = strings.Builder{}
			}
			fn(strings.TrimSuffix(line, "\r"))
			c = c[i+1:]
		}
	}
	if carry.Len() > 0 {
		fn(strings.TrimSuffix(carry.String(), "\r"))
	}
}

// lines returns l's lines, without empty ones; nil for none.
func (l *listing) lines() []string {
	n := 0
	l.each(func(line string) {
		if line != "" {
			n++
		}
	})
	if n == 0 {
		return nil
	}
	out := make([]string, 0, n)
	l.each(func(line string) {
		if line != "" {
			out = append(out, line)
		}
	})
	return out
}

// sendBufs holds the buffers of Put's copies.
var sendBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// send copies r to the data connection of t (an upload), and reports the bytes of
// r sent, r's error (not io.EOF) or the connection's. In TYPE A (ascii)
// a line end LF goes as CRLF, as RFC 959 §3.1.1.1 wants on the wire
// (a CRLF stays one), and the server makes its own line ends of it.
// Over TLS, an empty upload still makes the handshake (RFC 4217 §10),
// for servers wait for it before they see the connection's end.
func (t *transfer) send(ctx context.Context, r io.Reader, ascii bool) (n int64, rerr, werr error) {
	bp := sendBufs.Get().(*[]byte)
	defer sendBufs.Put(bp)
	buf := *bp
	var crlf []byte
	lastCR := false
	for {
		m, err := r.Read(buf)
		if m > 0 {
			out := buf[:m]
			if n > 0 {
				// An upload started early sent its first bytes
				// before the opening reply; the rest waits for it.
				if err := t.open(); err != nil {
					return n, nil, err
				}
			}
			if ascii {
				crlf, lastCR = toCRLF(crlf[:0], out, lastCR)
				out = crlf
			}
			if _, err := t.conn.Write(out); err != nil {
				return n, nil, err
			}
			n += int64(m)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, err, nil
		}
	}
	if tc, ok := t.conn.(*tls.Conn); ok && n == 0 {
		if err := tc.HandshakeContext(ctx); err != nil {
			return 0, nil, err
		}
	}
	return n, nil, nil
}

// toCRLF appends src to dst with each LF not after a CR made CRLF;
// lastCR says the byte before src was a CR, and the result says whether
// src's last byte is one.
func toCRLF(dst, src []byte, lastCR bool) ([]byte, bool) {
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			dst = append(dst, src...)
			return dst, src[len(src)-1] == '\r'
		}
		dst = append(dst, src[:i]...)
		if (i == 0 && !lastCR) || (i > 0 && src[i-1] != '\r') {
			dst = append(dst, '\r')
		}
		dst = append(dst, '\n')
		src, lastCR = src[i+1:], false
	}
	return dst, lastCR
}

// closeWrite ends an upload's data connection and reads the final reply:
// it shuts the writing side (TLS close_notify, RFC 5246 §7.2.1, then
// TCP's FIN, but through a proxy close_notify alone), reads what the server still sends (a TLS 1.3 session
// ticket) until it closes, and only then closes. Closing a connection
// that holds unread bytes makes the kernel send a reset, which throws
// away the upload's last bytes in flight: vsftpd and pyftpdlib then
// kept about 100 KB of 1 MiB over TLS.
//
// It sends ask (when not "") once the server has closed the data
// connection, before the final reply is read, and reports whether it
// sent it. A final reply that refuses the transfer has ask's reply read
// after it, so that the session stays in step.
func (t *transfer) closeWrite(ask string) (asked bool, err error) {
	if t.pending != "" {
		return t.closeEarly(ask)
	}
	c := t.conn
	tc, isTLS := c.(*tls.Conn)
	if isTLS {
		if err := tc.CloseWrite(); err != nil {
			return false, err
		}
		c = tc.NetConn()
	}
	if tm, ok := c.(*timed); ok {
		c = tm.Conn
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		shut := cw.CloseWrite
		if isTLS && t.s.proxy != nil {
			// Through a proxy, close_notify alone ends the upload:
			// Squid 5.7's tunnel, seeing the client's FIN, closed
			// the client's side before the server had read every
			// byte (TestSquidTunnelsEveryConnection: ProFTPD,
			// Pure-FTPd and pyftpdlib then answered SIZE with a
			// part of the file), and the end read below was the
			// proxy's, not the server's. The server closes once
			// close_notify, which follows the last byte, arrives.
			shut = func() error { return nil }
		}
		if err := shut(); err == nil {
			_, rerr := io.Copy(io.Discard, io.LimitReader(t.conn, 1<<20))
			if isTimeout(rerr) {
				// The server stalled: one StallTimeout is all it
				// gets, not a second one for the final reply.
				t.conn.Close()
				return false, rerr
			}
			if ask != "" && rerr == nil && !t.s.sizeLate {
				asked = t.s.ctl.send(ask) == nil
			}
		}
	}
	err = t.Close()
	if err != nil && asked {
		var tp *textproto.Error
		if errors.As(err, &tp) && tp.Code != 421 {
			_, _ = t.s.ctl.read() // SIZE's reply
		} else {
			t.s.abort() // no reply, or the server is leaving (421)
		}
	}
	return asked, err
}

// closeEarly is closeWrite for an upload whose opening reply is not
// read yet (opening.early: every byte went out before it, on a plain
// data connection). ask goes out with the upload's end, without
// waiting for the server's: a round trip less a file. The replies to
// come are then the opening one, the final one and ask's, and not
// every server sends them in that order: vsftpd and Pure-FTPd read the
// next command only after the transfer, ProFTPD and ftpserverlib may
// answer it while the transfer runs. The two non-preliminary replies
// are told apart by their codes: a 213 is ask's (SIZE), a 226 or 250
// the transfer's, and of an error and a 2xx, the error is the other's.
// Both are read, so the session stays in step. ask's reply, where it
// came before the final one, is kept in t.asked: it may count a file
// the server was still writing.
func (t *transfer) closeEarly(ask string) (asked bool, err error) {
	c := t.conn
	if tm, ok := c.(*timed); ok {
		c = tm.Conn
	}
	if cw, ok := c.(interface{ CloseWrite() error }); ok {
		_ = cw.CloseWrite()
	}
	if ask != "" && !t.s.sizeLate {
		asked = t.s.ctl.send(ask) == nil
	}
	t.pending = ""
	var got []reply
	for len(got) < 1 || asked && len(got) < 2 {
		rep, err := t.s.ctl.read()
		if err != nil {
			t.conn.Close()
			t.ended, t.endErr = true, err
			if asked && len(got) == 1 && isReply(err) {
				t.s.abort() // the server is leaving (421)
			}
			return asked, err
		}
		if rep.code < 200 {
			t.opened = rep
			continue
		}
		got = append(got, rep)
	}
	final := got[0]
	if asked {
		done := func(r reply) bool { return r.code == 226 || r.code == 250 }
		a, b := got[0], got[1]
		first := a.code == 213 || done(b) && !done(a)
		if first {
			final = b // ask's reply came first
		} else {
			a = b
		}
		switch {
		case !done(final) || a.code == 213:
			t.asked = &a
		case first:
			// ask was refused before the transfer's end (a server
			// that answered it while the file was not made yet):
			// asked again after it, and on this session after
			// every transfer's end.
			asked, t.s.sizeLate = false, true
		default:
			asked = false
		}
	}
	t.conn.Close()
	t.final = &final
	t.ended = true
	if final.code != 226 && final.code != 250 {
		t.endErr = final.err()
	}
	return asked, t.endErr
}
