package fetch

import (
	"context"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
)

// Stat says what rawURL names, with [DefaultClient]; see [Client.Stat].
func Stat(ctx context.Context, rawURL string, opts ...Option) (fs.FileInfo, error) {
	return DefaultClient.Stat(ctx, rawURL, opts...)
}

// Stat says whether rawURL names something on the server, and what,
// without transferring it: it runs the URL's plan as Open does, then asks
// about the name with "MLST" where FEAT lists it (RFC 3659 §7), else with
// "SIZE" and "MDTM" in TYPE I (§4, §3), and "CWD" when SIZE is refused.
// The FileInfo's Name is the last segment ("/" for the root); Size is -1
// and ModTime zero where the server says none; the permission bits come
// from MLST's UNIX.mode, else 0. It is an [Entry]'s Info: Sys returns the
// Entry, with the time's Precision and, from MLST, the fact line in Line
// ("" from SIZE and MDTM). A missing name is an *[Error] with
// [ErrNotFound]; parse and plan errors are *[ftpurl.Error]. Stat runs
// again on another session where a reused one turns out to be gone,
// as Open does (see [Client]).
func (c *Client) Stat(ctx context.Context, rawURL string, opts ...Option) (fs.FileInfo, error) {
	r, err := newRequest(rawURL, opts)
	if err != nil {
		return nil, err
	}
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	var fi fs.FileInfo
	err = c.do(ctx, r, func(rn *runner) (err error) {
		fi, err = rn.stat()
		return err
	})
	if err != nil {
		return nil, err
	}
	return fi, nil
}

// stat runs the plan's CWD steps in TYPE I, then asks about the name.
func (rn *runner) stat() (fs.FileInfo, error) {
	s, r := rn.s, rn.req
	p := *r.plan
	p.Type = ftpurl.TypeImage // SIZE counts TYPE I bytes (RFC 3659 §4)
	if _, err := rn.enter(&p, false); err != nil {
		return nil, err
	}
	e := Entry{Name: baseName(r.u), Size: -1}
	target := p.Name
	if s.ctl.has("MLST") {
		cmd := strings.TrimSpace("MLST " + target)
		rep, err := s.ctl.cmd(cmd)
		if err != nil {
			return nil, s.fail("stat", cmd, err)
		}
		if rep.code != 250 {
			return nil, rn.judge(s.failReply("stat", cmd, rep), target, asAny)
		}
		if m, ok := mlstEntry(rep); ok {
			e.Mode, e.ModTime, e.Precision, e.Line = m.Mode, m.ModTime, m.Precision, m.Line
			if !m.Mode.IsDir() {
				e.Size = m.Size
			}
		}
		return e.Info(), nil
	}
	if target == "" {
		// The plan's CWDs reached the directory.
		e.Mode = fs.ModeDir
		return e.Info(), nil
	}
	sizeCmd := "SIZE " + target
	n, rep, err := s.size(target)
	if err != nil {
		return nil, s.fail("stat", sizeCmd, err)
	}
	if rep.code == 213 {
		e.Size = n
		if s.ctl.has("MDTM") {
			mdtm := "MDTM " + target
			rep, err := s.ctl.cmd(mdtm)
			if err != nil {
				return nil, s.fail("stat", mdtm, err)
			}
			if rep.code == 213 {
				e.ModTime, e.Precision = parseTime(strings.TrimSpace(rep.text)), time.Second
			}
		}
		return e.Info(), nil
	}
	sizeErr := s.failReply("stat", sizeCmd, rep)
	cwd := cwdStep(target)
	if err := s.cwd(cwd, true); err != nil {
		e := s.fail("stat", cwd.String(), err)
		e.prior = sizeErr
		if sizeErr.Code != 550 {
			// SIZE refused for another reason than a missing name:
			// nothing shows the name missing.
			if e.Code == 550 {
				e.note = "the server refuses SIZE and MLST: fetch cannot tell a file from nothing"
			}
			return nil, e
		}
		return nil, rn.judge(e, target, asAny)
	}
	e.Mode = fs.ModeDir
	return e.Info(), nil
}

// mlstEntry reads the entry of an MLST reply (RFC 3659 §7.2): the line
// that begins with a space, facts, a space, the name.
func mlstEntry(rep reply) (Entry, bool) {
	if rep.code != 250 {
		return Entry{}, false
	}
	for _, line := range strings.Split(rep.text, "\n") {
		if strings.HasPrefix(line, " ") {
			return ParseListLine(strings.TrimLeft(line, " "), time.Now())
		}
	}
	return Entry{}, false
}

// baseName is the FileInfo name of u: its last path segment.
func baseName(u *ftpurl.URL) string {
	if u.Name != "" {
		return u.Name
	}
	for i := len(u.Dirs) - 1; i >= 0; i-- {
		if u.Dirs[i] != "" {
			return path.Base(u.Dirs[i])
		}
	}
	return "/"
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
