package fetch_test

// The classes of hostile and broken servers of issue 17, each against a scripted fake FTP
// server: a server that is hostile or broken gets a clear *Error from
// fetch, never a panic, a hang, unbounded memory or a silent loss, and
// what RFC 959 allows works even where jlaffaye/ftp refuses it.
//
// The fake server runs one goroutine per connection and answers each
// command from a script (a handler per verb, over defaults that log in
// and open passive data connections on listeners the test owns). Each
// test checks one behaviour; every test checks that no goroutine and no
// descriptor outlives it.

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// A handler answers one command on a fake control connection; arg is
// what follows the verb.
type handler func(c *fconn, arg string)

// A script maps a verb (upper case) to its handler; "" is the greeting,
// run when the connection opens. A verb without a handler is answered
// 502.
type script map[string]handler

// say answers with the given lines, each ended by CRLF.
func say(lines ...string) handler {
	return func(c *fconn, _ string) { c.send(lines...) }
}

// defaults logs anyone in, lists SIZE in FEAT, and opens a passive data
// connection for EPSV and PASV.
func defaults() script {
	return script{
		"":     say("220 fake FTP server ready"),
		"USER": say("331 Password required"),
		"PASS": say("230 Logged in"),
		"FEAT": say("211-Features:", " SIZE", " MDTM", "211 End"),
		"TYPE": say("200 Type set"),
		"PWD":  say(`257 "/" is the current directory`),
		"CWD":  say("250 Directory changed"),
		"SIZE": say("550 No size"),
		"EPSV": func(c *fconn, _ string) {
			if port := c.listen(); port > 0 {
				c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
			}
		},
		"PASV": func(c *fconn, _ string) {
			if port := c.listen(); port > 0 {
				c.send(fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d).", port>>8, port&255))
			}
		},
		"RETR": say("550 No such file"),
		"LIST": say("550 No such file"),
		"NLST": say("550 No such file"),
		"QUIT": func(c *fconn, _ string) { c.send("221 Bye"); c.hangup() },
	}
}

// A fake is a scripted FTP server on 127.0.0.1.
type fake struct {
	t    testing.TB
	l    net.Listener
	sc   script
	addr string
	done chan struct{} // closed when the test ends: stalls end
	wg   sync.WaitGroup

	mu      sync.Mutex
	cmds    []string // every command line received, in order
	dials   int      // control connections accepted
	closers []io.Closer
}

// newFake starts a fake server whose script is defaults() with sc's
// handlers over them (a nil handler removes the verb). It stops when
// the test ends.
func newFake(t testing.TB, sc script) *fake {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	full := defaults()
	for verb, h := range sc {
		if h == nil {
			delete(full, verb)
		} else {
			full[verb] = h
		}
	}
	f := &fake{t: t, l: l, sc: full, addr: l.Addr().String(), done: make(chan struct{})}
	f.wg.Add(1)
	go f.accept()
	t.Cleanup(f.stop)
	return f
}

func (f *fake) url(path string) string { return "ftp://" + f.addr + "/" + path }

func (f *fake) accept() {
	defer f.wg.Done()
	for {
		nc, err := f.l.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		f.dials++
		f.closers = append(f.closers, nc)
		f.mu.Unlock()
		f.wg.Add(1)
		go f.serve(nc)
	}
}

// stop closes every connection and listener and waits for the
// server's goroutines.
func (f *fake) stop() {
	f.l.Close()
	close(f.done)
	f.mu.Lock()
	for _, c := range f.closers {
		c.Close()
	}
	f.mu.Unlock()
	f.wg.Wait()
}

func (f *fake) track(c io.Closer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.done:
		c.Close()
	default:
		f.closers = append(f.closers, c)
	}
}

// commands returns the command lines received so far.
func (f *fake) commands() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.cmds...)
}

func (f *fake) received(verb string) bool {
	for _, c := range f.commands() {
		if v, _, _ := strings.Cut(c, " "); strings.EqualFold(v, verb) {
			return true
		}
	}
	return false
}

func (f *fake) dialCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dials
}

// fconn is one control connection of a fake.
type fconn struct {
	f      *fake
	c      net.Conn
	r      *bufio.Reader
	pasv   net.Listener // the passive listener EPSV or PASV opened
	closed bool

	onClose func() // run once, when the connection ends
	user    string // the USER argument, where a script notes it
}

func (f *fake) serve(nc net.Conn) {
	defer f.wg.Done()
	c := &fconn{f: f, c: nc, r: bufio.NewReader(nc)}
	defer c.hangup()
	f.sc[""](c, "")
	for !c.closed {
		line, err := c.r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		f.mu.Lock()
		f.cmds = append(f.cmds, line)
		f.mu.Unlock()
		verb, arg, _ := strings.Cut(line, " ")
		if h := f.sc[strings.ToUpper(verb)]; h != nil {
			h(c, arg)
		} else {
			c.send("502 Command not implemented")
		}
	}
}

// send writes each line with CRLF; write errors (the client left) are
// ignored.
func (c *fconn) send(lines ...string) {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l + "\r\n")
	}
	c.raw(b.String())
}

func (c *fconn) raw(s string) { _, _ = io.WriteString(c.c, s) }

// hangup closes the control connection (and a passive listener).
func (c *fconn) hangup() {
	if !c.closed && c.onClose != nil {
		c.onClose()
	}
	c.closed = true
	c.c.Close()
	if c.pasv != nil {
		c.pasv.Close()
	}
}

// stall blocks until the test ends.
func (c *fconn) stall() { <-c.f.done }

// sleep waits d, or less when the test ends; it reports whether the
// test goes on.
func (c *fconn) sleep(d time.Duration) bool {
	select {
	case <-c.f.done:
		return false
	case <-time.After(d):
		return true
	}
}

// listen opens the passive listener and returns its port.
func (c *fconn) listen() int {
	if c.pasv != nil {
		c.pasv.Close()
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		c.f.t.Errorf("fake: %v", err)
		c.send("425 Cannot open a data connection")
		return 0
	}
	c.pasv = l
	c.f.track(l)
	return l.Addr().(*net.TCPAddr).Port
}

// data accepts the data connection that the client opened after EPSV
// or PASV; nil (and "425" sent) when there is none.
func (c *fconn) data() net.Conn {
	if c.pasv == nil {
		c.send("425 Use PASV first")
		return nil
	}
	l := c.pasv
	c.pasv = nil
	defer l.Close()
	_ = l.(*net.TCPListener).SetDeadline(time.Now().Add(10 * time.Second))
	d, err := l.Accept()
	if err != nil {
		c.send("425 No data connection")
		return nil
	}
	c.f.track(d)
	return d
}

// stalledFile is a RETR that announces 1000 bytes, sends 100 and
// stalls until the test ends: a Read blocks after them.
func stalledFile(c *fconn, _ string) {
	d := c.data()
	if d == nil {
		return
	}
	c.send("150 Opening BINARY mode data connection for f (1000 bytes)")
	_, _ = d.Write(make([]byte, 100))
	c.stall()
	d.Close()
}

// transfer answers a RETR, LIST or NLST: opening (a 1xx) on the control
// connection, body on the data connection, which it then closes, and
// final (none when "").
func transfer(body, opening, final string) handler {
	return func(c *fconn, _ string) {
		d := c.data()
		if d == nil {
			return
		}
		c.send(opening)
		_, _ = io.WriteString(d, body)
		d.Close()
		if final != "" {
			c.send(final)
		}
	}
}

// testClient returns a Client that never reuses a session (each Open
// logs in and ends with QUIT), with a StallTimeout that ends a test
// that would otherwise hang long before the go test timeout.
func testClient(t testing.TB) *fetch.Client {
	c := &fetch.Client{IdleTimeout: -1, StallTimeout: 10 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// noLeaks fails the test if goroutines or file descriptors outlive
// it: it must be called first, so that its check runs after every
// other cleanup (the fake server's included).
func noLeaks(t *testing.T) {
	t.Helper()
	g0, fd0 := runtime.NumGoroutine(), openFDs()
	t.Cleanup(func() {
		var g, fd int
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			g, fd = runtime.NumGoroutine(), openFDs()
			if g <= g0 && fd <= fd0 {
				return
			}
		}
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		var ours []string
		for _, st := range strings.Split(string(buf), "\n\n") {
			if strings.Contains(st, "ftpurl/fetch.") || strings.Contains(st, "jlaffaye") {
				ours = append(ours, st)
			}
		}
		t.Errorf("left behind: %d goroutines (before: %d), %d descriptors (before: %d); fetch's:\n%s",
			g, g0, fd, fd0, strings.Join(ours, "\n\n"))
	})
}

// openFDs counts the process's open descriptors, but for pipes: on
// Linux an io.Copy between two TCP connections (the tests' proxies and
// relays, a data connection into a file) splices through a pipe that
// the runtime keeps in a pool and closes only when the garbage
// collector drops it, so a pipe open after a test is no leak of
// fetch's, which opens none.
func openFDs() int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if l, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasPrefix(l, "pipe:") {
			continue
		}
		n++
	}
	return n
}

// within runs f and fails the test if it has not returned after d: a
// hang detector, not a timing assertion.
func within(t *testing.T, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
}

// asError returns err's *fetch.Error, failing the test when it has
// none.
func asError(t *testing.T, err error) *fetch.Error {
	t.Helper()
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a *fetch.Error", err, err)
	}
	return fe
}

// openAndRead opens rawURL and reads it to the end; it returns the
// bytes and the first error, of Open or of Read.
func openAndRead(ctx context.Context, c *fetch.Client, rawURL string, opts ...fetch.Option) ([]byte, *fetch.Response, error) {
	resp, err := c.Open(ctx, rawURL, opts...)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Close()
	b, err := io.ReadAll(resp)
	return b, resp, err
}

// noControlByte fails the test if s holds a C0 control byte or DEL.
func noControlByte(t *testing.T, what, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			t.Errorf("%s holds the control byte %#x at %d: %q", what, s[i], i, s)
			return
		}
	}
}

// ---- Panic ----

// TestHostileCloseWhileReadBlocks: the server sends part of a file and
// stalls; Close from another goroutine unblocks the Read, which returns
// an error, never a panic, and leaves no goroutine behind.
func TestHostileCloseWhileReadBlocks(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"RETR": stalledFile})
	closeWhileReading(t, testClient(t), f.url("f"))
}

// TestHostileCloseWhileWaitingForTheFinalReply: the whole file came
// but the 226 does not; Read waits on the control connection, and Close
// ends that wait too.
func TestHostileCloseWhileWaitingForTheFinalReply(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"RETR": func(c *fconn, _ string) {
		transfer("hello", "150 Opening", "")(c, "")
		c.stall()
	}})
	closeWhileReading(t, testClient(t), f.url("f;type=i"))
}

// closeWhileReading opens rawURL with c, reads it in another goroutine,
// and Closes it while that Read blocks: the Read must end with an
// error, not io.EOF and not a panic, within a generous bound.
func closeWhileReading(t *testing.T, c *fetch.Client, rawURL string) {
	t.Helper()
	within(t, 30*time.Second, func() {
		resp, err := c.Open(context.Background(), rawURL)
		if err != nil {
			t.Error(err)
			return
		}
		got := make(chan error, 1)
		go func() {
			_, err := io.Copy(io.Discard, resp)
			got <- err
		}()
		time.Sleep(100 * time.Millisecond) // Read blocks meanwhile
		if err := resp.Close(); err != nil {
			t.Errorf("Close = %v", err)
		}
		// Read's doc: the Read that Close cuts off says so, in plain
		// words, not as a broken transfer.
		if err := <-got; err == nil || err.Error() != "fetch: read from a closed Response" {
			t.Errorf("Read after a concurrent Close = %v, want %q", err, "fetch: read from a closed Response")
		}
	})
}

// ---- Password leak ----

// leakForms are the forms of a password that must not appear in an
// error: as it is and percent-encoded.
func leakForms(pw string) []string {
	forms := []string{pw, url.PathEscape(pw), url.QueryEscape(pw), strings.TrimPrefix(url.UserPassword("", pw).String(), ":"), strconv.Quote(pw)[1 : len(strconv.Quote(pw))-1]}
	return forms
}

// errorTexts returns every text that err shows or carries: Error(),
// %v, %+v, and for every error errors.As could reach, its Error() and
// the Msg, Command and URL of *fetch.Error and *textproto.Error.
func errorTexts(err error) []string {
	texts := []string{fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%s", err)}
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		texts = append(texts, e.Error())
		switch x := e.(type) {
		case *fetch.Error:
			texts = append(texts, x.Msg, x.Command, x.URL)
			if r := x.Retr(); r != nil {
				walk(r)
			}
		case *textproto.Error:
			texts = append(texts, x.Msg)
		}
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			walk(u.Unwrap())
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return texts
}

// TestHostilePasswordEchoedInAReply: a server that quotes the password
// in its refusal does not get it into the error, whether the password
// came in the URL or from WithPassword; also a password that %q would
// escape, in a line that is no reply (which fetch quotes).
func TestHostilePasswordEchoedInAReply(t *testing.T) {
	for _, pw := range []string{`s3cr%t`, `p"w\ö`} {
		echo := "Login incorrect for alice with password " + pw + " (" + url.PathEscape(pw) + ", " + url.QueryEscape(pw) + ")"
		replies := map[string]script{
			"530 to PASS":            {"PASS": say("530 " + echo)},
			"500 to PASS":            {"PASS": say("500 " + echo)},
			"multi-line 530 to PASS": {"PASS": say("530-"+echo, " "+pw, "530 "+pw)},
			"500 to USER":            {"USER": say("500 " + echo)},
			"421 to PASS":            {"PASS": say("421 " + echo)},
			"550 to RETR":            {"RETR": say("550 " + echo)},
			"550 to RETR and to CWD": {
				"RETR": say("550 no such file " + pw),
				"CWD":  say("550 no such directory " + pw),
			},
			"a line that is no reply": {"PASS": say(pw + " " + echo)},
			"a listing that is none": {
				"RETR": say("550 " + echo),
				"LIST": transfer(pw+" "+echo+"\r\n", "150 Here it comes", "226 Done"),
			},
		}
		for name, sc := range replies {
			for _, how := range []string{"URL", "WithPassword"} {
				t.Run(strconv.Quote(pw)+"/"+name+"/"+how, func(t *testing.T) {
					noLeaks(t)
					f := newFake(t, sc)
					c := testClient(t)
					rawURL := "ftp://alice:" + url.PathEscape(pw) + "@" + f.addr + "/f"
					var opts []fetch.Option
					if how == "WithPassword" {
						rawURL = "ftp://alice@" + f.addr + "/f"
						opts = append(opts, fetch.WithPassword(pw))
					}
					var err error
					within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, rawURL, opts...) })
					if err == nil {
						t.Fatal("the fetch succeeded")
					}
					asError(t, err)
					for _, text := range errorTexts(err) {
						for _, form := range leakForms(pw) {
							if strings.Contains(text, form) {
								t.Errorf("an error text holds the password as %q: %q", form, text)
							}
							for k := 3; k < len(form); k++ {
								if strings.Contains(text, form[:k]+"…") {
									t.Errorf("an error text, clipped, holds the start of the password, %q: %q", form[:k], text)
								}
							}
						}
					}
					if !strings.Contains(err.Error(), "xxxxx") {
						t.Errorf("err = %v, want the password shown as xxxxx", err)
					}
				})
			}
		}
	}
}

// ---- Silent loss ----

// TestHostileShortTransfer: the server says the file has 1000 bytes,
// sends 400 and confirms with 226: Read ends with a retr *Error wrapping
// io.ErrUnexpectedEOF, never io.EOF.
func TestHostileShortTransfer(t *testing.T) {
	body := strings.Repeat("x", 400)
	cases := map[string]script{
		"SIZE and 150": {
			"SIZE": say("213 1000"),
			"RETR": transfer(body, "150 Opening BINARY mode data connection for f (1000 bytes)", "226 Transfer complete"),
		},
		"150 only": {
			"FEAT": say("211-Features:", " MDTM", "211 End"),
			"RETR": transfer(body, "150 Opening BINARY mode data connection for f (1000 bytes)", "226 Transfer complete"),
		},
		"SIZE only": {
			"SIZE": say("213 1000"),
			"RETR": transfer(body, "150 Opening BINARY mode data connection", "226 Transfer complete"),
		},
	}
	for name, sc := range cases {
		for _, path := range []string{"f", "f;type=i"} {
			t.Run(name+"/"+path, func(t *testing.T) {
				noLeaks(t)
				f := newFake(t, sc)
				c := testClient(t)
				var got []byte
				var err error
				within(t, 30*time.Second, func() { got, _, err = openAndRead(context.Background(), c, f.url(path)) })
				if err == nil {
					t.Fatalf("read %d bytes and io.EOF, want an error", len(got))
				}
				fe := asError(t, err)
				if fe.Op != "retr" || !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
					t.Fatalf("err = %v (Op %q), want Op retr wrapping io.ErrUnexpectedEOF and not io.EOF", err, fe.Op)
				}
				if len(got) != 400 {
					t.Errorf("read %d bytes before the error, want 400", len(got))
				}
			})
		}
	}
}

// TestHostileLsErrorIsNotAnEmptyDirectory: a LIST whose data is the
// error text of ls is an error, not a directory with nothing in it.
func TestHostileLsErrorIsNotAnEmptyDirectory(t *testing.T) {
	lsErr := "ls: cannot access 'x': No such file or directory\r\n"
	for _, path := range []string{"x/", "d/x/", "x"} {
		t.Run(path, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, script{"LIST": transfer(lsErr, "150 Here comes the directory listing", "226 Directory send OK")})
			c := testClient(t)
			var resp *fetch.Response
			var err error
			within(t, 30*time.Second, func() { _, resp, err = openAndRead(context.Background(), c, f.url(path)) })
			if err == nil {
				t.Fatalf("Open succeeded: %v with %d entries, lines %q; want an error", resp.Action, len(resp.Entries), resp.Lines)
			}
			if fe := asError(t, err); fe.Op != "list" {
				t.Errorf("err = %v, want Op list", err)
			}
		})
	}
}

// ---- EOF in the chain ----

// TestHostileControlClosesBeforeTheFinalReply: wherever the control
// connection ends before a reply is whole, the error wraps
// io.ErrUnexpectedEOF, never io.EOF.
func TestHostileControlClosesBeforeTheFinalReply(t *testing.T) {
	cases := map[string]script{
		"no greeting":           {"": func(c *fconn, _ string) { c.hangup() }},
		"half a greeting":       {"": func(c *fconn, _ string) { c.raw("220 hel"); c.hangup() }},
		"half a multi-line":     {"": func(c *fconn, _ string) { c.raw("220-Welcome\r\n more\r\n"); c.hangup() }},
		"after USER":            {"USER": func(c *fconn, _ string) { c.hangup() }},
		"inside FEAT":           {"FEAT": func(c *fconn, _ string) { c.raw("211-Features:\r\n SIZE\r\n"); c.hangup() }},
		"after RETR's 150":      {"RETR": func(c *fconn, _ string) { c.data(); c.send("150 Opening"); c.hangup() }},
		"after the file's data": {"RETR": func(c *fconn, _ string) { transfer("hello", "150 Opening", "")(c, ""); c.hangup() }},
		"after LIST's data": {
			"RETR": say("550 Not a file"),
			"LIST": func(c *fconn, _ string) {
				transfer("-rw-r--r-- 1 ftp ftp 5 Jan 01 2020 a\r\n", "150 Here", "")(c, "")
				c.hangup()
			},
		},
		"half the final reply": {"RETR": func(c *fconn, _ string) { transfer("hello", "150 Opening", "")(c, ""); c.raw("22"); c.hangup() }},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, sc)
			c := testClient(t)
			var err error
			within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
			if err == nil {
				t.Fatal("the fetch succeeded")
			}
			asError(t, err)
			if !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				t.Errorf("err = %v, want io.ErrUnexpectedEOF and not io.EOF in its chain", err)
			}
		})
	}
}

// ---- Unbounded memory ----

// flood writes chunk over and over until the client stops reading or
// limit bytes went out.
func flood(w io.Writer, chunk []byte, limit int) {
	for n := 0; n < limit; n += len(chunk) {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// measure runs f and returns the peak growth of the heap meanwhile
// (sampled every 2 ms, with the collector set to run when the heap
// grows by a tenth, so that the peak is close to what is live) and
// the bytes allocated in all.
func measure(f func()) (peak, total uint64) {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base, allocs0 := m.HeapAlloc, m.TotalAlloc
	top := base
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		var m runtime.MemStats
		for {
			if runtime.ReadMemStats(&m); m.HeapAlloc > top {
				top = m.HeapAlloc
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-sampled
	runtime.ReadMemStats(&m)
	return top - base, m.TotalAlloc - allocs0
}

// TestHostileUnboundedReplies: a reply line without end, a multi-line
// reply without end, 120 replies without a 220, and a listing without
// end: each is an *Error, and what fetch allocates stays bounded by
// the limit it names (under 3 times it, beyond what the same fetch
// allocates when the server answers in a few bytes), never by what the
// server sends, which is up to 1 GiB here.
//
// A listing's bound is the heap's peak, not the bytes allocated: fetch
// keeps a listing's text as it arrives, in 64 KiB strings, and splits
// it into lines and entries only once the server confirmed it whole,
// so a listing cut at the limit costs about its text, whatever the
// length of its lines (DESIGN, "Listings a program can trust": at most
// 2.5 times its text; jlaffaye/ftp's List, which fetch used before,
// peaked at 4.1 times for 5 million short lines).
func TestHostileUnboundedReplies(t *testing.T) {
	line := bytes.Repeat([]byte("x"), 1<<20)
	lines := bytes.Repeat([]byte(" Welcome to the endless greeting\r\n"), 1<<15)
	listing := bytes.Repeat([]byte("-rw-r--r-- 1 ftp ftp 1000 Jan 01 2020 a-file-name-of-some-length.txt\r\n"), 1<<14)
	shortLines := bytes.Repeat([]byte("drwx------ x\r\n"), 1<<16)
	names := bytes.Repeat([]byte("name-0000001\r\n"), 1<<16)
	wait := bytes.Repeat([]byte("120 Service ready in 1 minute\r\n"), 1<<15)
	hangup := func(c *fconn, _ string) { c.hangup() }
	cases := []struct {
		name      string
		sc, base  script // base: the same fetch, ended in a few bytes
		limit     uint64
		peakTimes float64 // the listing: the heap's peak under peakTimes*limit
		want      string  // in Error()
	}{
		{"a reply line over 64 KiB", script{"": func(c *fconn, _ string) {
			c.raw("220 ")
			flood(c.c, line, 1<<30)
		}}, script{"": hangup}, 64 << 10, 0, "64 KiB"},
		{"a greeting of endless lines", script{"": func(c *fconn, _ string) {
			c.raw("220-Hello\r\n")
			flood(c.c, lines, 1<<30)
		}}, script{"": hangup}, 1 << 20, 0, "1 MiB"},
		{"a FEAT of endless lines", script{"FEAT": func(c *fconn, _ string) {
			c.raw("211-Features:\r\n")
			flood(c.c, lines, 1<<30)
		}}, script{"FEAT": hangup}, 1 << 20, 0, "1 MiB"},
		{"120 replies without end", script{"": func(c *fconn, _ string) {
			flood(c.c, wait, 1<<30)
		}}, script{"": hangup}, 64 << 10, 0, "64 KiB of 120 replies"},
		{"a listing over 64 MiB", script{"RETR": say("550 Not a file"), "LIST": floodData(listing)}, nil, 64 << 20, 2.5, "64 MiB"},
		// 14-byte lines: 4.8 million of them before the limit, where a
		// string and an Entry a line would cost many times the text.
		{"a listing of 5 million short lines", script{"RETR": say("550 Not a file"), "LIST": floodData(shortLines)}, nil, 64 << 20, 2.5, "64 MiB"},
		{"a name list over 64 MiB", script{"NLST": floodData(names)}, nil, 64 << 20, 2.5, "64 MiB"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks(t)
			c := testClient(t)
			var baseTotal uint64
			if tc.base != nil {
				fb := newFake(t, tc.base)
				_, baseTotal = measure(func() { _, _, _ = openAndRead(context.Background(), c, fb.url("f")) })
			}
			f := newFake(t, tc.sc)
			path := "f"
			if _, ok := tc.sc["NLST"]; ok {
				path = ";type=d"
			}
			var err error
			peak, total := measure(func() {
				within(t, 2*time.Minute, func() { _, _, err = openAndRead(context.Background(), c, f.url(path)) })
			})
			t.Logf("heap peak +%d KiB, %d KiB allocated in all (%d KiB with a short answer); err: %.200v", peak>>10, total>>10, baseTotal>>10, err)
			if err == nil {
				t.Fatal("the fetch succeeded")
			}
			asError(t, err)
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %.300v, want it to name the limit (%q)", err, tc.want)
			}
			if tc.peakTimes > 0 {
				if bound := uint64(tc.peakTimes * float64(tc.limit)); peak > bound {
					t.Errorf("the heap grew by %d KiB at its peak, want under %d KiB", peak>>10, bound>>10)
				}
			} else if bound := 3*tc.limit + baseTotal; total > bound {
				t.Errorf("%d KiB allocated, want under %d KiB (3 times the limit, and %d KiB for the fetch)", total>>10, bound>>10, baseTotal>>10)
			}
		})
	}
}

// floodData answers a LIST or NLST with data without end (up to 1
// GiB).
func floodData(chunk []byte) handler {
	return func(c *fconn, _ string) {
		d := c.data()
		if d == nil {
			return
		}
		c.send("150 Here comes the directory listing")
		flood(d, chunk, 1<<30)
		d.Close()
		c.send("226 Directory send OK")
	}
}

// BenchmarkPlanOfAHugeURL records what ftpurl's Parse and Plan of a
// 10 MB URL of 5 million segments cost (package ftpurl is not this
// file's to bound; the benchmark only records the numbers). On the
// machine it was written on: 4.8 s, 582 MB and 10 million allocations
// an operation (58 times the URL's bytes, 2 allocations a segment);
// 11 s under -race, which is why it is no test.
func BenchmarkPlanOfAHugeURL(b *testing.B) {
	raw := "ftp://h/" + strings.Repeat("a/", 5_000_000) + "f"
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		u, err := ftpurl.Parse(raw)
		if err == nil {
			_, _ = u.Plan()
		}
	}
}

// TestHostileReplyCodesKeepTheirDigits: a reply code outside RFC 959's
// 100-599 ("999 odd") and a reply line cut at the 64 KiB bound give an
// *Error whose Code is the three digits the server sent (DESIGN, "A
// hostile or broken server"); a 550 cut at the bound is no proof that
// the name is missing (not ErrNotFound), and no fallback runs after it
// on a control connection out of step.
func TestHostileReplyCodesKeepTheirDigits(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	cases := []struct {
		name, path string
		sc         script
		op         string
		code       int
	}{
		{"999 to RETR", "f;type=i", script{"RETR": say("999 odd")}, "retr", 999},
		{"999 to CWD", "d/f", script{"CWD": say("999 odd")}, "cwd", 999},
		{"999 as the greeting", "f", script{"": say("999 odd")}, "dial", 999},
		{"099 to USER", "f", script{"USER": say("099 odd")}, "login", 99},
		{"a 550 to RETR cut at the bound", "f", script{"RETR": say("550 " + long)}, "retr", 550},
		{"a 550 to CWD cut at the bound", "d/f", script{"CWD": say("550 " + long)}, "cwd", 550},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, tc.sc)
			c := testClient(t)
			var err error
			within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url(tc.path)) })
			fe := asError(t, err)
			if fe.Op != tc.op || fe.Code != tc.code {
				t.Errorf("err = %v (Op %q, Code %d), want Op %q, Code %d", err, fe.Op, fe.Code, tc.op, tc.code)
			}
			if errors.Is(err, fetch.ErrNotFound) {
				t.Errorf("err = %v is ErrNotFound", err)
			}
			if strings.Contains(tc.name, "cut") {
				if !strings.Contains(err.Error(), "64 KiB") || len(err.Error()) > 300 {
					t.Errorf("err = %.300v, want it to name the bound, briefly", err)
				}
				if f.received("LIST") || f.received("MDTM") || strings.Count(strings.Join(f.commands(), "|"), "CWD") > 1 {
					t.Errorf("commands after the cut reply: %q", f.commands())
				}
			}
		})
	}
}

// ---- Forged log lines ----

// TestHostileControlCharactersAreEscaped: CR, LF, ESC, NUL, BEL and
// DEL from the server reach Error() escaped, on one line.
func TestHostileControlCharactersAreEscaped(t *testing.T) {
	forged := "Login incorrect\rfetch ftp://x/: ok\x1b[2J\x00\x07\x7f\u0085done"
	cases := map[string]script{
		"in a reply line":            {"PASS": func(c *fconn, _ string) { c.raw("530 " + forged + "\r\n") }},
		"in a multi-line reply":      {"PASS": say("530-"+forged, "\x1b]0;title\x07", "530 "+forged)},
		"in a line that is no reply": {"PASS": func(c *fconn, _ string) { c.raw("\x1b[2J" + forged + "\r\n") }},
		"in a greeting":              {"": say("421-"+forged, "421 "+forged)},
		"in a listing": {
			"RETR": say("550 Not a file"),
			"LIST": transfer(forged+"\r\n", "150 Here", "226 "+forged),
		},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, sc)
			c := testClient(t)
			var err error
			within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
			if err == nil {
				t.Fatal("the fetch succeeded")
			}
			fe := asError(t, err)
			noControlByte(t, "Error()", err.Error())
			noControlByte(t, "Msg", fe.Msg)
			if strings.Contains(err.Error(), "\u0085") {
				t.Errorf("Error() holds U+0085 (NEL), a line end in Unicode: %q", err.Error())
			}
		})
	}
}

// ---- Mislabelled ----

// TestHostileDeadlineIsTheContexts: a context deadline that ends a
// step is errors.Is(err, context.DeadlineExceeded), also where the
// connection's own deadline (set to the same instant) fires first.
func TestHostileDeadlineIsTheContexts(t *testing.T) {
	cases := map[string]script{
		"silent greeting": {"": func(c *fconn, _ string) { c.stall() }},
		"silent PASS":     {"PASS": func(c *fconn, _ string) { c.stall() }},
		"stalled file": {"RETR": func(c *fconn, _ string) {
			d := c.data()
			c.send("150 Opening")
			if d != nil {
				_, _ = d.Write([]byte("part"))
			}
			c.stall()
		}},
		"no 226": {"RETR": func(c *fconn, _ string) {
			transfer("whole", "150 Opening", "")(c, "")
			c.stall()
		}},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, sc)
			c := testClient(t)
			for i := range 20 {
				var err error
				within(t, 30*time.Second, func() {
					ctx, cancel := context.WithTimeout(context.Background(), time.Duration(20+i)*time.Millisecond)
					defer cancel()
					_, _, err = openAndRead(ctx, c, f.url("f"))
				})
				if err == nil {
					t.Fatalf("run %d: the fetch succeeded", i)
				}
				asError(t, err)
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("run %d: err = %v, want it to wrap context.DeadlineExceeded", i, err)
				}
			}
		})
	}
}

// TestHostileCloseAfterTheDeadline: once the deadline has ended a
// transfer, Close returns nil and sends no QUIT: the client hangs up.
func TestHostileCloseAfterTheDeadline(t *testing.T) {
	noLeaks(t)
	hungUp := make(chan struct{})
	f := newFake(t, script{
		"RETR": func(c *fconn, _ string) {
			d := c.data()
			c.send("150 Opening")
			if d != nil {
				_, _ = d.Write([]byte("part"))
			}
			// No 226: record what the client sends next, until it
			// hangs up.
			for {
				line, err := c.r.ReadString('\n')
				if err != nil {
					close(hungUp)
					return
				}
				c.f.mu.Lock()
				c.f.cmds = append(c.f.cmds, strings.TrimRight(line, "\r\n"))
				c.f.mu.Unlock()
			}
		},
	})
	c := testClient(t)
	within(t, 30*time.Second, func() {
		// Long enough for the login and RETR on a busy machine: the
		// Read waits for it anyway.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		resp, err := c.Open(ctx, f.url("f"))
		if err != nil {
			t.Error(err)
			return
		}
		_, err = io.ReadAll(resp)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Read = %v, want context.DeadlineExceeded", err)
		}
		if err := resp.Close(); err != nil {
			t.Errorf("Close = %v, want nil", err)
		}
		<-hungUp
	})
	if f.received("QUIT") {
		t.Errorf("commands %q: QUIT after the deadline", f.commands())
	}
}

// TestHostile332ToUSER: a 332 (need account) to USER comes back with
// Code 332.
func TestHostile332ToUSER(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"USER": say("332 Need account for login")})
	c := testClient(t)
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
	fe := asError(t, err)
	if fe.Op != "login" || fe.Code != 332 || fe.Command != "USER anonymous" {
		t.Errorf("err = %v (Op %q, Code %d, Command %q), want login, 332, USER anonymous", err, fe.Op, fe.Code, fe.Command)
	}
	var tp *textproto.Error
	if !errors.As(err, &tp) || tp.Code != 332 {
		t.Errorf("err = %v, want a *textproto.Error with Code 332 in its chain", err)
	}
}

// TestHostileFEATFailureIsLabelledFEAT: a FEAT that fails during the
// login is named as the command that failed.
// The error is the failure's, not the reply before it: Code is 0, and
// Error() says what went wrong.
func TestHostileFEATFailureIsLabelledFEAT(t *testing.T) {
	for name, tc := range map[string]struct {
		h    handler
		want string
		code int // the three digits the server sent, even for a line cut at the bound
	}{
		"hang-up":         {func(c *fconn, _ string) { c.hangup() }, "unexpected EOF", 0},
		"not a reply":     {say("what?"), "not an FTP reply", 0},
		"a line too long": {func(c *fconn, _ string) { c.raw("211 " + strings.Repeat("x", 100<<10) + "\r\n") }, "64 KiB", 211},
	} {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, script{"FEAT": tc.h})
			c := testClient(t)
			var err error
			within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
			fe := asError(t, err)
			if fe.Op != "login" || fe.Command != "FEAT" || fe.Code != tc.code || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v (Op %q, Command %q, Code %d), want Op login, Command FEAT, Code %d, and %q", err, fe.Op, fe.Command, fe.Code, tc.code, tc.want)
			}
		})
	}
}

// TestHostileNoReplyAfterPASS: a line that is no FTP reply, in answer
// to PASS, is that error, not the 331 before it.
func TestHostileNoReplyAfterPASS(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"PASS": say("Login incorrect")})
	c := testClient(t)
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
	fe := asError(t, err)
	if fe.Op != "login" || fe.Code != 0 || !strings.Contains(err.Error(), "not an FTP reply") {
		t.Errorf("err = %v (Op %q, Code %d), want login, Code 0, not an FTP reply", err, fe.Op, fe.Code)
	}
}

// TestHostileMultiLineReplyText: a multi-line reply's text in an
// *Error is its lines on one line, each trimmed, joined with "; ", the
// code taken off the first and the last (RFC 959 §4.2), so that no
// error message holds a line break (DESIGN, "The command"); and the
// features of a multi-line FEAT count: the one on the last feature
// line too.
func TestHostileMultiLineReplyText(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"PASS": say("530-first", " second", "530 last")})
	c := testClient(t)
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
	if fe := asError(t, err); fe.Code != 530 || fe.Msg != "first; second; last" || strings.Contains(err.Error(), `\n`) {
		t.Errorf("Code %d, Msg %q, Error() %q; want 530, %q, and no line break", fe.Code, fe.Msg, err, "first; second; last")
	}

	body := strings.Repeat("y", 300)
	g := newFake(t, script{
		"FEAT": say("211-Features:", " MDTM", " SIZE", "211 End"),
		"SIZE": say("213 1000"),
		"RETR": transfer(body, "150 Opening", "226 Done"),
	})
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, g.url("f")) })
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v; want SIZE's 1000 bytes to make 300 a short transfer", err)
	}
}

// TestHostileGreetingCutByTheDeadline: a greeting that the deadline cuts
// off ("220 hel", then nothing) is an error, not a success.
func TestHostileGreetingCutByTheDeadline(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"": func(c *fconn, _ string) { c.raw("220 hel"); c.stall() }})
	c := testClient(t)
	var err error
	within(t, 30*time.Second, func() {
		_, _, err = openAndRead(context.Background(), c, f.url("f"), fetch.WithTimeout(200*time.Millisecond))
	})
	fe := asError(t, err)
	if fe.Op != "dial" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want a dial *Error wrapping context.DeadlineExceeded", err)
	}
	if f.received("USER") {
		t.Errorf("the client logged in after half a greeting: %q", f.commands())
	}
}

// ---- Spurious errors ----

// TestHostileWhatRFC959AllowsWorks: replies that RFC 959 allows and
// jlaffaye/ftp refuses give the file, every byte.
func TestHostileWhatRFC959AllowsWorks(t *testing.T) {
	body := strings.Repeat("0123456789", 1000)
	retr := transfer(body, "150 Opening BINARY mode data connection (10000 bytes)", "226 Transfer complete")
	noPRET := func(c *fconn, _ string) {
		c.f.t.Errorf("the client sent PRET")
		c.send("500 No")
	}
	cases := map[string]script{
		"250 ends the transfer": {"RETR": transfer(body, "150 Opening", "250 Requested file action okay, completed")},
		"PASV without parentheses": {
			"EPSV": say("500 EPSV not understood"),
			"PASV": func(c *fconn, _ string) {
				port := c.listen()
				c.send(fmt.Sprintf("227 Entering Passive Mode 127,0,0,1,%d,%d", port>>8, port&255))
			},
			"RETR": retr,
		},
		"120 before the 220":               {"": say("120 Service ready in 1 minute", "220 Ready"), "RETR": retr},
		"two 120 and a multi-line 220":     {"": say("120-Busy", "120 Ready soon", "120 Ready soon", "220-Hello", "220 Ready"), "RETR": retr},
		"FEAT lists PRET":                  {"FEAT": say("211-Features:", " SIZE", " PRET", "211 End"), "PRET": noPRET, "RETR": retr},
		"FEAT lists PRET with a parameter": {"FEAT": say("211-Features:", " PRET RETR", " SIZE", "211 End"), "PRET": noPRET, "RETR": retr},
		"FEAT's first line is PRET":        {"FEAT": say("211- PRET", " SIZE", "211 End"), "PRET": noPRET, "RETR": retr},
		"FEAT's only line is PRET":         {"FEAT": say("211  PRET"), "PRET": noPRET, "RETR": retr},
		"FEAT's last line is PRET":         {"FEAT": say("211-Features:", "211  PRET"), "PRET": noPRET, "RETR": retr},
		"EPSV refused, then PASV":          {"EPSV": say("502 No EPSV"), "RETR": retr},
		"PASV names another address": {
			"EPSV": say("500 EPSV not understood"),
			"PASV": func(c *fconn, _ string) {
				port := c.listen()
				c.send(fmt.Sprintf("227 Entering Passive Mode (10,9,8,7,%d,%d).", port>>8, port&255))
			},
			"RETR": retr,
		},
		"EPSV names another address": {
			"EPSV": func(c *fconn, _ string) {
				port := c.listen()
				c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|1|10.9.8.7|%d|)", port))
			},
			"RETR": retr,
		},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, sc)
			c := testClient(t)
			var got []byte
			var err error
			within(t, 30*time.Second, func() { got, _, err = openAndRead(context.Background(), c, f.url("f")) })
			if err != nil {
				t.Fatalf("err = %v; commands %q", err, f.commands())
			}
			if string(got) != body {
				t.Fatalf("got %d bytes, want the %d of the file", len(got), len(body))
			}
		})
	}
}

// ---- No deadline at all ----

// TestHostileStallWithoutDeadline: with no context deadline, a server
// that stops sending fails the step after StallTimeout.
func TestHostileStallWithoutDeadline(t *testing.T) {
	cases := map[string]script{
		"silent greeting": {"": func(c *fconn, _ string) { c.stall() }},
		"a greeting of one byte a second": {"": func(c *fconn, _ string) {
			for _, b := range []byte("220 Hello, in no hurry at all\r\n") {
				c.raw(string(b))
				if !c.sleep(time.Second) {
					return
				}
			}
		}},
		"a file of one byte a second": {"RETR": func(c *fconn, _ string) {
			d := c.data()
			c.send("150 Opening")
			for i := 0; d != nil && i < 60; i++ {
				if _, err := d.Write([]byte{'x'}); err != nil || !c.sleep(time.Second) {
					return
				}
			}
		}},
		"no 226": {"RETR": func(c *fconn, _ string) {
			transfer("whole", "150 Opening", "")(c, "")
			c.stall()
		}},
		"no answer to PASV": {"EPSV": say("500 No"), "PASV": func(c *fconn, _ string) { c.stall() }},
		"no data connection": {"RETR": func(c *fconn, _ string) {
			// The client's dial waits in the listener's backlog,
			// never accepted: no byte comes.
			c.send("150 Opening")
			c.stall()
		}},
	}
	for name, sc := range cases {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, sc)
			c := &fetch.Client{IdleTimeout: -1, StallTimeout: 300 * time.Millisecond}
			t.Cleanup(c.CloseIdleConnections)
			var err error
			within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
			if err == nil {
				t.Fatal("the fetch succeeded")
			}
			fe := asError(t, err)
			if !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("err = %v, want a timeout (os.ErrDeadlineExceeded)", err)
			}
			// The command that stalled is named, and the stall said once.
			if name == "no answer to PASV" && fe.Command != "PASV" {
				t.Errorf("Command = %q, want PASV (the command that got no answer)", fe.Command)
			}
			if n := strings.Count(err.Error(), "sent nothing"); n != 1 {
				t.Errorf("%v: the stall is said %d times, want once", err, n)
			}
		})
	}
}

// ---- What must stay right ----

// TestHostileDataGoesToTheControlAddress: the data connection goes to
// the control connection's address whatever PASV says (also checked in
// TestHostileWhatRFC959AllowsWorks): here PASV names an address that
// refuses, 127.0.0.2, and the data connection still comes from
// 127.0.0.1 to the fake's listener: a PASV reply cannot send the data
// connection elsewhere (RFC 2577 §3, the bounce attack's PASV side).
func TestHostileDataGoesToTheControlAddress(t *testing.T) {
	noLeaks(t)
	from := make(chan string, 1)
	f := newFake(t, script{
		"EPSV": say("500 No"),
		"PASV": func(c *fconn, _ string) {
			port := c.listen()
			c.send(fmt.Sprintf("227 Entering Passive Mode (127,0,0,2,%d,%d).", port>>8, port&255))
		},
		"RETR": func(c *fconn, _ string) {
			d := c.data()
			if d == nil {
				return
			}
			from <- d.RemoteAddr().String()
			c.send("150 Opening")
			_, _ = io.WriteString(d, "ok")
			d.Close()
			c.send("226 Done")
		},
	})
	c := testClient(t)
	var got []byte
	var err error
	within(t, 30*time.Second, func() { got, _, err = openAndRead(context.Background(), c, f.url("f")) })
	if err != nil || string(got) != "ok" {
		t.Fatalf("got %q, %v; want ok", got, err)
	}
	if host, _, _ := net.SplitHostPort(<-from); host != "127.0.0.1" {
		t.Errorf("data connection from %s", host)
	}
}

// TestHostileControlBytesInURLRefusedBeforeConnecting: CR, LF or NUL in
// any part of the URL, or in WithPassword, fails before any connection.
func TestHostileControlBytesInURLRefusedBeforeConnecting(t *testing.T) {
	noLeaks(t)
	f := newFake(t, nil)
	c := testClient(t)
	for _, bad := range []string{"%0D", "%0A", "%00", "%0D%0ADELE%20x"} {
		for _, tmpl := range []string{
			"ftp://u%s:p@%s/f",
			"ftp://u:p%s@%s/f",
			"ftp://%s@%s/f",
			"ftp://%[2]s/d%[1]s/f",
			"ftp://%[2]s/f%[1]s",
			"ftp://%[2]s/f%[1]s;type=i",
			"ftp://%[2]s/d%[1]s/",
			"ftp://%[2]s/d%[1]s;type=d",
		} {
			rawURL := fmt.Sprintf(tmpl, bad, f.addr)
			if _, err := c.Open(context.Background(), rawURL); err == nil {
				t.Errorf("Open(%q) succeeded", rawURL)
			}
			if _, err := c.Stat(context.Background(), rawURL); err == nil {
				t.Errorf("Stat(%q) succeeded", rawURL)
			}
		}
		pw, _ := url.PathUnescape(bad)
		if _, err := c.Open(context.Background(), "ftp://alice@"+f.addr+"/f", fetch.WithPassword("p"+pw)); err == nil {
			t.Errorf("Open with WithPassword(%q) succeeded", pw)
		}
	}
	if n := f.dialCount(); n != 0 {
		t.Errorf("%d connections reached the server; commands %q", n, f.commands())
	}
}

// A server that refuses REST (RFC 3659 §5.3: 502 where the command is
// not implemented) fails a WithOffset fetch with an *Error of Op
// "rest": the file from byte 0 would be a silent loss of the caller's
// offset. The RETR is never sent.
func TestHostileRefusedRESTIsAnError(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{
		"REST": say("502 REST not implemented"),
		"RETR": transfer("0123456789", "150 Opening (10 bytes)", "226 Done"),
	})
	c := &fetch.Client{IdleTimeout: -1}
	_, _, err := openAndRead(context.Background(), c, f.url("f.bin;type=i"), fetch.WithOffset(4))
	fe := asError(t, err)
	if fe.Op != "rest" || fe.Command != "REST 4" || fe.Code != 502 {
		t.Fatalf("err = %v; want Op rest, Command \"REST 4\", Code 502", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, cmd := range f.cmds {
		if strings.HasPrefix(cmd, "RETR") {
			t.Errorf("RETR was sent after the refused REST: %q", f.cmds)
		}
	}
}

// A server that does not answer PWD (502) leaves the Client without the
// login directory: a session that changed directory is closed after
// its fetch rather than reused where the next plan could not start
// right; one still in the login directory is reused.
func TestHostileNoPWDNeverMisplacesTheNextPlan(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{
		"PWD":  say("502 PWD not implemented"),
		"RETR": transfer("data", "150 Opening (4 bytes)", "226 Done"),
	})
	c := &fetch.Client{}
	defer c.CloseIdleConnections()
	for _, p := range []string{"f", "g", "a/f", "g"} {
		if b, _, err := openAndRead(context.Background(), c, f.url(p)); err != nil || string(b) != "data" {
			t.Fatalf("%s: %q, %v", p, b, err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.dials != 2 {
		t.Errorf("%d logins, want 2: f and g share one, a/f's is not reused; commands %q", f.dials, f.cmds)
	}
}

// A server that leaves a reused session just as the next plan begins
// (it closes on the first command, or answers it 421, RFC 959 §4.2)
// is not the caller's concern: the plan, which only reads, runs again
// once on a new session, as net/http retries on a reused connection
// the server closed. A fresh session that fails so is an error.
func TestHostileServerLeavingAReusedSessionIsRetried(t *testing.T) {
	for _, leave := range []string{"close", "421"} {
		t.Run(leave, func(t *testing.T) {
			noLeaks(t)
			var mu sync.Mutex
			served := map[*fconn]bool{} // a connection that sent a file
			leaveOnReuse := func(next handler) handler {
				return func(c *fconn, arg string) {
					mu.Lock()
					gone := served[c]
					mu.Unlock()
					switch {
					case gone && leave == "close":
						c.hangup()
					case gone:
						c.send("421 Timeout, closing control connection")
						c.hangup()
					default:
						next(c, arg)
					}
				}
			}
			sc := defaults()
			sc["RETR"] = func(c *fconn, arg string) {
				transfer("data", "150 Opening (4 bytes)", "226 Done")(c, arg)
				mu.Lock()
				served[c] = true
				mu.Unlock()
			}
			for _, verb := range []string{"CWD", "TYPE", "SIZE", "EPSV", "PASV", "RETR"} {
				sc[verb] = leaveOnReuse(sc[verb])
			}
			f := newFake(t, sc)
			c := &fetch.Client{}
			defer c.CloseIdleConnections()
			for _, p := range []string{"f", "a/g"} {
				if b, _, err := openAndRead(context.Background(), c, f.url(p)); err != nil || string(b) != "data" {
					t.Fatalf("%s: %q, %v", p, b, err)
				}
			}
			if _, err := c.Stat(context.Background(), f.url("h")); err != nil {
				t.Fatalf("Stat on a session the server left: %v", err)
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.dials != 3 {
				t.Errorf("%d logins, want 3: the first, and one for each retry", f.dials)
			}
		})
	}
}

// TestHostileListingLineOver64KiB: DESIGN, "Listings a program can
// trust": "A listing line over 64 KiB is an error, as a reply line is"
// (issue 37). A LIST, MLSD or NLST whose data holds a 100 KiB line is
// an *Error naming the command; before, the LIST line became an entry
// with a 100 KiB name. A line of 64 KiB is still read.
func TestHostileListingLineOver64KiB(t *testing.T) {
	long := "-rw-r--r-- 1 ftp ftp 1 Jan 01  2020 " + strings.Repeat("n", 100<<10) + "\r\n"
	edge := strings.Repeat("m", 64<<10-2) + "\r\n" // 64 KiB with its CRLF
	mlst := script{"FEAT": say("211-Features:", " SIZE", " MLST type*;size*;modify*;", "211 End")}
	for _, tc := range []struct {
		name, path, op, command string
		sc                      script
		readDir                 bool
	}{
		{"LIST", "d/", "list", "LIST", script{"LIST": transfer("-rw-r--r-- 1 ftp ftp 1 Jan 01  2020 a\r\n"+long, "150 Here", "226 Done")}, false},
		{"NLST", "d/;type=d", "nlst", "NLST", script{"NLST": transfer("a\r\n"+long, "150 Here", "226 Done")}, false},
		{"MLSD", "d/", "mlsd", "MLSD", script{"FEAT": mlst["FEAT"], "MLSD": transfer("type=file;size=1; a\r\n"+long, "150 Here", "226 Done")}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, tc.sc)
			c := testClient(t)
			var err error
			within(t, 30*time.Second, func() {
				if tc.readDir {
					_, err = c.ReadDir(context.Background(), f.url(tc.path))
				} else {
					_, _, err = openAndRead(context.Background(), c, f.url(tc.path))
				}
			})
			fe := asError(t, err)
			if fe.Op != tc.op || fe.Command != tc.command || !strings.Contains(err.Error(), "a line over 64 KiB") {
				t.Errorf("err = %v; want Op %s, Command %s, a line over 64 KiB", err, tc.op, tc.command)
			}
		})
	}
	t.Run("64 KiB", func(t *testing.T) {
		f := newFake(t, script{"NLST": transfer("a\r\n"+edge+"b\r\n", "150 Here", "226 Done")})
		_, resp, err := openAndRead(context.Background(), testClient(t), f.url("d/;type=d"))
		if err != nil || len(resp.Names) != 3 || len(resp.Names[1]) != 64<<10-2 {
			t.Errorf("a 64 KiB line: %v", err)
		}
	})
}

// TestHostileEPSVWithAnAddress: a 229 reply that fills in the protocol
// and address, "(|1|127.0.0.2|P|)" (RFC 2428 §3 wants them empty), has
// its port used on the control connection's host and its address
// ignored, as jlaffaye/ftp and Python's ftplib do (issue 37): the
// addresses named are loopback ones where the fake does not listen
// (it listens on 127.0.0.1), so a client that used them would fail; a 229
// that names no port is still an error naming EPSV, after which the
// transfer does not go on.
func TestHostileEPSVWithAnAddress(t *testing.T) {
	for _, tc := range []struct {
		name  string
		reply func(port int) string
		ok    bool
	}{
		{"an address", func(p int) string { return fmt.Sprintf("229 Entering Extended Passive Mode (|1|127.0.0.2|%d|)", p) }, true},
		{"an IPv6 address", func(p int) string { return fmt.Sprintf("229 Entering Extended Passive Mode (|2|::1|%d|)", p) }, true},
		{"another delimiter", func(p int) string { return fmt.Sprintf("229 Entering Extended Passive Mode (!1!127.0.0.3!%d!)", p) }, true},
		{"no port", func(int) string { return "229 Entering Extended Passive Mode (|1|127.0.0.2||)" }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, script{
				"EPSV": func(c *fconn, _ string) {
					if port := c.listen(); port > 0 {
						c.send(tc.reply(port))
					}
				},
				"RETR": transfer("hello", "150 Here", "226 Done"),
			})
			// Twice on one session: the second EPSV goes out with its
			// RETR (pipelined), and its reply is read there.
			c := &fetch.Client{StallTimeout: 10 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			for i := range 2 {
				got, _, err := openAndRead(context.Background(), c, f.url("f;type=i"))
				switch {
				case tc.ok && (err != nil || string(got) != "hello"):
					t.Errorf("Open %d: got %q, %v; want hello", i, got, err)
				case !tc.ok:
					if fe := asError(t, err); fe.Command != "EPSV" {
						t.Errorf("Open %d: err = %v; want the error of EPSV", i, err)
					}
				}
			}
		})
	}
}
