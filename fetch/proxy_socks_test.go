package fetch_test

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ftpurl/ftpurl/fetch"
)

// socks5Server is a SOCKS5 proxy (RFC 1928) on 127.0.0.1: no
// authentication (§3), CONNECT (§4) to an IPv4 address (ATYP 1) or a
// name (ATYP 3, resolved here), loopback only; it notes each target as
// the client named it.
type socks5Server struct {
	l       net.Listener
	mu      sync.Mutex
	targets []string
}

func startSocks5(t *testing.T) *socks5Server {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &socks5Server{l: l}
	var wg sync.WaitGroup
	var conns []net.Conn
	var cmu sync.Mutex
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			cmu.Lock()
			conns = append(conns, c)
			cmu.Unlock()
			wg.Add(1)
			go func() { defer wg.Done(); s.serve(c) }()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		cmu.Lock()
		for _, c := range conns {
			c.Close()
		}
		cmu.Unlock()
		wg.Wait()
	})
	return s
}

func (s *socks5Server) serve(c net.Conn) {
	defer c.Close()
	var b [262]byte
	if _, err := io.ReadFull(c, b[:2]); err != nil || b[0] != 5 {
		return
	}
	if _, err := io.ReadFull(c, b[:b[1]]); err != nil {
		return
	}
	c.Write([]byte{5, 0})
	if _, err := io.ReadFull(c, b[:4]); err != nil || b[1] != 1 {
		return
	}
	var host string
	switch b[3] {
	case 1:
		if _, err := io.ReadFull(c, b[:4]); err != nil {
			return
		}
		host = net.IP(b[:4]).String()
	case 3:
		if _, err := io.ReadFull(c, b[:1]); err != nil {
			return
		}
		n := int(b[0])
		if _, err := io.ReadFull(c, b[:n]); err != nil {
			return
		}
		host = string(b[:n])
	default:
		return
	}
	if _, err := io.ReadFull(c, b[:2]); err != nil {
		return
	}
	target := net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(b[:2]))))
	s.mu.Lock()
	s.targets = append(s.targets, target)
	s.mu.Unlock()
	reply := func(code byte) { c.Write([]byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0}) }
	if host == "localhost" {
		host = "127.0.0.1" // resolved here, without asking a resolver
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		reply(2) // not allowed by the ruleset
		return
	}
	up, err := net.Dial("tcp", net.JoinHostPort(host, strconv.Itoa(int(binary.BigEndian.Uint16(b[:2])))))
	if err != nil {
		reply(5)
		return
	}
	defer up.Close()
	reply(0)
	done := make(chan struct{})
	go func() { io.Copy(up, c); up.(*net.TCPConn).CloseWrite(); close(done) }()
	io.Copy(c, up)
	c.(*net.TCPConn).CloseWrite()
	<-done
}

func (s *socks5Server) seen() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.targets)
}

// Through a SOCKS5 proxy (RFC 1928) every connection goes through it:
// socks5h:// hands the proxy the URL's host name ("localhost"),
// socks5:// resolves it here and hands the address (curl's meanings).
// A CONNECT the proxy refuses (REP 5, nothing listens there) is a
// *ProxyError.
func TestProxySOCKS5(t *testing.T) {
	srv := need(t, "ftpserverlib")
	_, port, _ := net.SplitHostPort(srv.addr)
	for _, tc := range []struct{ scheme, wantHost string }{{"socks5h", "localhost"}, {"socks5", "127.0.0.1"}} {
		t.Run(tc.scheme, func(t *testing.T) {
			sp := startSocks5(t)
			cl := &fetch.Client{Proxy: fixedProxy(&url.URL{Scheme: tc.scheme, Host: sp.l.Addr().String()})}
			t.Cleanup(cl.CloseIdleConnections)
			got, _, err := openAndRead(context.Background(), cl, "ftp://localhost:"+port+"/text.txt")
			if err != nil || string(got) != textFile {
				t.Fatalf("through %s: %q, %v", tc.scheme, got, err)
			}
			ts := sp.seen()
			if len(ts) != 2 || ts[0] != net.JoinHostPort(tc.wantHost, port) || !strings.HasPrefix(ts[1], tc.wantHost+":") {
				t.Errorf("the proxy was asked for %q; want %s:%s, then %s at the passive port", ts, tc.wantHost, port, tc.wantHost)
			}
		})
	}
	sp := startSocks5(t)
	cl := testClient(t)
	cl.Proxy = fixedProxy(&url.URL{Scheme: "socks5h", Host: sp.l.Addr().String()})
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close()
	_, err = cl.Open(context.Background(), "ftp://"+closedAddr+"/x") // REP 5: connection refused
	var pe *fetch.ProxyError
	if e := asError(t, err); e.Op != "dial" || !errors.As(err, &pe) || pe.Proxy != "socks5h://"+sp.l.Addr().String() {
		t.Errorf("a refused CONNECT: %v; want Op dial and a *ProxyError naming the proxy", err)
	}
}
