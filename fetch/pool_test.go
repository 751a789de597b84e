package fetch_test

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// Each test here holds one promise of the session pool against a
// scripted server: MaxConnsPerHost counts sessions exactly, and a
// session goes back to the pool only in step with its server.

// secondOpenWaits checks that MaxConnsPerHost 1 holds: beside an open
// Response, a second Open waits, and its context ends it.
func secondOpenWaits(t *testing.T, c *fetch.Client, rawURL string) {
	t.Helper()
	first, err := c.Open(context.Background(), rawURL)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	second, err := c.Open(ctx, rawURL)
	if err == nil {
		second.Close()
		t.Fatal("a second session opened beside the first under MaxConnsPerHost 1")
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("the second Open, waiting for the first's session: %v; want the context's deadline", err)
	}
}

// A transfer confirmed empty where SIZE said 1000 bytes is an error
// (io.ErrUnexpectedEOF), and its session is released once:
// MaxConnsPerHost 1 still holds afterwards.
func TestPoolShortEmptyTransferReleasesOnce(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{
		"SIZE": func(c *fconn, arg string) {
			if arg == "short" {
				c.send("213 1000")
				return
			}
			c.send("213 4")
		},
		"RETR": func(c *fconn, arg string) {
			if arg == "short" {
				transfer("", "150 Opening (1000 bytes)", "226 Done")(c, arg)
				return
			}
			transfer("data", "150 Opening (4 bytes)", "226 Done")(c, arg)
		},
	})
	c := &fetch.Client{MaxConnsPerHost: 1}
	defer c.CloseIdleConnections()
	_, err := c.Open(context.Background(), f.url("short"))
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("Open = %v, want io.ErrUnexpectedEOF", err)
	}
	secondOpenWaits(t, c, f.url("f"))
}

// Resuming at the end of a file (WithOffset equal to SIZE) reads
// nothing, ends with io.EOF, and gives the session back at once.
func TestPoolResumeAtTheEndGivesTheSessionBack(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{
		"SIZE": say("213 4"),
		"REST": say("350 Restarting"),
		"RETR": func(c *fconn, arg string) {
			if arg == "f" { // after REST 4: nothing left
				transfer("", "150 Opening", "226 Done")(c, arg)
				return
			}
			transfer("data", "150 Opening", "226 Done")(c, arg)
		},
	})
	c := &fetch.Client{MaxConnsPerHost: 1}
	defer c.CloseIdleConnections()
	resp, err := c.Open(context.Background(), f.url("f"), fetch.WithOffset(4))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := io.ReadAll(resp); err != nil || len(b) != 0 || resp.Size != 4 {
		t.Fatalf("ReadAll = %q, %v; Size %d", b, err, resp.Size)
	}
	// Not closed: the session is free already.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if b, _, err := openAndRead(ctx, c, f.url("g")); err != nil || string(b) != "data" {
		t.Fatalf("the next Open: %q, %v", b, err)
	}
	resp.Close()
}

// A server that answers a command with a preliminary reply and then a
// final one (RFC 959 §4.2 allows 1yz only before a transfer) leaves
// the session out of step: it is not reused, and the next URL gets a
// session of its own, with every reply its own.
func TestPoolPreliminaryReplyRetiresTheSession(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{
		"CWD":  say("150 Hold on", "250 Directory changed"),
		"RETR": transfer("data", "150 Opening (4 bytes)", "226 Done"),
	})
	c := &fetch.Client{MaxConnsPerHost: 1}
	defer c.CloseIdleConnections()
	if _, _, err := openAndRead(context.Background(), c, f.url("a/f")); err == nil {
		t.Fatal("a CWD answered 150 succeeded")
	}
	if b, _, err := openAndRead(context.Background(), c, f.url("g")); err != nil || string(b) != "data" {
		t.Fatalf("the next URL: %q, %v", b, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dials != 2 {
		t.Errorf("%d logins, want 2 (the session out of step is not reused)", f.dials)
	}
}

// Close after a Read that reached the end never aborts the session the
// Read has given back: the next fetch reuses it, without a login. Then
// Close races that last Read a hundred times, for the race detector:
// whichever wins, the next fetch works (a session that Close aborted
// before the Read gave it back is dropped, not pooled).
func TestPoolCloseAfterTheLastReadKeepsAGivenBackSession(t *testing.T) {
	srv := need(t, "ftpserverlib")
	logins := countLogins(srv.addr)
	c := &fetch.Client{MaxConnsPerHost: 1, DialContext: logins.dial}
	defer c.CloseIdleConnections()
	resp, err := c.Open(context.Background(), "ftp://"+srv.addr+"/text.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(resp); err != nil {
		t.Fatal(err)
	}
	resp.Close()
	if _, _, err := openAndRead(context.Background(), c, "ftp://"+srv.addr+"/a/top.txt"); err != nil {
		t.Fatal(err)
	}
	if n := logins.n.Load(); n != 1 {
		t.Fatalf("%d logins, want 1: Close aborted the session the Read had given back", n)
	}

	for range 100 {
		resp, err := c.Open(context.Background(), "ftp://"+srv.addr+"/text.txt")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(1)
		var readErr error
		go func() {
			defer wg.Done()
			_, readErr = io.ReadAll(resp)
		}()
		resp.Close()
		wg.Wait()
		if _, _, err := openAndRead(context.Background(), c, "ftp://"+srv.addr+"/a/top.txt"); err != nil {
			t.Fatalf("after Close raced the last Read (Read: %v): %v", readErr, err)
		}
	}
}

// A 227 whose parentheses come the wrong way round made jlaffaye/ftp
// panic; fetch hands it every 227 in one form, or none.
func TestPoolMalformedPASVIsNoPanic(t *testing.T) {
	noLeaks(t)
	for _, reply := range []string{
		"227 Entering Passive Mode 1,2,3,4) (5,6",
		"227 )(",
		"227 Entering Passive Mode (1,2,3,4,5)",
	} {
		f := newFake(t, script{
			"EPSV": say("500 No"),
			"PASV": say(reply),
		})
		c := &fetch.Client{IdleTimeout: -1}
		_, _, err := openAndRead(context.Background(), c, f.url("f"))
		asError(t, err)
	}
}

// The password never shows in an error built of several: a data
// connection reset beside a control line that quotes it.
func TestPoolJoinedErrorsAreCleaned(t *testing.T) {
	noLeaks(t)
	const secret = "s3cr3tpw"
	f := newFake(t, script{
		"LIST": func(c *fconn, _ string) {
			d := c.data()
			if d == nil {
				return
			}
			c.send("150 Here it comes")
			if tc, ok := d.(*net.TCPConn); ok {
				_ = tc.SetLinger(0) // a reset, not an end
			}
			d.Close()
			c.send("you said " + secret)
		},
	})
	c := &fetch.Client{IdleTimeout: -1}
	_, _, err := openAndRead(context.Background(), c, "ftp://bob:"+secret+"@"+f.addr+"/dir/")
	if err == nil {
		t.Fatal("the listing succeeded")
	}
	for _, s := range errorTexts(err) {
		for _, form := range leakForms(secret) {
			if strings.Contains(s, form) {
				t.Fatalf("the error shows the password: %s", s)
			}
		}
	}
}

// A DialContext connection that is not TCP (a pipe, a proxy's own type)
// works: jlaffaye/ftp asserts a *net.TCPAddr, and fetch gives it one.
func TestPoolNonTCPConnection(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"RETR": transfer("data", "150 Opening (4 bytes)", "226 Done")})
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		// The URL names a host of the proxy's: port 21 is the fake's
		// control port, the data ports are its own.
		host, port, _ := net.SplitHostPort(addr)
		if host != "mirror.invalid" {
			return nil, errors.New("dialed " + addr + ", not the URL's host")
		}
		to := net.JoinHostPort("127.0.0.1", port)
		if port == "21" {
			to = f.addr
		}
		var d net.Dialer
		conn, err := d.DialContext(ctx, network, to)
		if err != nil {
			return nil, err
		}
		return oddConn{conn}, nil
	}
	c := &fetch.Client{IdleTimeout: -1, DialContext: dial}
	if b, _, err := openAndRead(context.Background(), c, "ftp://mirror.invalid/f"); err != nil || string(b) != "data" {
		t.Fatalf("over a non-TCP connection: %q, %v", b, err)
	}
}

type oddConn struct{ net.Conn }

func (oddConn) RemoteAddr() net.Addr { return oddAddr{} }

type oddAddr struct{}

func (oddAddr) Network() string { return "odd" }
func (oddAddr) String() string  { return "odd" }

// A login directory that stops working (CWD of it refused) retires the
// session: the next relative URL gets a new one and succeeds.
func TestPoolLostLoginDirectoryRetiresTheSession(t *testing.T) {
	noLeaks(t)
	var mu sync.Mutex
	refuseHome := false
	f := newFake(t, script{
		"PWD": say(`257 "/home/x" is the current directory`),
		"CWD": func(c *fconn, arg string) {
			mu.Lock()
			refuse := refuseHome && arg == "/home/x"
			mu.Unlock()
			if refuse {
				c.send("550 No such directory")
				return
			}
			c.send("250 Directory changed")
		},
		"RETR": transfer("data", "150 Opening (4 bytes)", "226 Done"),
	})
	c := &fetch.Client{MaxConnsPerHost: 1}
	defer c.CloseIdleConnections()
	if _, _, err := openAndRead(context.Background(), c, f.url("a/f")); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	refuseHome = true
	mu.Unlock()
	if _, _, err := openAndRead(context.Background(), c, f.url("g")); err == nil {
		t.Fatal("a plan on a session whose login directory is gone succeeded")
	}
	mu.Lock()
	refuseHome = false
	mu.Unlock()
	if b, _, err := openAndRead(context.Background(), c, f.url("b/g")); err != nil || string(b) != "data" {
		t.Fatalf("the next relative URL: %q, %v", b, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dials != 2 {
		t.Errorf("%d logins, want 2 (the session that lost its directory retired)", f.dials)
	}
}
