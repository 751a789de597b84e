package main

// --segments N and --checksum (issue 35): one large file over N sessions
// (fetch.WithSegments, as lftp's pget -n), for a single file written to
// -o or -O and for each large file of a mirror; and the proof of each
// transfer by the server's hash where it offers one (fetch.WithChecksum),
// for downloads, uploads and both mirrors.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// segmentOptions are the flags of segmented downloads and checksums.
type segmentOptions struct {
	segments int  // --segments N; 0: one stream
	checksum bool // --checksum
}

// segmentedMin is the size from which a mirror fetches a file in
// segments: below it, the logins cost more than the ranges gain.
const segmentedMin = 8 << 20

// specs are --segments N and --checksum.
func (o *segmentOptions) specs() []flagSpec {
	return []flagSpec{
		{long: []string{"segments"}, set: func(s string) error {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 || n > 64 {
				return fmt.Errorf("takes 1 to 64 sessions, not %q", s)
			}
			o.segments = n
			return nil
		}},
		{long: []string{"checksum"}, on: func(on bool) error { o.checksum = on; return nil }},
	}
}

// fetchOptions are the options every request of the run gets: they
// change Download and Put, and nothing else.
func (o *segmentOptions) fetchOptions() []fetch.Option {
	var opts []fetch.Option
	if o.segments > 1 {
		opts = append(opts, fetch.WithSegments(o.segments))
	}
	if o.checksum {
		opts = append(opts, fetch.WithChecksum())
	}
	return opts
}

// raise lets cl hold the sessions of N segments beside those it holds
// already: MaxConnsPerHost N for a single file, a mirror's N-1 more.
func (o *segmentOptions) raise(cl *fetch.Client) {
	if o.segments > 1 {
		cl.MaxConnsPerHost = max(cl.MaxConnsPerHost, 1) + o.segments - 1
	}
}

// segmented fetches the URL with Download where --segments or
// --checksum asks for it and the file goes to a file (-o, -O): dst
// takes each range at its offset. It reports false where Open is to
// run instead: standard output, a typecode other than I, or a URL that
// names a directory (RETR refused before any byte, which Open's
// fallback lists).
func (g *getter) segmented(offset int64) (code int, done bool) {
	o := g.o
	if o.segments <= 1 && !o.checksum || g.name == "" || g.u.Type != ftpurl.TypeNone && g.u.Type != 'i' ||
		o.byteRange != nil || o.remoteTime || o.createDirs {
		// -r, -R and --create-dirs go through Open as before.
		return 0, false
	}
	out := &lazyFile{name: g.name, offset: offset}
	var n int64
	err := g.login(func(opts []fetch.Option) (err error) {
		if offset > 0 {
			opts = append(opts[:len(opts):len(opts)], fetch.WithOffset(offset))
		}
		n, err = g.client.Download(context.Background(), g.t.url, out, opts...)
		return err
	})
	var fe *fetch.Error
	if n == 0 && out.f == nil && errors.As(err, &fe) && fe.Op == "retr" && fe.Code == 550 && !errors.Is(err, fetch.ErrNotFound) {
		return 0, false // a directory: Open lists it
	}
	if cerr := out.close(err == nil); err == nil && cerr != nil {
		return g.writeFailed(cerr), true
	}
	if out.err != nil {
		return g.writeFailed(out.err), true
	}
	if err != nil {
		if offset > 0 && errors.As(err, &fe) && (fe.Op == "rest" && fe.Code != 0 || fe.Code == 554) {
			g.printf("-C: the server refused to start at byte %d: %v", offset, err)
			return exitResume, true
		}
		return g.fail(err, true), true
	}
	return exitOK, true
}

// A lazyFile is the output of a segmented download: made (or opened
// to resume) at its first write or at its close, so that a URL that
// names a directory leaves no file.
type lazyFile struct {
	name   string
	offset int64 // -C: the bytes it holds already
	mu     sync.Mutex
	f      *os.File
	err    error // the first write error
}

func (l *lazyFile) open() error {
	if l.f != nil {
		return nil
	}
	flags := os.O_RDWR | os.O_CREATE
	if l.offset == 0 {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(l.name, flags, 0o666)
	if err != nil {
		return err
	}
	l.f = f
	return nil
}

// WriteAt writes p at off of the file.
func (l *lazyFile) WriteAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	if err := l.open(); err != nil {
		if l.err == nil {
			l.err = err
		}
		l.mu.Unlock()
		return 0, err
	}
	f := l.f
	l.mu.Unlock()
	n, err := f.WriteAt(p, off)
	if err != nil {
		l.mu.Lock()
		if l.err == nil {
			l.err = err
		}
		l.mu.Unlock()
	}
	return n, err
}

// ReadAt reads the file back, for WithChecksum's hash.
func (l *lazyFile) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	f := l.f
	l.mu.Unlock()
	if f == nil {
		return 0, io.EOF
	}
	return f.ReadAt(p, off)
}

// close closes the file; with whole, it makes it first where no byte
// came (an empty file). A download that failed before its first byte
// leaves no file.
func (l *lazyFile) close(whole bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if whole {
		if err := l.open(); err != nil {
			return err
		}
	}
	if l.f == nil {
		return nil
	}
	return l.f.Close()
}

// wants reports whether a mirror fetches a file of size bytes with
// Download: every file for --checksum, a large one for --segments.
func (o *segmentOptions) wants(size int64) bool {
	return o.checksum || o.segments > 1 && size >= segmentedMin
}

// download fetches one file of a mirror with Download into part, at
// offset (-C -), then gives it its name and mtime; a failure keeps
// part for -C -, as fetchFile does.
func (m *mirror) download(p, rawURL, part, local string, offset, size int64, mtime time.Time, opts []fetch.Option) {
	flags := os.O_RDWR | os.O_CREATE | syscall.O_NOFOLLOW
	if offset == 0 {
		flags |= os.O_TRUNC
	}
	f, err := m.root.OpenFile(part, flags, 0o666)
	if err != nil {
		m.failure(err, exitWrite, "")
		return
	}
	w := &mirrorWriterAt{f: f, bar: m.bar}
	n, err := m.g.client.Download(m.ctx, rawURL, w, opts...)
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
	case errors.Is(err, fetch.ErrHashMismatch):
		m.failure(fmt.Errorf("%w: kept as %s", err, quoteName(p+partSuffix)), exitPartial, quoteName(p))
		return
	case err != nil:
		m.failure(err, exitCode(err, true), "")
		return
	case size >= 0 && offset+n != size:
		m.failure(fmt.Errorf("%d bytes, of %d: kept as %s for -C -", offset+n, size, quoteName(p+partSuffix)), exitPartial, quoteName(p))
		return
	}
	m.finish(p, part, local, mtime, false)
}

// A mirrorWriterAt is mirrorWriter for Download: each range at its
// offset.
type mirrorWriterAt struct {
	f   *os.File
	bar *treeProgress // nil: none
	mu  sync.Mutex
	err error
}

func (w *mirrorWriterAt) WriteAt(b []byte, off int64) (int, error) {
	n, err := w.f.WriteAt(b, off)
	if w.bar != nil {
		w.bar.doneBytes.Add(int64(n))
	}
	if err != nil {
		w.mu.Lock()
		if w.err == nil {
			w.err = err
		}
		w.mu.Unlock()
	}
	return n, err
}

// ReadAt reads the file back, for WithChecksum's hash.
func (w *mirrorWriterAt) ReadAt(b []byte, off int64) (int, error) { return w.f.ReadAt(b, off) }
