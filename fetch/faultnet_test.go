package fetch_test

// faultNet: the network faults of issue 28, made by the test itself. A
// Client whose DialContext is a faultNet's reaches the server through
// a relay on 127.0.0.1, one per connection (control and data alike),
// that the test can break as a network and a server do: a server that
// restarts while fetch's sessions are idle and whose FINs are lost, a
// connection reset after so many bytes, a connection that stalls.
// Every fault is real TCP: fetch sees the resets, the silences and the
// ends that the kernel gives it.

import (
	"context"
	"io"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A faultNet relays the connections a Client makes. Its zero value is
// no use: newFaultNet makes one, which the test's end closes.
type faultNet struct {
	t testing.TB

	// loseFINs keeps the end of the links that drop ends from
	// reaching fetch: fetch's end stays open and quiet, as over a
	// network that lost the server's FIN, and the first byte fetch
	// sends after it gets a reset (RST), as the server's kernel answers
	// a connection it no longer knows.
	loseFINs bool

	// onDial, when set, sees each new link before it relays a byte,
	// and may set its faults (resetAt, stallAt).
	onDial func(l *link)

	// jitter delays each chunk relayed, either way, by up to this
	// long, chosen at random: a network with delay and jitter.
	jitter time.Duration

	mu    sync.Mutex
	links []*link
	wg    sync.WaitGroup
	done  bool

	deadHit atomic.Int32 // dead links whose next byte from fetch got a reset
}

// A link is one relayed connection.
type link struct {
	fn   *faultNet
	addr string // where fetch dialed
	n    int    // the links dialed before it, to this faultNet

	// Faults, set by onDial: once the server has sent resetAt bytes
	// (counted from the link's start; < 0: never) fetch's end is reset
	// and the server's closed; once it has sent stallAt bytes (< 0:
	// never), nothing more goes to fetch, and nothing tells it so.
	resetAt, stallAt int64

	near *net.TCPConn // the relay's end of fetch's connection
	far  net.Conn     // the relay's connection to the server

	mu   sync.Mutex
	dead bool // the server's end went (drop): fetch's next byte is reset

	// silent, once set (forget), relays nothing more either way and
	// tells neither end: a middlebox that dropped the connection as
	// idle, whose packets now go nowhere. Both ends stay open.
	silent atomic.Bool
}

// forget makes l silent (see link.silent).
func (l *link) forget() { l.silent.Store(true) }

func newFaultNet(t testing.TB) *faultNet {
	fn := &faultNet{t: t}
	t.Cleanup(fn.close)
	return fn
}

// DialContext is a Client.DialContext: it connects to addr, and gives
// fetch a connection to a relay of that connection.
func (fn *faultNet) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	far, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		far.Close()
		return nil, err
	}
	accepted := make(chan *net.TCPConn, 1)
	go func() {
		c, _ := ln.AcceptTCP()
		accepted <- c
	}()
	mine, err := d.DialContext(ctx, "tcp", ln.Addr().String())
	if err != nil {
		ln.Close()
		if c := <-accepted; c != nil {
			c.Close()
		}
		far.Close()
		return nil, err
	}
	near := <-accepted
	ln.Close()
	if near == nil {
		mine.Close()
		far.Close()
		return nil, net.ErrClosed
	}
	fn.mu.Lock()
	l := &link{fn: fn, addr: addr, n: len(fn.links), resetAt: -1, stallAt: -1, near: near, far: far}
	if fn.done {
		fn.mu.Unlock()
		mine.Close()
		l.closeBoth()
		return nil, net.ErrClosed
	}
	fn.links = append(fn.links, l)
	fn.mu.Unlock()
	if fn.onDial != nil {
		fn.onDial(l)
	}
	fn.wg.Add(2)
	go l.up()
	go l.down()
	return mine, nil
}

// up relays what fetch sends to the server. On a dead link, fetch's
// first byte is answered with a reset.
func (l *link) up() {
	defer l.fn.wg.Done()
	buf := make([]byte, 32<<10)
	for {
		n, err := l.near.Read(buf)
		if l.silent.Load() {
			if err != nil {
				return // fetch left; the server is not told
			}
			continue // lost on the way
		}
		if n > 0 {
			l.fn.delay()
			if l.isDead() {
				l.fn.deadHit.Add(1)
				l.reset()
				return
			}
			if _, werr := l.far.Write(buf[:n]); werr != nil {
				l.serverGone()
				return
			}
		}
		if err != nil {
			// fetch closed its end, or its sending side (a STOR's
			// end, whose 226 is still to come): so does the relay.
			if tc, ok := l.far.(*net.TCPConn); ok && err == io.EOF {
				_ = tc.CloseWrite()
				return
			}
			l.far.Close()
			return
		}
	}
}

// down relays what the server sends to fetch, with the link's faults.
func (l *link) down() {
	defer l.fn.wg.Done()
	buf := make([]byte, 32<<10)
	var sent int64
	for {
		n, err := l.far.Read(buf)
		chunk := buf[:n]
		if l.silent.Load() {
			if err != nil {
				return // the server left; fetch is not told
			}
			continue
		}
		for _, at := range []int64{l.resetAt, l.stallAt} {
			if at >= 0 && sent+int64(len(chunk)) >= at {
				chunk = chunk[:at-sent]
			}
		}
		if len(chunk) > 0 {
			l.fn.delay()
			if _, werr := l.near.Write(chunk); werr != nil {
				l.far.Close()
				return
			}
			sent += int64(len(chunk))
		}
		switch {
		case l.resetAt >= 0 && sent >= l.resetAt:
			l.reset()
			return
		case l.stallAt >= 0 && sent >= l.stallAt:
			return // silent: the server's bytes go nowhere, fetch's end stays open
		case err != nil:
			l.serverGone()
			return
		}
	}
}

// serverGone passes the end of the server's connection on to fetch as
// a FIN; on a link that drop left dead, nothing goes, until fetch
// sends. The relay's own ends are closed once fetch has seen it.
func (l *link) serverGone() {
	if !l.isDead() {
		_ = l.near.CloseWrite()
	}
	l.far.Close()
}

func (l *link) isDead() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dead
}

// reset closes fetch's end with a RST (SO_LINGER 0) and the server's.
func (l *link) reset() {
	_ = l.near.SetLinger(0)
	l.closeBoth()
}

func (l *link) closeBoth() {
	l.near.Close()
	l.far.Close()
}

// drop ends every link on the server's side, as a server that restarts
// (or a NAT that forgets) does: the server sees its clients leave, and
// fetch sees a FIN, or with loseFINs nothing until its next byte.
func (fn *faultNet) drop() {
	for _, l := range fn.cut() {
		l.far.Close()
	}
}

// cut makes every link lose the server's FIN when loseFINs is set: for a
// server the test stops itself. It returns the links.
func (fn *faultNet) cut() []*link {
	fn.mu.Lock()
	links := fn.links
	fn.mu.Unlock()
	for _, l := range links {
		if fn.loseFINs {
			l.mu.Lock()
			l.dead = true
			l.mu.Unlock()
		}
	}
	return links
}

// delay waits up to jitter, at random.
func (fn *faultNet) delay() {
	if fn.jitter > 0 {
		time.Sleep(rand.N(fn.jitter))
	}
}

// dials returns how many connections fetch made through fn.
func (fn *faultNet) dials() int {
	fn.mu.Lock()
	defer fn.mu.Unlock()
	return len(fn.links)
}

// close ends every link and waits for the relays.
func (fn *faultNet) close() {
	fn.mu.Lock()
	fn.done = true
	links := fn.links
	fn.mu.Unlock()
	for _, l := range links {
		l.closeBoth()
	}
	fn.wg.Wait()
}
