package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// readAll opens rawURL with cl and reads it to the end.
func readAll(t *testing.T, cl *fetch.Client, rawURL string, opts ...fetch.Option) ([]byte, *fetch.Response) {
	t.Helper()
	resp, err := cl.Open(context.Background(), rawURL, opts...)
	if err != nil {
		t.Fatalf("Open(%s): %v", rawURL, err)
	}
	defer resp.Close()
	b, err := io.ReadAll(resp)
	if err != nil {
		t.Fatalf("reading %s: %v", rawURL, err)
	}
	return b, resp
}

// A Client logs in once for many URLs of one server, in any order of
// directories, relative and absolute, files and listings: a reused
// session goes back to the login directory (the PWD after login)
// unless the next path is absolute.
func TestClientLogsInOncePerServer(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			logins := countLogins(srv.addr)
			cl := &fetch.Client{MaxConnsPerHost: 1, DialContext: logins.dial}
			defer cl.CloseIdleConnections()
			base := "ftp://" + srv.addr + "/"
			steps := []struct {
				path string
				opts []fetch.Option
				body string // "": a listing holding has
				has  string
			}{
				{path: "a/b/deep.txt", body: "deep\n"},
				{path: "text.txt", body: textFile},
				{path: "a/top.txt", body: "top\n"},
				{path: "a/b/deep.txt", body: "deep\n"},
				{path: "a/", has: "top.txt"},
				{path: "a/b/deep.txt", opts: []fetch.Option{fetch.WithAbsolutePaths()}, body: "deep\n"},
				{path: "text.txt", body: textFile},
				{path: "a", has: "top.txt"}, // RETR refused, then CWD a, LIST
				{path: "text.txt", body: textFile},
				{path: "a/b/deep.txt", opts: []fetch.Option{fetch.WithMethod(ftpurl.NoCWD)}, body: "deep\n"},
				{path: "a/top.txt", opts: []fetch.Option{fetch.WithMethod(ftpurl.SingleCWD)}, body: "top\n"},
				{path: "missing.txt;type=i"},
				{path: "text.txt", body: textFile},
			}
			for _, st := range steps {
				rawURL := base + st.path
				if st.body == "" && st.has == "" {
					_, err := cl.Open(context.Background(), rawURL, st.opts...)
					if !errors.Is(err, fetch.ErrNotFound) {
						t.Fatalf("Open(%s) = %v, want ErrNotFound", rawURL, err)
					}
					continue
				}
				got, resp := readAll(t, cl, rawURL, st.opts...)
				if st.has != "" {
					found := false
					for _, e := range resp.Entries {
						found = found || e.Name == st.has
					}
					if !found {
						t.Fatalf("Open(%s): listing %q lacks %q", rawURL, resp.Lines, st.has)
					}
					continue
				}
				if string(got) != st.body {
					t.Fatalf("Open(%s) = %q, want %q", rawURL, got, st.body)
				}
			}
			if n := logins.n.Load(); n != 1 {
				t.Errorf("%d URLs took %d logins, want 1", len(steps), n)
			}
		})
	}
}

// Response.Size is the file's size, from the 150 reply or SIZE (RFC
// 3659 §4), also for the second file of a session, which takes the
// size from where the first found it.
func TestResponseSize(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			cl := &fetch.Client{}
			defer cl.CloseIdleConnections()
			for _, f := range []struct {
				path string
				size int64
			}{{"binary.bin", 256}, {"text.txt", int64(len(textFile))}, {"empty.txt", 0}, {"a/top.txt", 4}} {
				got, resp := readAll(t, cl, "ftp://"+srv.addr+"/"+f.path)
				if resp.Size != f.size || int64(len(got)) != f.size {
					t.Errorf("%s: Size = %d and %d bytes read, want %d", f.path, resp.Size, len(got), f.size)
				}
			}
			_, resp := readAll(t, cl, "ftp://"+srv.addr+"/a/")
			if resp.Size != -1 {
				t.Errorf("a listing's Size = %d, want -1", resp.Size)
			}
		})
	}
}

// WithOffset sends REST n before RETR (RFC 3659 §5): the file from
// byte n, with Size still the whole file's.
func TestWithOffsetResumes(t *testing.T) {
	whole := binaryFile()
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			cl := &fetch.Client{}
			defer cl.CloseIdleConnections()
			for _, off := range []int64{1, 100, 255, 256} {
				got, resp := readAll(t, cl, "ftp://"+srv.addr+"/binary.bin", fetch.WithOffset(off))
				if !bytes.Equal(got, whole[off:]) {
					t.Errorf("offset %d: got %d bytes, want %d", off, len(got), len(whole)-int(off))
				}
				if resp.Size != int64(len(whole)) {
					t.Errorf("offset %d: Size = %d, want %d", off, resp.Size, len(whole))
				}
			}
		})
	}
}

// An offset needs TYPE I (RFC 3659 §5.1): with ";type=a", and a
// negative one, Open fails before it connects (port 1 has no server).
func TestWithOffsetRefusedBeforeConnecting(t *testing.T) {
	for _, c := range []struct {
		url string
		off int64
	}{
		{"ftp://127.0.0.1:1/f.txt;type=a", 10},
		{"ftp://127.0.0.1:1/f.txt", -1},
	} {
		_, err := fetch.Open(context.Background(), c.url, fetch.WithOffset(c.off))
		var fe *fetch.Error
		if !errors.As(err, &fe) || fe.Op != "rest" || fe.Code != 0 {
			t.Errorf("Open(%s, WithOffset(%d)) = %v, want a rest *Error before connecting", c.url, c.off, err)
		}
	}
}

// WithOffset's doc: a directory is listed as without it, whether the
// URL names it with "/" or ";type=d" (nothing to resume; a listing's
// TYPE A is not the URL's).
func TestWithOffsetListsADirectoryAsWithout(t *testing.T) {
	srv := need(t, "ftpserverlib")
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()
	for _, rawURL := range []string{"ftp://" + srv.addr + "/a/", "ftp://" + srv.addr + "/a;type=d"} {
		resp, err := cl.Open(context.Background(), rawURL, fetch.WithOffset(5))
		if err != nil {
			t.Errorf("Open(%s, WithOffset(5)) = %v, want the listing", rawURL, err)
			continue
		}
		resp.Close()
		names := slices.Clone(resp.Names) // NLST, as the server sends them
		for _, e := range resp.Entries {  // LIST
			names = append(names, e.Name)
		}
		if !slices.ContainsFunc(names, func(n string) bool { return path.Base(n) == "top.txt" }) {
			t.Errorf("Open(%s, WithOffset(5)) lists %q, want top.txt among them", rawURL, names)
		}
	}
}

// Stat tells a file (size, time) from a directory and from nothing,
// with MLST (RFC 3659 §7) where the server has it (ProFTPD, Pure-FTPd,
// pyftpdlib, ftpserverlib), else SIZE (§4), MDTM (§3) and CWD (vsftpd).
func TestStat(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			cl := &fetch.Client{}
			defer cl.CloseIdleConnections()
			base := "ftp://" + srv.addr + "/"
			for _, c := range []struct {
				path string
				opts []fetch.Option
				name string
				dir  bool
				size int64
			}{
				{path: "binary.bin", name: "binary.bin", size: 256},
				{path: "a/b/deep.txt", name: "deep.txt", size: 5},
				{path: "a/b/deep.txt", opts: []fetch.Option{fetch.WithMethod(ftpurl.NoCWD)}, name: "deep.txt", size: 5},
				{path: "empty.txt", name: "empty.txt", size: 0},
				{path: "a", name: "a", dir: true},
				{path: "a/", name: "a", dir: true},
				{path: "a/b;type=d", name: "b", dir: true},
				{path: "", name: "/", dir: true},
			} {
				fi, err := cl.Stat(context.Background(), base+c.path, c.opts...)
				if err != nil {
					t.Errorf("Stat(%s): %v", c.path, err)
					continue
				}
				if fi.Name() != c.name || fi.IsDir() != c.dir || fi.Mode().IsDir() != c.dir {
					t.Errorf("Stat(%s) = name %q dir %v, want %q dir %v", c.path, fi.Name(), fi.IsDir(), c.name, c.dir)
				}
				if !c.dir && fi.Size() != c.size {
					t.Errorf("Stat(%s).Size() = %d, want %d", c.path, fi.Size(), c.size)
				}
				if !c.dir && fi.ModTime().IsZero() {
					t.Errorf("Stat(%s).ModTime() is zero", c.path)
				}
				if !c.dir && time.Since(fi.ModTime()) > time.Hour {
					t.Errorf("Stat(%s).ModTime() = %v, want the tree's time (this test run)", c.path, fi.ModTime())
				}
			}
			for _, p := range []string{"missing.txt", "missing/", "missing/x.txt", "a/missing"} {
				_, err := cl.Stat(context.Background(), base+p)
				if !errors.Is(err, fetch.ErrNotFound) {
					t.Errorf("Stat(%s) = %v, want ErrNotFound", p, err)
				}
				// Retr's doc: only a Fallback step has a refused RETR.
				if fe := (*fetch.Error)(nil); errors.As(err, &fe) && fe.Retr() != nil {
					t.Errorf("Stat(%s).Retr() = %v, want nil: Stat sends no RETR", p, fe.Retr())
				}
			}
		})
	}
}

// The package's Stat is DefaultClient's, and its FileInfo is a
// fs.FileInfo.
func TestStatPackageFunction(t *testing.T) {
	srv := need(t, "ftpserverlib")
	var fi fs.FileInfo
	fi, err := fetch.Stat(context.Background(), "ftp://"+srv.addr+"/text.txt")
	if err != nil || fi.Size() != int64(len(textFile)) || fi.Sys().(fetch.Entry).Name != "text.txt" {
		t.Fatalf("Stat = %v, %v", fi, err)
	}
}

// A Client is safe for concurrent use: many goroutines, one server,
// MaxConnsPerHost sessions at most at any time, every byte right.
func TestClientConcurrentUse(t *testing.T) {
	for _, name := range []string{"ftpserverlib", "vsftpd", "proftpd"} {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			var open, most atomic.Int64
			var mu sync.Mutex
			dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
				var d net.Dialer
				c, err := d.DialContext(ctx, network, addr)
				if err != nil || addr != srv.addr {
					return c, err
				}
				mu.Lock()
				if n := open.Add(1); n > most.Load() {
					most.Store(n)
				}
				mu.Unlock()
				return &countedConn{Conn: c, open: &open}, nil
			}
			cl := &fetch.Client{MaxConnsPerHost: 3, DialContext: dial}
			defer cl.CloseIdleConnections()
			files := map[string]string{"text.txt": textFile, "a/top.txt": "top\n", "a/b/deep.txt": "deep\n", "binary.bin": string(binaryFile())}
			var wg sync.WaitGroup
			for i := range 24 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for p, want := range files {
						if i%3 == 0 {
							if _, err := cl.Stat(context.Background(), "ftp://"+srv.addr+"/"+p); err != nil {
								t.Errorf("Stat(%s): %v", p, err)
							}
							continue
						}
						resp, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/"+p)
						if err != nil {
							t.Errorf("Open(%s): %v", p, err)
							return
						}
						got, err := io.ReadAll(resp)
						resp.Close()
						if err != nil || string(got) != want {
							t.Errorf("%s: %q, %v; want %q", p, got, err, want)
						}
					}
				}()
			}
			wg.Wait()
			if n := most.Load(); n > 3 {
				t.Errorf("%d control connections at once, want at most MaxConnsPerHost 3", n)
			}
		})
	}
}

type countedConn struct {
	net.Conn
	open *atomic.Int64
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}

// An Open beyond MaxConnsPerHost waits for a session, bounded by its
// context; a session given back (the file read to its end) serves it.
func TestOpenWaitsForASessionWithinItsContext(t *testing.T) {
	srv := need(t, "ftpserverlib")
	cl := &fetch.Client{MaxConnsPerHost: 1}
	defer cl.CloseIdleConnections()
	first, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/text.txt")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = cl.Open(ctx, "ftp://"+srv.addr+"/a/top.txt")
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "dial" || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Open beyond MaxConnsPerHost = %v, want a dial *Error wrapping DeadlineExceeded", err)
	}
	done := make(chan error, 1)
	go func() {
		resp, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/a/top.txt")
		if err == nil {
			_, err = io.ReadAll(resp)
			resp.Close()
		}
		done <- err
	}()
	if _, err := io.ReadAll(first); err != nil {
		t.Fatal(err)
	}
	first.Close()
	if err := <-done; err != nil {
		t.Fatalf("the waiting Open: %v", err)
	}
}

// A session whose connection ended while it was idle is noticed and
// replaced before any command of the next plan: the caller sees no
// error. A file abandoned before its end closes its session.
func TestDeadIdleSessionIsReplaced(t *testing.T) {
	srv := need(t, "ftpserverlib")
	var mu sync.Mutex
	var conns []net.Conn
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err == nil && addr == srv.addr {
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
		return c, err
	}
	cl := &fetch.Client{MaxConnsPerHost: 1, DialContext: dial}
	defer cl.CloseIdleConnections()
	readAll(t, cl, "ftp://"+srv.addr+"/text.txt")
	mu.Lock()
	conns[0].Close() // as if the server had left
	mu.Unlock()
	if got, _ := readAll(t, cl, "ftp://"+srv.addr+"/a/top.txt"); string(got) != "top\n" {
		t.Fatalf("after the idle session died: %q", got)
	}
	mu.Lock()
	n := len(conns)
	mu.Unlock()
	if n != 2 {
		t.Fatalf("%d control connections, want 2 (one replaced)", n)
	}

	// Abandoned early: the next Open needs a new session.
	resp, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/binary.bin")
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
	readAll(t, cl, "ftp://"+srv.addr+"/text.txt")
	mu.Lock()
	n = len(conns)
	mu.Unlock()
	if n != 3 {
		t.Fatalf("%d control connections, want 3 (the abandoned one not reused)", n)
	}
}

// IdleTimeout < 0 turns reuse off: every fetch logs in.
func TestNegativeIdleTimeoutNeverReuses(t *testing.T) {
	srv := need(t, "ftpserverlib")
	logins := countLogins(srv.addr)
	cl := &fetch.Client{IdleTimeout: -1, DialContext: logins.dial}
	for range 3 {
		readAll(t, cl, "ftp://"+srv.addr+"/text.txt")
	}
	if n := logins.n.Load(); n != 3 {
		t.Fatalf("%d logins for 3 fetches, want 3", n)
	}
}

// Sessions are kept per login: another user on the same server is
// another session (ftpserverlib takes the password user and anonymous).
func TestSessionsAreKeptPerLogin(t *testing.T) {
	srv := need(t, "ftpserverlib")
	logins := countLogins(srv.addr)
	cl := &fetch.Client{MaxConnsPerHost: 4, DialContext: logins.dial}
	defer cl.CloseIdleConnections()
	user := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/text.txt"
	anon := "ftp://" + srv.addr + "/text.txt"
	for _, u := range []string{user, anon, user, anon} {
		readAll(t, cl, u)
	}
	if n := logins.n.Load(); n != 2 {
		t.Fatalf("%d logins, want 2 (one per user)", n)
	}
}

// WriteTo, which io.Copy prefers, gives the bytes Read gives, checks
// the end as Read does, and returns nil at the end (io.Copy's
// contract), on every server.
func TestResponseWriteTo(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			cl := &fetch.Client{}
			defer cl.CloseIdleConnections()
			for _, c := range []struct {
				path string
				want []byte
			}{
				{"binary.bin", binaryFile()},
				{"empty.txt", nil},
				{"text.txt;type=i", []byte(textFile)},
			} {
				resp, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/"+c.path)
				if err != nil {
					t.Fatal(err)
				}
				var b bytes.Buffer
				n, err := io.Copy(&b, resp)
				resp.Close()
				if err != nil || n != int64(len(c.want)) || !bytes.Equal(b.Bytes(), c.want) {
					t.Errorf("io.Copy of %s = %d, %v; want %d bytes", c.path, n, err, len(c.want))
				}
			}
		})
	}
}
