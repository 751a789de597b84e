package fetch

import (
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
)

// The plan runner: the exchange's methods that run a request's plan on
// its session. They send the plan's steps, each as [ftpurl.Step.String]
// renders them, and decide what each reply means (the Fallback, the
// Verify, ErrNotFound, the size check). Open, Stat and ReadDir are
// actions on it; what they return (a Response, a FileInfo, entries) is
// a value apart.

// enter sends the CWD and TYPE steps of p ([ftpurl.Plan.Steps]) and
// returns its last step, the action (RETR, LIST or NLST; none for a
// Verify). The first plan of a reused session starts from where the
// plan starts (goHome), and skips the CWDs the session has made
// already; a TYPE in force is not sent again (RFC 959 §3.1.1). With
// x.mkdirs, a CWD refused with 550 makes the directory (makeDirs) and
// is sent again. This is the one place that switches on a step's
// Command.
func (x *exchange) enter(p *ftpurl.Plan, fallback bool) (ftpurl.Step, *Error) {
	return x.steps(p, "cwd", fallback, !fallback)
}

// steps is enter for a plan whose CWD refusals are Op op: from where
// the plan starts (home), or from where the session stands (a
// Fallback, a Verify).
func (x *exchange) steps(p *ftpurl.Plan, op string, fallback, home bool) (ftpurl.Step, *Error) {
	steps := p.Steps()
	if steps == nil {
		return ftpurl.Step{}, &Error{Op: "plan", URL: x.req.redacted, Err: errors.New("the plan fails ftpurl's checks (Plan.Steps is nil)")}
	}
	skip := 0
	if home {
		var e *Error
		if skip, e = x.goHome(p); e != nil {
			return ftpurl.Step{}, e
		}
	}
	for _, st := range steps {
		switch st.Command {
		case "CWD":
			if skip > 0 {
				skip--
				continue
			}
			if e := x.cwd(op, st, true); e != nil {
				e.Fallback = fallback
				if x.mkdirs && e.refused(550) {
					if e = x.makeDirs(st.Arg, e); e == nil {
						continue
					}
					return ftpurl.Step{}, e
				}
				return ftpurl.Step{}, x.judge(e, st.Arg, asDir)
			}
		case "TYPE":
			if e := x.setType(st); e != nil {
				e.Fallback = fallback
				return ftpurl.Step{}, e
			}
		default:
			return st, nil
		}
	}
	return ftpurl.Step{}, nil
}

// goHome brings a reused session back to where plan p starts: the
// login directory, unless p's path is absolute. It returns how many of
// p's directories the session has already entered.
func (x *exchange) goHome(p *ftpurl.Plan) (skip int, e *Error) {
	s := x.s
	if dirs := nonNull(p.Dirs); s.cwdKnown && len(s.cwdDirs) <= len(dirs) && slices.Equal(s.cwdDirs, dirs[:len(s.cwdDirs)]) {
		return len(s.cwdDirs), nil
	}
	if isAbsolute(p) {
		s.cwdDirs, s.cwdKnown = nil, false
		return 0, nil
	}
	home, e := x.home("cwd")
	if e != nil {
		return 0, e
	}
	if e := x.cwd("cwd", cwdStep(home), false); e != nil {
		// The login directory is gone: this session cannot serve a
		// relative plan again, and goes when this use ends.
		s.home, s.cwdKnown = "", false
		return 0, e
	}
	s.atHome()
	return 0, nil
}

// home returns the session's login directory (PWD's answer), or the
// *Error of op where the server did not say it.
func (x *exchange) home(op string) (string, *Error) {
	if x.s.home == "" {
		return "", x.fail(op, "", errNoHome)
	}
	return x.s.home, nil
}

// cwd sends a CWD step (RFC 959 §4.1.1) as it renders itself, and,
// with track, notes where the session is. A refusal is the *Error of
// op.
func (x *exchange) cwd(op string, st ftpurl.Step, track bool) *Error {
	s := x.s
	s.cwdKnown = s.cwdKnown && track
	if _, e := x.cmd(op, 2, st.String()); e != nil {
		if !e.declined() {
			s.cwdKnown = false
		}
		return e
	}
	if track {
		s.moved(st.Arg)
	}
	return nil
}

// setType sends TYPE t unless it is in force already (RFC 959 §3.1.1:
// the type holds until the next TYPE).
func (x *exchange) setType(st ftpurl.Step) *Error {
	s := x.s
	t := ftpurl.Typecode(strings.ToLower(st.Arg)[0])
	if t == s.typ {
		return nil
	}
	s.typ = 0
	if _, e := x.cmd("type", 200, st.String()); e != nil {
		return e
	}
	s.typ = t
	return nil
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
func (x *exchange) judge(e *Error, name string, want kind) *Error {
	if !e.refused(550) {
		return e
	}
	e.notFound = true
	switch want {
	case asDir:
		if probe, ok := x.isFile(name); ok {
			e.notFound, e.file = false, true
			e.note = strconv.Quote(name) + " is a file, not a directory (" + probe + ")"
		}
	case asFile:
		if x.cwd("cwd", cwdStep(name), true) == nil {
			e.notFound = false
			e.note = strconv.Quote(name) + " is a directory, not a file (CWD " + name + " succeeded)"
		}
	}
	return e
}

// askFacts sends, once a session and before its first MLSD or MLST,
// "OPTS MLST" with the facts fetch reads (RFC 3659 §7.9) where the
// server's FEAT offers UNIX.mode without sending it (pyftpdlib), so
// that entries carry their permission bits. A refusal changes nothing;
// the failure to get a reply is the error.
func (x *exchange) askFacts() *Error {
	s := x.s
	if s.mlstAsked {
		return nil
	}
	s.mlstAsked = true
	line, ok := optsMLST(s.ctl.feat["MLST"])
	if !ok {
		return nil
	}
	if _, e := x.cmd("", 2, line); e != nil && !e.declined() {
		return e
	}
	return nil
}

// isFile asks whether name is a file, with the first of MLST (RFC 3659
// §7), MDTM (§3) and SIZE (§4) that the server's FEAT lists, and
// returns the command that showed it. A failure to get a reply ends the
// session when the use does.
func (x *exchange) isFile(name string) (string, bool) {
	s := x.s
	for _, verb := range []string{"MLST", "MDTM", "SIZE"} {
		if !s.ctl.has(verb) {
			continue
		}
		if verb == "MLST" && x.askFacts() != nil {
			return "", false
		}
		line := verb + " " + name
		want := 213
		if verb == "MLST" {
			want = 250
		}
		rep, e := x.cmd("", want, line)
		switch {
		case e != nil && !e.declined():
			s.abort()
			return "", false
		case e != nil:
			return "", false
		}
		if m, ok := mlstEntry(rep); verb == "MLST" && (!ok || m.Mode.IsDir()) {
			return "", false
		}
		return line + ": " + strconv.Itoa(rep.code), true
	}
	return "", false
}

// open runs the plan of an Open into a new x.resp: it holds a file's
// first bytes and the session, or the whole listing.
func (x *exchange) open() error {
	resp := &Response{URL: x.req.redacted, Plan: x.req.plan, Size: -1, x: x, offset: x.req.cfg.offset}
	x.resp = resp
	p := x.req.plan
	st, e := x.enter(p, false)
	if e != nil {
		return e
	}
	switch p.Action {
	case ftpurl.List:
		return x.list(resp, p, st, false)
	case ftpurl.NameList:
		return x.nameList(resp, p, st)
	case ftpurl.Retrieve, ftpurl.RetrieveOrList:
		return x.retrieve(resp, p, st)
	}
	return &Error{Op: "plan", URL: x.req.redacted, Err: errors.New("the plan has no action: " + p.Action.String())}
}

// retrieve runs RETR (2011 draft §3.2.3 (4c)), after SIZE where the
// 150 may not give the size, and, for a RetrieveOrList plan, the plan's
// Fallback when the server refuses it with 550: at once, or after the
// 150 when the transfer ends without a byte (ftpserverlib answers so
// for a directory) (4d).
func (x *exchange) retrieve(resp *Response, p *ftpurl.Plan, st ftpurl.Step) error {
	s := x.s
	line := st.String()
	resp.retrCmd, resp.typ = line, s.typ
	var queries []query
	askSize := s.ctl.has("SIZE") && s.typ == ftpurl.TypeImage && (!s.sizeIn150 || resp.offset > 0)
	if askSize {
		queries = append(queries, query{"size", "SIZE " + st.Arg})
	}
	askTime := x.req.cfg.modTime && s.ctl.has("MDTM")
	if askTime {
		queries = append(queries, query{"mdtm", "MDTM " + st.Arg})
	}
	t, replies, e := x.start("retr", line, resp.offset, queries...)
	if len(replies) == len(queries) {
		if askSize {
			resp.Size, replies = sizeOf(replies[0]), replies[1:]
		}
		if askTime {
			resp.ModTime = timeOf(replies[0])
		}
	}
	if e != nil {
		if e.Op != "retr" || e.Command != line {
			return e // a query, REST, EPSV, PASV, the data connection
		}
		if p.Action == ftpurl.RetrieveOrList && e.refused(550) && p.Fallback != nil {
			return x.fallback(resp, p, e)
		}
		return x.judge(e, st.Arg, asFile)
	}
	if n := t.announced(); n >= 0 {
		s.sizeIn150 = true
		if resp.offset == 0 {
			resp.Size = n
		}
	}
	resp.Action, resp.body = ftpurl.Retrieve, t
	if p.Action != ftpurl.RetrieveOrList {
		x.keep = true
		return nil
	}
	// Read until the first byte or the end of the transfer: a 550
	// after the 150 is a refusal, and the Fallback runs.
	buf := make([]byte, 4096)
	for {
		n, rerr := t.Read(buf)
		if n > 0 {
			resp.peek, resp.n = buf[:n], int64(n)
			x.keep = true
			return nil
		}
		if rerr == nil {
			continue
		}
		resp.body = nil
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
		e := x.fail("retr", line, t.why(rerr))
		if e.refused(550) && p.Fallback != nil {
			return x.fallback(resp, p, e)
		}
		return e
	}
}

// fallback runs p's Fallback (CWD Name, TYPE A, LIST) after the server
// refused RETR with retrErr.
func (x *exchange) fallback(resp *Response, p *ftpurl.Plan, retrErr *Error) error {
	fb := p.Fallback
	resp.Action, resp.body, resp.peek, resp.n, resp.Size, resp.ModTime = 0, nil, nil, 0, -1, time.Time{}
	fst, e := x.enter(fb, true)
	if e != nil {
		e.prior = retrErr
		return e
	}
	if err := x.list(resp, fb, fst, true); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.prior = retrErr
		}
		return err
	}
	return nil
}

// list runs LIST (st) and reads the whole listing into resp.
func (x *exchange) list(resp *Response, p *ftpurl.Plan, st ftpurl.Step, fallback bool) error {
	l, e := x.listing(st, fallback)
	if e != nil {
		if st.Arg != "" {
			// LIST of a name (RFC 959 §4.1.3) refused with 550:
			// pyftpdlib's "No such file or directory".
			return x.judge(e, st.Arg, asAny)
		}
		return e
	}
	lines := l.lines()
	entries, unparsed := parseLines(lines, time.Now())
	if len(entries) == 0 {
		entries = nil
		if err := x.verify(p, st, fallback); err != nil {
			return err
		}
		if e := x.unread(st, len(lines), unparsed); e != nil {
			e.Fallback = fallback
			return e
		}
	}
	resp.Action, resp.Entries, resp.Unparsed, resp.Lines, resp.Fallback = ftpurl.List, entries, unparsed, lines, fallback
	resp.readErr = io.EOF
	return nil
}

// unread returns the *Error of a listing (st) of n lines whose lines
// unparsed are no entry ParseListLine reads (never dropped silently),
// or nil when there are none: it counts them and quotes the first.
func (x *exchange) unread(st ftpurl.Step, n int, unparsed []string) *Error {
	if len(unparsed) == 0 {
		return nil
	}
	what := strconv.Itoa(len(unparsed)) + " of " + strconv.Itoa(n) + " lines are no entry fetch can read; the first: "
	if len(unparsed) == n {
		what = "the listing holds no entry that fetch can read; its first line: "
	}
	return x.fail(strings.ToLower(st.Command), st.String(), errors.New(what+strconv.Quote(clip(unparsed[0]))))
}

// nameList runs NLST (st) and reads the names into resp.
func (x *exchange) nameList(resp *Response, p *ftpurl.Plan, st ftpurl.Step) error {
	l, e := x.listing(st, false)
	if e != nil {
		return e
	}
	names := l.lines()
	if len(names) == 0 {
		if err := x.verify(p, st, false); err != nil {
			return err
		}
	}
	resp.Action, resp.Names = ftpurl.NameList, names
	resp.readErr = io.EOF
	return nil
}

// listing runs a listing command (LIST, NLST, MLSD) and reads its text,
// bounded by maxListing.
func (x *exchange) listing(st ftpurl.Step, fallback bool) (*listing, *Error) {
	line := st.String()
	op := strings.ToLower(st.Command)
	t, _, e := x.start(op, line, 0)
	if e == nil {
		l, err := readListing(t)
		if err == nil {
			return l, nil
		}
		t.abort()
		e = x.fail(op, line, err)
	}
	e.Fallback = fallback
	return nil, e
}

// verify checks an empty listing: vsftpd and Pure-FTPd answer "LIST
// absent" and "NLST absent" with 150, nothing, 226, as for an empty
// directory. The plan's Verify ("CWD name") tells the two apart: 250
// for a directory, 550 for nothing (ErrNotFound).
func (x *exchange) verify(p *ftpurl.Plan, listing ftpurl.Step, fallback bool) error {
	if p.Verify == nil {
		return nil
	}
	if _, e := x.steps(p.Verify, "verify", fallback, false); e != nil {
		if e.notFound {
			e.note = listing.String() + " listed nothing"
		}
		return e
	}
	return nil
}
