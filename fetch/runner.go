package fetch

import (
	"context"
	"errors"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
)

// A runner runs one request's plan on one session: it sends the plan's
// steps, each as [ftpurl.Step.String] renders it, and decides what each
// reply means (the Fallback, the Verify, ErrNotFound, the size check).
// Open, Stat and ReadDir are actions on it; what they return (a
// Response, a FileInfo, entries) is a value apart.
type runner struct {
	s    *session
	req  *request
	keep bool // the session went to a Response, which gives it back

	unique string // readDir: the listed directory's unique fact (MLSD's cdir)
	self   bool   // readDir: find unique with MLST where the listing has no cdir

	// sent reports that the action may have changed what the server
	// holds: a Put whose STOR or APPE began. do never runs it again.
	sent bool

	// mkdirs makes enter create a directory whose CWD is refused
	// (WithCreateDirs).
	mkdirs bool
}

// do runs act on a session of c for r: an idle one or a new one. When
// act fails on a reused session that the server had left (421, or the
// connection's end or reset: gone) before any of the result reached
// the caller, it runs once more, on a new session, as net/http retries
// an idempotent request that failed on a reused connection: a server
// restarted while sessions were idle leaves each of them dead, and the
// next idle one would most likely fail the same way. A new session's
// failure is the caller's, and an action that set rn.sent (a Put that
// began its transfer) is never run again.
func (c *Client) do(ctx context.Context, r *request, act func(*runner) error) error {
	for retry := false; ; retry = true {
		s, reused, err := c.connect(ctx, r, retry)
		if err != nil {
			return err
		}
		rn := &runner{s: s, req: r}
		err = act(rn)
		if err == nil {
			if !rn.keep {
				c.release(s, true)
			}
			return nil
		}
		c.release(s, reusable(err))
		if reused && !rn.sent && gone(ctx, err) {
			continue
		}
		return err
	}
}

// fail is session.fail for a step of the plan (fallback) or not.
func (rn *runner) fail(op, command string, err error, fallback bool) *Error {
	e := rn.s.fail(op, command, err)
	e.Fallback = fallback
	return e
}

// enter sends the CWD and TYPE steps of p ([ftpurl.Plan.Steps]) and
// returns its last step, the action (RETR, LIST or NLST; none for a
// Verify). The first plan of a reused session starts from where the
// plan starts (goHome), and skips the CWDs the session has made
// already; a TYPE in force is not sent again (RFC 959 §3.1.1). With
// rn.mkdirs, a CWD refused with 550 makes the directory (makeDirs) and
// is sent again. This is the one place that switches on a step's
// Command.
func (rn *runner) enter(p *ftpurl.Plan, fallback bool) (ftpurl.Step, *Error) {
	return rn.steps(p, "cwd", fallback, !fallback)
}

// steps is enter for a plan whose CWD refusals are Op op: from where
// the plan starts (home), or from where the session stands (a
// Fallback, a Verify).
func (rn *runner) steps(p *ftpurl.Plan, op string, fallback, home bool) (ftpurl.Step, *Error) {
	s := rn.s
	steps := p.Steps()
	if steps == nil {
		return ftpurl.Step{}, &Error{Op: "plan", URL: s.redacted, Err: errors.New("the plan fails ftpurl's checks (Plan.Steps is nil)")}
	}
	skip := 0
	if home {
		var err error
		var sent string // the CWD to the login directory, if one went out
		if skip, sent, err = s.goHome(p); err != nil {
			return ftpurl.Step{}, s.fail("cwd", sent, err)
		}
	}
	for _, st := range steps {
		switch st.Command {
		case "CWD":
			if skip > 0 {
				skip--
				continue
			}
			if err := s.cwd(st, true); err != nil {
				e := rn.fail(op, st.String(), err, fallback)
				if rn.mkdirs && e.refused(550) {
					e = rn.makeDirs(st.Arg, e)
					if e == nil {
						continue
					}
					return ftpurl.Step{}, e
				}
				return ftpurl.Step{}, rn.judge(e, st.Arg, asDir)
			}
		case "TYPE":
			if err := s.setType(st); err != nil {
				return ftpurl.Step{}, rn.fail("type", st.String(), err, fallback)
			}
		default:
			return st, nil
		}
	}
	return ftpurl.Step{}, nil
}

// What a refused command wanted its name to be.
type kind int

const (
	asAny  kind = iota // no probe: a 550 means nothing is there
	asDir              // CWD: is the name a file?
	asFile             // RETR: is the name a directory?
)

// judge decides whether the refusal e of a command about name means
// that the URL names nothing on the server ([ErrNotFound]): the one
// place fetch decides it. A 550 (RFC 959 §4.2: "File unavailable (e.g.,
// file not found, no access)") does, unless the server shows that the
// name is there as the other kind: a CWD refused for a name that MLST,
// MDTM or SIZE finds (a file used as a directory, "Not a directory"), a
// RETR refused for a name that CWD enters (a directory, "Is a
// directory"). Then the error says so, and is not ErrNotFound.
func (rn *runner) judge(e *Error, name string, want kind) *Error {
	if !e.refused(550) {
		return e
	}
	e.notFound = true
	switch want {
	case asDir:
		if probe, ok := rn.isFile(name); ok {
			e.notFound = false
			e.note = strconv.Quote(name) + " is a file, not a directory (" + probe + ")"
		}
	case asFile:
		if rn.s.cwd(cwdStep(name), true) == nil {
			e.notFound = false
			e.note = strconv.Quote(name) + " is a directory, not a file (CWD " + name + " succeeded)"
		}
	}
	return e
}

// isFile asks whether name is a file, with the first of MLST (RFC 3659
// §7), MDTM (§3) and SIZE (§4) that the server's FEAT lists, and
// returns the command that showed it. A failure to get a reply ends the
// session when the use does.
func (rn *runner) isFile(name string) (string, bool) {
	s := rn.s
	for _, verb := range []string{"MLST", "MDTM", "SIZE"} {
		if !s.ctl.has(verb) {
			continue
		}
		line := verb + " " + name
		rep, err := s.ctl.cmd(line)
		if err != nil {
			s.abort()
			return "", false
		}
		if verb == "MLST" {
			if e, ok := mlstEntry(rep); ok && !e.Mode.IsDir() {
				return line + ": " + strconv.Itoa(rep.code), true
			}
			return "", false
		}
		return line + ": " + strconv.Itoa(rep.code), rep.code == 213
	}
	return "", false
}

// open runs the plan of an Open: the Response holds a file's first
// bytes and the session, or the whole listing.
func (rn *runner) open(resp *Response) error {
	p := rn.req.plan
	st, e := rn.enter(p, false)
	if e != nil {
		return e
	}
	switch p.Action {
	case ftpurl.List:
		return rn.list(resp, p, st, false)
	case ftpurl.NameList:
		return rn.nameList(resp, p, st)
	case ftpurl.Retrieve, ftpurl.RetrieveOrList:
		return rn.retrieve(resp, p, st)
	}
	return &Error{Op: "plan", URL: rn.s.redacted, Err: errors.New("the plan has no action: " + p.Action.String())}
}

// retrieve runs RETR (2011 draft §3.2.3 (4c)), after SIZE where the
// 150 may not give the size, and, for a RetrieveOrList plan, the plan's
// Fallback when the server refuses it with 550: at once, or after the
// 150 when the transfer ends without a byte (ftpserverlib answers so
// for a directory) (4d).
func (rn *runner) retrieve(resp *Response, p *ftpurl.Plan, st ftpurl.Step) error {
	s := rn.s
	line := st.String()
	resp.retrCmd = line
	var queries []string
	askSize := s.ctl.has("SIZE") && s.typ == ftpurl.TypeImage && (!s.sizeIn150 || resp.offset > 0)
	if askSize {
		queries = append(queries, "SIZE "+st.Arg)
	}
	askTime := rn.req.cfg.modTime && s.ctl.has("MDTM")
	if askTime {
		queries = append(queries, "MDTM "+st.Arg)
	}
	t, replies, failed, err := s.startAsking(line, resp.offset, queries)
	if err == nil || failed == line {
		if askSize {
			resp.Size, replies = sizeOf(replies[0]), replies[1:]
		}
		if askTime && replies[0].code == 213 {
			resp.ModTime = parseTime(strings.TrimSpace(replies[0].text))
		}
	}
	if err != nil {
		switch {
		case strings.HasPrefix(failed, "SIZE "):
			return s.fail("size", failed, err)
		case strings.HasPrefix(failed, "MDTM "):
			return s.fail("mdtm", failed, err)
		case strings.HasPrefix(failed, "REST "):
			return s.fail("rest", failed, err)
		case failed != line:
			return s.fail("retr", failed, err) // EPSV, PASV, the data connection
		}
		e := s.fail("retr", line, err)
		if p.Action == ftpurl.RetrieveOrList && e.refused(550) && p.Fallback != nil {
			return rn.fallback(resp, p, e)
		}
		return rn.judge(e, st.Arg, asFile)
	}
	if n := sizeIn150(t.opened.text); n >= 0 {
		s.sizeIn150 = true
		if resp.offset == 0 {
			resp.Size = n
		}
	}
	resp.Action, resp.body = ftpurl.Retrieve, t
	if p.Action != ftpurl.RetrieveOrList {
		rn.keep = true
		return nil
	}
	// Read until the first byte or the end of the transfer: a 550
	// after the 150 is a refusal, and the Fallback runs.
	buf := make([]byte, 4096)
	for {
		n, rerr := t.Read(buf)
		if n > 0 {
			resp.peek, resp.n = buf[:n], int64(n)
			rn.keep = true
			return nil
		}
		if rerr == nil {
			continue
		}
		resp.body = nil
		if rerr != io.EOF && !isTimeout(rerr) && t.final == nil {
			// A data connection that breaks where the server refuses
			// the transfer (ftpserverlib over TLS, for a directory):
			// the final reply decides. After a stall, no second wait.
			var tp *textproto.Error
			if ferr := t.end(); errors.As(ferr, &tp) {
				rerr = ferr
			}
		}
		if rerr == io.EOF {
			// An empty file, confirmed by the server.
			if e := resp.shortErr(); e != nil {
				return e
			}
			if resp.Size < 0 && resp.offset == 0 {
				// Read whole, so its size is known, even where the 150
				// left it out (ProFTPD does for 0 bytes).
				resp.Size = 0
			}
			resp.readErr = io.EOF
			return nil
		}
		t.conn.Close()
		e := s.fail("retr", line, rerr)
		if e.refused(550) && p.Fallback != nil {
			return rn.fallback(resp, p, e)
		}
		return e
	}
}

// fallback runs p's Fallback (CWD Name, TYPE A, LIST) after the server
// refused RETR with retrErr.
func (rn *runner) fallback(resp *Response, p *ftpurl.Plan, retrErr *Error) error {
	fb := p.Fallback
	resp.Action, resp.body, resp.peek, resp.n, resp.Size, resp.ModTime = 0, nil, nil, 0, -1, time.Time{}
	fst, e := rn.enter(fb, true)
	if e != nil {
		e.prior = retrErr
		return e
	}
	if err := rn.list(resp, fb, fst, true); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.prior = retrErr
		}
		return err
	}
	return nil
}

// list runs LIST (st) and reads the whole listing into resp.
func (rn *runner) list(resp *Response, p *ftpurl.Plan, st ftpurl.Step, fallback bool) error {
	l, e := rn.listing(st, fallback)
	if e != nil {
		if st.Arg != "" {
			// LIST of a name (RFC 959 §4.1.3) refused with 550:
			// pyftpdlib's "No such file or directory".
			return rn.judge(e, st.Arg, asAny)
		}
		return e
	}
	lines := l.lines()
	entries, unparsed := parseLines(lines, time.Now())
	if len(entries) == 0 {
		entries = nil
		if err := rn.verify(p, st, fallback); err != nil {
			return err
		}
		if len(unparsed) > 0 {
			return rn.fail("list", st.String(), errors.New("the listing holds no entry that fetch can read; its first line: "+strconv.Quote(clip(unparsed[0]))), fallback)
		}
	}
	resp.Action, resp.Entries, resp.Unparsed, resp.Lines, resp.Fallback = ftpurl.List, entries, unparsed, lines, fallback
	resp.readErr = io.EOF
	return nil
}

// nameList runs NLST (st) and reads the names into resp.
func (rn *runner) nameList(resp *Response, p *ftpurl.Plan, st ftpurl.Step) error {
	l, e := rn.listing(st, false)
	if e != nil {
		return e
	}
	names := l.lines()
	if len(names) == 0 {
		if err := rn.verify(p, st, false); err != nil {
			return err
		}
	}
	resp.Action, resp.Names = ftpurl.NameList, names
	resp.readErr = io.EOF
	return nil
}

// listing runs a listing command (LIST, NLST, MLSD) and reads its text,
// bounded by maxListing.
func (rn *runner) listing(st ftpurl.Step, fallback bool) (*listing, *Error) {
	s := rn.s
	line := st.String()
	op := strings.ToLower(st.Command)
	t, failed, err := s.start(line, 0)
	if err != nil {
		return nil, rn.fail(op, failed, err, fallback)
	}
	l, err := readListing(t)
	if err != nil {
		t.conn.Close()
		return nil, rn.fail(op, line, err, fallback)
	}
	return l, nil
}

// verify checks an empty listing: vsftpd and Pure-FTPd answer "LIST
// absent" and "NLST absent" with 150, nothing, 226, as for an empty
// directory. The plan's Verify ("CWD name") tells the two apart: 250
// for a directory, 550 for nothing (ErrNotFound).
func (rn *runner) verify(p *ftpurl.Plan, listing ftpurl.Step, fallback bool) error {
	if p.Verify == nil {
		return nil
	}
	if _, e := rn.steps(p.Verify, "verify", fallback, false); e != nil {
		if e.notFound {
			e.note = listing.String() + " listed nothing"
		}
		return e
	}
	return nil
}

// size sends SIZE name (RFC 3659 §4: the size of the file as TYPE I
// transfers it) and returns the size from a 213, or -1 for any other
// reply, which it returns too; err is a failure to get a reply.
func (s *session) size(name string) (n int64, rep reply, err error) {
	rep, err = s.ctl.cmd("SIZE " + name)
	if err != nil {
		return -1, rep, err
	}
	return sizeOf(rep), rep, nil
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
