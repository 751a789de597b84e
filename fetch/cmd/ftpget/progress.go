package main

import (
	"io"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// redrawEvery is how often the bar is drawn again while nothing
// arrives, so that its clock and rate move and a stalled server shows.
const redrawEvery = 500 * time.Millisecond

// A progress is the bar of one file on standard error. It counts what
// has been written to the output, not what has been read from the
// server: Written is called after each write returns. A resumed file
// counts from its offset, out of the whole file's size.
type progress struct {
	bar  *progressbar.ProgressBar
	stop chan struct{}
	done sync.WaitGroup
}

// progressBar returns a bar on standard error when it is a terminal
// and the file does not go to that terminal too; nil otherwise. size
// is the whole file's (-1: unknown), offset where the output starts.
func (g *getter) progressBar(w io.Writer, size, offset int64) *progress {
	if g.o.silent || g.o.noMeter || g.o.parallel || !isTerminal(g.stderr) || w == g.stdout && isTerminal(g.stdout) {
		return nil
	}
	if _, ok := w.(*terminalGuard); ok {
		return nil
	}
	desc := g.u.Name
	if n := []rune(desc); len(n) > 30 {
		desc = string(n[:29]) + "…"
	}
	p := &progress{
		bar: progressbar.NewOptions64(size,
			progressbar.OptionSetWriter(g.stderr),
			progressbar.OptionSetDescription(printable(desc)),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowTotalBytes(true),
			progressbar.OptionSetWidth(10),
			progressbar.OptionThrottle(65*time.Millisecond),
			progressbar.OptionShowCount(),
			progressbar.OptionOnCompletion(func() { io.WriteString(g.stderr, "\n") }),
			progressbar.OptionSpinnerType(14),
			progressbar.OptionFullWidth(),
			progressbar.OptionSetElapsedTime(true),
		),
		stop: make(chan struct{}),
	}
	if offset > 0 && size > 0 {
		p.bar.Set64(offset)
	} else {
		p.bar.RenderBlank()
	}
	p.done.Add(1)
	go p.tick()
	return p
}

// tick draws the bar again every redrawEvery: progressbar draws only
// when it is told of bytes, and its spinner's own ticker runs only for
// an unknown size.
func (p *progress) tick() {
	defer p.done.Done()
	redraw(p.stop, func() { p.bar.Add64(0) })
}

// redraw calls draw every redrawEvery until stop is closed, so that a
// progress line moves while nothing arrives.
func redraw(stop <-chan struct{}, draw func()) {
	t := time.NewTicker(redrawEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			draw()
		}
	}
}

// Written counts n more bytes on disk.
func (p *progress) Written(n int) {
	if n > 0 {
		p.bar.Add64(int64(n))
	}
}

// End stops the redraws and ends the line: the bar full when ok, else
// as it stands.
func (p *progress) End(ok bool) {
	close(p.stop)
	p.done.Wait()
	if ok {
		p.bar.Finish()
		return
	}
	p.bar.Exit()
}

// A countingWriter writes to the output, tells the bar what each write
// put there, and keeps the first write error, to tell it from an error
// of the transfer.
type countingWriter struct {
	w   io.Writer
	bar *progress // nil: none
	err error
	n   *int64 // the bytes written so far; nil: not counted
}

func (c *countingWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	if c.n != nil {
		*c.n += int64(n)
	}
	if c.bar != nil {
		c.bar.Written(n)
	}
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}
