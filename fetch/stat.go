package fetch

import (
	"context"
	"io/fs"
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
	return c.statRequest(ctx, r)
}

// stat is Stat of a URL parsed already.
func (c *Client) stat(ctx context.Context, u *ftpurl.URL, cfg config) (fs.FileInfo, error) {
	r, err := newRequestFor(u, cfg)
	if err != nil {
		return nil, err
	}
	return c.statRequest(ctx, r)
}

func (c *Client) statRequest(ctx context.Context, r *request) (fs.FileInfo, error) {
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	x := c.newExchange(ctx, r)
	var fi fs.FileInfo
	err := x.run(func() (err error) {
		fi, err = x.stat()
		return err
	})
	if err != nil {
		return nil, err
	}
	return fi, nil
}

// stat runs the plan's CWD steps in TYPE I, then asks about the name.
func (x *exchange) stat() (fs.FileInfo, error) {
	s, r := x.s, x.req
	p := *r.plan
	p.Type = ftpurl.TypeImage // SIZE counts TYPE I bytes (RFC 3659 §4)
	if _, err := x.enter(&p, false); err != nil {
		return nil, err
	}
	e := Entry{Name: baseName(r.u), Size: -1}
	target := p.Name
	if s.ctl.has("MLST") {
		if err := x.askFacts(); err != nil {
			return nil, err
		}
		rep, err := x.cmd("stat", 250, strings.TrimSpace("MLST "+target))
		if err != nil {
			return nil, x.judge(err, target, asAny)
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
	rep, sizeErr := x.cmd("stat", 213, "SIZE "+target)
	if sizeErr == nil {
		e.Size = sizeOf(rep)
		if s.ctl.has("MDTM") {
			rep, err := x.cmd("stat", 213, "MDTM "+target)
			switch {
			case err == nil:
				e.ModTime, e.Precision = timeOf(rep), time.Second
			case !err.declined():
				return nil, err
			}
		}
		return e.Info(), nil
	}
	if !sizeErr.declined() {
		return nil, sizeErr
	}
	if err := x.cwd("stat", cwdStep(target), true); err != nil {
		err.prior = sizeErr
		if sizeErr.Code != 550 {
			// SIZE refused for another reason than a missing name:
			// nothing shows the name missing.
			if err.Code == 550 {
				err.note = "the server refuses SIZE and MLST: fetch cannot tell a file from nothing"
			}
			return nil, err
		}
		return nil, x.judge(err, target, asAny)
	}
	e.Mode = fs.ModeDir
	return e.Info(), nil
}

// mlstEntry reads the entry of an MLST reply (RFC 3659 §7.2): the line
// that begins with a space, facts, a space, the name.
func mlstEntry(rep reply) (Entry, bool) {
	for _, line := range strings.Split(rep.text, "\n") {
		if strings.HasPrefix(line, " ") {
			return ParseListLine(strings.TrimLeft(line, " "), time.Now())
		}
	}
	return Entry{}, false
}
