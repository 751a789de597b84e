package main

import (
	"encoding/binary"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// A socksServer is a SOCKS5 proxy (RFC 1928) for the tests: no
// authentication (§3, METHOD X'00'), CONNECT only (§4), to an IPv4
// address (ATYP 1) or a domain name (ATYP 3) that it resolves itself.
// It logs each CONNECT's target as the client sent it.
type socksServer struct {
	l       net.Listener
	mu      sync.Mutex
	targets []string
}

func startSOCKS(t *testing.T, listen string) *socksServer {
	t.Helper()
	l, err := net.Listen("tcp", listen)
	if err != nil {
		t.Skipf("no SOCKS5 server on %s: %v", listen, err)
	}
	s := &socksServer{l: l}
	acceptEach(t, l, s.serve)
	return s
}

func (s *socksServer) URL(scheme string) string { return scheme + "://" + s.l.Addr().String() }

func (s *socksServer) Targets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.targets...)
}

func (s *socksServer) serve(c net.Conn) {
	defer c.Close()
	// §3: VER 5, NMETHODS, METHODS; the answer: VER 5, METHOD 0.
	var hdr [2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil || hdr[0] != 5 {
		return
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(c, methods); err != nil {
		return
	}
	if !strings.ContainsRune(string(methods), 0) {
		c.Write([]byte{5, 0xff}) // no acceptable method
		return
	}
	c.Write([]byte{5, 0})
	// §4: VER 5, CMD, RSV, ATYP, DST.ADDR, DST.PORT.
	var req [4]byte
	if _, err := io.ReadFull(c, req[:]); err != nil {
		return
	}
	reply := func(rep byte) { c.Write([]byte{5, rep, 0, 1, 0, 0, 0, 0, 0, 0}) } // §6
	if req[1] != 1 {
		reply(7) // command not supported
		return
	}
	var host string
	switch req[3] {
	case 1:
		ip := make([]byte, 4)
		if _, err := io.ReadFull(c, ip); err != nil {
			return
		}
		host = net.IP(ip).String()
	case 3:
		var n [1]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return
		}
		name := make([]byte, n[0])
		if _, err := io.ReadFull(c, name); err != nil {
			return
		}
		host = string(name)
	default:
		reply(8) // address type not supported
		return
	}
	var port [2]byte
	if _, err := io.ReadFull(c, port[:]); err != nil {
		return
	}
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(port[:]))))
	s.mu.Lock()
	s.targets = append(s.targets, target)
	s.mu.Unlock()
	up, err := net.Dial("tcp", target)
	if err != nil {
		reply(5) // connection refused
		return
	}
	defer up.Close()
	reply(0)
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); up.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	go func() { io.Copy(c, up); c.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	<-done
	<-done
}

// controlAndData splits the targets into those to the server's port
// (control connections) and the others (data connections).
func controlAndData(targets []string, controlPort string) (control, data []string) {
	for _, tg := range targets {
		if _, p, _ := net.SplitHostPort(tg); p == controlPort {
			control = append(control, tg)
		} else {
			data = append(data, tg)
		}
	}
	return control, data
}

// TestSOCKS5hEveryConnectionGoesThroughTheProxy: with socks5h:// the
// proxy gets the host name (RFC 1928 §5, ATYP X'03', "the name is to be
// resolved at the SOCKS server"), and every connection goes through
// it: the control connection and each data connection (RETR, LIST).
func TestSOCKS5hEveryConnectionGoesThroughTheProxy(t *testing.T) {
	s := startSOCKS(t, "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(serverAddr)
	host := "localhost:" + port
	runIn(t, "", "--proxy", s.URL("socks5h"), "ftp://"+host+"/text.txt", "ftp://"+host+"/a/b/deep.txt", "ftp://"+host+"/a/").
		want(t, 0, textFile+"deep\n"+mustListing(t, "a/"))
	control, data := controlAndData(s.Targets(), port)
	if len(control) == 0 || control[0] != host {
		t.Errorf("the control connection's CONNECT: %q, want %q, the name, for the proxy to resolve", control, host)
	}
	// Three transfers, each a data connection through the proxy.
	if len(data) < 3 {
		t.Errorf("%d data connections went through the proxy (%q), want one per transfer, 3", len(data), data)
	}
	// The data connections go to the server's host, not the proxy's.
	for _, d := range data {
		if h, _, _ := net.SplitHostPort(d); h != "localhost" && h != "127.0.0.1" {
			t.Errorf("a data connection's CONNECT: %q, want the server's host", d)
		}
	}
}

// TestSOCKS5ResolvesTheNameHere: with socks5:// the client resolves
// the name and the proxy gets an address (ATYP X'01'), as curl(1)
// says of --socks5: "the host name is resolved locally".
func TestSOCKS5ResolvesTheNameHere(t *testing.T) {
	s := startSOCKS(t, "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(serverAddr)
	runIn(t, "", "--proxy", s.URL("socks5"), "ftp://localhost:"+port+"/text.txt").want(t, 0, textFile)
	control, data := controlAndData(s.Targets(), port)
	if len(control) != 1 || control[0] != "127.0.0.1:"+port {
		t.Errorf("the control connection's CONNECT: %q, want 127.0.0.1:%s, resolved here", control, port)
	}
	if len(data) != 1 {
		t.Errorf("data connections through the proxy: %q, want 1", data)
	}
}

// TestProxyDataConnectionsGoToTheServersHost: the proxy has an address
// of its own (127.0.0.2), and the data connections still go to the
// server's host (127.0.0.1), not to the proxy's address.
func TestProxyDataConnectionsGoToTheServersHost(t *testing.T) {
	s := startSOCKS(t, "127.0.0.2:0")
	_, port, _ := net.SplitHostPort(serverAddr)
	r := runIn(t, "", "--proxy", s.URL("socks5h"), ftpURL("text.txt"))
	_, data := controlAndData(s.Targets(), port)
	for _, d := range data {
		if h, _, _ := net.SplitHostPort(d); h != "127.0.0.1" {
			t.Errorf("a data connection's CONNECT went to %q, the proxy's own address, want 127.0.0.1 (the URL's host); ftpget: exit %d, stderr %q", d, r.code, r.stderr)
		}
	}
	r.want(t, 0, textFile)
}

// TestProxyPrecedence: curl(1), ENVIRONMENT: "[scheme]_proxy" for the
// URL's scheme, else ALL_PROXY; --proxy before either ("This option
// overrides existing environment variables"); NO_PROXY and --noproxy
// list hosts reached directly, "*" all; --proxy "" none.
func TestProxyPrecedence(t *testing.T) {
	s := startSOCKS(t, "127.0.0.1:0")
	bad := "http://127.0.0.1:9" // refused if ever used: exit 5
	cases := []struct {
		name       string
		env        map[string]string
		args       []string
		throughOne bool // through s, else direct
	}{
		{"ALL_PROXY", map[string]string{"ALL_PROXY": s.URL("socks5h")}, nil, true},
		{"all_proxy", map[string]string{"all_proxy": s.URL("socks5")}, nil, true},
		{"ftp_proxy before ALL_PROXY", map[string]string{"ftp_proxy": s.URL("socks5h"), "ALL_PROXY": bad}, nil, true},
		{"FTP_PROXY", map[string]string{"FTP_PROXY": s.URL("socks5h")}, nil, true},
		{"--proxy before ftp_proxy", map[string]string{"ftp_proxy": bad, "ALL_PROXY": bad}, []string{"--proxy", s.URL("socks5h")}, true},
		{"--proxy '' for none", map[string]string{"ftp_proxy": bad}, []string{"--proxy", ""}, false},
		{"NO_PROXY", map[string]string{"ALL_PROXY": bad, "NO_PROXY": "example.org, 127.0.0.1"}, nil, false},
		{"no_proxy *", map[string]string{"ftp_proxy": bad, "no_proxy": "*"}, nil, false},
		{"NO_PROXY CIDR", map[string]string{"ALL_PROXY": bad, "NO_PROXY": "127.0.0.0/8"}, nil, false},
		{"--noproxy", map[string]string{"ALL_PROXY": bad}, []string{"--noproxy", "127.0.0.1"}, false},
		{"--noproxy before NO_PROXY", map[string]string{"ALL_PROXY": s.URL("socks5h"), "NO_PROXY": "*"}, []string{"--noproxy", "example.org"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, n := range []string{"ALL_PROXY", "all_proxy", "ftp_proxy", "FTP_PROXY", "NO_PROXY", "no_proxy"} {
				t.Setenv(n, c.env[n])
			}
			before := len(s.Targets())
			runIn(t, "", append(c.args, ftpURL("text.txt"))...).want(t, 0, textFile)
			if through := len(s.Targets()) > before; through != c.throughOne {
				t.Errorf("through the proxy: %v, want %v", through, c.throughOne)
			}
		})
	}
}

// TestUnsupportedProxyIsRefused: a proxy of a scheme ftpget does not
// take (socks4, gopher), or no proxy URL at all, is not silently
// ignored: ftpget refuses it before connecting, exit 5
// (curl(1): "5 Couldn't resolve proxy"), and says which it took from
// where. A SOCKS5 proxy that refuses the CONNECT (RFC 1928 §6, REP
// X'05') is curl's 97, "Proxy handshake error"; one that does not
// answer is 7, as a server that does not.
func TestUnsupportedProxyIsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  string
		msg  string
	}{
		{[]string{"--proxy", "socks4://u:secret@127.0.0.1:1080"}, "", `--proxy socks4://u:xxxxx@127.0.0.1:1080: the proxy scheme "socks4" is not supported`},
		{[]string{"--proxy", "http://"}, "", "not a proxy URL"},
		{nil, "gopher://127.0.0.1:70", `ftp_proxy gopher://127.0.0.1:70: the proxy scheme "gopher"`},
	} {
		t.Setenv("ftp_proxy", c.env)
		r := runIn(t, "", append(c.args, ftpURL("text.txt"))...)
		r.want(t, 5, "")
		if !strings.Contains(r.stderr, c.msg) || strings.Contains(r.stderr, "secret") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: stderr %q, want one line with %q", c.args, r.stderr, c.msg)
		}
	}
	t.Setenv("ftp_proxy", "")

	// The proxy refuses: the target is a closed port.
	s := startSOCKS(t, "127.0.0.1:0")
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	r := runIn(t, "", "--proxy", s.URL("socks5h"), "ftp://"+closedAddr+"/x")
	r.want(t, 97, "")
	if !strings.Contains(r.stderr, "proxy socks5h://") {
		t.Errorf("a refused CONNECT: stderr %q", r.stderr)
	}
	// No proxy there.
	r = runIn(t, "", "--proxy", "socks5h://"+closedAddr, ftpURL("text.txt"))
	r.want(t, 7, "")
	if !strings.Contains(r.stderr, "connecting to the proxy socks5h://"+closedAddr) {
		t.Errorf("no proxy: stderr %q", r.stderr)
	}
}

// mustListing is what ftpget prints for the listing at path, directly.
func mustListing(t *testing.T, path string) string {
	t.Helper()
	r := runIn(t, "", ftpURL(path))
	if r.code != 0 || r.stdout == "" {
		t.Fatalf("listing %s: exit %d, %q", path, r.code, r.stderr)
	}
	return r.stdout
}
