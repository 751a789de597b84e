package fetch_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// tlsModes are the two ways into TLS: AUTH TLS on an ftp:// URL
// (WithTLS, RFC 4217 §4), and an ftps:// URL, TLS from the first byte.
var tlsModes = []string{"explicit", "implicit"}

// Every plan of the table runs over TLS on every server that offers
// it, with one Client per server and mode, so that the data
// connections of reused sessions resume their own control
// connection's TLS session (vsftpd and ProFTPD refuse them otherwise).
func TestPlansOverTLS(t *testing.T) {
	for _, name := range serverNames {
		for _, mode := range tlsModes {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				srv := needTLS(t, name)
				addr := srv.explicitAddr
				scheme := "ftp"
				if mode == "implicit" {
					addr, scheme = srv.implicitAddr, "ftps"
				}
				if addr == "" {
					t.Skipf("%s has no %s TLS (see servers_test.go)", name, mode)
				}
				cl := &fetch.Client{TLSConfig: &tls.Config{RootCAs: testCAPool}, MaxConnsPerHost: 4}
				t.Cleanup(cl.CloseIdleConnections)
				var extra []fetch.Option
				if mode == "explicit" {
					extra = append(extra, fetch.WithTLS())
				}
				runPlanTable(t, cl, name, scheme+"://"+addr+"/", 4, 30*time.Second, extra...)
			})
		}
	}
}

// The password user logs in over TLS too, and Stat and WithOffset work
// on a TLS session.
func TestTLSLoginStatAndOffset(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := needTLS(t, name)
			cl := &fetch.Client{TLSConfig: &tls.Config{RootCAs: testCAPool}}
			defer cl.CloseIdleConnections()
			u := "ftp://" + testUser + ":" + testPassword + "@" + srv.explicitAddr + "/binary.bin"
			got, resp := readAll(t, cl, u, fetch.WithTLS(), fetch.WithOffset(200))
			if string(got) != string(binaryFile()[200:]) || resp.Size != 256 {
				t.Fatalf("offset 200 over TLS: %d bytes, Size %d", len(got), resp.Size)
			}
			fi, err := cl.Stat(context.Background(), u, fetch.WithTLS())
			if err != nil || fi.Size() != 256 {
				t.Fatalf("Stat over TLS = %v, %v", fi, err)
			}
		})
	}
}

// A certificate that the Client's TLSConfig does not trust ends the
// fetch before the login: certificates are verified as net/http does.
func TestTLSUntrustedCertificateIsAnError(t *testing.T) {
	srv := needTLS(t, "vsftpd")
	for _, u := range []string{"ftp://" + srv.explicitAddr + "/text.txt", "ftps://" + srv.implicitAddr + "/text.txt"} {
		cl := &fetch.Client{}
		_, err := cl.Open(context.Background(), u, fetch.WithTLS())
		var cv *tls.CertificateVerificationError
		var fe *fetch.Error
		if !errors.As(err, &cv) || !errors.As(err, &fe) || fe.Code != 0 {
			t.Errorf("Open(%s) with the system's roots = %v, want a *tls.CertificateVerificationError", u, err)
		}
	}
}

// WithTLS against a server that refuses AUTH TLS fails at once: no
// USER or PASS goes out in clear text (RFC 4217 §4; the scripted
// server records every command), neither to a server without TLS
// (vsftpd's plain listener) nor to one that answers 500.
func TestWithTLSNeverFallsBackToClearText(t *testing.T) {
	srv := need(t, "vsftpd")
	_, err := fetch.Open(context.Background(), "ftp://"+testUser+":"+testPassword+"@"+srv.addr+"/text.txt", fetch.WithTLS())
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "tls" || fe.Command != "AUTH TLS" || fe.Code == 0 {
		t.Errorf("WithTLS on vsftpd without TLS = %v, want a tls *Error for AUTH TLS with the reply", err)
	}

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var mu sync.Mutex
	var got []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		c.Write([]byte("220 plain only\r\n"))
		r := bufio.NewReader(c)
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			mu.Lock()
			got = append(got, strings.TrimSpace(line))
			mu.Unlock()
			c.Write([]byte("500 What?\r\n"))
		}
	}()
	_, err = fetch.Open(context.Background(), "ftp://alice:secret@"+l.Addr().String()+"/f", fetch.WithTLS())
	if !errors.As(err, &fe) || fe.Op != "tls" || fe.Code != 500 {
		t.Errorf("WithTLS on a server that answers 500 = %v, want a tls *Error with 500", err)
	}
	l.Close()
	<-done
	mu.Lock()
	defer mu.Unlock()
	for _, cmd := range got {
		if !strings.HasPrefix(cmd, "AUTH") {
			t.Errorf("after a refused AUTH TLS, fetch sent %q", cmd)
		}
	}
}

// Sessions are kept per TLS mode: a plain session never serves a
// WithTLS fetch of the same server.
func TestSessionsAreKeptPerTLSMode(t *testing.T) {
	srv := need(t, "ftpserverlib")
	logins := countLogins(srv.addr)
	cl := &fetch.Client{DialContext: logins.dial, TLSConfig: &tls.Config{RootCAs: testCAPool}}
	defer cl.CloseIdleConnections()
	readAll(t, cl, "ftp://"+srv.addr+"/text.txt")
	_, err := cl.Open(context.Background(), "ftp://"+srv.addr+"/text.txt", fetch.WithTLS())
	if err == nil {
		t.Fatal("WithTLS reused the plain session, or the plain server took AUTH TLS")
	}
	if n := logins.n.Load(); n != 2 {
		t.Fatalf("%d logins, want 2 (the WithTLS fetch dials its own)", n)
	}
}

// An http.Client fetches ftps URLs (implicit TLS) through RoundTrip:
// GET, HEAD, a Range and a missing name, on every server with an
// implicit TLS listener.
func TestRoundTripFTPS(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := needTLS(t, name)
			if srv.implicitAddr == "" {
				t.Skipf("%s has no implicit TLS", name)
			}
			cl := &fetch.Client{TLSConfig: &tls.Config{RootCAs: testCAPool}}
			defer cl.CloseIdleConnections()
			tr := &http.Transport{}
			tr.RegisterProtocol("ftps", cl)
			hc := &http.Client{Transport: tr}
			base := "ftps://" + srv.implicitAddr + "/"

			resp, body := do(t, hc, "GET", base+"binary.bin")
			if resp.StatusCode != 200 || !bytes.Equal(body, binaryFile()) || resp.ContentLength != 256 {
				t.Errorf("GET: %d, %d bytes, Content-Length %d", resp.StatusCode, len(body), resp.ContentLength)
			}
			resp, _ = do(t, hc, "HEAD", base+"text.txt")
			if resp.StatusCode != 200 || resp.ContentLength != int64(len(textFile)) || resp.Header.Get("Last-Modified") == "" {
				t.Errorf("HEAD: %d, Content-Length %d, Last-Modified %q", resp.StatusCode, resp.ContentLength, resp.Header.Get("Last-Modified"))
			}
			resp, body = do(t, hc, "GET", base+"binary.bin", "Range", "bytes=250-")
			if resp.StatusCode != 206 || !bytes.Equal(body, binaryFile()[250:]) || resp.Header.Get("Content-Range") != "bytes 250-255/256" {
				t.Errorf("Range: %d, %d bytes, Content-Range %q", resp.StatusCode, len(body), resp.Header.Get("Content-Range"))
			}
			resp, _ = do(t, hc, "GET", base+"missing.txt")
			if resp.StatusCode != 404 {
				t.Errorf("GET of a missing name: %d, want 404", resp.StatusCode)
			}
		})
	}
}
