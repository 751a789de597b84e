package fetch

import (
	"context"
	"errors"
	"hash"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ftpurl/ftpurl"
)

// WithSegments makes [Client.Download] fetch the file over up to n
// sessions at once, each a range of the file, as lftp's "pget -n" and
// aria2c's "-x" do: over a network where a server caps each connection
// (vsftpd's local_max_rate, public mirrors), n ranges are up to n times
// as fast as one stream. It has no effect on Open, Stat, ReadDir, Walk
// or Put. n <= 1 fetches one stream; a negative n fails Download before
// it connects.
//
// The sessions are the Client's like any other: they count against
// MaxConnsPerHost (2 unless set), and a server's learnt limit lowers
// them as for Open, so raise MaxConnsPerHost for n streams to run.
func WithSegments(n int) Option {
	return func(c *config) { c.segments = n }
}

// Download fetches the file rawURL names into dst, with
// [DefaultClient]; see [Client.Download].
func Download(ctx context.Context, rawURL string, dst io.WriterAt, opts ...Option) (int64, error) {
	return DefaultClient.Download(ctx, rawURL, dst, opts...)
}

// Download fetches the file rawURL names into dst, each byte at its
// offset in the file, and returns the bytes it wrote. The URL is parsed
// and planned as for [Client.Open], and the file's bytes are those Open
// reads; [WithOffset] n starts at byte n (written at offset n of dst,
// to resume a download into the same file).
//
// With [WithSegments](n), n > 1, a SIZE (RFC 3659 §4) and TYPE I, the
// file is split into ranges fetched at once on up to n sessions: each
// range is "RANG start end" (draft-bryan-ftp-range-08 §3) where FEAT
// lists "RANG STREAM" (ProFTPD), else "REST start" (RFC 3659 §5) and a
// transfer ended at the range's end (ABOR, RFC 959 §4.1.3, taking each
// server's answer to it, docs/servers.md), which leaves the session
// usable for the next request. The sessions log in beside the first
// one (and go back to the Client idle where the file is too small to
// split); a second starts its range as soon as the first brings bytes,
// and more (as many again: 4, then 8) only while the last ones
// raised the throughput by at least half of what they would add where
// each connection is capped, measured over 50 ms: a server that caps
// a host, not a connection, gets two and no more, and loses nothing.
// A session that ends its range takes half of the largest range left,
// so that all end together. Every byte is written once. A file without
// a SIZE, or in TYPE A, is one stream. The sessions are the Client's:
// they count against MaxConnsPerHost (2 unless set) and a server's
// learnt limit, and go back to it idle.
//
// A range that fails (the connection breaks, the server refuses it)
// resumes on another session from its last byte written, up to a few
// times in all; then Download fails with the error of the last one,
// which says how many of the bytes arrived (a single stream resumes
// with Open or Download [WithOffset] at that count plus the offset).
//
// A transfer whose control connection ends while its data flows (a
// middlebox that dropped it as idle) is not lost: where the data
// connection delivered every byte of the range, Download proves the
// file on another session by its SIZE (and its hash [WithChecksum])
// and succeeds without fetching it again. Where SIZE is not offered,
// fetch cannot prove it, and fails.
//
// Download is done only when it is proven: every range confirmed by
// its transfer (226 after the last byte, or all its bytes before the
// cut), the count against SIZE, and with [WithChecksum] the server's
// hash where it offers one. Every error but a parse or plan error is
// an *[Error] (Op "retr", "rest", "rang", "size", "hash", or a step of
// the plan's), as Open's; a failure of dst is returned as it is.
func (c *Client) Download(ctx context.Context, rawURL string, dst io.WriterAt, opts ...Option) (int64, error) {
	r, err := newRequest(rawURL, opts)
	if err != nil {
		return 0, err
	}
	switch p := r.plan; {
	case r.cfg.segments < 0:
		return 0, &Error{Op: "retr", URL: r.redacted, Err: errors.New("WithSegments: the number " + strconv.Itoa(r.cfg.segments) + " is negative")}
	case p.Name == "" || p.Action != ftpurl.Retrieve && p.Action != ftpurl.RetrieveOrList:
		return 0, &Error{Op: "retr", URL: r.redacted, Err: errors.New("Download needs a file: the URL names a directory or a listing")}
	}
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	d := &download{c: c, req: r, dst: dst, off: r.cfg.offset, size: -1}
	d.ctx, d.cancel = context.WithCancel(ctx)
	defer d.cancel()
	return d.run()
}

// Tuning of Download's sessions.
const (
	// minSplit is the smallest range a split makes: a range is split
	// in two only where twice this is left.
	minSplit = 256 << 10
	// maxRangeFailures bounds the failed ranges of one Download, on
	// top of one per segment.
	maxRangeFailures = 4
)

// rampProbe is how long Download measures the throughput before and
// after it adds a session; 0 adds them at once (the tests' choice, to
// run n sessions on a loopback that no rate caps).
var rampProbe = 50 * time.Millisecond

// A download is one Download: its ranges, the sessions that fetch
// them, and what proves them.
type download struct {
	c      *Client
	ctx    context.Context
	cancel context.CancelFunc
	req    *request
	dst    io.WriterAt
	off    int64

	// Known once the first transfer began.
	size int64 // the file's size; -1 unknown
	line string
	name string
	typ  ftpurl.Typecode
	rang bool // FEAT lists "RANG STREAM"

	written atomic.Int64
	inOrder hash.Hash // WithChecksum, one stream from byte 0: the bytes as they arrive

	mu       sync.Mutex
	spans    []*span
	splits   bool  // ranges may be split: n > 1, size known, TYPE I
	failures int   // failed ranges
	last     error // the last range's failure
	err      error // what ends the download
	unproven int   // ranges whose transfer's end no control connection confirmed
	wg       sync.WaitGroup
}

// A span is one range of the file: pos is the next byte to write, end
// the range's end (exclusive; -1: the file's end, size unknown).
type span struct {
	pos, end int64
	busy     bool // a worker fetches it
}

func (sp *span) left() int64 { return sp.end - sp.pos }

func (sp *span) done() bool { return sp.end >= 0 && sp.pos >= sp.end }

// run opens the first transfer (with SIZE), then reads it and, with
// WithSegments, adds sessions while they help.
func (d *download) run() (int64, error) {
	var warm []*warmWorker
	x := d.c.newExchange(d.ctx, d.req)
	var t *transfer
	err := x.run(func() error {
		if warm == nil && d.req.cfg.segments > 1 && d.typ0() {
			// WithSegments' sessions log in beside the first one,
			// once it holds its own (a server's limit would leave
			// the first waiting for them), so that they are ready
			// when its first bytes come.
			for range min(d.req.cfg.segments, d.c.hostLimit(d.req.key)) - 1 {
				warm = append(warm, d.warmUp())
			}
		}
		var e *Error
		if t, e = d.first(x); e != nil {
			return e
		}
		x.keep = true
		return nil
	})
	if err != nil {
		idle(warm)
		d.wg.Wait()
		return 0, err
	}
	first := &span{pos: d.off, end: d.size, busy: true}
	d.spans = []*span{first}
	d.splits = d.req.cfg.segments > 1 && d.size-d.off >= 2*minSplit && d.typ == ftpurl.TypeImage
	if d.req.cfg.checksum && !d.splits && d.off == 0 {
		if _, ok := d.dst.(io.ReaderAt); !ok {
			d.inOrder = d.newHash(x)
		}
	}
	w := d.newWorker(x)
	w.got = make(chan struct{})
	d.wg.Add(1)
	go w.loop(first, t, d.size)
	if d.splits {
		d.ramp(w, warm)
	} else {
		idle(warm)
	}
	d.wg.Wait()
	return d.finish()
}

// newHash returns the hash of WithChecksum's algorithm on x's session,
// or nil where the server offers none.
func (d *download) newHash(x *exchange) hash.Hash {
	w, ok, e := x.hashWay("")
	if e != nil || !ok {
		return nil
	}
	return hashAlgs[w.alg].new()
}

// first runs the plan's steps and opens the first transfer, from the
// offset to the file's end, with SIZE before it (in TYPE I, where FEAT
// lists it); where there is no SIZE, the 150's "(N bytes)" gives the
// size.
func (d *download) first(x *exchange) (*transfer, *Error) {
	st, e := x.enter(d.req.plan, false)
	if e != nil {
		return nil, e
	}
	s := x.s
	d.line, d.name, d.typ = st.String(), st.Arg, s.typ
	d.rang = strings.EqualFold(strings.TrimSpace(s.ctl.feat["RANG"]), "STREAM")
	var queries []query
	askSize := s.ctl.has("SIZE") && s.typ == ftpurl.TypeImage
	if askSize {
		queries = append(queries, query{"size", "SIZE " + d.name})
	}
	t, replies, e := x.startWith("retr", opening{line: d.line, offset: d.off, queries: queries, outlive: true})
	if askSize && len(replies) == 1 {
		d.size = sizeOf(replies[0])
	}
	if e != nil {
		if e.Op == "retr" && e.Command == d.line {
			return nil, x.judge(e, d.name, asFile)
		}
		return nil, e
	}
	if n := t.announced(); d.size < 0 && d.off == 0 && s.typ == ftpurl.TypeImage && n >= 0 {
		d.size = n
	}
	if d.size >= 0 && d.off > d.size {
		t.abort()
		x.release(false)
		x.keep = false
		return nil, x.fail("rest", "REST "+strconv.FormatInt(d.off, 10), errors.New("WithOffset "+strconv.FormatInt(d.off, 10)+" is past the file's end ("+strconv.FormatInt(d.size, 10)+" bytes)"))
	}
	return t, nil
}

// ramp adds the sessions of warm (logged in, or logging in, beside the
// first one: up to WithSegments and the Client's cap for the server)
// to the download, each starting its range as soon as it is wanted. A
// second session starts once it has logged in and the first one has
// brought bytes for half a probe, its throughput until then the
// measure: after rampProbe, more start (as many again: 4, then 8) only
// where the last ones raised the throughput by at least half of what
// they would add where each connection is capped. A server that caps a
// host, not a connection, gets two sessions and no more; those not
// wanted go back to the Client idle.
func (d *download) ramp(first *worker, warm []*warmWorker) {
	limit := len(warm) + 1
	defer func() { idle(warm) }()
	// The measure of the first session alone starts at its first
	// bytes, and lasts half a probe at least.
	select {
	case <-first.got:
	case <-d.ctx.Done():
		return
	}
	t0, n0 := time.Now(), first.n.Load()
	prev := 0.0
	for have := 1; have < limit; {
		add := min(have, limit-have)
		var got []chan struct{}
		for range add {
			ww := warm[0]
			if !d.ready(ww) {
				return
			}
			if have == 1 && rampProbe > 0 {
				if wait := rampProbe/2 - time.Since(t0); wait > 0 {
					time.Sleep(wait)
				}
			}
			warm = warm[1:]
			sp := d.next()
			ww.start <- sp
			if sp == nil {
				return
			}
			got = append(got, ww.got)
		}
		if rampProbe == 0 {
			have += add
			continue
		}
		for _, g := range got {
			select {
			case <-g:
			case <-d.ctx.Done():
				return
			}
		}
		if have == 1 {
			// The first session alone, until the second brought bytes.
			prev = float64(first.n.Load()-n0) / time.Since(t0).Seconds()
		}
		rate, ok := d.measure(rampProbe)
		if !ok {
			return
		}
		if rate < prev*(1+0.5*float64(add)/float64(have)) {
			return
		}
		have, prev = have+add, rate
	}
}

// idle sends the warm workers no range: their sessions go back to the
// Client, and a login still under way ends.
func idle(warm []*warmWorker) {
	for _, ww := range warm {
		ww.cancel()
		ww.start <- nil
	}
}

// typ0 reports whether the URL's plan transfers in TYPE I, the only
// type whose ranges count the file's bytes (RFC 3659 §5.1).
func (d *download) typ0() bool { return d.req.plan.Type == ftpurl.TypeImage }

// A warmWorker is a worker logging in ahead of its range.
type warmWorker struct {
	*worker
	ready  chan bool  // the login's outcome
	start  chan *span // the range to fetch; nil: none, go back idle
	cancel func()     // ends a login still under way
}

// warmUp starts a worker that logs in, then waits for its range. Its
// login runs under a context of its own, which ramp ends where the
// worker is not wanted; the session it gets runs under d's.
func (d *download) warmUp() *warmWorker {
	ctx, cancel := context.WithCancel(d.ctx)
	x := d.c.newExchange(ctx, d.req)
	ww := &warmWorker{worker: d.newWorker(x), ready: make(chan bool, 1), start: make(chan *span, 1), cancel: cancel}
	ww.got = make(chan struct{})
	d.wg.Add(1)
	go func() {
		ok := x.acquire(false) == nil
		if ok {
			// The session outlives the login's context.
			if ok = x.unbind(); ok {
				x.ctx = d.ctx
				x.bind(x.s)
			} else {
				x.release(false)
			}
		}
		ww.ready <- ok
		sp := <-ww.start
		if !ok || sp == nil {
			if x.s != nil {
				x.release(true)
			}
			ww.signal()
			d.wg.Done()
			return
		}
		ww.loop(sp, nil, -1)
	}()
	return ww
}

// ready waits for ww's login, within the download; it reports whether
// ww holds a session.
func (d *download) ready(ww *warmWorker) bool {
	for {
		select {
		case ok := <-ww.ready:
			ww.ready <- ok
			return ok
		case <-d.ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
			if d.allDone() {
				return false
			}
		}
	}
}

// measure returns the bytes a second written over the next d, and
// false when the download ended meanwhile.
func (d *download) measure(dur time.Duration) (float64, bool) {
	start, n0 := time.Now(), d.written.Load()
	select {
	case <-time.After(dur):
	case <-d.ctx.Done():
		return 0, false
	}
	if d.allDone() {
		return 0, false
	}
	return float64(d.written.Load()-n0) / time.Since(start).Seconds(), true
}

func (d *download) allDone() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return true
	}
	for _, sp := range d.spans {
		if !sp.done() {
			return false
		}
	}
	return true
}

// hostLimit returns how many sessions c may hold of k's server now:
// MaxConnsPerHost, or the server's learnt lower limit.
func (c *Client) hostLimit(k key) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if hp := c.hosts[hostKey{k.scheme, k.addr}]; hp != nil {
		return hp.max(c)
	}
	return c.maxConns()
}

// next returns a range for a worker: one that a failed worker left,
// else (where ranges split) the second half of the largest range
// left, or nil when there is none.
func (d *download) next() *span {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return nil
	}
	var best *span
	for _, sp := range d.spans {
		switch {
		case sp.done():
		case !sp.busy:
			sp.busy = true
			return sp
		case d.splits && (best == nil || sp.left() > best.left()):
			best = sp
		}
	}
	if best == nil || best.left() < 2*minSplit {
		return nil
	}
	mid := best.pos + best.left()/2
	sp := &span{pos: mid, end: best.end, busy: true}
	best.end = mid
	d.spans = append(d.spans, sp)
	return sp
}

// claim takes up to n bytes at sp's position for the caller to write:
// it returns where, how many (fewer at the range's end, which a split
// may have moved), and whether the range is then whole. After a fatal
// error it takes none.
func (d *download) claim(sp *span, n int) (at int64, m int, whole bool, stop bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return 0, 0, false, true
	}
	at, m = sp.pos, n
	if sp.end >= 0 {
		m = int(min(int64(n), max(sp.end-sp.pos, 0)))
	}
	sp.pos += int64(m)
	return at, m, sp.done(), false
}

// fail ends the download with err: the other workers stop at their
// next bytes, and their sessions close.
func (d *download) fail(err error) {
	d.mu.Lock()
	if d.err == nil {
		d.err = err
	}
	d.mu.Unlock()
	d.cancel()
}

// failed notes that a worker's range failed with err, after bytes of
// it came where progressed; after too many failures, or a refusal
// (5xx, RFC 959 §4.2: permanent) before any byte, the download fails
// with it. It reports whether the range may be tried again.
func (d *download) failed(sp *span, err error, progressed bool) bool {
	var e *Error
	refused := !progressed && errors.As(err, &e) && e.Code >= 500 && e.Code < 600
	d.mu.Lock()
	sp.busy = false
	d.failures++
	d.last = err
	over := refused || d.failures > maxRangeFailures+max(d.req.cfg.segments, 1) || d.typ != ftpurl.TypeImage || d.ctx.Err() != nil
	d.mu.Unlock()
	if over {
		d.fail(err)
		return false
	}
	return true
}

// finish checks the whole download and returns its count.
func (d *download) finish() (int64, error) {
	n := d.written.Load()
	d.mu.Lock()
	err, unproven := d.err, d.unproven
	var left []*span
	for _, sp := range d.spans {
		if !sp.done() && sp.end >= 0 {
			left = append(left, sp)
		}
	}
	d.mu.Unlock()
	if err != nil {
		return n, d.arrived(err, n)
	}
	if len(left) > 0 {
		// No worker is left for a range: every one failed to get a
		// session.
		return n, d.arrived(d.last, n)
	}
	if unproven == 0 && !d.req.cfg.checksum {
		return n, nil
	}
	return n, d.prove(n)
}

// arrived notes in err how many bytes arrived.
func (d *download) arrived(err error, n int64) error {
	var e *Error
	if err == nil || !errors.As(err, &e) {
		return err
	}
	what := strconv.FormatInt(n, 10) + " bytes arrived"
	if d.size >= 0 {
		what = strconv.FormatInt(n, 10) + " of " + strconv.FormatInt(d.size-d.off, 10) + " bytes arrived"
	}
	if len(d.spans) == 1 && d.typ == ftpurl.TypeImage {
		what += "; WithOffset " + strconv.FormatInt(d.off+n, 10) + " resumes"
	}
	addNote(e, what)
	return e
}

// prove checks on a session of the Client, after the transfers, what
// their own ends did not: the file's SIZE where a control connection
// ended before a transfer's 226, and WithChecksum's hash.
func (d *download) prove(n int64) error {
	x := d.c.newExchange(d.ctx, d.req)
	return x.run(func() error {
		if _, e := x.enter(d.req.plan, false); e != nil {
			return e
		}
		d.mu.Lock()
		unproven := d.unproven
		d.mu.Unlock()
		if unproven > 0 {
			if d.size < 0 || !x.s.ctl.has("SIZE") {
				return x.fail("size", "", errors.New("the server did not confirm the transfer (its control connection ended, or it failed after the last byte), and without SIZE (RFC 3659 §4) fetch cannot prove the "+strconv.FormatInt(n, 10)+" bytes that arrived"))
			}
			line := "SIZE " + d.name
			rep, e := x.cmd("size", 213, line)
			if e != nil {
				return e
			}
			if got := sizeOf(rep); got != d.size {
				return x.fail("size", line, errors.New("the server did not confirm the transfer, and it now holds "+strconv.FormatInt(got, 10)+" bytes, not the "+strconv.FormatInt(d.size, 10)+" that arrived"))
			}
		}
		if d.req.cfg.checksum {
			return d.checkHash(x)
		}
		return nil
	})
}

// checkHash compares the server's hash of the file with the bytes in
// dst (read back where it is an io.ReaderAt, else hashed as they came),
// where the server offers a hash.
func (d *download) checkHash(x *exchange) error {
	w, ok, e := x.hashWay("")
	if e != nil {
		return e
	}
	if !ok {
		return nil // SIZE proves it, as without WithChecksum
	}
	h := hashAlgs[w.alg].new()
	switch ra, isRA := d.dst.(io.ReaderAt); {
	case isRA && d.size >= 0:
		if _, err := io.Copy(h, io.NewSectionReader(ra, 0, d.size)); err != nil {
			return err
		}
	case d.inOrder != nil && d.off == 0 && hashAlgs[w.alg].new().Size() == d.inOrder.Size():
		h = d.inOrder
	default:
		return nil // no way to read the bytes again: SIZE proves them
	}
	if e := x.checkHash(w, d.name, h.Sum(nil)); e != nil {
		return e
	}
	return nil
}

// A worker fetches ranges on one session at a time.
type worker struct {
	d       *download
	x       *exchange
	got     chan struct{} // closed at the first bytes, or at the end
	gotOnce sync.Once
	n       atomic.Int64 // the bytes it wrote
}

func (d *download) newWorker(x *exchange) *worker { return &worker{d: d, x: x} }

// loop fetches sp (on t, the transfer open already, which ends by
// itself at tEnd; nil: a new one), then the ranges next gives, until
// none is left.
func (w *worker) loop(sp *span, t *transfer, tEnd int64) {
	d := w.d
	defer d.wg.Done()
	defer w.signal()
	defer func() {
		if w.x.s != nil {
			w.x.release(true)
		}
	}()
	for sp != nil {
		n0 := w.n.Load()
		if err := w.fetch(sp, t, tEnd); err != nil {
			if w.x.s != nil {
				w.x.release(false)
			}
			if !d.failed(sp, err, w.n.Load() > n0) {
				return
			}
		}
		t = nil
		sp = d.next()
	}
}

func (w *worker) signal() {
	if w.got != nil {
		w.gotOnce.Do(func() { close(w.got) })
	}
}

// open gets a session, where the worker has none, and opens the
// transfer of sp: "RANG pos end-1" where the server has RANG and sp
// ends before the file does, else "REST pos". It returns where the
// transfer ends by itself.
func (w *worker) open(sp *span) (*transfer, int64, *Error) {
	d, x := w.d, w.x
	if x.s == nil {
		if err := x.acquire(false); err != nil {
			var e *Error
			errors.As(err, &e)
			return nil, 0, e
		}
	}
	st, e := x.enter(d.req.plan, false)
	if e != nil {
		return nil, 0, e
	}
	d.mu.Lock()
	pos, end := sp.pos, sp.end
	d.mu.Unlock()
	o := opening{line: st.String(), outlive: true}
	tEnd := d.size
	switch {
	case d.rang && end < d.size && end > pos:
		o.rang = "RANG " + strconv.FormatInt(pos, 10) + " " + strconv.FormatInt(end-1, 10)
		tEnd = end
	default:
		o.offset = pos
	}
	t, _, e := x.startWith("retr", o)
	if e != nil {
		return nil, 0, e
	}
	return t, tEnd, nil
}

// fetch reads sp's bytes from t (opened when nil) into dst, and ends
// the transfer at the range's end: its own end, read to the server's
// 226, or a cut. A transfer whose control connection ended after every
// byte of the range arrived counts as done, to be proven (prove).
func (w *worker) fetch(sp *span, t *transfer, tEnd int64) error {
	d := w.d
	if t == nil {
		var e *Error
		if t, tEnd, e = w.open(sp); e != nil {
			return e
		}
	}
	bp := sendBufs.Get().(*[]byte)
	defer sendBufs.Put(bp)
	buf := *bp
	whole := false
	for {
		n, err := t.Read(buf)
		if n > 0 && !whole {
			at, m, done, stop := d.claim(sp, n)
			if stop {
				t.abort()
				return d.ctx.Err()
			}
			if m > 0 {
				if _, werr := d.dst.WriteAt(buf[:m], at); werr != nil {
					t.abort()
					d.fail(werr)
					return werr
				}
				if d.inOrder != nil {
					d.inOrder.Write(buf[:m])
				}
				d.written.Add(int64(m))
				w.n.Add(int64(m))
				w.signal()
			}
			if done {
				whole = true
				if err == nil && (tEnd < 0 || d.spanEnd(sp) < tEnd) {
					// The transfer goes on past the range: cut it,
					// and keep the session where that works.
					if cerr := t.cut(); cerr != nil {
						w.x.release(false)
					}
					return nil
				}
			}
		}
		switch {
		case err == nil:
			continue
		case err == io.EOF:
			if end := d.spanEnd(sp); !whole && end >= 0 && !d.isDone(sp) {
				e := w.x.fail("retr", d.line, io.ErrUnexpectedEOF)
				e.note = "the server ended the transfer before the range's end"
				e.partial = true
				return e
			}
			d.mu.Lock()
			if sp.end < 0 {
				sp.end = sp.pos // the file's end, now known
			}
			d.mu.Unlock()
			return nil
		case whole || d.isDone(sp):
			// Every byte of the range came, and the transfer failed
			// after them (the control connection ended before its
			// reply, a middlebox that dropped it as idle): a new
			// session proves the file.
			d.mu.Lock()
			d.unproven++
			d.mu.Unlock()
			w.x.release(false)
			return nil
		}
		e := w.x.fail("retr", d.line, t.why(err))
		if t.dataEOF {
			e.note = "the control connection ended while the data flowed"
		}
		return e
	}
}

func (d *download) spanEnd(sp *span) int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return sp.end
}

func (d *download) isDone(sp *span) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return sp.done()
}
