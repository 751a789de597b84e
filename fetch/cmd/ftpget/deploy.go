package main

// ftpget -T DIR --mirror URL/: the tree DIR uploaded into the directory
// the URL names (a deploy, a backup), as lftp's mirror -R and rclone
// sync do, and as DESIGN's "The tree up" says.
//
// Only what changed is sent: a file whose size and time match the
// server's (one MLSD or LIST of each directory; on a LIST server, with
// the MDTM of each of its files, all in one write, since a LIST time is
// a guess: fetch.WithModTime) is
// left alone, and the time of each file sent is set on the server
// (fetch.WithSetModTime), so the next run is exact. Each file goes to a
// temporary name in its directory (".NAME.ftpurl-XXXXXXXX.part",
// fetch.WithTempName), is proven by SIZE, given its time and renamed
// onto its name (one round trip for the three, once the server's way to
// set a time is known): no partial file is ever
// visible under its name, and a failed file leaves no temporary behind
// or names it. Where a server refuses RNTO onto a file that exists
// (ProFTPD without AllowOverwrite), the old file is deleted and the new
// one sent again, and from then on each old file is deleted first. A
// file whose upload failed for a reason that may pass (the network's,
// a 4xx reply, or the server holding it short after its 226) is sent
// once more, whole, and said on standard error.
//
// Local symbolic links, FIFOs, devices and sockets are named and
// skipped, never followed: the walk goes through an os.Root on DIR.
// --delete removes what the server holds and DIR does not (files, then
// the directories left empty, deepest first), never when a listing of
// the run failed or held a line no parser read; --max-delete N caps it
// (more, and nothing is deleted). --dry-run prints each action on
// standard output and sends no command that changes the server.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// A deploy is one run of -T DIR --mirror URL.
type deploy struct {
	treeRun // g, bar, mu, failed, code; count, failure, printLocked
	ctx     context.Context
	root    *os.Root    // DIR
	dir     string      // DIR, as given
	base    *ftpurl.URL // the server's directory: its Dirs, no Name
	all     bool        // --mirror-all: send every file
	dryRun  bool
	opts    []fetch.Option
	jobs    chan upJob

	// Of the walk (one goroutine): each listed directory's entries, by
	// slash path from the root; the directories the server lacks; the
	// local paths; whether every listing was whole.
	listed  map[string]map[string]fetch.Entry
	missing map[string]bool
	local   map[string]bool
	whole   bool

	sent     int
	bytes    int64
	upToDate int
	made     int // directories made
	deleted  int
	links    int
	others   int

	noOverwrite atomic.Bool // the server refused RNTO onto a file

	// The walk's read-ahead: the listings of the directories below one
	// just listed that DIR has too, each started at once on a session
	// of its own (at most ahead's capacity at a time, as lftp lists in
	// parallel), and taken by enter when the walk gets there.
	aheadMu sync.Mutex
	ahead   map[string]*dirListing
	aheadWG sync.WaitGroup
	slots   chan struct{}
}

// A dirListing is a listing of the read-ahead: done is closed once
// entries and err are set.
type dirListing struct {
	done    chan struct{}
	entries []fetch.Entry
	err     error
}

// An upJob is one file to send.
type upJob struct {
	path   string // slash path from DIR
	size   int64
	mtime  time.Time
	exists bool // the server has a file of that name
	check  bool // its size matches a LIST line's: MDTM tells whether it is up to date
}

// deploy sends the tree DIR (-T) into the URL's directory; it returns
// the exit status.
func (g *getter) deploy() int {
	o := g.o
	mf := &o.mirror
	dir := o.upload
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		if err == nil {
			err = fmt.Errorf("%s is not a directory", dir)
		}
		g.printf("-T DIR --mirror: %v", err)
		return exitUploadRead
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		g.printf("-T DIR --mirror: %v", err)
		return exitUploadRead
	}
	defer root.Close()
	base := *g.u
	if base.Name != "" {
		base.Dirs = append(slices.Clip(base.Dirs), base.Name)
	}
	base.Name, base.Type = "", 0
	g.client.MaxConnsPerHost = mf.parallel + 1
	d := &deploy{treeRun: treeRun{g: g}, ctx: context.Background(), root: root, dir: dir, base: &base, all: mf.all, dryRun: mf.dryRun,
		jobs: make(chan upJob, 256), listed: map[string]map[string]fetch.Entry{}, missing: map[string]bool{},
		local: map[string]bool{}, whole: true, slots: make(chan struct{}, mf.parallel)}
	if isTerminal(g.stderr) {
		d.bar = newTreeProgress(g.stderr, "sent")
	}
	var workers sync.WaitGroup
	for range mf.parallel {
		workers.Go(func() {
			for j := range d.jobs {
				d.send(j)
			}
		})
	}
	err = g.login(func(opts []fetch.Option) error {
		d.opts = opts
		return d.walk()
	})
	close(d.jobs)
	workers.Wait()
	if d.bar != nil {
		d.bar.stop()
	}
	if err != nil {
		d.whole = false
		d.failure(err, exitCode(err, false), "")
	}
	if mf.delete {
		d.deleteExtra(mf.maxDelete)
	}
	d.summary(mf.delete)
	if d.failed > 0 {
		return d.code
	}
	return exitOK
}

// url is the URL of the path p (slash-separated from DIR) on the
// server: a directory's, or a file's.
func (d *deploy) url(p string, isDir bool) *ftpurl.URL {
	u := *d.base
	if p == "." {
		return &u
	}
	els := strings.Split(p, "/")
	if isDir {
		u.Dirs = append(slices.Clip(u.Dirs), els...)
		return &u
	}
	u.Dirs = append(slices.Clip(u.Dirs), els[:len(els)-1]...)
	u.Name = els[len(els)-1]
	return &u
}

// walk walks DIR: each directory listed on the server (or made), each
// file compared with its entry and queued when it changed.
func (d *deploy) walk() error {
	d.ahead = map[string]*dirListing{}
	defer d.aheadWG.Wait()
	return fs.WalkDir(d.root.FS(), ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			d.whole = false // what DIR holds is not known whole: --delete must not go on
			d.failure(err, exitUploadRead, "")
			return nil
		}
		d.local[p] = true
		switch t := e.Type(); {
		case t == fs.ModeDir:
			return d.enter(p)
		case t&fs.ModeSymlink != 0:
			d.count(&d.links, "not sent: %s, a symbolic link in %s", quoteName(p), d.dir)
			return nil
		case t != 0:
			d.count(&d.others, "not sent: %s, %s", quoteName(p), typeName(t))
			return nil
		}
		fi, err := e.Info()
		if err != nil {
			d.failure(err, exitUploadRead, "")
			return nil
		}
		return d.compare(p, fi)
	})
}

// enter lists the directory p on the server, or makes it where the
// server lacks it.
func (d *deploy) enter(p string) error {
	parent := path.Dir(p)
	if p != "." && d.missing[parent] {
		return d.mkdir(p)
	}
	if p == "." {
		d.readAheadTop()
	}
	entries, err := d.list(p)
	switch {
	case errors.Is(err, fetch.ErrNotFound):
		return d.mkdir(p)
	case errors.Is(err, fetch.ErrPasswordRequired):
		return err // g.login asks for it, and walks again
	case err != nil && len(entries) == 0:
		if p == "." {
			return err
		}
		d.whole = false
		d.failure(err, exitCode(err, false), "listing "+quoteName(p)+"/")
		return fs.SkipDir
	case err != nil:
		// Lines no parser read: the files they name are sent again,
		// and nothing is deleted.
		d.whole = false
		d.g.printf("listing %s/: %v", quoteName(p), err)
	}
	byName := make(map[string]fetch.Entry, len(entries))
	for _, e := range entries {
		byName[e.Name] = e
	}
	d.listed[p] = byName
	d.readAhead(p, entries)
	return nil
}

// list lists the directory p on the server: the read-ahead's listing
// where there is one, else one made now.
func (d *deploy) list(p string) ([]fetch.Entry, error) {
	d.aheadMu.Lock()
	l := d.ahead[p]
	delete(d.ahead, p)
	d.aheadMu.Unlock()
	if l != nil {
		<-l.done
		return l.entries, l.err
	}
	return d.readDir(p)
}

// readDir lists the directory p on the server, with WithModTime: on a
// LIST server, the MDTM times to the second of its files, in one round
// trip.
func (d *deploy) readDir(p string) ([]fetch.Entry, error) {
	return d.g.client.ReadDir(d.ctx, d.url(p, true).String(), append(slices.Clip(d.opts), fetch.WithModTime())...)
}

// readAhead starts the listings of the directories of entries (the
// server's listing of p) that DIR has too.
func (d *deploy) readAhead(p string, entries []fetch.Entry) {
	for _, e := range entries {
		if !e.Mode.IsDir() || !filepath.IsLocal(e.Name) || strings.Contains(e.Name, "/") {
			continue
		}
		q := path.Join(p, e.Name)
		if fi, err := d.root.Lstat(filepath.FromSlash(q)); err != nil || !fi.IsDir() {
			continue
		}
		d.listAhead(q)
	}
}

// readAheadTop starts the listings of DIR's own directories while the
// server's directory itself is listed, so that their sessions log in
// and list at the same time instead of after it: the walk enters
// each of them next, and lists it whether or not the server has it (a
// directory the server lacks is a listing refused, then made).
func (d *deploy) readAheadTop() {
	entries, err := fs.ReadDir(d.root.FS(), ".")
	if err != nil {
		return // the walk reports it
	}
	for _, e := range entries {
		if e.Type() == fs.ModeDir {
			d.listAhead(e.Name())
		}
	}
}

// listAhead starts the listing of the directory q, unless one is
// started already.
func (d *deploy) listAhead(q string) {
	l := &dirListing{done: make(chan struct{})}
	d.aheadMu.Lock()
	if _, ok := d.ahead[q]; ok {
		d.aheadMu.Unlock()
		return
	}
	d.ahead[q] = l
	d.aheadMu.Unlock()
	d.aheadWG.Go(func() {
		defer close(l.done)
		d.slots <- struct{}{}
		defer func() { <-d.slots }()
		l.entries, l.err = d.readDir(q)
	})
}

// mkdir makes the directory p on the server (MKD), which lacks it; so
// does every directory below it.
func (d *deploy) mkdir(p string) error {
	d.missing[p] = true
	if d.dryRun {
		d.g.say("would make directory %s", quoteName(p))
		d.count(&d.made, "")
		return nil
	}
	err := d.g.client.Mkdir(d.ctx, d.url(p, true).String(), append(slices.Clip(d.opts), fetch.WithCreateDirs())...)
	if err != nil {
		d.failure(err, uploadExit(err), "")
		return fs.SkipDir
	}
	d.count(&d.made, "")
	return nil
}

// compare queues the file p (fi) unless the server's copy has its size
// and time.
func (d *deploy) compare(p string, fi fs.FileInfo) error {
	j := upJob{path: p, size: fi.Size(), mtime: fi.ModTime().UTC().Truncate(time.Second)}
	if e, ok := d.listed[path.Dir(p)][path.Base(p)]; ok {
		switch {
		case e.Mode.IsDir():
			d.failure(fmt.Errorf("%s is a directory on the server and a file in %s: not sent", quoteName(p), d.dir), exitUpload, "")
			return nil
		case !d.all && e.Size == j.size && exact(e):
			if e.ModTime.UTC().Truncate(time.Second).Equal(j.mtime) {
				d.count(&d.upToDate, "")
				return nil
			}
		case !d.all && e.Size == j.size:
			j.check = true // by a worker: an MDTM a file
		}
		j.exists = true
	}
	if d.bar != nil && !j.check {
		d.bar.found(j.size)
	}
	d.jobs <- j
	return nil
}

// exact reports whether e's time is the server's UTC time to the
// second (MLSD), not a LIST time (the server's wall clock, to the
// minute, its year guessed).
func exact(e fetch.Entry) bool {
	return !e.Local && !e.ModTime.IsZero() && e.Precision <= time.Second
}

// sameOnServer reports whether the server's file p has the time t, to the
// second, by MDTM (fetch.Stat): what a LIST line cannot tell.
func (d *deploy) sameOnServer(p string, t time.Time) bool {
	fi, err := d.g.client.Stat(d.ctx, d.url(p, false).String(), d.opts...)
	return err == nil && fi.ModTime().UTC().Truncate(time.Second).Equal(t)
}

// send uploads the file j to a temporary name in its directory, with
// its time, and renames it onto its name.
func (d *deploy) send(j upJob) {
	if j.check {
		if d.sameOnServer(j.path, j.mtime) {
			d.count(&d.upToDate, "")
			return
		}
		if d.bar != nil {
			d.bar.found(j.size)
		}
	}
	if d.dryRun {
		d.g.say("would send %s (%s)", quoteName(j.path), humanBytes(j.size))
		d.mu.Lock()
		d.sent++
		d.bytes += j.size
		d.mu.Unlock()
		return
	}
	target := d.url(j.path, false).String()
	if j.exists && d.noOverwrite.Load() {
		// The server refuses RNTO onto a file (learnt below): the old
		// one goes first.
		if err := d.g.client.Remove(d.ctx, target, d.opts...); err != nil {
			d.failure(err, uploadExit(err), quoteName(j.path))
			return
		}
	}
	n, err := d.put(j, target)
	var fe *fetch.Error
	if err != nil && j.exists && !d.noOverwrite.Load() && errors.As(err, &fe) && fe.Op == "rename" && strings.HasPrefix(fe.Command, "RNTO ") && fe.Code >= 500 {
		// ProFTPD's default (AllowOverwrite off): RNTO onto a file is
		// refused, and Put deleted its temporary file. The old file
		// goes, and the new one is sent again.
		d.noOverwrite.Store(true)
		if rerr := d.g.client.Remove(d.ctx, target, d.opts...); rerr == nil {
			n, err = d.put(j, target)
		}
	}
	if err != nil && sendAgain(err) {
		// Once more, as lftp's and rclone's retries do: Put kept
		// nothing of the failed try (its temporary file is deleted),
		// so the file goes again whole, under a new temporary name.
		d.g.printf("%s: sent again after: %v", quoteName(j.path), err)
		n, err = d.put(j, target)
	}
	if err != nil {
		d.failure(err, uploadExit(err), quoteName(j.path))
		return
	}
	d.mu.Lock()
	d.sent++
	d.bytes += n
	d.mu.Unlock()
	if d.bar != nil {
		d.bar.doneFiles.Add(1)
	}
}

// put sends the file j to target: to a temporary name in its directory
// (fetch.WithTempName), proven by SIZE, its time set, then renamed.
// sendAgain reports whether err, a Put's failure, may pass when the
// file is sent again: what --retry takes (transient: a timeout, a 4xx
// reply), the network's failure during STOR (no reply), or the upload
// found short by SIZE after its 226; never a 5xx refusal, nor a local
// file's error.
func sendAgain(err error) bool {
	var fe *fetch.Error
	return transient(err) || errors.As(err, &fe) && fe.Code == 0 && (fe.Op == "stor" || fe.Op == "size")
}

func (d *deploy) put(j upJob, target string) (int64, error) {
	f, err := d.root.OpenFile(j.path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var r io.Reader = f
	if d.bar != nil {
		r = &countingReader{r: f, n: &d.bar.doneBytes}
	}
	n, err := d.g.client.Put(d.ctx, target, r, append(slices.Clip(d.opts), fetch.WithTempName(), fetch.WithSetModTime(j.mtime))...)
	if err == nil && n != j.size {
		err = fmt.Errorf("%s changed while it was sent: %d bytes sent, %d when listed", quoteName(j.path), n, j.size)
	}
	return n, err
}

// A doomed name is one the server holds and DIR does not (--delete).
type doomed struct {
	path  string // slash path from the root
	isDir bool
}

// deleteExtra removes from the server what DIR does not hold: the
// entries of each listed directory that DIR lacks, and what the
// server's directories that DIR lacks hold (listed with Walk), files
// and links first, then the directories, deepest first. Nothing is
// deleted when a listing of the run failed or held a line no parser
// read, or when more than maxDelete would go.
func (d *deploy) deleteExtra(maxDelete int) {
	switch {
	case !d.whole:
		d.failure(errors.New("--delete: nothing deleted, as a listing failed or held a line fetch could not read"), exitFailed, "")
		return
	case d.failed > 0:
		d.failure(errors.New("--delete: nothing deleted, as the run had failures"), exitFailed, "")
		return
	}
	var files, dirs []doomed
	for _, p := range slices.Sorted(maps.Keys(d.listed)) {
		for _, name := range slices.Sorted(maps.Keys(d.listed[p])) {
			cp := path.Join(p, name)
			if d.local[cp] {
				continue
			}
			if d.listed[p][name].Mode.IsDir() && d.listed[p][name].Mode&fs.ModeSymlink == 0 {
				// Its contents first: listed with Walk, which fails
				// the whole --delete where a listing fails.
				err := d.g.client.Walk(d.ctx, d.url(cp, true).String(), func(sub string, e fetch.Entry, err error) error {
					if err != nil {
						return err
					}
					full := path.Join(cp, sub)
					if e.Mode.IsDir() && e.Mode&fs.ModeSymlink == 0 {
						dirs = append(dirs, doomed{full, true})
					} else {
						files = append(files, doomed{full, false})
					}
					return nil
				}, d.opts...)
				if err != nil {
					d.failure(fmt.Errorf("--delete: nothing deleted, as listing %s/ failed: %w", quoteName(cp), err), exitCode(err, false), "")
					return
				}
				continue
			}
			files = append(files, doomed{cp, false})
		}
	}
	if maxDelete >= 0 && len(files)+len(dirs) > maxDelete {
		d.failure(fmt.Errorf("--delete: %d files and directories on the server are not in %s, over --max-delete %d: nothing deleted", len(files)+len(dirs), d.dir, maxDelete), exitFailed, "")
		return
	}
	slices.Reverse(dirs) // Walk gives a directory before what it holds
	for _, x := range append(files, dirs...) {
		if d.dryRun {
			d.g.say("would delete %s", quoteName(x.path))
			d.count(&d.deleted, "")
			continue
		}
		var err error
		if x.isDir {
			err = d.g.client.Remove(d.ctx, d.url(x.path, true).String()+"/", d.opts...)
		} else {
			err = d.g.client.Remove(d.ctx, d.url(x.path, false).String(), d.opts...)
		}
		if err != nil {
			d.failure(err, exitFailed, "--delete "+quoteName(x.path))
			continue
		}
		d.count(&d.deleted, "")
	}
}

// summary prints the one line that ends every deploy.
func (d *deploy) summary(deleting bool) {
	var b strings.Builder
	sent := "sent"
	if d.dryRun {
		sent = "to send (a dry run: nothing changed on the server)"
	}
	fmt.Fprintf(&b, "mirror of %s to %s: %d files (%d bytes) %s, %d up to date", d.dir, d.base.Redacted(), d.sent, d.bytes, sent, d.upToDate)
	if deleting {
		fmt.Fprintf(&b, ", %d deleted", d.deleted)
	}
	fmt.Fprintf(&b, ", %d directories made; %d skipped (%d links, %d of other types); %d failed", d.made, d.links+d.others, d.links, d.others, d.failed)
	d.g.printf("%s", b.String())
}

// A countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n *atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}
