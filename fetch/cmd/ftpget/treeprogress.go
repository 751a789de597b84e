package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
)

// A treeProgress is the progress line of a mirror, down or up, on a
// terminal: the files and bytes done of those listed so far (issue 33:
// "totals for the mirror"), drawn again every redrawEvery, erased for
// a message and at the end.
type treeProgress struct {
	w          io.Writer
	verb       string // "fetched", "sent"
	start      time.Time
	foundFiles atomic.Int64
	foundBytes atomic.Int64
	doneFiles  atomic.Int64
	doneBytes  atomic.Int64

	mu    sync.Mutex
	drawn bool
	done  chan struct{}
	wg    sync.WaitGroup
}

func newTreeProgress(w io.Writer, verb string) *treeProgress {
	p := &treeProgress{w: w, verb: verb, start: time.Now(), done: make(chan struct{})}
	p.wg.Go(func() { redraw(p.done, p.draw) })
	return p
}

// found counts a file listed, of size bytes (-1: unknown, counted 0).
func (p *treeProgress) found(size int64) {
	p.foundFiles.Add(1)
	p.foundBytes.Add(max(size, 0))
}

// skipped counts a listed file that needs nothing (up to date) as done.
func (p *treeProgress) skipped(size int64) {
	p.doneFiles.Add(1)
	p.doneBytes.Add(max(size, 0))
}

// line is the progress line's text.
func (p *treeProgress) line() string {
	return fmt.Sprintf("%d of %d files, %s of %s %s", p.doneFiles.Load(), p.foundFiles.Load(), humanBytes(p.doneBytes.Load()), humanBytes(p.foundBytes.Load()), p.verb)
}

// draw draws the line again.
func (p *treeProgress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.w, "\r\033[K%s", p.line())
	p.drawn = true
}

// clear erases the line, for a message to take its place.
func (p *treeProgress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		io.WriteString(p.w, "\r\033[K")
		p.drawn = false
	}
}

// stop stops the redraws and erases the line.
func (p *treeProgress) stop() {
	close(p.done)
	p.wg.Wait()
	p.clear()
}
