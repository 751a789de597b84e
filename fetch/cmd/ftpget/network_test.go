package main

// The network flags (network.go) and an HTTP proxy's two uses
// (gateway.go), against an HTTP proxy of the test's own on loopback
// that does what Squid does: CONNECT tunnels (RFC 9110 §9.3.6), and
// GET, HEAD and PUT of ftp:// URLs through its FTP gateway, here made
// with fetch itself (a listing rendered as an HTML page with a link per
// entry, as Squid renders one).

import (
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// A testProxy is an HTTP proxy on 127.0.0.1: CONNECT to loopback
// addresses, and an FTP gateway. It notes each request ("CONNECT
// addr", "GET ftp://...") and the Proxy-Authorization of each.
type testProxy struct {
	addr  string
	auth  string // the Proxy-Authorization wanted; "" none
	cl    *fetch.Client
	mu    sync.Mutex
	seen  []string
	auths []string
}

func startTestProxy(t *testing.T, user, password string) *testProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startTestProxyOn(t, l, user, password)
}

// startTestProxyTLS is startTestProxy as an https:// proxy: TLS with
// config, then HTTP inside it.
func startTestProxyTLS(t *testing.T, config *tls.Config) *testProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startTestProxyOn(t, tls.NewListener(l, config), "", "")
}

func startTestProxyOn(t *testing.T, l net.Listener, user, password string) *testProxy {
	t.Helper()
	p := &testProxy{addr: l.Addr().String(), cl: &fetch.Client{Proxy: func(*url.URL) (*url.URL, error) { return nil, nil }}}
	if user != "" {
		p.auth = "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close(); p.cl.CloseIdleConnections() })
	return p
}

func (p *testProxy) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

func (p *testProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	target := r.Host
	if r.Method != http.MethodConnect {
		target = r.URL.String()
	}
	p.mu.Lock()
	p.seen = append(p.seen, r.Method+" "+target)
	p.auths = append(p.auths, r.Header.Get("Proxy-Authorization"))
	p.mu.Unlock()
	if p.auth != "" && r.Header.Get("Proxy-Authorization") != p.auth {
		w.Header().Set("Proxy-Authenticate", `Basic realm="test"`)
		http.Error(w, "who are you", http.StatusProxyAuthRequired)
		return
	}
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if r.URL.Scheme != "ftp" {
		http.Error(w, "ftp only", http.StatusBadRequest)
		return
	}
	p.gateway(w, r)
}

// tunnel serves CONNECT to a loopback address.
func (p *testProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.Host)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		http.Error(w, "loopback only", http.StatusForbidden)
		return
	}
	up, err := net.DialTimeout("tcp", r.Host, 5*time.Second)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer up.Close()
	c, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	defer c.Close()
	io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(up, brw)
		up.(*net.TCPConn).CloseWrite()
	}()
	io.Copy(c, up)
	c.(interface{ CloseWrite() error }).CloseWrite() // TCP, or TLS's close_notify
	<-done
}

// gateway serves GET, HEAD and PUT of an ftp:// URL with fetch, the
// login from Authorization (Basic), as Squid's FTP gateway does.
func (p *testProxy) gateway(w http.ResponseWriter, r *http.Request) {
	u := *r.URL
	if user, pw, ok := r.BasicAuth(); ok {
		u.User = url.UserPassword(user, pw)
	}
	ctx := r.Context()
	switch r.Method {
	case http.MethodPut:
		if _, err := p.cl.Put(ctx, u.String(), r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		w.WriteHeader(http.StatusCreated)
		return
	case http.MethodGet, http.MethodHead:
	default:
		http.Error(w, "no", http.StatusMethodNotAllowed)
		return
	}
	resp, err := p.cl.Open(ctx, u.String())
	switch {
	case errors.Is(err, fetch.ErrNotFound):
		http.Error(w, "not found", http.StatusNotFound)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Close()
	if resp.Action != ftpurl.Retrieve {
		var b strings.Builder
		b.WriteString("<html><body><h2>FTP Directory: " + html.EscapeString(u.Redacted()) + "</h2><pre>\n")
		for _, e := range resp.Entries {
			fmt.Fprintf(&b, "<a href=\"%s\">%s</a>\n", html.EscapeString(url.PathEscape(e.Name)), html.EscapeString(e.Name))
		}
		b.WriteString("</pre></body></html>\n")
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
		if r.Method == http.MethodGet {
			io.WriteString(w, b.String())
		}
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	if resp.Size >= 0 {
		w.Header().Set("Content-Length", strconv.FormatInt(resp.Size, 10))
	}
	if r.Method == http.MethodGet {
		io.Copy(w, resp)
	}
}

// --ftp-port takes active mode (fetch.Client.Active): "-" fetches the
// file; an address whose port is held fails on PORT (exit 1, the
// message naming it); --ftp-pasv after it is passive again (curl's
// meanings).
func TestFtpPortFlag(t *testing.T) {
	runIn(t, "", "--ftp-port", "-", ftpURL("text.txt")).want(t, 0, textFile)
	runIn(t, "", "--ftp-port", "127.0.0.1", ftpURL("a/top.txt")).want(t, 0, "top\n")
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	r := runIn(t, "", "--ftp-port", addr, ftpURL("text.txt"))
	if r.code != 1 || !strings.Contains(r.stderr, "port (PORT)") {
		t.Errorf("--ftp-port %s (held): exit %d, stderr %q; want 1 and the PORT step", addr, r.code, r.stderr)
	}
	runIn(t, "", "--ftp-port", addr, "--ftp-pasv", ftpURL("text.txt")).want(t, 0, textFile)
	r = runIn(t, "", "--ftp-port", "127.0.0.1:99999", ftpURL("text.txt"))
	if r.code == 0 || !strings.Contains(r.stderr, `"127.0.0.1:99999"`) {
		t.Errorf("--ftp-port with a bad port: exit %d, stderr %q", r.code, r.stderr)
	}
}

// --disable-epsv: PASV alone. A server whose EPSV names a port where
// nothing listens fails with EPSV and works with --disable-epsv.
func TestDisableEPSVFlag(t *testing.T) {
	addr := brokenEPSVServer(t)
	r := runIn(t, "", "ftp://"+addr+"/f")
	if r.code == 0 {
		t.Fatalf("with EPSV: exit 0; the server's EPSV names a closed port, so the test tests nothing")
	}
	runIn(t, "", "--disable-epsv", "ftp://"+addr+"/f").want(t, 0, "by PASV\n")
}

// brokenEPSVServer is an FTP server whose EPSV names a closed port and
// whose PASV works, serving "by PASV\n" for any RETR.
func brokenEPSVServer(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	closedPort := closed.Addr().(*net.TCPAddr).Port
	closed.Close()
	acceptEach(t, l, func(c net.Conn) {
		defer c.Close()
		say := func(s string) { io.WriteString(c, s+"\r\n") }
		say("220 broken EPSV")
		var pasv net.Listener
		buf := make([]byte, 0, 512)
		one := make([]byte, 1)
		for {
			buf = buf[:0]
			for {
				if _, err := c.Read(one); err != nil {
					return
				}
				if one[0] == '\n' {
					break
				}
				buf = append(buf, one[0])
			}
			verb, _, _ := strings.Cut(strings.TrimRight(string(buf), "\r"), " ")
			switch strings.ToUpper(verb) {
			case "USER":
				say("230 in")
			case "PWD":
				say(`257 "/"`)
			case "TYPE":
				say("200 ok")
			case "EPSV":
				say(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", closedPort))
			case "PASV":
				pasv, _ = net.Listen("tcp", "127.0.0.1:0")
				port := pasv.Addr().(*net.TCPAddr).Port
				say(fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d)", port>>8, port&255))
			case "RETR":
				if pasv == nil {
					say("425 no PASV")
					continue
				}
				d, err := pasv.Accept()
				pasv.Close()
				pasv = nil
				if err != nil {
					say("425 no connection")
					continue
				}
				say("150 here")
				io.WriteString(d, "by PASV\n")
				d.Close()
				say("226 done")
			case "QUIT":
				say("221 bye")
				return
			default:
				say("502 no")
			}
		}
	})
	return l.Addr().String()
}

// -p (--proxytunnel) with an http:// proxy: the control connection and
// every data connection are CONNECTs, with the proxy URL's credentials;
// the file arrives byte for byte.
func TestProxyTunnelFlag(t *testing.T) {
	px := startTestProxy(t, "pu", "p-secret")
	runIn(t, "", "-p", "-x", "http://pu:p-secret@"+px.addr, ftpURL("binary.bin")).want(t, 0, string(binaryFile()))
	reqs := px.requests()
	if len(reqs) != 2 || reqs[0] != "CONNECT "+serverAddr || !strings.HasPrefix(reqs[1], "CONNECT 127.0.0.1:") {
		t.Errorf("the proxy saw %q; want CONNECT %s and one CONNECT for the data", reqs, serverAddr)
	}
	// Wrong credentials: curl's exit 56, and no password in the message.
	r := runIn(t, "", "--proxytunnel", "--proxy", "http://pu:wrong-secret@"+px.addr, ftpURL("binary.bin"))
	if r.code != 56 || !strings.Contains(r.stderr, "407") || strings.Contains(r.stderr, "wrong-secret") {
		t.Errorf("wrong proxy password: exit %d, stderr %q; want 56 and the 407 without the password", r.code, r.stderr)
	}
	// Active mode through the proxy is an error before connecting.
	n := len(px.requests())
	r = runIn(t, "", "-p", "-x", "http://pu:p-secret@"+px.addr, "--ftp-port", "-", ftpURL("text.txt"))
	if r.code != 1 || !strings.Contains(r.stderr, "active mode") || len(px.requests()) != n {
		t.Errorf("--ftp-port with a proxy: exit %d, stderr %q, %d requests", r.code, r.stderr, len(px.requests())-n)
	}
}

// An https:// proxy's certificate is checked with --proxy-cacert, or
// not at all with --proxy-insecure, and never with --cacert or -k,
// which are the server's: curl(1), "--proxy-cacert: Same as --cacert
// but used in HTTPS proxy context", "--proxy-insecure: Same as -k,
// --insecure but used in HTTPS proxy context". A proxy not trusted is
// exit 60, as curl 7.88.1 gives (curl -k -x https://... too); in a
// tunnel (-p) and through the gateway alike. Where curl is installed,
// each case runs with it too, and its status must be the same.
func TestHTTPSProxyCertificateFlags(t *testing.T) {
	proxyConfig, proxyCA := testCA(t)
	serverConfig, serverCA := testCA(t) // another CA: the server's
	px := startTestProxyTLS(t, proxyConfig)
	x := "https://" + px.addr
	curl, _ := exec.LookPath("curl")
	for _, mode := range []string{"-p", "--ftp-pasv"} { // a tunnel; the gateway
		t.Run(mode, func(t *testing.T) {
			for _, c := range []struct {
				flags []string
				code  int
			}{
				{nil, 60},
				{[]string{"-k"}, 60},
				{[]string{"--cacert", proxyCA}, 60},
				{[]string{"--proxy-cacert", serverCA}, 60},
				{[]string{"--proxy-cacert", proxyCA}, 0},
				{[]string{"--proxy-insecure"}, 0},
			} {
				args := append(append([]string{mode, "-x", x}, c.flags...), ftpURL("text.txt"))
				if curl != "" {
					// curl, where installed, gives the same status.
					code := 0
					if err := exec.Command(curl, append([]string{"-sS", "-o", os.DevNull}, args...)...).Run(); err != nil {
						var ee *exec.ExitError
						if !errors.As(err, &ee) {
							t.Fatalf("curl %q: %v", args, err)
						}
						code = ee.ExitCode()
					}
					if code != c.code {
						t.Errorf("curl %q: exit %d; want %d, as ftpget", args, code, c.code)
					}
				}
				r := runIn(t, "", args...)
				if c.code == 0 {
					r.want(t, 0, textFile)
					continue
				}
				if r.code != c.code || !strings.Contains(r.stderr, "certificate") || !strings.Contains(r.stderr, px.addr) {
					t.Errorf("%q: exit %d, stderr %q; want %d naming the proxy and its certificate", args, r.code, r.stderr, c.code)
				}
			}
		})
	}
	// TLS to the server inside TLS to the proxy: each checked with its
	// own roots.
	explicit := tlsServer(t, serverConfig, ftpserver.ClearOrEncrypted)
	runIn(t, "", "-p", "-x", x, "--proxy-cacert", proxyCA, "--cacert", serverCA, "--tls", "ftp://"+explicit+"/text.txt").want(t, 0, textFile)
	r := runIn(t, "", "-p", "-x", x, "--proxy-insecure", "--tls", "ftp://"+explicit+"/text.txt")
	if r.code != 60 || strings.Contains(r.stderr, px.addr) {
		t.Errorf("--proxy-insecure with a server not trusted: exit %d, stderr %q; want 60 for the server", r.code, r.stderr)
	}
	r = runIn(t, "", "--proxy-cacert", "/nonexistent/ca.pem", "-p", "-x", x, ftpURL("text.txt"))
	if r.code != 77 || !strings.HasPrefix(r.stderr, "ftpget: --proxy-cacert") {
		t.Errorf("--proxy-cacert of a missing file: exit %d, stderr %q; want 77", r.code, r.stderr)
	}
}

// Without -p, an http:// proxy is used as curl uses it: through its
// FTP gateway, "GET ftp://host/path" (RFC 9112 §3.2.2), the file byte
// for byte; a directory as the gateway renders it; -I by HEAD; -T by
// PUT; a name the server lacks is exit 78. The URL's password goes in
// Authorization, never in the request line.
func TestProxyFTPGateway(t *testing.T) {
	px := startTestProxy(t, "", "")
	x := "http://" + px.addr
	runIn(t, "", "-x", x, ftpURL("binary.bin")).want(t, 0, string(binaryFile()))
	if reqs := px.requests(); len(reqs) != 1 || reqs[0] != "GET "+ftpURL("binary.bin") {
		t.Errorf("the proxy saw %q; want one GET of the ftp URL", reqs)
	}
	r := runIn(t, "", "-x", x, ftpURL("a/"))
	if r.code != 0 || !strings.Contains(r.stdout, `<a href="top.txt">top.txt</a>`) {
		t.Errorf("a directory through the gateway: exit %d, %q", r.code, r.stdout)
	}
	r = runIn(t, "", "-x", x, "-I", ftpURL("text.txt"))
	if r.code != 0 || !strings.HasPrefix(r.stdout, "HTTP/1.1 200 OK\r\n") || !strings.Contains(r.stdout, "Content-Length: 18\r\n") {
		t.Errorf("-I through the gateway: exit %d, %q", r.code, r.stdout)
	}
	if reqs := px.requests(); !strings.HasPrefix(reqs[len(reqs)-1], "HEAD ") {
		t.Errorf("-I sent %q, want HEAD", reqs[len(reqs)-1])
	}
	r = runIn(t, "", "-x", x, ftpURL("missing.txt"))
	if r.code != 78 || !strings.Contains(r.stderr, "404") {
		t.Errorf("a missing file through the gateway: exit %d, stderr %q; want 78", r.code, r.stderr)
	}
	// Upload by PUT, as the password user.
	root, base := writableServer(t)
	src := filepath.Join(t.TempDir(), "up.bin")
	data := []byte(strings.Repeat("upload through the gateway\n", 1000))
	if err := os.WriteFile(src, data, 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, "", "-x", x, "-T", src, base).want(t, 0, "")
	if got, err := os.ReadFile(filepath.Join(root, "up.bin")); err != nil || string(got) != string(data) {
		t.Errorf("PUT through the gateway: the server holds %d bytes, %v", len(got), err)
	}
	last := px.requests()[len(px.requests())-1]
	if !strings.HasPrefix(last, "PUT ftp://127.0.0.1:") || strings.Contains(last, testPassword) {
		t.Errorf("the upload's request %q: want a PUT without the password", last)
	}
	// Refused with a gateway: what needs FTP itself.
	for _, args := range [][]string{{"-C", "5", "-o", filepath.Join(t.TempDir(), "x")}, {"--tls"}} {
		r := runIn(t, "", append(append([]string{"-x", x}, args...), ftpURL("text.txt"))...)
		if r.code != 2 || !strings.Contains(r.stderr, "give -p") {
			t.Errorf("%q through the gateway: exit %d, stderr %q; want 2 and the advice", args, r.code, r.stderr)
		}
	}
}

// The gateway proxy's credentials go in Proxy-Authorization; a proxy
// that refuses them is exit 97, and the message holds no password.
func TestProxyFTPGatewayCredentials(t *testing.T) {
	px := startTestProxy(t, "gw", "gw-secret")
	runIn(t, "", "-x", "http://gw:gw-secret@"+px.addr, ftpURL("text.txt")).want(t, 0, textFile)
	r := runIn(t, "", "-x", "http://gw:bad-secret@"+px.addr, ftpURL("text.txt"))
	if r.code != 97 || !strings.Contains(r.stderr, "407") || strings.Contains(r.stderr, "secret") {
		t.Errorf("wrong gateway password: exit %d, stderr %q; want 97, the 407, no password", r.code, r.stderr)
	}
	// ftp_proxy without a scheme is http:// (curl), and NO_PROXY wins.
	t.Setenv("ftp_proxy", "gw:gw-secret@"+px.addr)
	n := len(px.requests())
	runIn(t, "", ftpURL("text.txt")).want(t, 0, textFile)
	if len(px.requests()) != n+1 {
		t.Errorf("ftp_proxy: the proxy saw %d requests, want 1", len(px.requests())-n)
	}
	t.Setenv("NO_PROXY", "127.0.0.1")
	runIn(t, "", ftpURL("text.txt")).want(t, 0, textFile)
	if len(px.requests()) != n+1 {
		t.Errorf("NO_PROXY: the proxy saw a request")
	}
}
