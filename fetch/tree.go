package fetch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
)

// ErrUnsafeName is what errors.Is finds in the error that [Client.Walk]
// passes to its WalkFunc with an entry whose name is not one path
// element: empty, ".", "..", holding "/", or a control character. Walk
// never descends into such an entry; a program that writes files must
// not use the name (a server chose it). A backslash or a colon is part
// of a name, as io/fs takes it (fs.ValidPath).
var ErrUnsafeName = errors.New("the server listed a name that is not one safe path element")

// ReadDir lists a directory with [DefaultClient]; see [Client.ReadDir].
func ReadDir(ctx context.Context, rawURL string, opts ...Option) ([]Entry, error) {
	return DefaultClient.ReadDir(ctx, rawURL, opts...)
}

// ReadDir lists the directory that rawURL names: its Dirs and its Name,
// taken as a directory whatever its typecode ("ftp://h/pub" and
// "ftp://h/pub/" list the same). It enters the directories as Open does
// (the Method, absolute paths), then lists with MLSD where the server's
// FEAT lists MLST (RFC 3659 §7; the 2011 draft §3.2.3 (4a) leaves the
// listing command to the client), else with LIST, whose lines
// [ParseListLine] reads. The entries come in the server's order,
// without ".", "..", MLSD's cdir and pdir, and empty names.
//
// A missing directory is an *[Error] with [ErrNotFound]. When some
// lines of a LIST listing are no entry ParseListLine can read, ReadDir
// returns the entries it read and an *Error (Op "list") that counts the
// others and quotes the first, as os.ReadDir returns what it read with
// its error.
//
// The names are the server's: see [Entry]. Open keeps LIST for a
// directory URL, for a person to read, as curl does. ReadDir runs
// again on another session where a reused one turns out to be gone, as
// Open does (see [Client]); so does each listing of Walk.
func (c *Client) ReadDir(ctx context.Context, rawURL string, opts ...Option) ([]Entry, error) {
	cfg := newConfig(opts)
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return c.readDir(ctx, asDirectory(u), cfg)
}

func (c *Client) readDir(ctx context.Context, u *ftpurl.URL, cfg config) ([]Entry, error) {
	entries, _, err := c.readDirUnique(ctx, u, cfg, false, false)
	return entries, err
}

// readDirUnique is readDir, and the listed directory's unique fact
// where MLSD gave one; with self, from MLST where the listing has no
// cdir line. With links, an MLSD listing that holds a directory is
// checked against LIST for links shown as their targets (linksFromLIST)
// even where no two directories share a unique fact: FS does, as
// fs.WalkDir cannot tell a loop by unique facts as Walk does.
func (c *Client) readDirUnique(ctx context.Context, u *ftpurl.URL, cfg config, self, links bool) ([]Entry, string, error) {
	r, err := newRequestFor(u, cfg)
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	var entries []Entry
	var unique string
	var unread error // lines no entry could be read from: the session is whole
	x := c.newExchange(ctx, r)
	x.self, x.links = self, links
	err = x.run(func() (err error) {
		entries, unread, err = x.readDir()
		unique = x.unique
		return err
	})
	if err == nil {
		err = unread
	}
	return entries, unique, err
}

// cdirUnique returns the "unique" fact (RFC 3659 §7.5.2) of the
// listing's cdir entry, the directory listed, from the entries as
// ParseListLine gives them (cdir as "."); "" when the listing has none.
func cdirUnique(entries []Entry) string {
	for _, e := range entries {
		if e.Name == "." {
			if u := uniqueFact(e.Line); u != "" {
				return u
			}
		}
	}
	return ""
}

// uniqueFact returns the value of the "unique" fact of an MLSD line
// (RFC 3659 §7.5.2: the same for two names of one file or directory),
// or "".
func uniqueFact(line string) string {
	facts, _, ok := strings.Cut(line, " ")
	if !ok || !strings.Contains(facts, "=") {
		return ""
	}
	for _, f := range strings.Split(facts, ";") {
		if k, v, ok := strings.Cut(f, "="); ok && strings.EqualFold(k, "unique") {
			return v
		}
	}
	return ""
}

// readDir runs the plan's CWD and TYPE steps, then MLSD or LIST in
// place of its LIST. unread counts the lines that are no entry, in an
// error that leaves the session whole.
func (x *exchange) readDir() (entries []Entry, unread, err error) {
	p := x.req.plan
	st, e := x.enter(p, false)
	if e != nil {
		return nil, nil, e
	}
	if x.s.ctl.has("MLST") {
		st.Command = "MLSD" // RFC 3659 §7.1: MLSD takes a directory, as LIST does
		if e := x.askFacts(); e != nil {
			return nil, nil, e
		}
	}
	l, e := x.listing(st, false)
	if e != nil {
		if st.Arg != "" {
			return nil, nil, x.judge(e, st.Arg, asAny)
		}
		return nil, nil, e
	}
	lines := l.lines()
	entries, unparsed := parseLines(lines, time.Now())
	x.unique = cdirUnique(entries)
	if x.unique == "" && x.self && st.Command == "MLSD" {
		// RFC 3659 §7.1: MLST of the directory (none: the current one).
		if rep, e := x.cmd("", 250, strings.TrimSpace("MLST "+st.Arg)); e == nil {
			if e, ok := mlstEntry(rep); ok {
				x.unique = uniqueFact(e.Line)
			}
		}
	}
	entries = slices.DeleteFunc(entries, func(e Entry) bool { return e.Name == "" || e.Name == "." || e.Name == ".." })
	if st.Command == "MLSD" && (sharedUnique(entries) || x.links && slices.ContainsFunc(entries, func(e Entry) bool { return e.Mode.IsDir() })) {
		x.linksFromLIST(entries, st.Arg)
	}
	if len(lines) == 0 {
		if err := x.verify(p, st, false); err != nil {
			return nil, nil, err
		}
	}
	if len(entries) == 0 {
		entries = nil
	}
	if e := x.unread(st, len(lines), unparsed); e != nil {
		unread = e
	}
	if x.req.cfg.modTime && st.Command == "LIST" && x.s.ctl.has("MDTM") {
		if e := x.exactTimes(entries, st.Arg); e != nil {
			return nil, nil, e
		}
	}
	return entries, unread, nil
}

// mdtmBatch is how many MDTM commands exactTimes sends in one write:
// their replies (about 25 bytes each) fit any socket buffer, so the
// server is never stopped writing them while fetch still writes.
const mdtmBatch = 100

// exactTimes gives the files of a LIST listing of dir (the listing's
// argument: "" for the current directory) the server's UTC time to the
// second, from MDTM (RFC 3659 §3), where a LIST line has the server's
// wall clock to the minute or the day: every MDTM of a batch goes out
// in one write (RFC 959 §4.1 lets a client send a command before the
// reply to the one before it), so a directory costs a round trip for
// each mdtmBatch files. A file the server refuses MDTM for, or whose
// name holds a control character, keeps its LIST time.
func (x *exchange) exactTimes(entries []Entry, dir string) *Error {
	var files []int
	for i, e := range entries {
		if e.Mode.Type() == 0 && !strings.ContainsFunc(e.Name, isControl) {
			files = append(files, i)
		}
	}
	for len(files) > 0 {
		batch := files[:min(len(files), mdtmBatch)]
		files = files[len(batch):]
		lines := make([]string, len(batch))
		for j, i := range batch {
			name := entries[i].Name
			if dir != "" {
				name = strings.TrimSuffix(dir, "/") + "/" + name
			}
			lines[j] = "MDTM " + name
		}
		if err := x.s.ctl.send(lines...); err != nil {
			return x.fail("modtime", lines[0], err)
		}
		for j, i := range batch {
			rep, e := x.reply("modtime", 213, lines[j])
			switch {
			case e == nil:
				if t := timeOf(rep); !t.IsZero() {
					entries[i].ModTime, entries[i].Precision, entries[i].Local = t, time.Second, false
				}
			case !e.declined():
				return e
			}
		}
	}
	return nil
}

// sharedUnique reports whether two directories of a listing have the
// same unique fact (RFC 3659 §7.5.2): one name of a directory is a
// link to it that MLSD describes as the directory itself (pyftpdlib
// does).
func sharedUnique(entries []Entry) bool {
	seen := map[string]bool{}
	for _, e := range entries {
		if u := uniqueFact(e.Line); u != "" && e.Mode.IsDir() {
			if seen[u] {
				return true
			}
			seen[u] = true
		}
	}
	return false
}

// linksFromLIST asks LIST which names of an MLSD listing are links, and
// marks them so (fs.ModeSymlink, the target where LIST gives it): LIST
// shows a link as one where such a server's MLSD does not. A LIST that
// fails changes nothing.
func (x *exchange) linksFromLIST(entries []Entry, arg string) {
	l, e := x.listing(ftpurl.Step{Command: "LIST", Arg: arg}, false)
	if e != nil {
		return
	}
	links := map[string]Entry{}
	listed, _ := parseLines(l.lines(), time.Now())
	for _, le := range listed {
		if le.Mode&fs.ModeSymlink != 0 {
			links[le.Name] = le
		}
	}
	for i, e := range entries {
		if le, ok := links[e.Name]; ok {
			entries[i].Mode = fs.ModeSymlink | e.Mode.Perm()
			entries[i].Target = le.Target
		}
	}
}

// A WalkFunc is what [Client.Walk] calls for each entry of the tree,
// with fs.WalkDirFunc's contract: path is slash-separated from the root
// ("." for the root itself, "a/b.txt" below it), e the entry, and err
// the error of listing the directory path (a second call for that
// directory), of an unsafe name ([ErrUnsafeName]), or nil. Returning
// fs.SkipDir skips the directory (or, for a file, the rest of its
// directory), fs.SkipAll ends the walk with a nil error, and any other
// error ends it and is returned.
type WalkFunc func(path string, e Entry, err error) error

// Walk walks the tree under rawURL with [DefaultClient]; see
// [Client.Walk].
func Walk(ctx context.Context, rawURL string, fn WalkFunc, opts ...Option) error {
	return DefaultClient.Walk(ctx, rawURL, fn, opts...)
}

// Walk walks the tree under the directory rawURL names, as fs.WalkDir
// walks a file system: fn is called for the root (path ".", an Entry
// with Mode fs.ModeDir, its Name the URL's last segment), then for each
// entry that [Client.ReadDir] lists, depth first, in the server's
// order. A directory that cannot be listed is passed to fn a second
// time with its error, and the walk goes on if fn returns nil, as
// fs.WalkDir does; the root's error, when fn returns it, is Walk's. A
// URL that names a file gives fn that file once (path ".", its Entry
// from [Client.Stat]), as fs.WalkDir does for a file root: the root is
// listed before fn sees it, and a root whose CWD the server refuses for
// a name that MLST, MDTM or SIZE finds is that file.
//
// Walk never follows a symbolic link (an Entry with fs.ModeSymlink is
// passed to fn and not entered), so no loop can form, and never lists a
// directory twice. An entry whose name is not one path element (empty,
// ".", "..", holding "/" or a control character) is passed with an
// error that wraps [ErrUnsafeName], path holding the name as the server
// sent it, and never entered. A backslash or a colon is part of a
// name, as io/fs takes it (fs.ValidPath): a program that writes files
// checks each name for its own system (filepath.IsLocal). Walk uses the
// Client's sessions one listing at a time, so it keeps at most one
// busy.
func (c *Client) Walk(ctx context.Context, rawURL string, fn WalkFunc, opts ...Option) error {
	cfg := newConfig(opts)
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return err
	}
	root := asDirectory(u)
	w := &walker{c: c, ctx: ctx, cfg: cfg, fn: fn, seen: map[string]bool{}}
	err = w.root(root)
	if err == fs.SkipDir || err == fs.SkipAll {
		return nil
	}
	return err
}

type walker struct {
	c    *Client
	ctx  context.Context
	cfg  config
	fn   WalkFunc
	seen map[string]bool // the directories listed, by their URL
}

// root walks the tree from its root, dir: listed first, so that a file
// root is passed to fn as the file it is.
func (w *walker) root(dir *ftpurl.URL) error {
	e := Entry{Name: baseName(dir), Mode: fs.ModeDir, Size: -1}
	w.seen[dir.String()] = true
	entries, unique, err := w.c.readDirUnique(w.ctx, dir, w.cfg, true, false)
	var fe *Error
	if errors.As(err, &fe) && fe.file {
		fi, serr := w.c.stat(w.ctx, fileOf(dir), w.cfg)
		if serr == nil {
			return w.fn(".", fi.Sys().(Entry), nil)
		}
	}
	if err := w.fn(".", e, nil); err != nil {
		return err
	}
	if unique != "" {
		w.seen["unique "+unique] = true
	}
	return w.children(dir, ".", e, entries, err)
}

// walk calls fn for the directory dir at p, lists it and walks its
// entries.
func (w *walker) walk(dir *ftpurl.URL, p string, e Entry) error {
	if err := w.fn(p, e, nil); err != nil {
		return err
	}
	// A directory is known by its URL, and, where MLSD gives it, by
	// its unique fact (RFC 3659 §7.5.2): a server that lists a link to
	// a directory as a directory (pyftpdlib) gives the link the
	// target's unique, so a loop through links ends there.
	key, u := dir.String(), uniqueFact(e.Line)
	if w.seen[key] || u != "" && w.seen["unique "+u] {
		return nil
	}
	w.seen[key] = true
	if u != "" {
		w.seen["unique "+u] = true
	}
	entries, unique, err := w.c.readDirUnique(w.ctx, dir, w.cfg, false, false)
	if unique != "" && unique != u {
		if w.seen["unique "+unique] {
			return nil // reached another way (a link the listing did not show as one)
		}
		w.seen["unique "+unique] = true
	}
	return w.children(dir, p, e, entries, err)
}

// children passes the listing error of the directory dir at p to fn,
// then walks its entries.
func (w *walker) children(dir *ftpurl.URL, p string, e Entry, entries []Entry, err error) error {
	if err != nil {
		if err := w.fn(p, e, err); err != nil {
			return err
		}
		if w.ctx.Err() != nil {
			return w.ctx.Err()
		}
	}
	for _, child := range entries {
		cp := child.Name
		if p != "." {
			cp = p + "/" + child.Name
		}
		var err error
		switch {
		case !safeName(child.Name):
			err = w.fn(cp, child, &Error{Op: "walk", URL: dir.Redacted(), Err: fmt.Errorf("%w: %q", ErrUnsafeName, child.Name)})
		case child.Mode.IsDir() && child.Mode&fs.ModeSymlink == 0:
			sub := *dir
			sub.Dirs = append(slices.Clip(dir.Dirs), child.Name)
			err = w.walk(&sub, cp, child)
		default:
			err = w.fn(cp, child, nil)
		}
		if err == fs.SkipDir {
			if !child.Mode.IsDir() {
				return nil // the rest of this directory
			}
			continue
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// safeName reports whether a listed name is one path element that can
// be joined to a URL and walked: not empty, "." or "..", and without
// "/" or a control character. A backslash or a colon is part of a name,
// as io/fs takes it; whether the name is safe for a local file system is
// the caller's to check (filepath.IsLocal).
func safeName(name string) bool {
	if name == "" || name == "." || name == ".." {
		return false
	}
	for _, r := range name {
		if r == '/' || isControl(r) {
			return false
		}
	}
	return true
}
