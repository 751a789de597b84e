package fetch

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"path"
	"strconv"
	"strings"

	"github.com/ftpurl/ftpurl"
)

// Put uploads what r holds to the file rawURL names, with
// [DefaultClient]; see [Client.Put].
func Put(ctx context.Context, rawURL string, r io.Reader, opts ...Option) (int64, error) {
	return DefaultClient.Put(ctx, rawURL, r, opts...)
}

// Put uploads what r holds, to its end (io.EOF), to the file rawURL names,
// and returns the bytes it sent. The 1997 draft §2.5 allows an ftp URL to
// name a file to update, and curl uploads to one (-T); the 2011 draft §3.2
// says its URIs are not for uploading, so Put follows the 1997 draft and
// curl.
//
// The URL is parsed and planned as for [Client.Open] ([WithGrammar],
// [WithMethod], [WithAbsolutePaths], the login and [WithPassword] apply):
// Put enters the plan's directories as for RETR, sends "TYPE A" for
// ";type=a" and "TYPE I" otherwise, then "STOR name" (RFC 959 §4.1.3) and
// sends r's bytes over the data connection; in TYPE A each LF that no CR
// precedes goes as CRLF (RFC 959 §3.1.1.1), and the count Put returns is
// of r's bytes. A URL with no name (a directory, "ftp://host/pub/"), or
// with ";type=d", e or u, fails before connecting with an *[Error] of Op
// "stor".
//
// On a session whose EPSV has worked (RFC 2428 §3), EPSV and STOR go
// out together, and over a plain data connection the first bytes, and
// a small file's end, go out as soon as the data connection is made,
// before the 150 (RFC 959 §4.1 lets a client send before the reply to
// the command before): a round trip less a file.
//
// Put is done only when it is proven. Servers answer 226 to an upload cut
// short (all five that fetch is tested on do), so Put asks "SIZE name"
// (RFC 3659 §4; sent with the end of the data, or once the server has
// closed the data connection, and asked again where its answer came
// before the 226 and counts fewer bytes) and fails with Op "size" unless the server holds
// exactly the bytes sent (plus the [WithOffset] offset). Two cases
// take the 226 alone: ";type=a", where the server converts line ends
// (RFC 959 §3.1.1.1) and SIZE counts other bytes than were sent, and a
// server whose FEAT (RFC 2389) does not list SIZE.
//
// When r fails (a Read returns an error other than io.EOF), Put ends the
// transfer and returns an *[Error] of Op "stor" (or "appe") that wraps r's
// error and says what the server now holds: the SIZE of the partial file,
// or, with [WithTempName], that the temporary file was deleted. Put
// returns the bytes sent so far with every error.
//
// [WithCreateDirs] makes missing directories, [WithTempName] stores under
// a temporary name then renames, [WithOffset] resumes with "APPE". Put
// reuses the Client's sessions as Open does, and runs again on another
// session while the one that failed was a reused one that the server
// had left (see [Client]), and only before the server accepted the
// STOR or APPE: a Put that may have sent data is never sent again.
//
// ctx bounds the whole upload. Every error but a parse or plan error
// (*[ftpurl.Error]) is an *[Error] that names the command refused and
// holds the server's reply; none shows the password. Servers differ
// (ProFTPD refuses to overwrite a file, to APPE and to RNTO onto a file by
// default, "550 ... Overwrite permission denied"): such a refusal is an
// *Error of the command's Op, with Code and Msg the server's.
func (c *Client) Put(ctx context.Context, rawURL string, r io.Reader, opts ...Option) (int64, error) {
	req, err := newPutRequest(rawURL, opts)
	if err != nil {
		return 0, err
	}
	ctx, cancel := req.withTimeout(ctx)
	defer cancel()
	x := c.newExchange(ctx, req)
	var n int64
	err = x.run(func() error {
		var err error
		n, err = x.put(r)
		return err
	})
	return n, err
}

// newPutRequest is newRequest for Put: the URL's plan turned into the
// plan of an upload (its CWDs, the TYPE, RETR Name, whose argument STOR
// takes), and Put's rules for WithOffset.
func newPutRequest(rawURL string, opts []Option) (*request, error) {
	r, err := parseRequest(rawURL, opts)
	if err != nil {
		return nil, err
	}
	fail := func(op, msg string) (*request, error) {
		return nil, &Error{Op: op, URL: r.redacted, Err: errors.New(msg)}
	}
	p := *r.plan
	switch {
	case p.Action == ftpurl.NameList:
		return fail("stor", `Put needs a file name: ";type=d" names a directory listing`)
	case p.Name == "" || p.Action != ftpurl.Retrieve && p.Action != ftpurl.RetrieveOrList:
		return fail("stor", "Put needs a file name: the URL names a directory (the name is the STOR argument, RFC 959 §4.1.3)")
	case p.Type != ftpurl.TypeImage && p.Type != ftpurl.TypeASCII:
		return fail("stor", "Put sends TYPE A (;type=a) or TYPE I, not TYPE "+strings.ToUpper(string(rune(p.Type))))
	}
	p.Action, p.Fallback, p.Verify = ftpurl.Retrieve, nil, nil
	r.plan = &p
	switch off := r.cfg.offset; {
	case off < 0:
		return fail("appe", "WithOffset: the offset "+strconv.FormatInt(off, 10)+" is negative")
	case off > 0 && p.Type != ftpurl.TypeImage:
		return fail("appe", `WithOffset needs TYPE I: SIZE counts TYPE I bytes (RFC 3659 §4), which ";type=a" does not send`)
	case off > 0 && r.cfg.tempName:
		return fail("appe", "WithOffset and WithTempName: a resumed upload appends to the name itself, which a temporary file would replace")
	}
	return r, nil
}

// put runs an upload on x's session: the plan's CWDs and TYPE, then
// STOR (or SIZE and APPE for WithOffset), the bytes, the final reply,
// the SIZE that proves them, and for WithTempName the rename.
func (x *exchange) put(r io.Reader) (int64, error) {
	s, req := x.s, x.req
	x.mkdirs = req.cfg.createDirs
	st, e := x.enter(req.plan, false)
	if e != nil {
		return 0, e
	}
	name := st.Arg
	off := req.cfg.offset
	verb, op := "STOR", "stor"
	target := name
	if req.cfg.tempName {
		target = tempName(name)
	}
	if off > 0 {
		verb, op = "APPE", "appe"
		if e := x.holds(name, off); e != nil {
			return 0, e
		}
	}
	r, proof, e := x.hashUpload(r)
	if e != nil {
		return 0, e
	}
	line := verb + " " + target
	// Early: the first bytes go out as soon as the data connection is
	// made, before the 150 that opens the transfer (on a session whose
	// EPSV has worked, over plain TCP; see transfer.closeEarly). The
	// data connection outlives the control connection (outlive.go).
	t, _, e := x.startWith(op, opening{line: line, early: true, outlive: true})
	if e != nil && e.Command == "EPSV" && e.Code != 421 && !x.s.closed() {
		// A pipelined EPSV that named no port (data.go), after which
		// the server may hold an empty file of the name it did not
		// answer STOR for (ProFTPD, which will not overwrite it): the
		// command again, one at a time; with WithTempName under a new
		// temporary name, the old one deleted where it is there.
		if target != name {
			_, _ = x.cmd("", 0, "DELE "+target)
			target = tempName(name)
			line = verb + " " + target
		}
		t, _, e = x.startWith(op, opening{line: line, early: true, outlive: true})
	}
	if e != nil {
		// Refused before any byte: the server made no file.
		return 0, e
	}
	// From here on the server may hold new bytes: never again.
	x.sent = true
	n, rerr, werr := t.send(x.ctx, r, s.typ == ftpurl.TypeASCII)
	var err error
	asked, lost, proven := false, false, false
	switch {
	case rerr != nil:
		// The reader failed: end the transfer, and say what the
		// server holds now.
		err = &readerError{err: rerr}
		if _, ferr := t.closeWrite(""); ferr != nil && !isReply(ferr) {
			s.abort()
			lost = true
		}
	case werr != nil:
		// The server closed the data connection, or the network
		// failed: the final reply, where there is one, says why.
		err = werr
		if ferr := t.Close(); isReply(ferr) {
			err = ferr
		}
	default:
		// SIZE goes out as soon as the server has closed the data
		// connection, before its 226 is read: the transfer is over on
		// the server's side, which reads it next, and the proof costs
		// no round trip of its own.
		ask := ""
		if s.typ == ftpurl.TypeImage && s.ctl.has("SIZE") {
			ask = "SIZE " + target
		}
		asked, err = t.closeWrite(ask)
		if err != nil && x.controlLost(err) {
			// Every byte went, and the server closed the data
			// connection; its control connection ended (or fell
			// silent) before the 226, as when a middlebox dropped it
			// as idle: a new session proves the upload by SIZE, and
			// it is never sent again.
			switch pe := x.proveLost(target, off+n); {
			case pe == nil:
				err, asked, proven = nil, false, true
			case pe.partial:
				x.cleanUp(pe, target, name)
				return n, pe
			default:
				e := x.fail(op, line, err)
				addNote(e, "the control connection ended after the "+strconv.FormatInt(n, 10)+" bytes went, and a new session could not prove them: "+pe.Error())
				return n, e
			}
		}
	}
	if err != nil {
		e := x.fail(op, line, err)
		if t.refused() {
			// An early upload's command refused (its bytes went
			// out before the reply): the server made no file.
			return 0, e
		}
		if lost {
			e.note = "the connection ended too: what the server holds is unknown"
		} else {
			x.cleanUp(e, target, name)
		}
		return n, e
	}
	if !proven {
		if e := x.proveSize(target, off+n, asked, t.asked); e != nil {
			x.cleanUp(e, target, name)
			return n, e
		}
	}
	if e := proof.check(x, target); e != nil {
		x.cleanUp(e, target, name)
		return n, e
	}
	timeSet := false
	if target != name {
		var e *Error
		if timeSet, e = x.renameTimed(target, name); e != nil {
			x.discard(e, target, true)
			return n, e
		}
	}
	if req.cfg.hasModTime && !timeSet {
		if e := x.setModTime(name, req.cfg.setModTime); e != nil {
			addNote(e, "the file is whole on the server, with the server's time")
			return n, e
		}
	}
	return n, nil
}

// readerError is the failure of Put's reader: errors.Is and errors.As
// reach it, and it reads as what Put was doing.
type readerError struct{ err error }

func (e *readerError) Error() string { return "reading what to upload: " + e.err.Error() }
func (e *readerError) Unwrap() error { return e.err }

// holds checks, before APPE, that the server holds off bytes of name
// (RFC 3659 §4): anything else would leave a hole or a doubled part.
func (x *exchange) holds(name string, off int64) *Error {
	line := "SIZE " + name
	var why string
	if !x.s.ctl.has("SIZE") {
		why = "the server does not list SIZE in FEAT (RFC 3659 §4): fetch cannot check where to resume"
	} else {
		rep, e := x.cmd("size", 213, line)
		if e != nil {
			if e.declined() {
				e.note = "WithOffset " + strconv.FormatInt(off, 10) + " resumes a file the server must hold"
			}
			return e
		}
		switch got := sizeOf(rep); {
		case got < 0:
			why = "the server's 213 reply holds no size: " + strconv.Quote(clip(rep.text))
		case got != off:
			why = "the server holds " + strconv.FormatInt(got, 10) + " bytes, not the WithOffset " + strconv.FormatInt(off, 10) + ": APPE would leave a hole or a doubled part"
		}
	}
	if why != "" {
		return x.fail("size", line, errors.New(why))
	}
	return nil
}

// proveSize checks, after the 226, that the server holds want bytes of
// name (RFC 3659 §4): in TYPE I where FEAT lists SIZE, else it takes
// the 226. With asked, the SIZE went out already (closeWrite) and only
// its reply is read, unless early holds it: SIZE's 213 that came
// before the 226, which proves the file where it counts want bytes,
// and else is asked again, now that the transfer is over.
func (x *exchange) proveSize(name string, want int64, asked bool, early *reply) *Error {
	s := x.s
	if s.typ != ftpurl.TypeImage || !s.ctl.has("SIZE") {
		return nil
	}
	line := "SIZE " + name
	var rep reply
	var e *Error
	if early != nil && sizeOf(*early) != want {
		// Counted before the file was whole (ProFTPD answers at
		// once): asked again, and on this session after every
		// transfer's end.
		asked, early, s.sizeLate = false, nil, true
	}
	if early != nil {
		rep = *early
	} else if asked {
		rep, e = x.reply("size", 213, line)
	} else {
		rep, e = x.cmd("size", 213, line)
	}
	if e != nil {
		if e.declined() {
			e.note = "the server answered 226, and SIZE cannot prove that it holds the " + strconv.FormatInt(want, 10) + " bytes"
		}
		return e
	}
	if got := sizeOf(rep); got != want {
		e := x.fail("size", line, errors.New("the server answered 226 and holds "+strconv.FormatInt(got, 10)+" bytes, not the "+strconv.FormatInt(want, 10)+" it should (the upload was cut short)"))
		e.partial = true
		return e
	}
	return nil
}

// rename sends RNFR from and RNTO to (RFC 959 §4.1.3): 350, then a
// 2xx (250 as a rule). Both go out in one write, which saves a round
// trip (RFC 959 §4.1 lets a client send a command before the reply to
// the one before it): where RNFR is refused, the server refuses the
// RNTO that follows it too (503, bad sequence), whose reply is read and
// dropped, and the error is RNFR's.
func (x *exchange) rename(from, to string) *Error {
	_, e := x.renameAfter("", from, to, false)
	return e
}

// renameAfter is rename with the command pre (when not "") in the same
// write before RNFR; it reports whether pre was taken (a 2xx). A
// refused pre does not stop the rename. With next, on a session whose
// EPSV has worked and that renamed an upload before (a batch of them,
// as a deploy sends), an EPSV goes out after RNTO, in the same write,
// for the session's next transfer (see session.ready): a batch of
// uploads then costs no EPSV round trip a file.
func (x *exchange) renameAfter(pre, from, to string, next bool) (preOK bool, e *Error) {
	rnfr, rnto := "RNFR "+from, "RNTO "+to
	lines := []string{rnfr, rnto}
	if pre != "" {
		lines = []string{pre, rnfr, rnto}
	}
	if next {
		next = x.s.epsvOK && x.s.ready == 0 && x.s.renamed > 0
		x.s.renamed++
	}
	if next {
		lines = append(lines, "EPSV")
	}
	if err := x.s.ctl.send(lines...); err != nil {
		return false, x.fail("rename", lines[0], err)
	}
	preOK, e = x.renameReplies(pre, rnfr, rnto)
	if next && (e == nil || e.declined()) {
		// The EPSV's reply: a port for the next transfer, or none
		// (a refusal, ProFTPD's 425 of a port taken: the next one
		// sends its own EPSV).
		rep, err := x.s.ctl.readFinal()
		switch {
		case err != nil && !isReply(err):
			x.s.abort()
		case err == nil:
			if port, perr := epsvPort(rep); perr == nil {
				x.s.ready = port
			}
		}
	}
	return preOK, e
}

// renameReplies reads the replies to pre (where not ""), RNFR and
// RNTO, sent together (renameAfter).
func (x *exchange) renameReplies(pre, rnfr, rnto string) (preOK bool, e *Error) {
	if pre != "" {
		_, pe := x.reply("modtime", 2, pre)
		if pe != nil && !pe.declined() {
			return false, pe
		}
		preOK = pe == nil
	}
	if _, e := x.reply("rename", 350, rnfr); e != nil {
		if e.declined() {
			if _, re := x.reply("rename", 0, rnto); re != nil {
				return false, re
			}
		}
		return false, e
	}
	if _, e := x.reply("rename", 2, rnto); e != nil {
		return false, e
	}
	return preOK, nil
}

// renameTimed is rename for WithTempName; with WithSetModTime, where
// the Client has learnt the server's way to set a time (SetModTime),
// that command goes out first in the same write, on the temporary
// file (a rename keeps a file's time), and the three cost one round
// trip. It reports whether the time was set; a refused one is left to
// setModTime after the rename.
func (x *exchange) renameTimed(temp, name string) (timeSet bool, e *Error) {
	cfg := x.req.cfg
	line := ""
	if cfg.hasModTime {
		line, _ = x.c.learntTimeLine(hostKey{x.req.key.scheme, x.req.key.addr}, cfg.setModTime, temp)
	}
	return x.renameAfter(line, temp, name, true)
}

// cleanUp ends a Put that failed after its transfer began: a temporary
// file is deleted, and the error says what the server holds under the
// name otherwise.
func (x *exchange) cleanUp(e *Error, target, name string) {
	if target != name {
		x.discard(e, target, false)
		return
	}
	x.sayHolds(e, target)
}

// sayHolds notes in e what the server holds of name after a failed Put
// (SIZE, RFC 3659 §4), when the session can still ask.
func (x *exchange) sayHolds(e *Error, name string) {
	s := x.s
	if !x.canAsk(e) {
		return
	}
	if !s.ctl.has("SIZE") || s.typ != ftpurl.TypeImage {
		addNote(e, "what the server holds of "+strconv.Quote(name)+" is unknown")
		return
	}
	line := "SIZE " + name
	rep, se := x.cmd("", 213, line)
	switch {
	case se == nil && sizeOf(rep) >= 0:
		addNote(e, "the server now holds "+strconv.FormatInt(sizeOf(rep), 10)+" bytes of "+strconv.Quote(name))
	case se == nil || se.declined():
		addNote(e, line+": "+strconv.Itoa(rep.code)+" "+x.clean(rep.text))
	default:
		s.abort()
	}
}

// discard deletes the temporary file of a failed Put (DELE, RFC 959
// §4.1.3), and notes in e that it did, or the file's name where it
// could not. whole says the file holds the whole upload.
func (x *exchange) discard(e *Error, temp string, whole bool) {
	what := "the temporary file " + strconv.Quote(temp)
	if whole {
		what = "the temporary file " + strconv.Quote(temp) + ", which holds the whole upload,"
	}
	if !x.canAsk(e) {
		addNote(e, what+" may be left on the server")
		return
	}
	line := "DELE " + temp
	rep, de := x.cmd("", 2, line)
	switch {
	case de == nil:
		addNote(e, what+" was deleted")
	case de.declined():
		addNote(e, what+" is left on the server: "+line+": "+strconv.Itoa(rep.code)+" "+x.clean(rep.text))
	default:
		x.s.abort()
		addNote(e, what+" may be left on the server")
	}
}

// canAsk reports whether the session can send another command after e:
// the control connection is whole and in step.
func (x *exchange) canAsk(e *Error) bool {
	if x.s.closed() {
		return false
	}
	var cut *cutReply
	if errors.As(e.Err, &cut) || e.Code == 421 || e.Timeout() || contextErr(x.ctx) != nil {
		return false
	}
	return e.Code != 0 || !isNetwork(e.Err)
}

// isNetwork reports a failure of the connection rather than a reply.
func isNetwork(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) || errors.Is(err, net.ErrClosed) || errors.Is(err, io.ErrUnexpectedEOF)
}

func addNote(e *Error, note string) {
	if e.note != "" {
		e.note += "; "
	}
	e.note += note
}

// tempName returns the temporary name of WithTempName for name, in the
// same directory: ".NAME.ftpurl-XXXXXXXX.part".
func tempName(name string) string {
	dir, base := path.Split(name)
	var b [4]byte
	_, _ = rand.Read(b[:])
	return dir + "." + base + ".ftpurl-" + hex.EncodeToString(b[:]) + ".part"
}

// makeDirs makes the directory dir that a CWD refused with cwdErr (550),
// for WithCreateDirs: MKD of each of its segments in turn ("a", then
// "a/b"; RFC 959 §4.1.3), as servers make one level at a time, then the
// CWD again. An MKD refused for a directory that exists is no error:
// the CWD that follows decides.
func (x *exchange) makeDirs(dir string, cwdErr *Error) *Error {
	var last *Error
	for _, d := range prefixes(dir) {
		_, e := x.cmd("mkd", 2, "MKD "+d)
		if e != nil && !e.declined() {
			return e
		}
		last = e
	}
	if e := x.cwd("cwd", cwdStep(dir), true); e != nil {
		if last != nil {
			last.prior = cwdErr
			return last
		}
		return e
	}
	return nil
}

// prefixes returns the directories to make for dir, one segment more
// each: "a", "a/b", "a/b/c" for "a/b/c"; "/a", "/a/b" for "/a/b".
func prefixes(dir string) []string {
	var out []string
	for i := 1; i < len(dir); i++ {
		if dir[i] == '/' && dir[i-1] != '/' {
			out = append(out, dir[:i])
		}
	}
	return append(out, dir)
}
