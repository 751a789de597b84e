package fetch_test

// Active mode (Client.Active, DESIGN "Every network"): PORT (RFC 959
// §4.1.2) and EPRT (RFC 2428 §2) on the five servers, plain and over
// TLS, on a vsftpd that refuses passive mode, on ::1, and against a
// scripted server that lets another address connect first (RFC 2577
// §3: that connection is closed unread).

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
	"syscall"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// activeRound runs, on one Client in active mode, what a data
// connection serves: RETR, LIST (a directory URL), NLST (";type=d"),
// ReadDir (MLSD where the server lists it, else LIST) and STOR, and
// checks each result against the tree.
func activeRound(t *testing.T, cl *fetch.Client, base, rel, abs string, opts ...fetch.Option) {
	t.Helper()
	ctx := context.Background()
	got, _, err := openAndRead(ctx, cl, base+"binary.bin", opts...)
	if err != nil || !bytes.Equal(got, binaryFile()) {
		t.Fatalf("RETR binary.bin: %d bytes, %v; want the 256 bytes of the tree", len(got), err)
	}
	_, list, err := openAndRead(ctx, cl, base+"a/", opts...)
	if err != nil || !strings.Contains(strings.Join(list.Lines, "\n"), "top.txt") {
		t.Fatalf("LIST a/: %v; want a listing naming top.txt", err)
	}
	_, nlst, err := openAndRead(ctx, cl, base+"a/;type=d", opts...)
	if err != nil || !slices.ContainsFunc(nlst.Names, func(n string) bool { return strings.HasSuffix(n, "top.txt") }) {
		t.Fatalf("NLST a/: %v; want a list naming top.txt", err)
	}
	ents, err := cl.ReadDir(ctx, base+"a/", opts...)
	if err != nil {
		t.Fatalf("ReadDir a/: %v", err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"b", "top.txt"}) {
		t.Fatalf("ReadDir a/ = %q, want [b top.txt]", names)
	}
	if rel == "" {
		return
	}
	data := randomBytes(1 << 20)
	n, err := cl.Put(ctx, base+rel+"/up.bin", bytes.NewReader(data), opts...)
	if err != nil || n != int64(len(data)) {
		t.Fatalf("STOR of 1 MiB: %d, %v", n, err)
	}
	stored, err := os.ReadFile(filepath.Join(abs, "up.bin"))
	if err != nil || !bytes.Equal(stored, data) {
		t.Fatalf("STOR: the server stored %d bytes (%v), not the 1 MiB sent", len(stored), err)
	}
}

// Every server serves RETR, LIST, NLST, MLSD and STOR over a data
// connection it makes itself to the address of PORT or EPRT ("-": the
// control connection's local address), plain, with explicit TLS and
// with implicit TLS, the data connections resuming the control
// connection's TLS session (RFC 4217 §10.2; vsftpd and ProFTPD refuse
// them otherwise).
func TestActiveOnServers(t *testing.T) {
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		tg.cl.Active = "-"
		activeRound(t, tg.cl, tg.base, rel, abs, tg.opts...)
	})
}

// A vsftpd with pasv_enable=NO refuses PASV and EPSV ("550 Permission
// denied."): passive mode fails with the refusal, and active mode
// (Client.Active "127.0.0.1", a host without a port) fetches the same
// files. DESIGN: "Some servers and firewalls allow nothing else".
func TestActiveWherePassiveIsRefused(t *testing.T) {
	inst := startOwnVsftpd(t, vsftpdConf{name: "vsftpd-nopasv", noPasv: true})
	base := "ftp://" + inst.addr + "/"
	passive := &fetch.Client{StallTimeout: 10 * time.Second}
	t.Cleanup(passive.CloseIdleConnections)
	_, _, err := openAndRead(context.Background(), passive, base+"binary.bin")
	if e := asError(t, err); e.Code != 550 || (e.Command != "PASV" && e.Command != "EPSV") {
		t.Fatalf("passive mode on vsftpd with pasv_enable=NO: %v; want a 550 of PASV or EPSV", err)
	}
	active := &fetch.Client{StallTimeout: 10 * time.Second, Active: "127.0.0.1"}
	t.Cleanup(active.CloseIdleConnections)
	activeRound(t, active, base, "", "")
}

// Over IPv6, the address goes by EPRT |2|::1|port| (RFC 2428 §2; PORT
// carries only IPv4): ftpserverlib listening on [::1] serves a file
// and a listing in active mode. Skipped where the machine has no ::1.
func TestActiveIPv6(t *testing.T) {
	l, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback: %v", err)
	}
	l.Close()
	need(t, "ftpserverlib")
	addr, stop, err := newFtpserverlibAt(testTree, "[::1]:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	cl := &fetch.Client{StallTimeout: 10 * time.Second, Active: "-"}
	t.Cleanup(cl.CloseIdleConnections)
	activeRound(t, cl, "ftp://"+addr+"/", "", "")
}

// activeFake is a scripted server for active mode: PORT and EPRT note
// the address (and answer 200); RETR sends 150 and then calls connect
// with it, and its data then "file-body" and 226 where connect gave a
// connection.
func activeFake(t *testing.T, connect func(c *fconn, addr string) net.Conn, extra script) *fake {
	var addr string
	sc := script{
		"PORT": func(c *fconn, arg string) {
			f := strings.Split(arg, ",")
			if len(f) != 6 {
				c.send("501 Bad PORT")
				return
			}
			hi, _ := strconv.Atoi(f[4])
			lo, _ := strconv.Atoi(f[5])
			addr = net.JoinHostPort(strings.Join(f[:4], "."), strconv.Itoa(hi<<8|lo))
			c.send("200 PORT command successful")
		},
		"EPRT": func(c *fconn, arg string) {
			f := strings.Split(arg, "|")
			if len(f) != 5 {
				c.send("501 Bad EPRT")
				return
			}
			addr = net.JoinHostPort(f[2], f[3])
			c.send("200 EPRT command successful")
		},
		"EPSV": say("500 passive mode is off here"),
		"PASV": say("500 passive mode is off here"),
		"RETR": func(c *fconn, _ string) {
			c.send("150 Opening BINARY mode data connection")
			d := connect(c, addr)
			if d == nil {
				c.send("425 Cannot open data connection")
				return
			}
			_, _ = io.WriteString(d, "file-body")
			d.Close()
			c.send("226 Transfer complete")
		},
	}
	for k, v := range extra {
		sc[k] = v
	}
	return newFake(t, sc)
}

// dialFrom connects to addr from the local address from (port 0).
func dialFrom(from, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", addr)
}

// A connection from another address than the control connection's
// peer (127.0.0.2 here; the server is 127.0.0.1) is closed at once and
// never read (RFC 2577 §3: whoever reaches the port first would
// otherwise feed the download); the data then still comes from the
// server, whole.
func TestActiveIntruderIsClosedUnread(t *testing.T) {
	noLeaks(t)
	intruderClosed := make(chan error, 1)
	f := activeFake(t, func(c *fconn, addr string) net.Conn {
		in, err := dialFrom("127.0.0.2", addr)
		switch {
		case errors.Is(err, syscall.ECONNRESET):
			// fetch reset it before the dial returned.
			intruderClosed <- err
		case err != nil:
			t.Errorf("intruder: %v", err)
			return nil
		default:
			c.f.track(in)
			_, _ = io.WriteString(in, "intruder bytes")
			_ = in.SetReadDeadline(time.Now().Add(5 * time.Second))
			_, err = in.Read(make([]byte, 1))
			intruderClosed <- err
			in.Close()
		}
		d, err := dialFrom("127.0.0.1", addr)
		if err != nil {
			t.Errorf("server's data connection: %v", err)
			return nil
		}
		c.f.track(d)
		return d
	}, nil)
	cl := testClient(t)
	cl.Active = "-"
	got, _, err := openAndRead(context.Background(), cl, f.url("f"))
	if err != nil || string(got) != "file-body" {
		t.Fatalf("got %q, %v; want the server's \"file-body\"", got, err)
	}
	if err := <-intruderClosed; err == nil || isTimeoutErr(err) {
		t.Errorf("the intruder's connection was not closed by fetch (read: %v)", err)
	}
	if !f.received("PORT") {
		t.Errorf("commands %q: no PORT", f.commands())
	}
}

func isTimeoutErr(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// When only another address connects, the transfer fails after the
// StallTimeout with an *Error of Op "port" that names the PORT sent and
// is a timeout (errors.Is os.ErrDeadlineExceeded), never the
// intruder's bytes.
func TestActiveOnlyIntruderTimesOut(t *testing.T) {
	noLeaks(t)
	f := activeFake(t, func(c *fconn, addr string) net.Conn {
		in, err := dialFrom("127.0.0.2", addr)
		switch {
		case errors.Is(err, syscall.ECONNRESET): // fetch reset it before the dial returned
		case err != nil:
			t.Errorf("intruder: %v", err)
			return nil
		default:
			c.f.track(in)
			_, _ = io.WriteString(in, "intruder bytes")
		}
		c.stall()
		return nil
	}, nil)
	cl := testClient(t)
	cl.Active, cl.StallTimeout = "-", time.Second
	var got []byte
	var err error
	within(t, 10*time.Second, func() { got, _, err = openAndRead(context.Background(), cl, f.url("f")) })
	e := asError(t, err)
	if e.Op != "port" || !strings.HasPrefix(e.Command, "PORT 127,0,0,1,") || !errors.Is(err, os.ErrDeadlineExceeded) || len(got) > 0 {
		t.Fatalf("got %q, %v (Op %q, Command %q); want a port timeout naming the PORT", got, err, e.Op, e.Command)
	}
}

// A PORT refused is an *Error of Op "port" with the reply and the PORT
// line (RFC 959 §4.1.2 wants 200); no transfer command is sent.
func TestActivePortRefused(t *testing.T) {
	noLeaks(t)
	f := activeFake(t, nil, script{"PORT": say("500 Illegal PORT command.")})
	cl := testClient(t)
	cl.Active = "-"
	_, _, err := openAndRead(context.Background(), cl, f.url("f"))
	e := asError(t, err)
	if e.Op != "port" || e.Code != 500 || !strings.HasPrefix(e.Command, "PORT 127,0,0,1,") {
		t.Fatalf("err = %v (Op %q, Command %q); want Op port, 500, the PORT line", err, e.Op, e.Command)
	}
	if f.received("RETR") {
		t.Errorf("RETR was sent after a refused PORT: %q", f.commands())
	}
}

// Where FEAT lists EPRT, EPRT goes first, for IPv4 too (RFC 2428 §2);
// a server that then answers 502 (not implemented) gets PORT, and the
// session keeps to PORT.
func TestActiveEPRTThenPORT(t *testing.T) {
	noLeaks(t)
	connect := func(c *fconn, addr string) net.Conn {
		d, err := dialFrom("127.0.0.1", addr)
		if err != nil {
			t.Errorf("data connection: %v", err)
			return nil
		}
		c.f.track(d)
		return d
	}
	f := activeFake(t, connect, script{
		"FEAT": say("211-Features:", " EPRT", " SIZE", "211 End"),
		"EPRT": say("502 EPRT not implemented"),
	})
	cl := &fetch.Client{StallTimeout: 10 * time.Second, Active: "127.0.0.1"}
	t.Cleanup(cl.CloseIdleConnections)
	for i := range 2 {
		got, _, err := openAndRead(context.Background(), cl, f.url("f"))
		if err != nil || string(got) != "file-body" {
			t.Fatalf("fetch %d: %q, %v", i, got, err)
		}
	}
	var verbs []string
	for _, c := range f.commands() {
		if v, _, _ := strings.Cut(c, " "); v == "EPRT" || v == "PORT" {
			verbs = append(verbs, v)
		}
	}
	if !slices.Equal(verbs, []string{"EPRT", "PORT", "PORT"}) {
		t.Errorf("sent %q; want EPRT, then PORT for each transfer", verbs)
	}
	if f.dialCount() != 1 {
		t.Errorf("%d sessions; want one, reused", f.dialCount())
	}
}

// An Active that fetch cannot read fails before any connection, with
// an *Error of Op "port" wrapping an *ActiveError that quotes it.
func TestActiveValueUnreadableFailsBeforeDialing(t *testing.T) {
	f := activeFake(t, nil, nil)
	for _, v := range []string{"127.0.0.1:0", "127.0.0.1:70000", "127.0.0.1:9-3", "[::1", "127.0.0.1:", "::1:x", "a b"} {
		cl := testClient(t)
		cl.Active = v
		_, err := cl.Open(context.Background(), f.url("f"))
		e := asError(t, err)
		var ae *fetch.ActiveError
		if e.Op != "port" || !errors.As(err, &ae) || ae.Value != v || !strings.Contains(err.Error(), strconv.Quote(v)) {
			t.Errorf("Active %q: %v; want Op port and an *ActiveError quoting it", v, err)
		}
	}
	if n := f.dialCount(); n != 0 {
		t.Errorf("%d connections made; want none", n)
	}
}

// A port range: the first free port of it is used (curl's --ftp-port
// ADDR:LOW-HIGH); with the lowest held, the next one.
func TestActivePortRange(t *testing.T) {
	noLeaks(t)
	hold, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer hold.Close()
	low := hold.Addr().(*net.TCPAddr).Port
	sentc := make(chan string, 1)
	f := activeFake(t, func(c *fconn, addr string) net.Conn {
		sentc <- addr
		d, err := dialFrom("127.0.0.1", addr)
		if err != nil {
			t.Errorf("data connection: %v", err)
			return nil
		}
		c.f.track(d)
		return d
	}, nil)
	cl := testClient(t)
	cl.Active = fmt.Sprintf("127.0.0.1:%d-%d", low, low+20)
	got, _, err := openAndRead(context.Background(), cl, f.url("f"))
	if err != nil || string(got) != "file-body" {
		t.Fatalf("got %q, %v", got, err)
	}
	_, p, _ := net.SplitHostPort(<-sentc)
	if port, _ := strconv.Atoi(p); port <= low || port > low+20 {
		t.Errorf("PORT named port %d; want one of %d-%d, not the held %d", port, low+1, low+20, low)
	}
}

// A server that cannot connect says so on the control connection
// (vsftpd: "425 Failed to establish connection."): the wait ends at
// once, not after the StallTimeout, with an *Error of Op "port" and
// the reply, and the session, in step, serves the next fetch.
func TestActiveRefusalEndsTheWait(t *testing.T) {
	noLeaks(t)
	f := activeFake(t, func(c *fconn, addr string) net.Conn { return nil }, nil)
	cl := &fetch.Client{StallTimeout: 30 * time.Second, Active: "-"}
	t.Cleanup(cl.CloseIdleConnections)
	start := time.Now()
	_, _, err := openAndRead(context.Background(), cl, f.url("f"))
	e := asError(t, err)
	if e.Op != "port" || e.Code != 425 || !strings.HasPrefix(e.Command, "PORT ") {
		t.Fatalf("err = %v (Op %q, Command %q); want Op port, 425, the PORT line", err, e.Op, e.Command)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the refusal took %v: fetch waited for the connection", d)
	}
	if _, err := cl.Stat(context.Background(), f.url("")); err != nil {
		t.Errorf("the session after the refusal: %v", err)
	}
	if f.dialCount() != 1 {
		t.Errorf("%d sessions; want the one, in step after the 425", f.dialCount())
	}
}

// DisableEPSV (curl's --disable-epsv): passive mode by PASV alone (RFC
// 959 §4.1.2), for every transfer of the session; EPSV is never sent.
func TestDisableEPSVSendsPASVOnly(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"RETR": transfer("by PASV", "150 Opening", "226 Done")})
	cl := &fetch.Client{StallTimeout: 10 * time.Second, DisableEPSV: true}
	t.Cleanup(cl.CloseIdleConnections)
	for range 2 {
		if got, _, err := openAndRead(context.Background(), cl, f.url("f")); err != nil || string(got) != "by PASV" {
			t.Fatalf("got %q, %v", got, err)
		}
	}
	if f.received("EPSV") || !f.received("PASV") {
		t.Errorf("commands %q: want PASV and no EPSV", f.commands())
	}
}
