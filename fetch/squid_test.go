package fetch_test

// Squid, a real HTTP proxy, between fetch and the five servers (DESIGN
// "Every network: active mode and HTTP proxies"). Each test starts a
// Squid of its own: a configuration in a temporary directory, a
// loopback port, its own logs, no cache, and one of two shapes:
//
//   - squidStock: Squid's default rules (squid.conf.default of Squid
//     5.7): CONNECT only to port 443 ("http_access deny CONNECT
//     !SSL_ports"), plain requests to the Safe_ports, among them
//     1025-65535. What a stock corporate Squid allows: its FTP gateway
//     (GET ftp://...), not the tunnel. The one rule left out is "deny
//     to_localhost", since the tests' servers are on loopback.
//   - squidTunnel: the same, with CONNECT allowed to ports 1025-65535
//     too, the ports the tests' servers listen on and their passive
//     ports: what an administrator opens for curl -p.
//
// Squid is installed by testdata/install-servers.sh (Debian's squid);
// where it is missing the tests skip, and with CI=true they fail, as
// for the FTP servers.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

type squidShape int

const (
	squidStock squidShape = iota
	squidTunnel
)

// squidProxy is one running Squid.
type squidProxy struct {
	scheme string // "http", or "https" for a TLS port (startSquidTLS)
	addr   string // 127.0.0.1:port
	dir    string // its configuration and logs
}

// url is the proxy's URL, with credentials where user is not "".
func (s *squidProxy) url(user, password string) string {
	if user == "" {
		return s.scheme + "://" + s.addr
	}
	return s.scheme + "://" + user + ":" + password + "@" + s.addr
}

// accessLog returns the lines of Squid's access log that contain
// substr. Squid writes a line when a request ends (a tunnel when it
// closes), unbuffered ("buffered_logs off", the default).
func (s *squidProxy) accessLog(t testing.TB, substr string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.dir, "access.log"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var lines []string
	for line := range strings.Lines(string(data)) {
		if strings.Contains(line, substr) {
			lines = append(lines, strings.TrimSpace(line))
		}
	}
	return lines
}

// waitLog waits up to 10 seconds for at least n access log lines with
// substr: a tunnel is logged when it closes, a moment after the client
// closed its end.
func (s *squidProxy) waitLog(t testing.TB, substr string, n int) []string {
	t.Helper()
	var lines []string
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if lines = s.accessLog(t, substr); len(lines) >= n {
			break
		}
	}
	return lines
}

// squidBinary finds Squid, or skips the test (fails it with CI=true).
func squidBinary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("squid")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/squid"); serr != nil {
			missing(t, "squid", fmt.Errorf("not installed (run testdata/install-servers.sh): %w", err))
		}
		bin = "/usr/sbin/squid"
	}
	return bin
}

// startSquid starts a Squid of the given shape on a loopback port and
// stops it when the test ends. With a user, every request must carry
// that user's Basic credentials (Squid's basic_ncsa_auth, RFC 7617).
func startSquid(t testing.TB, shape squidShape, user, password string) *squidProxy {
	t.Helper()
	return startSquidOn(t, shape, user, password, false)
}

// startSquidTLS is startSquid with Squid's https_port: TLS from the
// client to the proxy, with the tests' server certificate (for
// 127.0.0.1, signed by testCAPool's CA).
func startSquidTLS(t testing.TB, shape squidShape) *squidProxy {
	t.Helper()
	return startSquidOn(t, shape, "", "", true)
}

func startSquidOn(t testing.TB, shape squidShape, user, password string, useTLS bool) *squidProxy {
	t.Helper()
	bin := squidBinary(t)
	// Squid started as root runs as its cache_effective_user (Debian's
	// "proxy"), which must write its logs here: a directory of its own,
	// open to it, under /tmp rather than below t.TempDir (0700).
	dir, err := os.MkdirTemp("", "ftpurl-squid-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &squidProxy{scheme: "http", addr: "127.0.0.1:" + strconv.Itoa(port), dir: dir}
	listen := "http_port " + s.addr
	if useTLS {
		if testRun == nil || testRun.certFile == "" {
			t.Skip("no test certificates")
		}
		// Copies Squid can read after it drops root.
		for _, f := range [][2]string{{testRun.certFile, "cert.pem"}, {testRun.keyFile, "key.pem"}} {
			data, err := os.ReadFile(f[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f[1]), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s.scheme = "https"
		listen = fmt.Sprintf("https_port %s tls-cert=%[2]s/cert.pem tls-key=%[2]s/key.pem", s.addr, dir)
	}

	connect := "http_access deny CONNECT !SSL_ports"
	if shape == squidTunnel {
		connect = "acl Tunnel_ports port 443 1025-65535\nhttp_access deny CONNECT !Tunnel_ports"
	}
	allow := "http_access allow loopback"
	auth := ""
	if user != "" {
		helper, err := squidHelper("basic_ncsa_auth")
		if err != nil {
			missing(t, "squid's basic_ncsa_auth", err)
		}
		out, err := exec.Command("openssl", "passwd", "-apr1", password).Output()
		if err != nil {
			missing(t, "openssl (for squid's password file)", err)
		}
		passwd := filepath.Join(dir, "passwd")
		if err := os.WriteFile(passwd, []byte(user+":"+strings.TrimSpace(string(out))+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		auth = fmt.Sprintf("auth_param basic program %s %s\nauth_param basic realm ftpurl-test\nacl authed proxy_auth REQUIRED\n", helper, passwd)
		allow = "http_access allow loopback authed"
	}
	conf := fmt.Sprintf(`%s
pid_filename %[2]s/squid.pid
cache_log %[2]s/cache.log
access_log stdio:%[2]s/access.log
coredump_dir %[2]s
cache deny all
cache_mem 8 MB
visible_hostname ftpurl-test
dns_nameservers 127.0.0.1
pinger_enable off
icp_port 0
htcp_port 0
shutdown_lifetime 0 seconds
%s
acl SSL_ports port 443
acl Safe_ports port 80 21 443 70 210 1025-65535 280 488 591 777
acl CONNECT method CONNECT
acl loopback src 127.0.0.0/8
http_access deny !Safe_ports
%s
%s
http_access deny all
`, listen, dir, auth, connect, allow)
	confPath := filepath.Join(dir, "squid.conf")
	if err := os.WriteFile(confPath, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(filepath.Join(dir, "squid.out"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	cmd := exec.Command(bin, "-N", "-f", confPath)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("squid: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			log, _ := os.ReadFile(filepath.Join(dir, "cache.log"))
			early, _ := os.ReadFile(filepath.Join(dir, "squid.out"))
			t.Fatalf("squid exited (%v) before it listened: %s%s", err, early, log)
		default:
		}
		if c, err := net.DialTimeout("tcp", s.addr, time.Second); err == nil {
			c.Close()
			return s
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "cache.log"))
			t.Fatalf("squid did not listen on %s within 30 s: %s", s.addr, log)
		}
	}
}

// squidHelper finds one of Squid's helper programs.
func squidHelper(name string) (string, error) {
	for _, dir := range []string{"/usr/lib/squid", "/usr/lib64/squid", "/usr/libexec/squid"} {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in Squid's helper directories", name)
}

// Through Squid's CONNECT tunnel (RFC 9110 §9.3.6), with Basic
// credentials (RFC 7617), the control connection and every data
// connection go through the proxy, on the five servers, plain, with
// explicit TLS inside the tunnel (RFC 4217 §4) and implicit: a file
// and a listing are what a direct fetch gets, byte for byte, and a 1
// MiB upload is stored whole (Squid 5.7 cut a TLS upload when a client
// shut its write side right after close_notify; fetch waits for the
// server's close). Squid's log shows the tunnels: one to the server's
// address, one to its host per data connection, each by the user.
func TestSquidTunnelsEveryConnection(t *testing.T) {
	sq := startSquid(t, squidTunnel, "pxuser", "px-secret")
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			for _, tg := range upTargets(t, name) {
				t.Run(tg.mode, func(t *testing.T) {
					ctx := context.Background()
					want, _, err := openAndRead(ctx, tg.cl, tg.base+"binary.bin", tg.opts...)
					if err != nil {
						t.Fatalf("direct RETR: %v", err)
					}
					wantDir, err := tg.cl.ReadDir(ctx, tg.base+"a/", tg.opts...)
					if err != nil {
						t.Fatalf("direct ReadDir: %v", err)
					}
					server := strings.TrimSuffix(strings.SplitN(tg.base, "@", 2)[1], "/")
					before := len(sq.accessLog(t, "CONNECT 127.0.0.1:"))

					cl := &fetch.Client{TLSConfig: tg.cl.TLSConfig, StallTimeout: tg.cl.StallTimeout,
						Proxy: fixedProxy(mustURL(t, sq.url("pxuser", "px-secret")))}
					defer cl.CloseIdleConnections()
					got, _, err := openAndRead(ctx, cl, tg.base+"binary.bin", tg.opts...)
					if err != nil || !bytes.Equal(got, want) || !bytes.Equal(got, binaryFile()) {
						t.Fatalf("RETR through Squid: %d bytes (direct %d), %v", len(got), len(want), err)
					}
					gotDir, err := cl.ReadDir(ctx, tg.base+"a/", tg.opts...)
					if err != nil || !sameNames(gotDir, wantDir) {
						t.Fatalf("ReadDir through Squid: %v, %v; direct %v", gotDir, err, wantDir)
					}
					rel, abs := upDir(t, name+"-squid-"+tg.mode)
					data := randomBytes(1 << 20)
					if n, err := cl.Put(ctx, tg.base+rel+"/up.bin", bytes.NewReader(data), tg.opts...); err != nil || n != int64(len(data)) {
						t.Fatalf("STOR through Squid: %d, %v", n, err)
					}
					if stored, err := os.ReadFile(filepath.Join(abs, "up.bin")); err != nil || !bytes.Equal(stored, data) {
						t.Fatalf("STOR through Squid: the server stored %d bytes, %v", len(stored), err)
					}
					cl.CloseIdleConnections()
					// The control connection and at least three data
					// connections (RETR, the listing, STOR); the
					// listing may take two (MLSD, then LIST).
					lines := sq.waitLog(t, "CONNECT 127.0.0.1:", before+4)[before:]
					control := 0
					for _, l := range lines {
						if strings.Contains(l, "CONNECT "+server+" ") {
							control++
						}
						if !strings.Contains(l, " pxuser ") || !strings.Contains(l, "TCP_TUNNEL/200") {
							t.Errorf("Squid logged %q: want a tunnel (TCP_TUNNEL/200) by pxuser", l)
						}
					}
					if control < 1 || len(lines)-control < 3 {
						t.Errorf("Squid logged %d tunnels, %d to the server %s: want the control connection and three data connections:\n%s",
							len(lines), control, server, strings.Join(lines, "\n"))
					}
				})
			}
		})
	}
}

func sameNames(a, b []fetch.Entry) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Size != b[i].Size || a[i].Mode.Type() != b[i].Mode.Type() {
			return false
		}
	}
	return true
}

// A stock Squid refuses CONNECT to any port but 443 (squid.conf's
// "http_access deny CONNECT !SSL_ports"): the tunnel fails before any
// FTP with an *Error of Op "dial" wrapping a *ProxyError whose Code is
// Squid's 403, as curl -p fails there (its exit 56).
func TestSquidStockRefusesTheTunnel(t *testing.T) {
	sq := startSquid(t, squidStock, "", "")
	srv := need(t, "vsftpd")
	cl := &fetch.Client{Proxy: fixedProxy(mustURL(t, sq.url("", "")))}
	defer cl.CloseIdleConnections()
	_, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/text.txt")
	var pe *fetch.ProxyError
	var fe *fetch.Error
	if !errors.As(err, &pe) || pe.Code != 403 || pe.Target != srv.addr || !errors.As(err, &fe) || fe.Op != "dial" {
		t.Fatalf("Open through a stock Squid: %v; want Op dial and a *ProxyError 403 for %s", err, srv.addr)
	}
	if got := sq.waitLog(t, "TCP_DENIED/403", 1); len(got) != 1 || !strings.Contains(got[0], "CONNECT "+srv.addr) {
		t.Errorf("Squid logged %q: want one CONNECT %s denied", got, srv.addr)
	}
}

// Squid asks for credentials with 407 (RFC 9110 §15.5.8): a wrong
// password is an *Error wrapping a *ProxyError with Code 407, whose
// message names the proxy but neither its user's password nor the
// FTP password (DESIGN: "never in an error"); the right one gets the
// file.
func TestSquidProxyCredentials(t *testing.T) {
	sq := startSquid(t, squidTunnel, "pxuser", "px-secret")
	srv := need(t, "vsftpd")
	file := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/text.txt"
	for _, tc := range []struct {
		password string
		code     int
	}{{"wrong-secret", 407}, {"px-secret", 0}} {
		cl := &fetch.Client{Proxy: fixedProxy(mustURL(t, sq.url("pxuser", tc.password)))}
		got, _, err := openAndRead(context.Background(), cl, file)
		cl.CloseIdleConnections()
		if tc.code == 0 {
			if err != nil || string(got) != textFile {
				t.Errorf("with the right password: %q, %v", got, err)
			}
			continue
		}
		var pe *fetch.ProxyError
		if !errors.As(err, &pe) || pe.Code != tc.code {
			t.Fatalf("with a wrong password: %v; want a *ProxyError %d", err, tc.code)
		}
		for _, secret := range []string{tc.password, testPassword} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error shows a password %q: %v", secret, err)
			}
		}
		if !strings.Contains(err.Error(), sq.addr) {
			t.Errorf("the error does not name the proxy %s: %v", sq.addr, err)
		}
	}
}

// A Client with no Proxy and no DialContext takes the environment's
// proxy as curl does: ftp_proxy names Squid and the file comes through
// its tunnel (logged); with the server's host in NO_PROXY the same
// request goes direct and Squid logs nothing more.
func TestSquidFromTheEnvironmentAndNoProxy(t *testing.T) {
	sq := startSquid(t, squidTunnel, "", "")
	srv := need(t, "vsftpd")
	file := "ftp://" + srv.addr + "/text.txt"
	for _, n := range []string{"no_proxy", "NO_PROXY", "all_proxy", "ALL_PROXY", "FTP_PROXY"} {
		t.Setenv(n, "")
	}
	t.Setenv("ftp_proxy", sq.url("", ""))
	get := func() {
		t.Helper()
		cl := &fetch.Client{}
		got, _, err := openAndRead(context.Background(), cl, file)
		cl.CloseIdleConnections()
		if err != nil || string(got) != textFile {
			t.Fatalf("Open: %q, %v", got, err)
		}
	}
	get()
	if through := sq.waitLog(t, "CONNECT "+srv.addr+" ", 1); len(through) != 1 {
		t.Fatalf("with ftp_proxy, Squid logged %q: want the control connection's tunnel", through)
	}
	// Every tunnel of the first request logged (each when it closed),
	// the log stays as it is.
	var settled []string
	for n := -1; n != len(settled); time.Sleep(500 * time.Millisecond) {
		n = len(settled)
		settled = sq.accessLog(t, "")
	}
	if len(settled) < 2 {
		t.Fatalf("with ftp_proxy, Squid logged %q: want the control and a data tunnel", settled)
	}
	t.Setenv("NO_PROXY", "127.0.0.1")
	get()
	time.Sleep(time.Second)
	if after := sq.accessLog(t, ""); len(after) != len(settled) {
		t.Errorf("with NO_PROXY=127.0.0.1, Squid logged more: %q", after[len(settled):])
	}
}

// ftpget through a stock Squid, as curl uses it (DESIGN "Every
// network"): -x without -p asks Squid's FTP gateway (RFC 9110 §7.1: a
// request with an absolute ftp:// URI), which fetches the file (byte
// for byte), renders a directory as an HTML page naming its entries,
// answers -I with the file's Content-Length, and stores -T's PUT (201);
// -p asks for a tunnel, which a stock Squid refuses: exit 56, as curl.
// With CONNECT allowed, -p -x gets the file through the tunnel. The
// gateway on the five servers, the tunnel on vsftpd (the library's
// tunnel has TestSquidTunnelsEveryConnection).
func TestSquidWithFtpget(t *testing.T) {
	stock := startSquid(t, squidStock, "", "")
	tunnel := startSquid(t, squidTunnel, "", "")
	srv := need(t, "vsftpd")
	bin := filepath.Join(t.TempDir(), "ftpget")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/ftpget").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/ftpget: %v: %s", err, out)
	}
	base := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/"
	run := func(t *testing.T, dir string, args ...string) (int, []byte, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "HOME="+dir, "ftp_proxy=", "all_proxy=", "ALL_PROXY=")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, stdout.Bytes(), stderr.String()
	}

	// The gateway on each of the five servers (Squid logs in with the
	// Authorization header's user and password, RFC 7617).
	for _, name := range serverNames {
		srv := need(t, name)
		gbase := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/"
		t.Run("gateway/"+name+"/file", func(t *testing.T) {
			code, out, stderr := run(t, t.TempDir(), "-s", "-S", "-x", stock.url("", ""), gbase+"binary.bin")
			if code != 0 || !bytes.Equal(out, binaryFile()) {
				t.Fatalf("exit %d, %d bytes (want %d): %s", code, len(out), len(binaryFile()), stderr)
			}
			if got := stock.waitLog(t, "GET ftp://"+srv.addr+"/binary.bin", 1); len(got) != 1 || !strings.Contains(got[0], "/200 ") {
				t.Errorf("Squid logged %q: want one GET ftp:// answered 200", got)
			}
		})
		t.Run("gateway/"+name+"/listing", func(t *testing.T) {
			code, out, stderr := run(t, t.TempDir(), "-s", "-S", "-x", stock.url("", ""), gbase+"a/")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, name := range []string{">top.txt<", ">b<", "<html"} {
				if !bytes.Contains(out, []byte(name)) {
					t.Errorf("the gateway's listing lacks %q:\n%s", name, out)
				}
			}
		})
		t.Run("gateway/"+name+"/head", func(t *testing.T) {
			code, out, stderr := run(t, t.TempDir(), "-s", "-S", "-I", "-x", stock.url("", ""), gbase+"binary.bin")
			want := "Content-Length: " + strconv.Itoa(len(binaryFile()))
			if code != 0 || !bytes.Contains(out, []byte(want)) {
				t.Fatalf("exit %d, %q: want %q; %s", code, out, want, stderr)
			}
		})
		t.Run("gateway/"+name+"/upload", func(t *testing.T) {
			rel, abs := upDir(t, name+"-squid-gateway")
			dir := t.TempDir()
			data := randomBytes(256 << 10)
			if err := os.WriteFile(filepath.Join(dir, "up.bin"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := run(t, dir, "-s", "-S", "-T", "up.bin", "-x", stock.url("", ""), gbase+rel+"/up.bin")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if stored, err := os.ReadFile(filepath.Join(abs, "up.bin")); err != nil || !bytes.Equal(stored, data) {
				t.Fatalf("PUT through the gateway: the server stored %d bytes, %v", len(stored), err)
			}
			if got := stock.waitLog(t, "PUT ftp://"+srv.addr+"/", 1); len(got) != 1 || !strings.Contains(got[0], "/201 ") {
				t.Errorf("Squid logged %q: want one PUT answered 201", got)
			}
		})
	}
	t.Run("tunnel/refused", func(t *testing.T) {
		code, out, stderr := run(t, t.TempDir(), "-s", "-S", "-p", "-x", stock.url("", ""), base+"text.txt")
		if code != 56 || len(out) != 0 || !strings.Contains(stderr, "403") {
			t.Fatalf("exit %d, %q, %q: want 56 (curl's) and the proxy's 403 named", code, out, stderr)
		}
	})
	t.Run("tunnel", func(t *testing.T) {
		code, out, stderr := run(t, t.TempDir(), "-s", "-S", "-p", "-x", tunnel.url("", ""), base+"binary.bin")
		if code != 0 || !bytes.Equal(out, binaryFile()) {
			t.Fatalf("exit %d, %d bytes: %s", code, len(out), stderr)
		}
		if got := tunnel.waitLog(t, "CONNECT "+srv.addr, 1); len(got) == 0 {
			t.Errorf("Squid logged no CONNECT %s", srv.addr)
		}
	})
}

// mustURL parses a proxy URL of the tests.
func mustURL(t testing.TB, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// An https:// proxy (Squid's https_port): TLS to the proxy, then the
// CONNECT tunnel inside it (RFC 9110 §9.3.6), the proxy's certificate
// checked with the Client's TLSConfig roots as net/http checks one; on
// vsftpd a file in clear text inside the proxy's TLS, and a 1 MiB
// upload with explicit TLS to the server inside it (TLS in TLS), both
// byte for byte. A Client that does not trust the proxy's certificate
// fails with a *ProxyError naming the proxy.
func TestSquidHTTPSProxy(t *testing.T) {
	sq := startSquidTLS(t, squidTunnel)
	ctx := context.Background()
	for _, tg := range upTargets(t, "vsftpd") {
		if tg.mode == "implicit" {
			continue
		}
		t.Run(tg.mode, func(t *testing.T) {
			cl := &fetch.Client{TLSConfig: tg.cl.TLSConfig, StallTimeout: tg.cl.StallTimeout, Proxy: fixedProxy(mustURL(t, sq.url("", "")))}
			defer cl.CloseIdleConnections()
			got, _, err := openAndRead(ctx, cl, tg.base+"binary.bin", tg.opts...)
			if err != nil || !bytes.Equal(got, binaryFile()) {
				t.Fatalf("RETR through the https proxy: %d bytes, %v", len(got), err)
			}
			rel, abs := upDir(t, "vsftpd-squid-https-"+tg.mode)
			data := randomBytes(1 << 20)
			if n, err := cl.Put(ctx, tg.base+rel+"/up.bin", bytes.NewReader(data), tg.opts...); err != nil || n != int64(len(data)) {
				t.Fatalf("STOR through the https proxy: %d, %v", n, err)
			}
			if stored, err := os.ReadFile(filepath.Join(abs, "up.bin")); err != nil || !bytes.Equal(stored, data) {
				t.Fatalf("STOR through the https proxy: the server stored %d bytes, %v", len(stored), err)
			}
		})
	}
	srv := need(t, "vsftpd")
	untrusting := &fetch.Client{Proxy: fixedProxy(mustURL(t, sq.url("", "")))}
	defer untrusting.CloseIdleConnections()
	_, err := untrusting.Open(ctx, "ftp://"+srv.addr+"/text.txt")
	var pe *fetch.ProxyError
	if !errors.As(err, &pe) || pe.Proxy != "https://"+sq.addr || pe.Code != 0 {
		t.Fatalf("a proxy certificate not trusted: %v; want a *ProxyError for https://%s with no status", err, sq.addr)
	}
	// ProxyTLSConfig trusts the proxy alone (ftpget's --proxy-cacert).
	own := &fetch.Client{ProxyTLSConfig: &tls.Config{RootCAs: testCAPool}, Proxy: fixedProxy(mustURL(t, sq.url("", "")))}
	defer own.CloseIdleConnections()
	if got, _, err := openAndRead(ctx, own, "ftp://"+srv.addr+"/binary.bin"); err != nil || !bytes.Equal(got, binaryFile()) {
		t.Fatalf("ProxyTLSConfig trusting Squid: %d bytes, %v", len(got), err)
	}
}
