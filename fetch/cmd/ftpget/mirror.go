package main

// ftpget --mirror DIR URL and -r URL: the tree a directory URL names,
// copied into DIR, as wget -m and lftp mirror do (issue 26, point 3).
//
// What is copied: regular files and directories, nothing else.
// fetch.Client.Walk lists the tree (MLSD where the server has it, else
// LIST) and never follows a link; a link, a FIFO, a device or a socket
// is named on standard error and counted in the summary, never made.
// A name that is not one safe local path element (fetch.ErrUnsafeName,
// filepath.IsLocal) is skipped and named: nothing is ever written
// outside DIR. Every file operation goes through an os.Root opened on
// DIR, which refuses a path that leaves it, through ".." or through a
// symbolic link that is already in DIR (the basic-ftp CVE-2026-27699
// class; os.CopyFS writes through such a link).
//
// How a file is written: to NAME.ftpget-part in its directory, which is
// renamed to NAME only when the bytes received are the file's size (the
// server's 150 reply or SIZE, and the listing's); its modification time
// is then set to the server's UTC time, from MLSD (RFC 3659 §7) or MDTM
// (§3), never from a LIST time, whose year and zone are guesses. So a
// file under its own name is whole, and a .ftpget-part file is partial:
// -C - resumes it with REST (fetch.WithOffset), and -N skips a file whose
// size and time are the server's.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// partSuffix names a file being fetched, beside the file it becomes.
const partSuffix = ".ftpget-part"

// defaultParallel is -P's default: sessions at once.
const defaultParallel = 4

// mirrorFlags are the flags of a mirror, down (--mirror DIR URL) or up
// (-T DIR --mirror URL, deploy.go).
type mirrorFlags struct {
	dir       string // --mirror DIR
	recursive bool   // -r
	parallel  int    // -P, --parallel-max
	pSet      bool   // -P given
	newer     bool   // -N: what a mirror does by default now
	all       bool   // --mirror-all: every file, changed or not
	delete    bool   // --delete
	maxDelete int    // --max-delete N; -1: no cap
	dryRun    bool   // --dry-run
	up        bool   // -T DIR --mirror URL: the tree up (deploy.go)
}

// specs are the mirror's flags, all long ones: -r, -P and -N are
// curl's (a range, active mode, no buffering).
func (m *mirrorFlags) specs() []flagSpec {
	boolean := func(v *bool) func(bool) error { return func(on bool) error { *v = on; return nil } }
	m.maxDelete = -1
	return []flagSpec{
		{long: []string{"mirror"}, set: func(s string) error { m.dir = s; return nil }},
		{long: []string{"recursive"}, on: boolean(&m.recursive)},
		{long: []string{"parallel-max"}, set: func(s string) error {
			n, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("takes a number of transfers at once, not %q", s)
			}
			m.parallel, m.pSet = n, true
			return nil
		}},
		{long: []string{"newer"}, on: boolean(&m.newer)},
		{long: []string{"mirror-all"}, on: boolean(&m.all)},
		{long: []string{"delete"}, on: boolean(&m.delete)},
		{long: []string{"max-delete"}, set: func(s string) error {
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return fmt.Errorf("takes a number of files and directories, not %q", s)
			}
			m.maxDelete = n
			return nil
		}},
		{long: []string{"dry-run"}, on: boolean(&m.dryRun)},
	}
}

// on reports whether the flags ask for a mirror.
func (m *mirrorFlags) on() bool { return m.dir != "" || m.recursive || m.up }

// check checks the mirror flags against the others and sets o.resume;
// it returns a usage message, or "".
func (m *mirrorFlags) check(o *options, urls []string, outputs int, resume string) string {
	if !m.on() {
		if m.newer || m.all || m.delete || m.maxDelete >= 0 || m.dryRun {
			return "--newer, --mirror-all, --delete, --max-delete and --dry-run go with --mirror or --recursive"
		}
		if m.pSet && (m.parallel < 1 || m.parallel > 300) {
			return fmt.Sprintf("--parallel-max takes 1 to 300 transfers at once (curl's range), not %d", m.parallel)
		}
		return ""
	}
	switch {
	case len(urls) != 1:
		return fmt.Sprintf("--mirror and --recursive take one URL, not %d", len(urls))
	case outputs > 0 || o.remoteNameAll:
		return "--mirror and --recursive write the tree's own names: no -o or -O"
	case o.head:
		return "-I does not go with --mirror or --recursive"
	case o.byteRange != nil || o.listOnly || o.remoteTime || len(o.quoteBefore)+len(o.quoteAfter) > 0:
		return "-r (a byte range, as curl's), -l, -R and -Q go with one file, not a mirror; --recursive mirrors into the URL's name"
	case m.pSet && (m.parallel < 1 || m.parallel > 64):
		return fmt.Sprintf("with a mirror, --parallel-max takes 1 to 64 files at once, not %d", m.parallel)
	case o.resumeSet && resume != "-":
		return "with --mirror or --recursive, -C takes only - (resume the partial files)"
	case m.maxDelete >= 0 && !m.delete:
		return "--max-delete caps --delete: give both"
	case m.all && m.newer:
		return "--mirror-all fetches every file; --newer only the changed ones (the default)"
	}
	if !m.pSet {
		m.parallel = defaultParallel
	}
	if o.resumeSet {
		o.resume = resumeFromEnd
	}
	return ""
}

// A mirror is one run of --mirror.
type mirror struct {
	treeRun  // g, bar, mu, failed, code; count, failure, printLocked
	ctx      context.Context
	root     *os.Root    // DIR, once the root's listing worked; nil before, and in a dry run where DIR is not
	opened   bool        // open ran
	dir      string      // DIR, as given, for messages
	base     *ftpurl.URL // the tree's directory: its Dirs, no Name
	newer    bool        // only what changed: the default; not --mirror-all
	resume   bool        // -C -
	dryRun   bool        // --dry-run: print, write nothing
	jobs     chan fileJob
	walkOpts []fetch.Option // the options that the walk logged in with

	// For --delete and the directories' times: what the server listed
	// (slash paths from DIR), whether every listing was whole, and the
	// directories' times where the server gives them in UTC.
	seen     map[string]bool
	whole    bool
	dirTimes []dirTime
	deleted  int

	files    int   // files fetched
	bytes    int64 // bytes fetched
	upToDate int   // -N: files left as they were
	dirs     int   // directories made or found
	wouldGet int   // --dry-run: files that a run would fetch
	links    int   // symbolic links, not copied
	others   int   // FIFOs, devices, sockets, unknown types, not copied
	unsafe   int   // unsafe names, skipped
}

// A dirTime is a directory's time on the server, set on the local copy
// once its files are in.
type dirTime struct {
	path string
	t    time.Time
}

// A fileJob is one file to fetch.
type fileJob struct {
	path  string // slash-separated, from the tree's root
	entry fetch.Entry
	opts  []fetch.Option
}

// mirror copies the tree; it returns the exit status.
func (g *getter) mirror() int {
	mf := &g.o.mirror
	base := *g.u
	if base.Name != "" {
		base.Dirs = append(slices.Clip(base.Dirs), base.Name)
	}
	base.Name, base.Type = "", 0
	dir := mf.dir
	if dir == "" {
		dir = localRootName(&base)
		if !isLocalName(dir) {
			g.printf("-r: the URL's last segment %q is not a plain local name: give --mirror DIR", dir)
			return exitWrite
		}
	}
	// N transfers and the walk's listings, each on a session of its
	// own, as lftp's mirror --parallel=N runs N transfers beside the
	// connection that lists. A new Client: none of its sessions is
	// open yet. DIR is made (opened) only once the root's listing
	// worked: a URL that names a file or nothing leaves nothing.
	g.client.MaxConnsPerHost = mf.parallel + 1
	g.o.segmentOptions.raise(g.client)
	m := &mirror{treeRun: treeRun{g: g}, ctx: context.Background(), dir: dir, base: &base,
		newer: !mf.all, resume: g.o.resume == resumeFromEnd, dryRun: mf.dryRun, jobs: make(chan fileJob, 256),
		seen: map[string]bool{}, whole: true}
	defer func() {
		if m.root != nil {
			m.root.Close()
		}
	}()
	if isTerminal(g.stderr) {
		m.bar = newTreeProgress(g.stderr, "fetched")
	}
	var workers sync.WaitGroup
	for range mf.parallel {
		workers.Go(func() {
			for j := range m.jobs {
				m.fetchFile(j)
			}
		})
	}
	rootURL := base.String()
	err := g.login(func(opts []fetch.Option) error {
		m.walkOpts = opts
		return g.client.Walk(m.ctx, rootURL, m.visit, opts...)
	})
	close(m.jobs)
	workers.Wait()
	if m.bar != nil {
		m.bar.stop()
	}
	if err == nil {
		if oerr := m.open(); oerr != nil { // an empty tree: DIR, empty
			m.failure(oerr, exitWrite, "--mirror")
		}
	}
	if err != nil {
		m.failure(err, exitCode(err, false), "")
	}
	if mf.delete && err == nil {
		m.deleteUnlisted(mf.maxDelete)
	}
	m.setDirTimes()
	m.summary(rootURL, mf.delete)
	if m.failed > 0 {
		return m.code
	}
	return exitOK
}

// open makes DIR, where the run writes, and opens it; in a dry run it
// only opens it where it exists.
func (m *mirror) open() error {
	if m.opened {
		return nil
	}
	m.opened = true
	if m.dryRun {
		if root, err := os.OpenRoot(m.dir); err == nil {
			m.root = root
		}
		return nil
	}
	if err := os.MkdirAll(m.dir, 0o777); err != nil {
		return err
	}
	root, err := os.OpenRoot(m.dir)
	if err != nil {
		return err
	}
	m.root = root
	return nil
}

// lstat is os.Root.Lstat in DIR, or fs.ErrNotExist where DIR is not
// (a dry run).
func (m *mirror) lstat(local string) (fs.FileInfo, error) {
	if m.root == nil {
		return nil, fs.ErrNotExist
	}
	return m.root.Lstat(local)
}

// deleteUnlisted removes from DIR what the server no longer lists
// (--delete): files and links, then the directories left empty, deepest
// first; never when a listing of the run failed or held a line no
// parser read, and none at all where more than maxDelete would go.
func (m *mirror) deleteUnlisted(maxDelete int) {
	if !m.whole {
		m.failure(errors.New("--delete: nothing deleted, as a listing of the server failed or held a line fetch could not read"), exitFailed, "")
		return
	}
	if m.root == nil {
		return
	}
	var files, dirs []string
	err := fs.WalkDir(m.root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case p == ".":
			return nil
		case m.seen[p] || strings.HasSuffix(p, partSuffix) && m.seen[strings.TrimSuffix(p, partSuffix)]:
			return nil
		case d.IsDir():
			dirs = append(dirs, p)
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		m.failure(err, exitWrite, "--delete")
		return
	}
	if maxDelete >= 0 && len(files)+len(dirs) > maxDelete {
		m.failure(fmt.Errorf("--delete: %d files and directories are not on the server, over --max-delete %d: nothing deleted", len(files)+len(dirs), maxDelete), exitFailed, "")
		return
	}
	slices.Reverse(dirs) // deepest first
	for _, p := range append(files, dirs...) {
		if m.dryRun {
			m.g.say("would delete %s", quoteName(p))
			m.deleted++
			continue
		}
		if err := m.root.RemoveAll(filepath.FromSlash(p)); err != nil {
			m.failure(err, exitWrite, "--delete")
			continue
		}
		m.deleted++
	}
}

// setDirTimes gives each directory the server's time, deepest first,
// once its files are in (each file's arrival changed it).
func (m *mirror) setDirTimes() {
	if m.dryRun || m.root == nil {
		return
	}
	for _, d := range slices.Backward(m.dirTimes) {
		if err := m.root.Chtimes(filepath.FromSlash(d.path), d.t, d.t); err != nil {
			m.failure(err, exitWrite, "")
		}
	}
}

// localRootName is the directory that -r makes: the URL's last
// directory, or its host for the server's root, as wget names it.
func localRootName(u *ftpurl.URL) string {
	for _, d := range slices.Backward(u.Dirs) {
		if d != "" {
			return d
		}
	}
	return u.Host
}

// isLocalName reports whether name is one local path element that
// stays in its directory on this system: filepath.IsLocal, without a
// separator. A backslash is part of a name on Unix, as io/fs takes it,
// and a separator on Windows.
func isLocalName(name string) bool {
	return name != "." && filepath.IsLocal(name) && !strings.ContainsAny(name, "/"+string(filepath.Separator))
}

// A fileRootError is a mirror's URL that names a file: there is no tree
// to copy. Its exit code is curl's for a path that cannot be entered
// (9, CURLE_REMOTE_ACCESS_DENIED), as before Walk gave a file root as
// the file.
type fileRootError struct{ name string }

func (e *fileRootError) Error() string {
	return "the URL names the file " + quoteName(e.name) + ", not a directory: ftpget -O URL fetches it"
}

// visit is the walk's fetch.WalkFunc: it makes the directories, queues
// the files, and names what it does not copy.
func (m *mirror) visit(p string, e fetch.Entry, err error) error {
	switch {
	case err != nil && p == ".":
		m.whole = false
		return err // the root: the walk ends, and its error is the run's
	case p == "." && !e.Mode.IsDir():
		return &fileRootError{name: e.Name} // Walk gives a file root as the file
	case errors.Is(err, fetch.ErrUnsafeName):
		m.count(&m.unsafe, "skipped %s: not a safe local name (a server-chosen name that could leave %s)", quoteName(p), m.dir)
		return nil
	case err != nil:
		m.whole = false
		m.failure(err, exitCode(err, false), "listing "+quoteName(p)+"/")
		return nil
	case p == ".":
		// DIR is made with the first entry, or once the walk ends
		// well: the root's listing may still fail (fs.WalkDir's order:
		// the root, then its error).
		m.seenDir(p, e)
		return nil
	}
	if err := m.open(); err != nil {
		m.failure(err, exitWrite, "--mirror")
		return fs.SkipAll
	}
	for el := range strings.SplitSeq(p, "/") {
		if !isLocalName(el) {
			m.count(&m.unsafe, "skipped %s: not a safe local name", quoteName(p))
			return skip(e)
		}
	}
	local := filepath.FromSlash(p)
	m.seen[p] = true
	switch t := e.Mode.Type(); {
	case t&fs.ModeSymlink != 0:
		target := ""
		if e.Target != "" {
			target = " to " + quoteName(e.Target)
		}
		m.count(&m.links, "not copied: %s, a symbolic link%s", quoteName(p), target)
		return nil
	case t == fs.ModeDir:
		if err := m.mkdir(local); err != nil {
			m.failure(err, exitWrite, "")
			return fs.SkipDir
		}
		m.seenDir(p, e)
		m.count(&m.dirs, "")
		return nil
	case t == 0:
		if m.bar != nil {
			m.bar.found(e.Size)
		}
		m.jobs <- fileJob{path: p, entry: e, opts: m.walkOpts}
		return nil
	default:
		m.count(&m.others, "not copied: %s, %s", quoteName(p), typeName(t))
		return nil
	}
}

// seenDir notes the directory p's time, where the listing gives it in
// UTC (MLSD), to set once its files are in.
func (m *mirror) seenDir(p string, e fetch.Entry) {
	if !e.Local && !e.ModTime.IsZero() {
		m.dirTimes = append(m.dirTimes, dirTime{p, e.ModTime.UTC()})
	}
}

// skip is what a WalkFunc returns to pass over e.
func skip(e fetch.Entry) error {
	if e.Mode.IsDir() {
		return fs.SkipDir
	}
	return nil
}

// typeName names a file type that a mirror does not copy.
func typeName(t fs.FileMode) string {
	switch {
	case t&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case t&fs.ModeCharDevice != 0:
		return "a character device"
	case t&fs.ModeDevice != 0:
		return "a device"
	case t&fs.ModeSocket != 0:
		return "a socket"
	}
	return "of a type the listing does not say"
}

// mkdir makes the directory local in DIR, or finds it there; a dry
// run names one it would make.
func (m *mirror) mkdir(local string) error {
	if m.dryRun {
		if fi, err := m.lstat(local); err != nil || !fi.IsDir() {
			m.g.say("would make directory %s", quoteName(filepath.ToSlash(local)))
		}
		return nil
	}
	err := m.root.Mkdir(local, 0o777)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, lerr := m.root.Lstat(local)
	if lerr != nil {
		return lerr
	}
	if !fi.IsDir() {
		what := "a file"
		if fi.Mode()&fs.ModeSymlink != 0 {
			what = "a symbolic link"
		} else if !fi.Mode().IsRegular() {
			what = "not a directory"
		}
		return fmt.Errorf("%s exists in %s and is %s: the server's directory of that name is not copied", quoteName(filepath.ToSlash(local)), m.dir, what)
	}
	return nil
}

// fetchFile fetches one file into DIR.
func (m *mirror) fetchFile(j fileJob) {
	rawURL := m.fileURL(j.path)
	e := j.entry
	size := e.Size
	mtime := time.Time{}
	exact := !e.Local && !e.ModTime.IsZero()
	if exact {
		mtime = e.ModTime.UTC() // MLSD: UTC, RFC 3659 §2.3
	}
	// A LIST time is the server's local time with a guessed year: the
	// exact UTC time comes from MDTM (RFC 3659 §3), asked with Stat only
	// where -N must compare it before fetching, else with the RETR
	// itself (WithModTime: no round trip of its own).
	stat := func() bool {
		fi, err := m.g.client.Stat(m.ctx, rawURL, j.opts...)
		switch {
		case err == nil:
			mtime = fi.ModTime().UTC()
			if fi.Size() >= 0 {
				size = fi.Size()
			}
		case errors.Is(err, fetch.ErrNotFound):
			m.failure(err, exitNotFound, "")
			return false
		}
		return true
	}
	local := filepath.FromSlash(j.path)
	if m.newer && size >= 0 {
		if fi, err := m.lstat(local); err == nil && fi.Mode().IsRegular() && fi.Size() == size {
			if !exact && !stat() {
				return
			}
			if !mtime.IsZero() && fi.Size() == size && sameTime(fi.ModTime(), mtime) {
				m.count(&m.upToDate, "")
				if m.bar != nil {
					m.bar.skipped(size)
				}
				return
			}
		}
	}
	if m.dryRun {
		what := "unknown size"
		if size >= 0 {
			what = humanBytes(size)
		}
		m.g.say("would fetch %s (%s)", quoteName(j.path), what)
		m.count(&m.wouldGet, "")
		return
	}
	part := local + partSuffix
	var offset int64
	if fi, err := m.root.Lstat(part); err == nil {
		switch {
		case !fi.Mode().IsRegular():
			if err := m.root.Remove(part); err != nil {
				m.failure(err, exitWrite, "")
				return
			}
		case m.resume && (size < 0 || fi.Size() <= size):
			offset = fi.Size()
		}
	}
	if size == 0 {
		if !exact && mtime.IsZero() && !stat() {
			return
		}
		// Nothing to transfer. And a FIFO that a server's MLSD calls
		// an empty file (type=file;size=0: ftpserverlib, pyftpdlib,
		// ProFTPD) would hold RETR until someone writes to it.
		m.finish(j.path, part, local, mtime, true)
		return
	}
	if offset > 0 && offset == size {
		m.finish(j.path, part, local, mtime, false) // whole, but not renamed when the run stopped
		return
	}
	opts := j.opts
	if offset > 0 {
		opts = append(slices.Clip(opts), fetch.WithOffset(offset))
	}
	if m.g.o.wants(size) {
		if mtime.IsZero() && !stat() {
			return
		}
		m.download(j.path, rawURL, part, local, offset, size, mtime, opts)
		return
	}
	if mtime.IsZero() {
		opts = append(slices.Clip(opts), fetch.WithModTime())
	}
	resp, err := m.g.client.Open(m.ctx, rawURL, opts...)
	if err != nil {
		code := exitCode(err, false)
		var fe *fetch.Error
		if offset > 0 && errors.As(err, &fe) && (fe.Op == "rest" && fe.Code != 0 || fe.Code == 554) {
			code = exitResume
		}
		m.failure(err, code, "")
		return
	}
	defer resp.Close()
	if resp.Action != ftpurl.Retrieve {
		// RETR refused, and CWD to the name worked: a link to a
		// directory that the server's MLSD calls a file (ftpserverlib
		// does, with the link's own size).
		m.count(&m.links, "not copied: %s, listed as a file but a directory to RETR and CWD (a symbolic link to one, as some MLSD lists it)", quoteName(j.path))
		return
	}
	if resp.Size >= 0 {
		size = resp.Size
	}
	if mtime.IsZero() {
		mtime = resp.ModTime
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC | syscall.O_NOFOLLOW
	if offset > 0 {
		flags = os.O_WRONLY | os.O_APPEND | syscall.O_NOFOLLOW
	}
	f, err := m.root.OpenFile(part, flags, 0o666)
	if err != nil {
		m.failure(err, exitWrite, "")
		return
	}
	w := &mirrorWriter{f: f, bar: m.bar}
	n, err := io.Copy(w, resp)
	if cerr := f.Close(); err == nil && cerr != nil {
		w.err, err = cerr, cerr
	}
	m.mu.Lock()
	m.bytes += n
	m.mu.Unlock()
	switch {
	case w.err != nil:
		m.failure(w.err, exitWrite, "")
		return
	case err != nil:
		m.failure(err, exitCode(err, true), "")
		return
	case size >= 0 && offset+n != size:
		m.failure(fmt.Errorf("%d bytes, of %d: kept as %s for -C -", offset+n, size, quoteName(j.path+partSuffix)), exitPartial, quoteName(j.path))
		return
	}
	m.finish(j.path, part, local, mtime, false)
}

// finish gives the whole file part the server's time and its own name,
// local; with empty, it makes part an empty file first.
func (m *mirror) finish(p, part, local string, mtime time.Time, empty bool) {
	if empty {
		f, err := m.root.OpenFile(part, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o666)
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			m.failure(err, exitWrite, "")
			return
		}
	}
	if !mtime.IsZero() {
		if err := m.root.Chtimes(part, mtime, mtime); err != nil {
			m.failure(err, exitWrite, "")
			return
		}
	}
	if err := m.root.Rename(part, local); err != nil {
		m.failure(err, exitWrite, quoteName(p))
		return
	}
	m.count(&m.files, "")
	if m.bar != nil {
		m.bar.doneFiles.Add(1)
	}
}

// fileURL is the URL of the file at p under the tree's root.
func (m *mirror) fileURL(p string) string {
	u := *m.base
	els := strings.Split(p, "/")
	u.Dirs = append(slices.Clip(u.Dirs), els[:len(els)-1]...)
	u.Name = els[len(els)-1]
	return u.String()
}

// sameTime reports whether a local file's time is the server's, to the
// second: MLSD and MDTM give seconds (a fraction where the server has
// one), and some file systems keep less.
func sameTime(local, remote time.Time) bool {
	return local.Truncate(time.Second).Equal(remote.Truncate(time.Second))
}

// summary prints the one line that ends every mirror.
func (m *mirror) summary(rootURL string, deleting bool) {
	u, _ := ftpurl.Parse(rootURL)
	var b strings.Builder
	fetched := "fetched"
	if m.dryRun {
		fetched = "to fetch (a dry run: nothing written)"
		m.files = m.wouldGet
	}
	fmt.Fprintf(&b, "mirror of %s in %s: %d files (%d bytes) %s", u.Redacted(), m.dir, m.files, m.bytes, fetched)
	if m.newer {
		fmt.Fprintf(&b, ", %d up to date", m.upToDate)
	}
	if deleting {
		fmt.Fprintf(&b, ", %d deleted", m.deleted)
	}
	fmt.Fprintf(&b, ", %d directories; %d skipped (%d links, %d of other types, %d unsafe names); %d failed",
		m.dirs, m.links+m.others+m.unsafe, m.links, m.others, m.unsafe, m.failed)
	m.g.printf("%s", b.String())
}

// quoteName shows a server's name as it is when it is printable UTF-8,
// and quoted (Go syntax, bytes escaped) when it is not, or when it has
// spaces at an end.
func quoteName(s string) string {
	if !utf8.ValidString(s) || strings.TrimSpace(s) != s || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// A mirrorWriter writes a file and counts its bytes for the progress
// line; it keeps the first write error, to tell it from the transfer's.
type mirrorWriter struct {
	f   *os.File
	bar *treeProgress // nil: none
	err error
}

func (w *mirrorWriter) Write(b []byte) (int, error) {
	n, err := w.f.Write(b)
	if w.bar != nil {
		w.bar.doneBytes.Add(int64(n))
	}
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// humanBytes writes n in B, KiB, MiB or GiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	f, i := float64(n)/unit, 0
	for f >= unit && i < 2 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMG"[i])
}
