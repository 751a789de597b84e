package fetch

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
)

// The calls that change the tree besides Put: Mkdir, Remove, Rename and
// SetModTime (DESIGN, "The tree up"). Each runs on the Client's
// sessions as Put does: the URL's directories are entered as for RETR
// (the Method, absolute paths), its last segment is the command's
// argument, and once the command that changes the server went out it
// is never sent again, whatever happens to the session.

// Mkdir makes the directory rawURL names with [DefaultClient]; see
// [Client.Mkdir].
func Mkdir(ctx context.Context, rawURL string, opts ...Option) error {
	return DefaultClient.Mkdir(ctx, rawURL, opts...)
}

// Mkdir makes the directory rawURL names, its last segment
// ("ftp://h/pub/new" and "ftp://h/pub/new/" alike), with "MKD name" (RFC
// 959 §4.1.3) in its parent. A refusal (a directory of that name
// exists, the parent is missing, no permission) is an *[Error] of Op
// "mkd" naming MKD, with the server's reply. With [WithCreateDirs] the
// missing parents are made first, one level at a time, and a directory
// that exists already is no error, as mkdir -p has it. A URL with no
// segment (the server's root) fails before connecting.
func (c *Client) Mkdir(ctx context.Context, rawURL string, opts ...Option) error {
	cfg := newConfig(opts)
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return err
	}
	r, err := newChangeRequest(fileOf(asDirectory(u)), cfg, "mkd")
	if err != nil {
		return err
	}
	return c.change(ctx, r, func(x *exchange) error { return x.mkdir() })
}

// Remove removes the file or the empty directory rawURL names with
// [DefaultClient]; see [Client.Remove].
func Remove(ctx context.Context, rawURL string, opts ...Option) error {
	return DefaultClient.Remove(ctx, rawURL, opts...)
}

// Remove removes what rawURL names: the file, with "DELE name", or, for
// a URL that ends in "/" ("ftp://h/pub/old/"), the directory, with "RMD
// name" in its parent (RFC 959 §4.1.3). It is never recursive: a
// directory that holds anything is the server's refusal, an *[Error] of
// Op "rmd" naming RMD, as is any refusal of DELE (Op "dele"). A URL
// with no segment fails before connecting.
func (c *Client) Remove(ctx context.Context, rawURL string, opts ...Option) error {
	cfg := newConfig(opts)
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return err
	}
	verb, op, target := "DELE", "dele", u
	if u.Name == "" {
		verb, op, target = "RMD", "rmd", fileOf(u)
	}
	r, err := newChangeRequest(target, cfg, op)
	if err != nil {
		return err
	}
	return c.change(ctx, r, func(x *exchange) error {
		name, e := x.enterParent()
		if e != nil {
			return e
		}
		x.sent = true
		_, e = x.cmd(op, 2, verb+" "+name)
		return orNil(e)
	})
}

// Rename renames what fromURL names to toURL with [DefaultClient]; see
// [Client.Rename].
func Rename(ctx context.Context, fromURL, toURL string, opts ...Option) error {
	return DefaultClient.Rename(ctx, fromURL, toURL, opts...)
}

// Rename renames the file or directory fromURL names to the name toURL
// gives it, with "RNFR" and "RNTO" (RFC 959 §4.1.3) in fromURL's
// directory: RNTO takes toURL's name where both are in one directory,
// else its path from the login directory (or from the root, for
// absolute paths), which the server's PWD gave. The two URLs must name
// one server with one login (scheme, host, port, user, password, TLS),
// else Rename fails before connecting. Whether a file at toURL is
// replaced is the server's choice (ProFTPD refuses by default:
// docs/servers.md); a refusal is an *[Error] of Op "rename" naming RNFR
// or RNTO.
func (c *Client) Rename(ctx context.Context, fromURL, toURL string, opts ...Option) error {
	cfg := newConfig(opts)
	from, err := cfg.grammar.Parse(fromURL)
	if err != nil {
		return err
	}
	to, err := cfg.grammar.Parse(toURL)
	if err != nil {
		return err
	}
	if from.Name == "" {
		from = fileOf(from)
	}
	if to.Name == "" {
		to = fileOf(to)
	}
	r, err := newChangeRequest(from, cfg, "rename")
	if err != nil {
		return err
	}
	rt, err := newChangeRequest(to, cfg, "rename")
	if err != nil {
		return err
	}
	if rt.key != r.key {
		return &Error{Op: "rename", URL: r.redacted, Err: errors.New("the two URLs are not on one server with one login: RNFR and RNTO rename on one server (" + rt.redacted + ")")}
	}
	return c.change(ctx, r, func(x *exchange) error {
		name, e := x.enterParent()
		if e != nil {
			return e
		}
		newName, e := x.pathOf(rt.plan, nonNull(r.plan.Dirs))
		if e != nil {
			return e
		}
		x.sent = true
		return orNil(x.rename(name, newName))
	})
}

// SetModTime sets the modification time of the file rawURL names with
// [DefaultClient]; see [Client.SetModTime].
func SetModTime(ctx context.Context, rawURL string, t time.Time, opts ...Option) error {
	return DefaultClient.SetModTime(ctx, rawURL, t, opts...)
}

// SetModTime sets the modification time of the file rawURL names to t,
// to the second, in UTC. FTP has no one command for it, so SetModTime
// tries what servers offer, in order, and remembers for the server the
// first that worked: "MFMT YYYYMMDDhhmmss name" (draft-somers-ftp-mfxx,
// where FEAT lists MFMT: ProFTPD, Pure-FTPd, pyftpdlib, ftpserverlib),
// "SITE UTIME name atime mtime ctime UTC" and "SITE UTIME YYYYMMDDhhmmss
// name" (ProFTPD's mod_site_misc and others), then vsftpd's "MDTM
// YYYYMMDDhhmmss name", which is checked with a plain MDTM since a server
// that cannot set a time would read it as the time of a file of that
// name. A server that refuses every form gives an *[Error] of Op
// "modtime" that says so; a reply that ends the session is an *Error
// naming the command.
func (c *Client) SetModTime(ctx context.Context, rawURL string, t time.Time, opts ...Option) error {
	cfg := newConfig(opts)
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return err
	}
	if u.Name == "" {
		u = fileOf(u)
	}
	r, err := newChangeRequest(u, cfg, "modtime")
	if err != nil {
		return err
	}
	return c.change(ctx, r, func(x *exchange) error {
		name, e := x.enterParent()
		if e != nil {
			return e
		}
		x.sent = true
		return orNil(x.setModTime(name, t))
	})
}

// newChangeRequest is the request of a call that changes u's last
// segment (its Name): the plan of a RETR of it (its CWDs, TYPE I), as
// Put has. A URL with no Name (the server's root) is an *Error of op.
func newChangeRequest(u *ftpurl.URL, cfg config, op string) (*request, error) {
	if u.Name == "" {
		return nil, &Error{Op: op, URL: u.Redacted(), Err: errors.New("the URL names the server's root, not a name in a directory")}
	}
	f := *u
	f.Type = ftpurl.TypeImage
	r, err := newRequestFor(&f, cfg)
	if err != nil {
		return nil, err
	}
	p := *r.plan
	p.Action, p.Fallback, p.Verify = ftpurl.Retrieve, nil, nil
	r.plan, r.redacted = &p, u.Redacted()
	return r, nil
}

// change runs act on a session of c for r, within WithTimeout.
func (c *Client) change(ctx context.Context, r *request, act func(*exchange) error) error {
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	x := c.newExchange(ctx, r)
	return x.run(func() error { return act(x) })
}

// enterParent enters the directories of the plan (WithCreateDirs makes
// them) and returns the name its last step names there.
func (x *exchange) enterParent() (string, *Error) {
	x.mkdirs = x.req.cfg.createDirs
	st, e := x.enter(x.req.plan, false)
	if e != nil {
		return "", e
	}
	return st.Arg, nil
}

// mkdir runs Mkdir's MKD in the parent directory.
func (x *exchange) mkdir() error {
	name, e := x.enterParent()
	if e != nil {
		return e
	}
	x.sent = true
	_, e = x.cmd("mkd", 2, "MKD "+name)
	if e != nil && e.declined() && x.req.cfg.createDirs && x.cwd("mkd", cwdStep(name), false) == nil {
		return nil // there already: mkdir -p
	}
	return orNil(e)
}

// pathOf returns the argument that names p's file from the directory
// dirs: its Name where p's directories are dirs, else its path from
// the login directory (the session's PWD) or, absolute, from the root.
func (x *exchange) pathOf(p *ftpurl.Plan, dirs []string) (string, *Error) {
	to := nonNull(p.Dirs)
	if slices.Equal(to, dirs) {
		return p.Name, nil
	}
	rel := path.Join(append(slices.Clip(to), p.Name)...)
	if strings.HasPrefix(rel, "/") {
		return rel, nil
	}
	home, e := x.home("rename")
	if e != nil {
		return "", e
	}
	return path.Join(home, rel), nil
}

// A timeForm is one way to set a file's time on a server.
type timeForm struct {
	feat string // the FEAT line it needs; "" none
	line func(stamp, name string) string
}

// timeForms are SetModTime's ways, in the order it tries them.
var timeForms = []timeForm{
	{"MFMT", func(t, n string) string { return "MFMT " + t + " " + n }},
	{"", func(t, n string) string { return "SITE UTIME " + n + " " + t + " " + t + " " + t + " UTC" }},
	{"", func(t, n string) string { return "SITE UTIME " + t + " " + n }},
	{"", func(t, n string) string { return "MDTM " + t + " " + n }},
}

// setModTime sets name's time to t with the form the Client learnt for
// the server, or the first that works (see SetModTime).
func (x *exchange) setModTime(name string, t time.Time) *Error {
	stamp := t.UTC().Format("20060102150405")
	hk := hostKey{x.req.key.scheme, x.req.key.addr}
	first := x.c.timeForm(hk)
	var last *Error
	unset := "" // an MDTM with a time that set nothing
	for i := range timeForms {
		f := (first + i) % len(timeForms)
		form := timeForms[f]
		if form.feat != "" && !x.s.ctl.has(form.feat) {
			continue
		}
		line := form.line(stamp, name)
		_, e := x.cmd("modtime", 2, line)
		if e == nil && strings.HasPrefix(line, "MDTM ") && !(i == 0 && first == f) {
			// A server that cannot set a time read this as the time of
			// a file named "stamp name": the time must now be t. Once
			// the check passed on a server, its 213 is taken.
			rep, ce := x.cmd("modtime", 213, "MDTM "+name)
			switch {
			case ce != nil && !ce.declined():
				return ce
			case ce != nil || !timeOf(rep).Equal(t.UTC().Truncate(time.Second)):
				unset = line + " set no time: MDTM " + name + " does not say it"
				continue
			}
		}
		switch {
		case e == nil:
			x.c.learnTimeForm(hk, f)
			return nil
		case !e.declined():
			return e
		}
		last = e
	}
	e := x.fail("modtime", "", errors.New("the server sets no modification time: it refused MFMT, SITE UTIME and MDTM"))
	e.prior = last
	if unset != "" {
		addNote(e, unset)
	}
	return e
}

// learntTimeLine returns the command that sets name's time to t in the
// form that worked on the server hk, where one did.
func (c *Client) learntTimeLine(hk hostKey, t time.Time, name string) (string, bool) {
	c.mu.Lock()
	f, ok := c.timeForms[hk]
	c.mu.Unlock()
	if !ok {
		return "", false
	}
	return timeForms[f].line(t.UTC().Format("20060102150405"), name), true
}

// timeForm returns the index in timeForms of the form that worked last
// on the server hk, or 0.
func (c *Client) timeForm(hk hostKey) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.timeForms[hk]
}

// learnTimeForm notes that timeForms[f] worked on the server hk.
func (c *Client) learnTimeForm(hk hostKey, f int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.timeForms == nil {
		c.timeForms = map[hostKey]int{}
	}
	c.timeForms[hk] = f
}

// orNil returns e as an error: nil for a nil *Error.
func orNil(e *Error) error {
	if e == nil {
		return nil
	}
	return e
}
