package fetch_test

// Client.Proxy (DESIGN "Every network"): an HTTP proxy tunnels the
// control connection and every data connection by CONNECT (RFC 9110
// §9.3.6), with Basic credentials (RFC 7617) never shown in an error;
// nil reads the environment as curl does; active mode with a proxy is
// an error before connecting. The proxy is one of the test's own, on
// loopback, which notes every CONNECT it gets.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// A connectProxy is an HTTP proxy that takes CONNECT only, to loopback
// addresses only, and notes each target and credential it got.
type connectProxy struct {
	t     *testing.T
	l     net.Listener
	auth  string // the Proxy-Authorization it wants; "" none
	wg    sync.WaitGroup
	mu    sync.Mutex
	seen  []string // the CONNECT targets, in order
	auths []string // the Proxy-Authorization of each request
	conns []net.Conn
}

func startConnectProxy(t *testing.T, user, password string) *connectProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startConnectProxyOn(t, l, user, password)
}

// startConnectProxyOn is startConnectProxy on l (a TLS listener for
// an https:// proxy).
func startConnectProxyOn(t *testing.T, l net.Listener, user, password string) *connectProxy {
	t.Helper()
	p := &connectProxy{t: t, l: l}
	if user != "" {
		p.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			p.track(c)
			p.wg.Add(1)
			go p.serve(c)
		}
	}()
	t.Cleanup(func() {
		l.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

// url is the proxy's URL, with user and password where given.
func (p *connectProxy) url(user, password string) *url.URL {
	u := &url.URL{Scheme: "http", Host: p.l.Addr().String()}
	if user != "" {
		u.User = url.UserPassword(user, password)
	}
	return u
}

func (p *connectProxy) track(c net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.conns = append(p.conns, c)
}

func (p *connectProxy) targets() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.seen)
}

func (p *connectProxy) serve(c net.Conn) {
	defer p.wg.Done()
	defer c.Close()
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	p.mu.Lock()
	p.seen = append(p.seen, req.Host)
	p.auths = append(p.auths, req.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	switch {
	case req.Method != http.MethodConnect:
		io.WriteString(c, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
		return
	case p.auth != "" && req.Header.Get("Proxy-Authorization") != p.auth:
		io.WriteString(c, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\n\r\n")
		return
	}
	host, _, err := net.SplitHostPort(req.Host)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		io.WriteString(c, "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n")
		return
	}
	up, err := net.DialTimeout("tcp", req.Host, 5*time.Second)
	if err != nil {
		io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		return
	}
	p.track(up)
	defer up.Close()
	io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
	// Each way half-closes on its own, as a network does.
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, br)
		up.(*net.TCPConn).CloseWrite()
	}()
	io.Copy(c, up)
	c.(interface{ CloseWrite() error }).CloseWrite()
	<-done
}

// fixedProxy is a Client.Proxy that returns u for every server.
func fixedProxy(u *url.URL) func(*url.URL) (*url.URL, error) {
	return func(*url.URL) (*url.URL, error) { return u, nil }
}

// Through an HTTP proxy, the control connection and every data
// connection are CONNECTs (curl --proxytunnel): to the server's
// address, and to its host at each passive port; a file, a listing and
// an upload arrive byte for byte, and each CONNECT carries the Basic
// credentials of the proxy URL (RFC 7617). On two real servers, plain
// and, for vsftpd, with explicit TLS inside the tunnel.
func TestProxyConnectTunnelsEveryConnection(t *testing.T) {
	for _, name := range []string{"vsftpd", "ftpserverlib"} {
		for _, tg := range upTargets(t, name) {
			if tg.mode == "implicit" {
				continue
			}
			t.Run(name+"/"+tg.mode, func(t *testing.T) {
				px := startConnectProxy(t, "pxuser", "px:secret")
				tg.cl.Proxy = fixedProxy(px.url("pxuser", "px:secret"))
				rel, abs := upDir(t, name+"-proxy-"+tg.mode)
				ctx := context.Background()
				got, _, err := openAndRead(ctx, tg.cl, tg.base+"binary.bin", tg.opts...)
				if err != nil || !bytes.Equal(got, binaryFile()) {
					t.Fatalf("RETR through the proxy: %d bytes, %v", len(got), err)
				}
				ents, err := tg.cl.ReadDir(ctx, tg.base+"a/", tg.opts...)
				if err != nil || len(ents) != 2 {
					t.Fatalf("ReadDir through the proxy: %v, %v", ents, err)
				}
				data := randomBytes(1 << 20)
				if n, err := tg.cl.Put(ctx, tg.base+rel+"/up.bin", bytes.NewReader(data), tg.opts...); err != nil || n != int64(len(data)) {
					t.Fatalf("STOR through the proxy: %d, %v", n, err)
				}
				if stored, err := os.ReadFile(filepath.Join(abs, "up.bin")); err != nil || !bytes.Equal(stored, data) {
					t.Fatalf("STOR through the proxy: the server stored %d bytes, %v", len(stored), err)
				}
				server := strings.TrimSuffix(strings.SplitN(tg.base, "@", 2)[1], "/")
				targets := px.targets()
				control, data2 := 0, 0
				for _, a := range targets {
					if a == server {
						control++
					} else if strings.HasPrefix(a, "127.0.0.1:") {
						data2++
					}
				}
				if control < 1 || data2 < 3 {
					t.Errorf("the proxy saw %q: want the control connection to %s and at least 3 data connections (RETR, listing, STOR)", targets, server)
				}
				px.mu.Lock()
				for i, a := range px.auths {
					if a != px.auth {
						t.Errorf("CONNECT %d carried Proxy-Authorization %q, want %q", i, a, px.auth)
					}
				}
				px.mu.Unlock()
			})
		}
	}
}

// A proxy that refuses the credentials (407) fails the connection with
// an *Error of Op "dial" wrapping a *ProxyError with the status and the
// proxy's address; neither the user nor the password of the proxy URL
// appears in the message (DESIGN: "never in an error").
func TestProxy407IsTypedAndHidesCredentials(t *testing.T) {
	noLeaks(t)
	f := newFake(t, nil)
	px := startConnectProxy(t, "right", "right-pass")
	cl := testClient(t)
	cl.Proxy = fixedProxy(px.url("wronguser", "wrong-secret"))
	_, err := cl.Open(context.Background(), f.url("f"))
	e := asError(t, err)
	var pe *fetch.ProxyError
	if e.Op != "dial" || !errors.As(err, &pe) || pe.Code != 407 || pe.Proxy != "http://"+px.l.Addr().String() || pe.Target != f.addr {
		t.Fatalf("err = %v; want Op dial and a *ProxyError 407 naming the proxy and the server", err)
	}
	if msg := err.Error(); strings.Contains(msg, "wrong-secret") || strings.Contains(msg, "wronguser") || !strings.Contains(msg, "407") {
		t.Errorf("message %q: want the 407 without the proxy's user or password", msg)
	}
	if f.dialCount() != 0 {
		t.Errorf("the server was reached %d times past a refusing proxy", f.dialCount())
	}
	// No credentials at all: the same 407.
	cl.Proxy = fixedProxy(px.url("", ""))
	_, err = cl.Open(context.Background(), f.url("f"))
	if !errors.As(err, &pe) || pe.Code != 407 {
		t.Errorf("without credentials: %v; want a 407 *ProxyError", err)
	}
}

// Through the proxy, data connections go to the URL's host, whatever
// address the 227 names (RFC 2577 §3), at the port it names: the fake
// server names 127.0.0.3 in its PASV and EPSV is refused.
func TestProxyDataGoesToTheServersHost(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{
		"EPSV": say("502 no EPSV"),
		"PASV": func(c *fconn, _ string) {
			if port := c.listen(); port > 0 {
				c.send("227 Entering Passive Mode (127,0,0,3," + strconv.Itoa(port>>8) + "," + strconv.Itoa(port&255) + ").")
			}
		},
		"RETR": transfer("through the tunnel", "150 Opening", "226 Done"),
	})
	px := startConnectProxy(t, "", "")
	cl := testClient(t)
	cl.Proxy = fixedProxy(px.url("", ""))
	got, _, err := openAndRead(context.Background(), cl, f.url("f"))
	if err != nil || string(got) != "through the tunnel" {
		t.Fatalf("got %q, %v", got, err)
	}
	ts := px.targets()
	if len(ts) != 2 || ts[0] != f.addr || !strings.HasPrefix(ts[1], "127.0.0.1:") || ts[1] == f.addr {
		t.Errorf("CONNECTs %q: want the server %s, then its host at the passive port", ts, f.addr)
	}
}

// Active mode through a proxy is an error before any connection (curl
// refuses --ftp-port with a proxy): Op "port", a *ProxyError naming the
// proxy.
func TestActiveWithProxyIsAnError(t *testing.T) {
	f := newFake(t, nil)
	px := startConnectProxy(t, "", "")
	cl := testClient(t)
	cl.Active = "-"
	cl.Proxy = fixedProxy(px.url("u", "p"))
	_, err := cl.Open(context.Background(), f.url("f"))
	e := asError(t, err)
	var pe *fetch.ProxyError
	if e.Op != "port" || !errors.As(err, &pe) || strings.Contains(err.Error(), "u:p") {
		t.Fatalf("err = %v; want Op port with a *ProxyError", err)
	}
	if len(px.targets()) != 0 || f.dialCount() != 0 {
		t.Errorf("connections made: proxy %q, server %d", px.targets(), f.dialCount())
	}
}

// A nil Proxy reads the environment as curl does (ftp_proxy, then
// all_proxy; no_proxy lists hosts reached directly), unless DialContext
// is set.
func TestProxyFromTheEnvironment(t *testing.T) {
	f := newFake(t, script{"RETR": transfer("env", "150 Opening", "226 Done")})
	px := startConnectProxy(t, "", "")
	t.Setenv("ftp_proxy", "")
	t.Setenv("FTP_PROXY", "")
	t.Setenv("no_proxy", "")
	t.Setenv("NO_PROXY", "")
	t.Setenv("ALL_PROXY", px.l.Addr().String()) // no scheme: http://, as curl takes it
	cl := testClient(t)
	if got, _, err := openAndRead(context.Background(), cl, f.url("f")); err != nil || string(got) != "env" {
		t.Fatalf("through ALL_PROXY: %q, %v", got, err)
	}
	if n := len(px.targets()); n != 2 {
		t.Fatalf("ALL_PROXY: the proxy saw %d CONNECTs, want 2", n)
	}
	t.Setenv("NO_PROXY", "example.org, 127.0.0.0/8")
	if _, _, err := openAndRead(context.Background(), cl, f.url("f")); err != nil {
		t.Fatal(err)
	}
	if n := len(px.targets()); n != 2 {
		t.Errorf("NO_PROXY 127.0.0.0/8: the proxy saw %d CONNECTs, want still 2", n)
	}
	t.Setenv("NO_PROXY", "")
	var d net.Dialer
	cl.DialContext = d.DialContext
	if _, _, err := openAndRead(context.Background(), cl, f.url("f")); err != nil {
		t.Fatal(err)
	}
	if n := len(px.targets()); n != 2 {
		t.Errorf("with DialContext set: the proxy saw %d CONNECTs, want still 2", n)
	}
}

// ProxyFromEnvironment: the scheme's variable first, then all_proxy;
// no_proxy by name, suffix, IP and CIDR block; "*" for all (curl's
// ENVIRONMENT section).
func TestProxyFromEnvironmentRules(t *testing.T) {
	for _, v := range []string{"ftp_proxy", "FTP_PROXY", "ftps_proxy", "FTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"} {
		t.Setenv(v, "")
	}
	t.Setenv("ftp_proxy", "http://127.0.0.1:3128")
	t.Setenv("ALL_PROXY", "socks5h://127.0.0.1")
	t.Setenv("NO_PROXY", ".example.org,10.0.0.0/8,127.0.0.9")
	for _, tc := range []struct{ server, want string }{
		{"ftp://127.0.0.5:21", "http://127.0.0.1:3128"},
		{"ftps://127.0.0.5:990", "socks5h://127.0.0.1:1080"},
		{"ftp://ftp.example.org:21", ""},
		{"ftp://example.org:21", ""},
		{"ftp://10.1.2.3:21", ""},
		{"ftp://127.0.0.9:21", ""},
		{"ftp://notexample.org:21", "http://127.0.0.1:3128"},
	} {
		u, _ := url.Parse(tc.server)
		p, err := fetch.ProxyFromEnvironment(u)
		got := ""
		if p != nil {
			got = p.String()
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: %q, %v; want %q", tc.server, got, err, tc.want)
		}
	}
	t.Setenv("NO_PROXY", "*")
	if p, err := fetch.ProxyFromEnvironment(&url.URL{Scheme: "ftp", Host: "127.0.0.5:21"}); p != nil || err != nil {
		t.Errorf("NO_PROXY=*: %v, %v; want none", p, err)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("ftp_proxy", "gopher://u:pw@127.0.0.1")
	_, err := fetch.ProxyFromEnvironment(&url.URL{Scheme: "ftp", Host: "127.0.0.5:21"})
	if err == nil || strings.Contains(err.Error(), "pw") {
		t.Errorf("gopher proxy: %v; want an error without the password", err)
	}
}

// An https:// proxy: TLS to the proxy (verified against the Client's
// TLSConfig roots, for the proxy's name), then CONNECT inside it for
// every connection, control and data.
func TestProxyHTTPSTunnel(t *testing.T) {
	srv := need(t, "ftpserverlib")
	if testRun == nil || testCAPool == nil {
		t.Skip("no test certificates")
	}
	l, err := tls.Listen("tcp", "127.0.0.1:0", testRun.serverTLSConfig())
	if err != nil {
		t.Fatal(err)
	}
	px := startConnectProxyOn(t, l, "u", "pw")
	pu := px.url("u", "pw")
	pu.Scheme = "https"
	cl := &fetch.Client{TLSConfig: &tls.Config{RootCAs: testCAPool}, Proxy: fixedProxy(pu), StallTimeout: 10 * time.Second}
	t.Cleanup(cl.CloseIdleConnections)
	got, _, err := openAndRead(context.Background(), cl, "ftp://"+srv.addr+"/binary.bin")
	if err != nil || !bytes.Equal(got, binaryFile()) {
		t.Fatalf("through an https proxy: %d bytes, %v", len(got), err)
	}
	if ts := px.targets(); len(ts) != 2 || ts[0] != srv.addr {
		t.Errorf("the proxy saw %q; want the server, then its data port", ts)
	}
	// A proxy whose certificate does not verify is a *ProxyError.
	bad := &fetch.Client{Proxy: fixedProxy(pu), StallTimeout: 10 * time.Second}
	_, err = bad.Open(context.Background(), "ftp://"+srv.addr+"/binary.bin")
	var pe *fetch.ProxyError
	if !errors.As(err, &pe) || pe.Proxy != "https://"+px.l.Addr().String() {
		t.Errorf("an untrusted proxy: %v; want a *ProxyError naming it", err)
	}

	// ProxyTLSConfig, where set, is the proxy's alone (curl's
	// --proxy-cacert beside --cacert): it trusts the proxy with no
	// TLSConfig, and a TLSConfig that trusts the proxy's certificate
	// does not help where ProxyTLSConfig does not.
	own := &fetch.Client{ProxyTLSConfig: &tls.Config{RootCAs: testCAPool}, Proxy: fixedProxy(pu), StallTimeout: 10 * time.Second}
	t.Cleanup(own.CloseIdleConnections)
	if got, _, err := openAndRead(context.Background(), own, "ftp://"+srv.addr+"/binary.bin"); err != nil || !bytes.Equal(got, binaryFile()) {
		t.Errorf("ProxyTLSConfig trusting the proxy: %d bytes, %v", len(got), err)
	}
	apart := &fetch.Client{TLSConfig: &tls.Config{RootCAs: testCAPool}, ProxyTLSConfig: &tls.Config{RootCAs: x509.NewCertPool()}, Proxy: fixedProxy(pu), StallTimeout: 10 * time.Second}
	_, err = apart.Open(context.Background(), "ftp://"+srv.addr+"/binary.bin")
	var ue x509.UnknownAuthorityError
	if !errors.As(err, &pe) || !errors.As(err, &ue) {
		t.Errorf("ProxyTLSConfig with no roots: %v; want a *ProxyError for an unknown authority, whatever TLSConfig trusts", err)
	}
}
