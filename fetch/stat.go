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
// from MLST's UNIX.mode, else 0; Sys is nil. A missing name is an *[Error]
// with [ErrNotFound]; parse and plan errors are *[ftpurl.Error].
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
	fi := &fileInfo{name: baseName(r.u), size: -1}
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
		if e, ok := mlstEntry(rep); ok {
			fi.mode, fi.mtime = e.Mode, e.ModTime
			if !e.Mode.IsDir() {
				fi.size = e.Size
			}
		}
		return fi, nil
	}
	if target == "" {
		// The plan's CWDs reached the directory.
		fi.mode = fs.ModeDir
		return fi, nil
	}
	n, rep, err := s.size(target)
	if err != nil {
		return nil, s.fail("stat", "SIZE "+target, err)
	}
	if rep.code == 213 {
		fi.size = n
		if s.ctl.has("MDTM") {
			rep, err := s.ctl.cmd("MDTM " + target)
			if err != nil {
				return nil, s.fail("stat", "MDTM "+target, err)
			}
			if rep.code == 213 {
				fi.mtime = parseTime(strings.TrimSpace(rep.text))
			}
		}
		return fi, nil
	}
	sizeErr := s.failReply("stat", "SIZE "+target, rep)
	if err := s.cwd(cwdStep(target), true); err != nil {
		e := s.fail("stat", "CWD "+target, err)
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
	fi.mode = fs.ModeDir
	return fi, nil
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

// fileInfo is what Stat found.
type fileInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return fi.mtime }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }

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
