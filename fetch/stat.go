package fetch

import (
	"context"
	"errors"
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
	for retried := false; ; retried = true {
		s, reused, err := c.connect(ctx, r)
		if err != nil {
			return nil, err
		}
		resp := &Response{URL: r.redacted, Plan: r.plan, client: c, sess: s}
		fi, err := resp.stat(r)
		if err != nil {
			c.release(s, reusable(err))
			if reused && !retried && gone(ctx, err) {
				continue // as Open does
			}
			return nil, err
		}
		c.release(s, true)
		return fi, nil
	}
}

func (resp *Response) stat(r *request) (fs.FileInfo, error) {
	s := resp.sess
	p := *r.plan
	p.Type = ftpurl.TypeImage // SIZE counts TYPE I bytes (RFC 3659 §4)
	if _, err := resp.steps(&p, false); err != nil {
		return nil, err
	}
	fi := &fileInfo{name: baseName(r.u), size: -1}
	target := p.Name
	if _, ok := s.ctl.features()["MLST"]; ok {
		cmd := strings.TrimSpace("MLST " + target)
		rep, err := s.ctl.cmd(cmd)
		if err != nil {
			return nil, s.fail("stat", cmd, err)
		}
		if rep.code != 250 {
			e := s.failReply("stat", cmd, rep)
			e.notFound = rep.code == 550
			return nil, e
		}
		fi.parseMLST(rep.text)
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
		if _, ok := s.ctl.features()["MDTM"]; ok {
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
	if err := s.cwdTo(target, true); err != nil {
		e := s.fail("stat", "CWD "+target, err)
		e.prior = sizeErr
		e.notFound = e.Code == 550 && sizeErr.Code == 550
		if e.Code == 550 && sizeErr.Code != 550 {
			e.Err = errors.Join(errors.New("the server refuses SIZE and MLST: fetch cannot tell a file from nothing"), e.Err)
		}
		return nil, e
	}
	fi.mode = fs.ModeDir
	return fi, nil
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

// parseMLST reads the facts of an MLST reply (RFC 3659 §7.2): the
// entry line begins with a space, "fact=value;" pairs, a space, the
// name.
func (fi *fileInfo) parseMLST(text string) {
	for _, line := range strings.Split(text, "\n") {
		if !strings.HasPrefix(line, " ") {
			continue
		}
		facts, _, _ := strings.Cut(strings.TrimLeft(line, " "), " ")
		for _, f := range strings.Split(facts, ";") {
			k, v, ok := strings.Cut(f, "=")
			if !ok {
				continue
			}
			switch strings.ToLower(k) {
			case "type":
				switch strings.ToLower(v) {
				case "dir", "cdir", "pdir":
					fi.mode |= fs.ModeDir
				}
			case "size", "sizd":
				if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 && !fi.mode.IsDir() {
					fi.size = n
				}
			case "modify":
				fi.mtime = parseTime(v)
			case "unix.mode":
				if m, err := strconv.ParseUint(v, 8, 32); err == nil {
					fi.mode |= fs.FileMode(m) & fs.ModePerm
				}
			}
		}
	}
	if fi.mode.IsDir() {
		fi.size = -1
	}
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

// size sends SIZE name (RFC 3659 §4: the size of the file as TYPE I
// transfers it) and returns the size from a 213, or -1 for any other
// reply, which it returns too; err is a failure to get a reply.
func (s *session) size(name string) (n int64, rep reply, err error) {
	rep, err = s.ctl.cmd("SIZE " + name)
	if err != nil || rep.code != 213 {
		return -1, rep, err
	}
	n, perr := strconv.ParseInt(strings.TrimSpace(rep.text), 10, 64)
	if perr != nil || n < 0 {
		return -1, rep, nil
	}
	return n, rep, nil
}
