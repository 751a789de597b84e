package main

// --limit-rate RATE: at most RATE bytes a second, on average from the
// transfer's start, as curl's (curl(1), "--limit-rate": "the given
// maximum transfer rate ... averaged during the entire transfer").

import (
	"io"
	"time"
)

// A rateLimited reader reads at most rate bytes a second, on average
// since its first Read: each Read takes at most a tenth of a second's
// bytes, and sleeps until the bytes so far are due.
type rateLimited struct {
	r     io.Reader
	rate  int64 // bytes a second, above 0
	start time.Time
	n     int64
	sleep func(time.Duration) // time.Sleep; a test's clock
	now   func() time.Time
}

// limitRate returns r limited to rate bytes a second, or r when rate is
// 0 (no limit).
func limitRate(r io.Reader, rate int64) io.Reader {
	if rate <= 0 {
		return r
	}
	return &rateLimited{r: r, rate: rate, sleep: time.Sleep, now: time.Now}
}

func (l *rateLimited) Read(p []byte) (int, error) {
	if l.start.IsZero() {
		l.start = l.now()
	}
	if chunk := max(l.rate/10, 1); int64(len(p)) > chunk {
		p = p[:chunk]
	}
	n, err := l.r.Read(p)
	l.n += int64(n)
	due := time.Duration(float64(l.n) / float64(l.rate) * float64(time.Second))
	if wait := due - l.now().Sub(l.start); wait > 0 {
		l.sleep(wait)
	}
	return n, err
}
