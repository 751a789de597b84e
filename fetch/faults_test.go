package fetch_test

// Faults and load (issue 28; DESIGN, "Faults and load"): fetch
// recovers where net/http would, waits out a server's connection
// limit, and spends one StallTimeout on one stall. The faults are
// real: a faultNet relays every connection and breaks it, a scripted
// server stalls, refuses or hangs up, and real servers are limited and
// restarted. Each test is bounded in time (within) and checks every
// byte it fetched.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// ---- Retries (DESIGN: "Retries as net/http makes them") ----

// TestRestartWhileIdle: the server restarts while the Client holds
// idle sessions, and its FINs are lost: each idle session looks alive
// and dies on its first command with a reset. Every Open, Stat,
// ReadDir, Walk and Put that follows succeeds, on the five servers:
// each runs again while the session that failed was a reused one.
func TestRestartWhileIdle(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			want := randomBytes(100 << 10)
			srv, rel, abs := placeFiles(t, name, "restart", map[string][]byte{"f.bin": want})
			base := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/" + rel + "/"
			fn := newFaultNet(t)
			fn.loseFINs = true
			c := &fetch.Client{DialContext: fn.DialContext, MaxConnsPerHost: 4, StallTimeout: 20 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			ctx := context.Background()

			restart := func() {
				t.Helper()
				holdIdle(t, c, base+"f.bin", want, 4)
				fn.drop()
			}
			within(t, 2*time.Minute, func() {
				restart()
				// 20 Opens from 4 goroutines.
				var wg sync.WaitGroup
				errs := make(chan error, 20)
				for g := 0; g < 4; g++ {
					wg.Go(func() {
						for i := 0; i < 5; i++ {
							got, _, err := openAndRead(ctx, c, base+"f.bin")
							if err == nil && !bytes.Equal(got, want) {
								err = fmt.Errorf("got %d bytes, not the file's %d", len(got), len(want))
							}
							errs <- err
						}
					})
				}
				wg.Wait()
				close(errs)
				for err := range errs {
					if err != nil {
						t.Errorf("Open after the restart: %v", err)
					}
				}

				restart()
				if fi, err := c.Stat(ctx, base+"f.bin"); err != nil || fi.Size() != int64(len(want)) {
					t.Errorf("Stat after the restart: %v, %v", fi, err)
				}
				restart()
				if ents, err := c.ReadDir(ctx, base); err != nil || len(ents) != 1 || ents[0].Name != "f.bin" {
					t.Errorf("ReadDir after the restart: %v, %v", ents, err)
				}
				restart()
				var walked []string
				err := c.Walk(ctx, base, func(_ string, e fetch.Entry, err error) error {
					walked = append(walked, e.Name)
					return err
				})
				if err != nil || len(walked) != 2 {
					t.Errorf("Walk after the restart: %q, %v", walked, err)
				}
				restart()
				if n, err := c.Put(ctx, base+"g.bin", bytes.NewReader(want)); err != nil || n != int64(len(want)) {
					t.Errorf("Put after the restart: %d, %v", n, err)
				} else if got, _ := os.ReadFile(filepath.Join(abs, "g.bin")); !bytes.Equal(got, want) {
					t.Errorf("Put after the restart stored %d bytes, not the %d sent", len(got), len(want))
				}
			})
		})
	}
}

// placeFiles writes files into a directory of the tree that server
// name serves (upDir, removed when the test ends), and returns the
// server, the directory as a URL path and on disk.
func placeFiles(t *testing.T, name, label string, files map[string][]byte) (srv *server, rel, abs string) {
	t.Helper()
	srv = need(t, name)
	rel, abs = upDir(t, label+"-"+name)
	for file, data := range files {
		if err := os.WriteFile(filepath.Join(abs, file), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return srv, rel, abs
}

// TestRetryTakesANewSession: after a restart that left 4 idle sessions
// dead, an Open tries one of them, then a new session (DESIGN: "run
// again on a fresh session"), not each dead one in turn; the next Open
// tries the next dead one, and so on.
func TestRetryTakesANewSession(t *testing.T) {
	srv := need(t, "ftpserverlib")
	fn := newFaultNet(t)
	fn.loseFINs = true
	c := &fetch.Client{DialContext: fn.DialContext, MaxConnsPerHost: 8, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	rawURL := "ftp://" + srv.addr + "/binary.bin"
	within(t, time.Minute, func() {
		holdIdle(t, c, rawURL, binaryFile(), 4)
		fn.drop()
		if got, _, err := openAndRead(context.Background(), c, rawURL); err != nil || !bytes.Equal(got, binaryFile()) {
			t.Fatalf("Open after the restart: %d bytes, %v", len(got), err)
		}
		if n := fn.deadHit.Load(); n != 1 {
			t.Errorf("the Open met %d dead sessions, want 1: the retry takes a new session", n)
		}
	})
}

// holdIdle leaves n idle sessions in c: n Opens of rawURL at once,
// each read to its end (and checked) once all have begun.
func holdIdle(t *testing.T, c *fetch.Client, rawURL string, want []byte, n int) {
	t.Helper()
	var resps []*fetch.Response
	for i := 0; i < n; i++ {
		resp, err := c.Open(context.Background(), rawURL)
		if err != nil {
			t.Fatalf("Open %d of %d: %v", i+1, n, err)
		}
		resps = append(resps, resp)
	}
	for _, resp := range resps {
		got, err := io.ReadAll(resp)
		resp.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("read %d bytes, %v; want the file's %d", len(got), err, len(want))
		}
	}
}

// TestRetryEndsWithANewSession: a failure of a new session is the
// caller's, and a server that drops every session on its first command
// does not make Open loop: it fails once the sessions it reused are
// spent and a new one has failed too.
func TestRetryEndsWithANewSession(t *testing.T) {
	noLeaks(t)
	var logins atomic.Int32
	f := newFake(t, script{
		"PASS": func(c *fconn, _ string) { logins.Add(1); c.send("230 Logged in") },
		"RETR": func(c *fconn, _ string) { c.hangup() },
	})
	c := &fetch.Client{MaxConnsPerHost: 3}
	t.Cleanup(c.CloseIdleConnections)
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
	fe := asError(t, err)
	if fe.Command != "RETR f" || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v; want RETR f, the connection's end", err)
	}
	if n := logins.Load(); n != 1 {
		t.Errorf("%d logins, want 1: a new session's failure is not retried", n)
	}
}

// ---- The server's connection limit ----

// limitedFake is a scripted server that takes at most max control
// connections at once and greets the others with 421 (RFC 959 §5.4),
// as vsftpd's max_per_ip does. It counts the 421s.
func limitedFake(t *testing.T, max int) (f *fake, refused *atomic.Int32) {
	var mu sync.Mutex
	live := 0
	refused = new(atomic.Int32)
	f = newFake(t, script{
		"": func(c *fconn, _ string) {
			mu.Lock()
			if live >= max {
				mu.Unlock()
				refused.Add(1)
				c.send("421 There are too many connections from your internet address.")
				c.hangup()
				return
			}
			live++
			mu.Unlock()
			// The slot is taken until the connection ends.
			c.onClose = func() { mu.Lock(); live--; mu.Unlock() }
			c.send("220 fake FTP server ready")
		},
		"RETR": transfer("limited", "150 Opening (7 bytes)", "226 Done"),
	})
	return f, refused
}

// TestConnectionLimitIsWaitedOut: a server that takes 2 sessions and a
// Client that allows 8: none of 400 Opens from 16 goroutines fails
// (DESIGN: "A server limited to 2 sessions and a Client allowing 8 lose
// no Open"). After IdleTimeout the Client tries more sessions again.
func TestConnectionLimitIsWaitedOut(t *testing.T) {
	noLeaks(t)
	f, refused := limitedFake(t, 2)
	c := &fetch.Client{MaxConnsPerHost: 8, IdleTimeout: 300 * time.Millisecond, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	within(t, time.Minute, func() { manyOpens(t, c, f.url("f"), "limited", 16, 25) })
	first := refused.Load()
	if first == 0 {
		t.Fatal("the server refused no session: the test did not reach the limit")
	}
	t.Logf("the server refused %d sessions; %d logins in all", first, f.dialCount()-int(first))
	// The limit lasts IdleTimeout: the next burst tries again, and
	// still loses nothing. A Response held open keeps the server's
	// entry in the Client (and its limit) while the idle sessions
	// expire.
	held, err := c.Open(context.Background(), f.url("f"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	time.Sleep(400 * time.Millisecond)
	within(t, time.Minute, func() { manyOpens(t, c, f.url("f"), "limited", 16, 2) })
	if refused.Load() == first {
		t.Error("after IdleTimeout the Client did not try a third session: the limit did not rise again")
	}
}

// manyOpens runs per Opens of rawURL from each of g goroutines, and
// fails the test for each that fails or reads other than want.
func manyOpens(t *testing.T, c *fetch.Client, rawURL, want string, g, per int) {
	t.Helper()
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range g {
		wg.Go(func() {
			for range per {
				got, _, err := openAndRead(context.Background(), c, rawURL)
				if err != nil || string(got) != want {
					if failed.Add(1) <= 3 {
						t.Errorf("Open: %q, %v", got, err)
					}
				}
			}
		})
	}
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d Opens failed", n, g*per)
	}
}

// TestLoginLimitIsWaitedOut: a server that greets every connection and
// refuses PASS beyond 2 logged-in sessions (ProFTPD's MaxClientsPerHost)
// loses none of 200 Opens of a Client allowing 8; a wrong password is
// still an error at once.
func TestLoginLimitIsWaitedOut(t *testing.T) {
	noLeaks(t)
	var mu sync.Mutex
	live := 0
	f := newFake(t, script{
		"PASS": func(c *fconn, arg string) {
			mu.Lock()
			defer mu.Unlock()
			if arg != "secret" || live >= 2 {
				c.send("530 Sorry, the maximum number of clients (2) from your host are already connected.")
				c.hangup()
				return
			}
			live++
			c.onClose = func() { mu.Lock(); live--; mu.Unlock() }
			c.send("230 Logged in")
		},
		"RETR": transfer("limited", "150 Opening (7 bytes)", "226 Done"),
	})
	c := &fetch.Client{MaxConnsPerHost: 8, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	within(t, time.Minute, func() { manyOpens(t, c, "ftp://u:secret@"+f.addr+"/f", "limited", 16, 12) })
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, "ftp://u:wrong@"+f.addr+"/f") })
	if fe := asError(t, err); fe.Op != "login" || fe.Code != 530 {
		t.Errorf("a wrong password: %v; want Op login, Code 530", err)
	}
	// 16 at once with a wrong password: each fails, none waits for ever.
	var wg sync.WaitGroup
	within(t, 30*time.Second, func() {
		for range 16 {
			wg.Go(func() {
				_, _, err := openAndRead(context.Background(), c, "ftp://v:wrong@"+f.addr+"/f")
				var fe *fetch.Error
				if !errors.As(err, &fe) || fe.Op != "login" || fe.Code != 530 {
					t.Errorf("a wrong password, 16 at once: %v; want Op login, Code 530", err)
				}
			})
		}
		wg.Wait()
	})
}

// TestConnectionLimitWithNoSessionIsAnError: a 421 greeting when the
// Client holds no other session of that server is the caller's error;
// an Open waiting for a session at the learnt limit ends with its
// context.
func TestConnectionLimitWithNoSessionIsAnError(t *testing.T) {
	noLeaks(t)
	f, _ := limitedFake(t, 0)
	c := &fetch.Client{MaxConnsPerHost: 8}
	t.Cleanup(c.CloseIdleConnections)
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(context.Background(), c, f.url("f")) })
	if fe := asError(t, err); fe.Op != "dial" || fe.Code != 421 {
		t.Errorf("err = %v; want Op dial, Code 421", err)
	}

	g, _ := limitedFake(t, 1)
	held, err := c.Open(context.Background(), g.url("f"))
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	within(t, 30*time.Second, func() { _, _, err = openAndRead(ctx, c, g.url("f")) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v; want the context's deadline while the one session is busy", err)
	}
	if got, err := io.ReadAll(held); err != nil || string(got) != "limited" {
		t.Errorf("the session held meanwhile read %q, %v", got, err)
	}
}

// ---- One stall, one StallTimeout ----

// TestOneStallOneStallTimeout: wherever the server stops, the step
// fails after one StallTimeout (not two: a stalled transfer does not
// wait again for its final reply, a stalled EPSV is not followed by
// PASV), with a timeout error that names the command that stalled and
// says the stall once. The bound below leaves a StallTimeout's room
// for a busy machine: a second wait would cross it.
func TestOneStallOneStallTimeout(t *testing.T) {
	noLeaks(t)
	const stall = time.Second
	silent := func(c *fconn, _ string) { c.stall() }
	dataThenStall := func(n int) handler {
		return func(c *fconn, _ string) {
			d := c.data()
			if d == nil {
				return
			}
			c.send("150 Opening BINARY mode data connection (1000 bytes)")
			_, _ = d.Write(make([]byte, n))
			c.stall()
		}
	}
	type action func(ctx context.Context, c *fetch.Client, f *fake) error
	open := func(path string) action {
		return func(ctx context.Context, c *fetch.Client, f *fake) error {
			_, _, err := openAndRead(ctx, c, f.url(path))
			return err
		}
	}
	cases := []struct {
		name    string
		sc      script
		act     action
		command string // the command named; "" for the greeting
		reuse   bool   // a first Open makes the session's EPSV go out with RETR
	}{
		{"greeting", script{"": silent}, open("f"), "", false},
		{"USER", script{"USER": silent}, open("f"), "USER anonymous", false},
		{"PWD", script{"PWD": silent}, open("f"), "PWD", false},
		{"CWD", script{"CWD": silent}, open("d/f"), "CWD d", false},
		{"SIZE", script{"SIZE": silent}, open("f"), "SIZE f", false},
		{"EPSV", script{"EPSV": silent}, open("f"), "EPSV", false},
		{"EPSV sent with RETR", script{"RETR": func(c *fconn, arg string) {
			if arg == "first" {
				transfer("1", "150 Opening", "226 Done")(c, arg)
				return
			}
			c.stall()
		}}, open("f;type=i"), "RETR f", true},
		{"PASV", script{"EPSV": say("500 no"), "PASV": silent}, open("f"), "PASV", false},
		{"RETR", script{"RETR": silent}, open("f"), "RETR f", false},
		{"the first byte", script{"RETR": dataThenStall(0)}, open("f"), "RETR f", false},
		{"mid-file, no typecode", script{"RETR": dataThenStall(100)}, open("f"), "RETR f", false},
		{"mid-file, ;type=i", script{"RETR": dataThenStall(100)}, open("f;type=i"), "RETR f", false},
		{"the final reply", script{"RETR": func(c *fconn, arg string) {
			transfer("whole", "150 Opening", "")(c, arg)
			c.stall()
		}}, open("f"), "RETR f", false},
		{"LIST", script{"LIST": dataThenStall(10)}, open("d/"), "LIST", false},
		{"MLST", script{"FEAT": say("211-Features:", " MLST type*;size*;", "211 End"), "MLST": silent},
			func(ctx context.Context, c *fetch.Client, f *fake) error {
				_, err := c.Stat(ctx, f.url("f"))
				return err
			}, "MLST f", false},
		{"STOR's final reply", script{"STOR": func(c *fconn, _ string) {
			d := c.data()
			if d == nil {
				return
			}
			c.send("150 Ok to send data.")
			_, _ = io.Copy(io.Discard, d)
			c.stall()
		}}, func(ctx context.Context, c *fetch.Client, f *fake) error {
			_, err := c.Put(ctx, f.url("up"), strings.NewReader("data"))
			return err
		}, "STOR up", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, tc.sc)
			c := &fetch.Client{StallTimeout: stall}
			t.Cleanup(c.CloseIdleConnections)
			ctx := context.Background()
			if tc.reuse {
				if _, _, err := openAndRead(ctx, c, f.url("first;type=i")); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			var took time.Duration
			within(t, 30*time.Second, func() {
				start := time.Now()
				err = tc.act(ctx, c, f)
				took = time.Since(start)
			})
			fe := asError(t, err)
			if !errors.Is(err, os.ErrDeadlineExceeded) || !fe.Timeout() {
				t.Errorf("err = %v; want a timeout", err)
			}
			if fe.Command != tc.command {
				t.Errorf("Command = %q, want %q (the command that stalled): %v", fe.Command, tc.command, err)
			}
			if n := strings.Count(err.Error(), "sent nothing"); n != 1 {
				t.Errorf("%v: the stall is said %d times, want once", err, n)
			}
			if took >= 2*stall {
				t.Errorf("took %v: more than one StallTimeout (%v)", took, stall)
			}
			if tc.name == "EPSV" && f.received("PASV") {
				t.Errorf("PASV went out after EPSV stalled: %q", f.commands())
			}
		})
	}
}

// ---- Every Command was sent ----

// TestErrorCommandIsWhatWasSent: whatever command the server refuses,
// drops or answers with a hangup, the *Error's Command is a line that
// went out on the control connection, never one fetch made up, such as
// "CWD " after a login directory that vanished.
func TestErrorCommandIsWhatWasSent(t *testing.T) {
	verbs := []string{"USER", "PASS", "FEAT", "PWD", "CWD", "TYPE", "SIZE", "MDTM", "MLST", "EPSV", "PASV", "RETR", "LIST", "NLST", "MLSD", "REST", "STOR", "APPE", "MKD", "RNFR", "RNTO"}
	modes := map[string]func(verb string) handler{
		"550":    func(string) handler { return say("550 No.") },
		"421":    func(string) handler { return func(c *fconn, _ string) { c.send("421 Bye."); c.hangup() } },
		"hangup": func(string) handler { return func(c *fconn, _ string) { c.hangup() } },
	}
	type action struct {
		name string
		run  func(c *fetch.Client, f *fake) error
	}
	ctx := context.Background()
	open := func(path string, opts ...fetch.Option) func(c *fetch.Client, f *fake) error {
		return func(c *fetch.Client, f *fake) error {
			_, _, err := openAndRead(ctx, c, f.url(path), opts...)
			return err
		}
	}
	actions := []action{
		{"open", open("d/f")},
		{"open typed", open("d/f;type=i", fetch.WithOffset(2))},
		{"open dir", open("d/")},
		{"nlst", open("d;type=d")},
		{"stat", func(c *fetch.Client, f *fake) error { _, err := c.Stat(ctx, f.url("d/f")); return err }},
		{"readdir", func(c *fetch.Client, f *fake) error { _, err := c.ReadDir(ctx, f.url("d/")); return err }},
		{"put", func(c *fetch.Client, f *fake) error {
			_, err := c.Put(ctx, f.url("d/f"), strings.NewReader("x"), fetch.WithCreateDirs(), fetch.WithTempName())
			return err
		}},
		{"append", func(c *fetch.Client, f *fake) error {
			_, err := c.Put(ctx, f.url("f"), strings.NewReader("x"), fetch.WithOffset(1))
			return err
		}},
	}
	served := script{
		"FEAT": say("211-Features:", " SIZE", " MDTM", " MLST type*;size*;", "211 End"),
		"SIZE": say("213 1"),
		"MDTM": say("213 20260101000000"),
		"MLST": say("250-Listing", " type=file;size=1; /d/f", "250 End"),
		"REST": say("350 Restarting"),
		"RETR": transfer("file", "150 Opening", "226 Done"),
		"LIST": transfer("-rw-r--r-- 1 u g 1 Jan 1 2026 f\r\n", "150 Opening", "226 Done"),
		"NLST": transfer("f\r\n", "150 Opening", "226 Done"),
		"MLSD": transfer("type=file;size=1; f\r\n", "150 Opening", "226 Done"),
		"STOR": storeAny,
		"APPE": storeAny,
		"MKD":  say(`257 "d" created`),
		"RNFR": say("350 Ready"),
		"RNTO": say("250 Renamed"),
		"DELE": say("250 Deleted"),
	}
	for _, verb := range verbs {
		for mode, h := range modes {
			t.Run(verb+"/"+mode, func(t *testing.T) {
				sc := script{}
				for k, v := range served {
					sc[k] = v
				}
				sc[verb] = h(verb)
				f := newFake(t, sc)
				c := &fetch.Client{StallTimeout: 10 * time.Second}
				t.Cleanup(c.CloseIdleConnections)
				checked := 0
				for _, a := range actions {
					var err error
					within(t, 30*time.Second, func() { err = a.run(c, f) })
					var fe *fetch.Error
					if !errors.As(err, &fe) || fe.Command == "" {
						continue
					}
					checked++
					sent := f.commands()
					if !slices.Contains(sent, fe.Command) {
						t.Errorf("%s: Command %q was never sent (%v); sent: %q", a.name, fe.Command, err, sent)
					}
				}
				// A server that leaves at the verb fails some action
				// with a command named (a 550 may be no error at all:
				// PWD's, FEAT's).
				if mode != "550" && checked == 0 {
					t.Errorf("no action failed with a command named: the case tested nothing")
				}
			})
		}
	}
}

// storeAny takes a STOR or APPE's bytes and confirms them.
func storeAny(c *fconn, _ string) {
	d := c.data()
	if d == nil {
		return
	}
	c.send("150 Ok to send data.")
	_, _ = io.Copy(io.Discard, d)
	d.Close()
	c.send("226 Transfer complete.")
}

// TestLostLoginDirectoryNamesItsCWD: a reused session whose login
// directory has gone fails with the CWD it sent to go back there
// (before, the message read "cwd (CWD ): ...").
func TestLostLoginDirectoryNamesItsCWD(t *testing.T) {
	noLeaks(t)
	var home atomic.Bool
	home.Store(true)
	f := newFake(t, script{
		"PWD": say(`257 "/home/gone" is the current directory`),
		"CWD": func(c *fconn, arg string) {
			if arg == "/home/gone" && !home.Load() {
				c.send("550 /home/gone: No such file or directory")
				return
			}
			c.send("250 Directory changed")
		},
		"RETR": transfer("data", "150 Opening (4 bytes)", "226 Done"),
	})
	c := &fetch.Client{}
	t.Cleanup(c.CloseIdleConnections)
	if _, _, err := openAndRead(context.Background(), c, f.url("d/f")); err != nil {
		t.Fatal(err)
	}
	home.Store(false)
	_, _, err := openAndRead(context.Background(), c, f.url("f"))
	fe := asError(t, err)
	if fe.Command != "CWD /home/gone" || fe.Code != 550 || !strings.Contains(err.Error(), "cwd (CWD /home/gone): 550") {
		t.Errorf("err = %v (Command %q); want cwd (CWD /home/gone): 550", err, fe.Command)
	}
}

// ---- Resets on data connections, resumed until whole ----

// TestDataResetsResumedUntilWhole: every data connection of a RETR is
// reset after a number of bytes; each Read error says so (ECONNRESET,
// never io.EOF), and Opens WithOffset from what has arrived get the
// whole file, every byte checked, on the five servers.
func TestDataResetsResumedUntilWhole(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			want := randomBytes(1 << 20)
			srv, rel, _ := placeFiles(t, name, "resets", map[string][]byte{"f.bin": want})
			rawURL := "ftp://" + srv.addr + "/" + rel + "/f.bin"
			fn := newFaultNet(t)
			var resets atomic.Int32
			fn.onDial = func(l *link) {
				// Data connections (not the server's port), the first
				// six: each is cut 1 to 200 KiB in.
				if l.addr != srv.addr && resets.Load() < 6 {
					resets.Add(1)
					l.resetAt = int64(1 + (l.n*7919)%(200<<10))
				}
			}
			c := &fetch.Client{DialContext: fn.DialContext, StallTimeout: 20 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			var got []byte
			failures := 0
			within(t, 2*time.Minute, func() {
				for try := 0; try < 20 && len(got) < len(want); try++ {
					resp, err := c.Open(context.Background(), rawURL, fetch.WithOffset(int64(len(got))))
					if err != nil {
						t.Errorf("Open at %d: %v", len(got), err)
						failures++
						continue
					}
					b, err := io.ReadAll(resp)
					resp.Close()
					if !bytes.Equal(b, want[len(got):len(got)+len(b)]) {
						t.Fatalf("bytes %d-%d differ from the file's", len(got), len(got)+len(b))
					}
					got = append(got, b...)
					if err != nil {
						failures++
						fe := asError(t, err)
						if fe.Op != "retr" || !errors.Is(err, syscall.ECONNRESET) && !errors.Is(err, io.ErrUnexpectedEOF) {
							t.Errorf("a reset read as %v; want Op retr, ECONNRESET or a short transfer", err)
						}
					}
				}
			})
			if !bytes.Equal(got, want) {
				t.Fatalf("got %d bytes of %d", len(got), len(want))
			}
			if failures == 0 {
				t.Error("no transfer was cut: the test tested nothing")
			}
			t.Logf("%d transfers cut, the file whole after %d", failures, failures+1)
		})
	}
}

// ---- On vsftpd itself: its connection limit, and a real restart ----

// startOwnVsftpd starts a vsftpd of the test's own (plain, anonymous and
// the password user, the run's tree), stopped when the test ends.
func startOwnVsftpd(t *testing.T, c vsftpdConf) instance {
	t.Helper()
	need(t, "vsftpd")
	inst := testRun.startVsftpdWith(c)
	if inst.err != nil {
		missing(t, c.name, inst.err)
	}
	t.Cleanup(func() {
		if inst.stop != nil {
			inst.stop()
		}
	})
	return inst
}

// TestConnectionLimitOfVsftpd: vsftpd with max_per_ip=2 greets a third
// session with "421 There are too many connections from your internet
// address."; a Client allowing 8 loses none of 400 Opens from 16
// goroutines.
func TestConnectionLimitOfVsftpd(t *testing.T) {
	inst := startOwnVsftpd(t, vsftpdConf{name: "vsftpd-limit", maxPerIP: 2})
	fn := newFaultNet(t) // no faults: it counts the connections
	c := &fetch.Client{DialContext: fn.DialContext, MaxConnsPerHost: 8, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	within(t, 2*time.Minute, func() { manyOpens(t, c, "ftp://"+inst.addr+"/text.txt", textFile, 16, 25) })
	sessions := 0
	fn.mu.Lock()
	for _, l := range fn.links {
		if l.addr == inst.addr {
			sessions++
		}
	}
	fn.mu.Unlock()
	if sessions <= 2 {
		t.Errorf("%d sessions dialed: the Client never met the limit", sessions)
	}
	t.Logf("%d sessions dialed for 400 Opens, %d of them turned away", sessions, sessions-2)
}

// TestConnectionLimitOfProftpd: ProFTPD with MaxClientsPerHost 2
// greets a third session and refuses its PASS with 530; as the Client
// holds sessions of that user and password, the 530 is the limit, not a
// wrong password, and none of 200 Opens from 16 goroutines fails.
func TestConnectionLimitOfProftpd(t *testing.T) {
	need(t, "proftpd")
	inst := testRun.startProftpdWith("proftpd-limit", plainFTP, 2)
	if inst.err != nil {
		missing(t, "proftpd-limit", inst.err)
	}
	t.Cleanup(inst.stop)
	c := &fetch.Client{MaxConnsPerHost: 8, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	base := "ftp://" + testUser + ":" + testPassword + "@" + inst.addr + "/"
	within(t, 2*time.Minute, func() { manyOpens(t, c, base+"text.txt", textFile, 16, 12) })

	// A wrong password is still the caller's error, at once.
	_, _, err := openAndRead(context.Background(), c, "ftp://"+testUser+":wrong@"+inst.addr+"/text.txt")
	if fe := asError(t, err); fe.Op != "login" || fe.Code != 530 {
		t.Errorf("a wrong password: %v; want Op login, Code 530", err)
	}
}

// TestRestartOfVsftpd: vsftpd is stopped and started again on its port
// while the Client holds 4 idle sessions whose FINs are lost; the 20
// Opens that follow all succeed.
func TestRestartOfVsftpd(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	conf := vsftpdConf{name: "vsftpd-restart", port: port, pasvFirst: testRun.pasvPorts()}
	inst := startOwnVsftpd(t, conf)
	fn := newFaultNet(t)
	fn.loseFINs = true
	c := &fetch.Client{DialContext: fn.DialContext, MaxConnsPerHost: 4, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	rawURL := "ftp://" + inst.addr + "/binary.bin"
	within(t, 2*time.Minute, func() {
		holdIdle(t, c, rawURL, binaryFile(), 4)
		fn.cut()
		inst.stop()
		inst.stop = nil
		again := startOwnVsftpd(t, conf)
		if again.addr != inst.addr {
			t.Fatalf("restarted on %s, not %s", again.addr, inst.addr)
		}
		before := fn.dials()
		for i := 0; i < 20; i++ {
			got, _, err := openAndRead(context.Background(), c, rawURL)
			if err != nil || !bytes.Equal(got, binaryFile()) {
				t.Errorf("Open %d after the restart: %d bytes, %v", i+1, len(got), err)
			}
		}
		t.Logf("%d connections after the restart", fn.dials()-before)
	})
}

// TestRefusedConnectionsAreWaitedOut: a server (or a firewall before
// it) that refuses connections beyond 2 from one address, with a
// connection refused (ECONNREFUSED) rather than a 421: a Client
// allowing 8 loses none of 200 Opens from 16 goroutines.
func TestRefusedConnectionsAreWaitedOut(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"RETR": transfer("limited", "150 Opening (7 bytes)", "226 Done")})
	var mu sync.Mutex
	live, refused := 0, 0
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if addr != f.addr {
			var d net.Dialer
			return d.DialContext(ctx, network, addr) // data connections
		}
		mu.Lock()
		defer mu.Unlock()
		if live >= 2 {
			refused++
			return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		live++
		return &onClose{Conn: c, close: func() { mu.Lock(); live--; mu.Unlock() }}, nil
	}
	c := &fetch.Client{DialContext: dial, MaxConnsPerHost: 8, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	within(t, time.Minute, func() { manyOpens(t, c, f.url("f"), "limited", 16, 12) })
	mu.Lock()
	defer mu.Unlock()
	if refused == 0 {
		t.Error("no connection was refused: the test did not reach the limit")
	}
}

// onClose is a net.Conn that runs close once, when it is closed.
type onClose struct {
	net.Conn
	once  sync.Once
	close func()
}

func (c *onClose) Close() error {
	c.once.Do(c.close)
	return c.Conn.Close()
}

// ---- Found in review ----

// TestPipelined421IsRetried: a reused session sends EPSV and RETR in
// one write; the server, shutting down, names a port it has closed and
// answers RETR with 421 (RFC 959 §4.2): the 421, not the data
// connection's refusal, is the error, and the Open runs again on a new
// session.
func TestPipelined421IsRetried(t *testing.T) {
	var mu sync.Mutex
	epsvs := 0
	dying := map[*fconn]bool{}
	f := newFake(t, script{
		"EPSV": func(c *fconn, _ string) {
			mu.Lock()
			epsvs++
			n := epsvs
			mu.Unlock()
			if n == 2 { // the reused session's pipelined EPSV
				l, _ := net.Listen("tcp", "127.0.0.1:0")
				port := l.Addr().(*net.TCPAddr).Port
				l.Close()
				mu.Lock()
				dying[c] = true
				mu.Unlock()
				c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
				return
			}
			if port := c.listen(); port > 0 {
				c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
			}
		},
		"RETR": func(c *fconn, arg string) {
			mu.Lock()
			d := dying[c]
			mu.Unlock()
			if d {
				c.send("421 Service not available, closing control connection.")
				c.hangup()
				return
			}
			transfer("hello", "150 Opening (5 bytes)", "226 Done")(c, arg)
		},
	})
	c := &fetch.Client{StallTimeout: 5 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	if got, _, err := openAndRead(context.Background(), c, f.url("f")); err != nil || string(got) != "hello" {
		t.Fatalf("first Open: %q, %v", got, err)
	}
	got, _, err := openAndRead(context.Background(), c, f.url("f"))
	if err != nil {
		fe := asError(t, err)
		t.Errorf("second Open (reused session, server said 421): %v (Code %d, Command %q); want it run again on a new session", err, fe.Code, fe.Command)
	} else if string(got) != "hello" {
		t.Errorf("got %q", got)
	}
}

// Test421FinalReplyIsReadOnce: a 421 as the final reply of an empty
// transfer, on a control connection the server keeps open, fails the
// Open at once: the final reply is read once, never waited for again.
func Test421FinalReplyIsReadOnce(t *testing.T) {
	f := newFake(t, script{
		"RETR": func(c *fconn, _ string) {
			d := c.data()
			if d == nil {
				return
			}
			c.send("150 Opening (0 bytes)")
			d.Close()
			c.send("421 Timeout.")
			c.stall()
		},
	})
	c := &fetch.Client{StallTimeout: 3 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	start := time.Now()
	_, _, err := openAndRead(context.Background(), c, f.url("f"))
	el := time.Since(start)
	t.Logf("err = %v after %v", err, el)
	if el > 2*time.Second {
		t.Errorf("Open took %v after a 421 final reply: a second read of the control connection waited for StallTimeout", el)
	}
}

// TestRefusedWithNoSessionFailsAtOnce: a server that refuses every
// connection (down, or full of other clients' sessions): two Opens at
// once, with no session logged in, fail with one dial each; a session
// being dialed is no session held.
func TestRefusedWithNoSessionFailsAtOnce(t *testing.T) {
	var dials atomic.Int32
	var bar sync.WaitGroup
	bar.Add(2)
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) <= 2 {
			bar.Done()
			bar.Wait() // both Opens are dialing
		}
		return nil, &net.OpError{Op: "dial", Net: network, Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	}
	c := &fetch.Client{DialContext: dial, MaxConnsPerHost: 2}
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if _, err := c.Open(context.Background(), "ftp://127.0.0.1:9/f"); err == nil {
				t.Error("no error")
			}
		})
	}
	wg.Wait()
	if n := dials.Load(); n != 2 {
		t.Errorf("%d dials for 2 Opens with no session held: the refusal was 'waited out' against a session that was itself being refused", n)
	}
}

// TestWrongPasswordIsNotALimit: 8 Opens at once with a wrong password,
// MaxConnsPerHost 8: each sends PASS once and fails; a 530 is a limit
// only once a session of that user and password has logged in.
func TestWrongPasswordIsNotALimit(t *testing.T) {
	var pass atomic.Int32
	f := newFake(t, script{
		"PASS": func(c *fconn, _ string) {
			pass.Add(1)
			time.Sleep(50 * time.Millisecond) // both dial before either is refused
			c.send("530 Login incorrect.")
		},
	})
	c := &fetch.Client{MaxConnsPerHost: 8}
	var wg sync.WaitGroup
	start := time.Now()
	for range 8 {
		wg.Go(func() { _, _ = c.Open(context.Background(), "ftp://u:wrong@"+f.addr+"/f") })
	}
	wg.Wait()
	t.Logf("%d PASS for 8 Opens with a wrong password, %v", pass.Load(), time.Since(start))
	if pass.Load() != 8 {
		t.Errorf("%d PASS, want 8", pass.Load())
	}
}

// TestLimitEndWakesWaitingOpens: an Open that waits at a learnt limit
// tries again when the limit ends (IdleTimeout after it was learnt),
// not only when a session comes back, and is served by the session
// that comes back.
func TestLimitEndWakesWaitingOpens(t *testing.T) {
	noLeaks(t)
	f, refused := limitedFake(t, 1)
	c := &fetch.Client{MaxConnsPerHost: 2, IdleTimeout: 200 * time.Millisecond, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	held, err := c.Open(context.Background(), f.url("f"))
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		b, _, err := openAndRead(ctx, c, f.url("f"))
		done <- result{b, err}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for refused.Load() < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := refused.Load(); n < 2 {
		t.Fatalf("%d refusals: the waiting Open did not try again when the limit ended", n)
	}
	if b, err := io.ReadAll(held); err != nil || string(b) != "limited" {
		t.Fatalf("the held Response: %q, %v", b, err)
	}
	held.Close()
	var r result
	within(t, 30*time.Second, func() { r = <-done })
	if r.err != nil || string(r.b) != "limited" {
		t.Errorf("the waiting Open: %q, %v", r.b, r.err)
	}
}

// TestEvictedLoginIsForgotten: a session of user a that makes room for
// another user's leaves the Client's count of a's logins, so a later 530 to
// a's login (its password changed) is the caller's error at once, not
// a limit to wait out.
func TestEvictedLoginIsForgotten(t *testing.T) {
	noLeaks(t)
	var aLogins atomic.Int32
	f := newFake(t, script{
		"USER": func(c *fconn, arg string) { c.user = arg; c.send("331 Password required") },
		"PASS": func(c *fconn, _ string) {
			if c.user == "a" && aLogins.Add(1) > 1 {
				c.send("530 Login incorrect.")
				return
			}
			c.send("230 Logged in")
		},
		"RETR": transfer("data", "150 Opening (4 bytes)", "226 Done"),
	})
	c := &fetch.Client{MaxConnsPerHost: 2, StallTimeout: 20 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	ctx := context.Background()
	// a's session goes to make room for c's.
	for _, u := range []string{"a", "b", "c"} {
		if b, _, err := openAndRead(ctx, c, "ftp://"+u+":p@"+f.addr+"/f"); err != nil || string(b) != "data" {
			t.Fatalf("%s: %q, %v", u, b, err)
		}
	}
	var err error
	within(t, 30*time.Second, func() { _, _, err = openAndRead(ctx, c, "ftp://a:p@"+f.addr+"/f") })
	if fe := asError(t, err); fe.Op != "login" || fe.Code != 530 {
		t.Errorf("err = %v; want Op login, Code 530", err)
	}
	if n := aLogins.Load(); n != 2 {
		t.Errorf("%d logins of a, want 2: the refused one is not tried again", n)
	}
}

// ---- Load ----

// TestLoadWithJitterAndResets: 1,000 Opens from 32 goroutines through a
// network with up to 2 ms of jitter each way on every chunk, where one
// data connection in 10 is reset partway and a Client allows 8
// sessions; every failed transfer is resumed WithOffset until whole.
// No file is ever taken as whole short of its bytes, every byte is
// checked, nothing hangs, and nothing is left behind (noLeaks), on the
// in-process server and on vsftpd (DESIGN, "Faults and load").
func TestLoadWithJitterAndResets(t *testing.T) {
	for _, name := range []string{"ftpserverlib", "vsftpd"} {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			files := make([][]byte, 8)
			named := map[string][]byte{}
			for i := range files {
				files[i] = randomBytes(1 + i*9000)
				named[fmt.Sprintf("f%d", i)] = files[i]
			}
			srv, rel, _ := placeFiles(t, name, "load", named)
			fn := newFaultNet(t)
			fn.jitter = 2 * time.Millisecond
			var resets atomic.Int32
			fn.onDial = func(l *link) {
				if l.addr != srv.addr && l.n%10 == 7 {
					resets.Add(1)
					l.resetAt = int64(l.n % 5000)
				}
			}
			c := &fetch.Client{DialContext: fn.DialContext, MaxConnsPerHost: 8, StallTimeout: 20 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			base := "ftp://" + srv.addr + "/" + rel + "/"
			var failures, retries atomic.Int32
			within(t, 3*time.Minute, func() {
				var wg sync.WaitGroup
				for g := range 32 {
					wg.Go(func() {
						for i := range 1000 / 32 {
							k := (g + i) % len(files)
							got, err := fetchWhole(c, base+fmt.Sprintf("f%d", k), files[k], &retries)
							if err != nil || !bytes.Equal(got, files[k]) {
								if failures.Add(1) <= 3 {
									t.Errorf("f%d: %d of %d bytes, %v", k, len(got), len(files[k]), err)
								}
							}
						}
					})
				}
				wg.Wait()
			})
			t.Logf("%d data connections reset, %d transfers resumed, %d Opens failed; %d connections in all", resets.Load(), retries.Load(), failures.Load(), fn.dials())
			if resets.Load() == 0 {
				t.Error("no data connection was reset: the test tested nothing")
			}
		})
	}
}

// fetchWhole opens rawURL and reads it, and after each failure of the
// transfer opens it again WithOffset from what arrived, checking each
// part against want; it counts the resumptions in retries.
func fetchWhole(c *fetch.Client, rawURL string, want []byte, retries *atomic.Int32) ([]byte, error) {
	var got []byte
	for try := 0; try < 10; try++ {
		resp, err := c.Open(context.Background(), rawURL, fetch.WithOffset(int64(len(got))))
		var fe *fetch.Error
		if err != nil && errors.As(err, &fe) && fe.Op == "retr" {
			// A transfer that failed before Open returned (its first
			// bytes are read there: a reset data connection, a short
			// transfer the server confirmed, a data connection refused
			// under load): resumed as one that failed in Read.
			retries.Add(1)
			continue
		}
		if err != nil {
			return got, err
		}
		b, err := io.ReadAll(resp)
		resp.Close()
		if len(got)+len(b) > len(want) || !bytes.Equal(b, want[len(got):len(got)+len(b)]) {
			return got, fmt.Errorf("bytes %d-%d differ from the file's", len(got), len(got)+len(b))
		}
		got = append(got, b...)
		if err == nil {
			return got, nil
		}
		if !errors.As(err, &fe) || fe.Op != "retr" {
			return got, err
		}
		retries.Add(1)
	}
	return got, errors.New("still not whole after 10 tries")
}

// TestPipelinedEPSVRefused: a reused session sends EPSV and RETR in one
// write; the server refuses that EPSV with a 425 (ProFTPD 1.3.8, two of
// whose sessions raced for one passive port: "425 EPSV: Address already
// in use") and then answers the RETR with a 425 as most servers do, or
// with nothing at all, as ProFTPD does. Either way the Open gets the
// file at once on the same session (a StallTimeout of waiting for a
// reply that never comes was the flake of TestConnectionLimitOfProftpd).
func TestPipelinedEPSVRefused(t *testing.T) {
	for name, silent := range map[string]bool{"RETR refused": false, "RETR unanswered (ProFTPD)": true} {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			epsvs := 0
			f := newFake(t, script{
				"EPSV": func(c *fconn, _ string) {
					mu.Lock()
					epsvs++
					n := epsvs
					mu.Unlock()
					if n == 2 { // the reused session's pipelined EPSV
						c.send("425 EPSV: Address already in use")
						return
					}
					if port := c.listen(); port > 0 {
						c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
					}
				},
				"RETR": func(c *fconn, arg string) {
					if c.pasv == nil && silent {
						return
					}
					transfer("hello", "150 Opening (5 bytes)", "226 Done")(c, arg)
				},
				"NOOP": say("200 NOOP command successful"),
			})
			c := &fetch.Client{StallTimeout: 5 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			for i := range 3 {
				start := time.Now()
				got, _, err := openAndRead(context.Background(), c, f.url("f"))
				if err != nil || string(got) != "hello" {
					t.Fatalf("Open %d: %q, %v", i+1, got, err)
				}
				if d := time.Since(start); d > 2*time.Second {
					t.Errorf("Open %d took %v", i+1, d)
				}
			}
			if n := f.dialCount(); n != 1 {
				t.Errorf("%d control connections; want 1", n)
			}
		})
	}
}

// TestPipelinedEPSVRefusedOnUpload: the same 425 to the EPSV sent with
// a STOR, which ProFTPD leaves unanswered after making an empty file of
// its name (and will not overwrite it): Put WithTempName stores under a
// new temporary name, deletes the first, and the upload is whole.
func TestPipelinedEPSVRefusedOnUpload(t *testing.T) {
	var mu sync.Mutex
	epsvs := 0
	stored := map[string]bool{}
	f := newFake(t, script{
		"FEAT": say("211-Features:", " SIZE", "211 End"),
		"EPSV": func(c *fconn, _ string) {
			mu.Lock()
			epsvs++
			n := epsvs
			mu.Unlock()
			if n == 2 {
				c.send("425 EPSV: Address already in use")
				return
			}
			if port := c.listen(); port > 0 {
				c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
			}
		},
		"STOR": func(c *fconn, arg string) {
			mu.Lock()
			dup := stored[arg]
			stored[arg] = true
			mu.Unlock()
			switch {
			case c.pasv == nil:
				return // ProFTPD: the empty file made, no reply
			case dup:
				c.send("550 " + arg + ": Overwrite permission denied")
				return
			}
			d := c.data()
			c.send("150 Opening")
			io.Copy(io.Discard, d)
			d.Close()
			c.send("226 Done")
		},
		"SIZE": say("213 5"),
		"RNFR": say("350 Ready"),
		"RNTO": say("250 Renamed"),
		"DELE": say("250 Deleted"),
		"NOOP": say("200 NOOP command successful"),
	})
	c := &fetch.Client{StallTimeout: 5 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	for i := range 2 {
		if _, err := c.Put(context.Background(), f.url("f"+strconv.Itoa(i)), strings.NewReader("hello"), fetch.WithTempName()); err != nil {
			t.Fatalf("Put %d: %v", i, err)
		}
	}
	var dele, stor int
	for _, cmd := range f.commands() {
		switch {
		case strings.HasPrefix(cmd, "DELE "):
			dele++
		case strings.HasPrefix(cmd, "STOR "):
			stor++
		}
	}
	if dele != 1 || stor != 3 || f.dialCount() != 1 {
		t.Errorf("%d DELE, %d STOR, %d sessions; want the unanswered temporary file deleted, one STOR more, one session", dele, stor, f.dialCount())
	}
}
