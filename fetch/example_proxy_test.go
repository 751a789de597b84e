package fetch_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"

	"github.com/ftpurl/ftpurl/fetch"
)

// Client.Proxy names the proxy for each server; through an http://
// proxy every connection, control and data, is a CONNECT tunnel, with
// the proxy URL's user and password as Basic credentials. A proxy that
// refuses them (407) is a *ProxyError that names it without them.
func ExampleClient_proxy() {
	addr, stop := exampleServer()
	defer stop()
	px := exampleConnectProxy("right", "pass")
	defer px.Close()
	proxyAs := func(user, password string) func(*url.URL) (*url.URL, error) {
		return func(*url.URL) (*url.URL, error) {
			return &url.URL{Scheme: "http", User: url.UserPassword(user, password), Host: px.Addr().String()}, nil
		}
	}

	cl := &fetch.Client{Proxy: proxyAs("right", "pass")}
	defer cl.CloseIdleConnections()
	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/text.txt")
	if err != nil {
		log.Fatal(err)
	}
	b, err := io.ReadAll(resp)
	resp.Close()
	fmt.Printf("%q %v\n", b, err)

	wrong := &fetch.Client{Proxy: proxyAs("wrong", "secret")}
	_, err = wrong.Open(context.Background(), "ftp://"+addr+"/text.txt")
	var pe *fetch.ProxyError
	if errors.As(err, &pe) {
		fmt.Println(pe.Code, pe.Status, strings.Contains(err.Error(), "secret"))
	}
	// Output:
	// "line one\nline two\n" <nil>
	// 407 Proxy Authentication Required false
}

// exampleConnectProxy is an HTTP proxy on 127.0.0.1 that takes CONNECT
// to loopback addresses with the Basic credentials given.
func exampleConnectProxy(user, password string) net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	return exampleConnectProxyOn(l, user, password)
}

// exampleConnectProxyOn serves exampleConnectProxy's proxy on l.
func exampleConnectProxyOn(l net.Listener, user, password string) net.Listener {
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+password))
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				req, err := http.ReadRequest(br)
				if err != nil {
					return
				}
				host, _, _ := net.SplitHostPort(req.Host)
				if ip := net.ParseIP(host); req.Method != http.MethodConnect || ip == nil || !ip.IsLoopback() {
					io.WriteString(c, "HTTP/1.1 403 Forbidden\r\n\r\n")
					return
				}
				if req.Header.Get("Proxy-Authorization") != want {
					io.WriteString(c, "HTTP/1.1 407 Proxy Authentication Required\r\n\r\n")
					return
				}
				up, err := net.Dial("tcp", req.Host)
				if err != nil {
					io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\n\r\n")
					return
				}
				defer up.Close()
				io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n")
				go func() { io.Copy(up, br); up.(*net.TCPConn).CloseWrite() }()
				io.Copy(c, up)
			}()
		}
	}()
	return l
}

// An https:// proxy is checked with Client.ProxyTLSConfig where it is
// set, and with TLSConfig where not: a proxy with a certificate of its
// own, trusted for the proxy and not for the servers, as curl's
// --proxy-cacert.
func ExampleClient_proxyTLSConfig() {
	addr, stop := exampleServer()
	defer stop()
	// A proxy whose certificate only proxyRoots trusts.
	https := httptest.NewTLSServer(nil)
	defer https.Close()
	proxyRoots := x509.NewCertPool()
	proxyRoots.AddCert(https.Certificate())
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	px := exampleConnectProxyOn(tls.NewListener(l, https.TLS), "u", "pw")
	defer px.Close()
	proxy := func(*url.URL) (*url.URL, error) {
		return &url.URL{Scheme: "https", User: url.UserPassword("u", "pw"), Host: px.Addr().String()}, nil
	}

	cl := &fetch.Client{Proxy: proxy, ProxyTLSConfig: &tls.Config{RootCAs: proxyRoots}}
	defer cl.CloseIdleConnections()
	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/text.txt")
	if err != nil {
		log.Fatal(err)
	}
	b, err := io.ReadAll(resp)
	resp.Close()
	fmt.Printf("%q %v\n", b, err)

	// Without it, the system's roots (a nil TLSConfig) do not trust it.
	_, err = (&fetch.Client{Proxy: proxy}).Open(context.Background(), "ftp://"+addr+"/text.txt")
	var pe *fetch.ProxyError
	if errors.As(err, &pe) {
		fmt.Println("a *ProxyError for the proxy:", pe.Proxy == "https://"+px.Addr().String())
	}
	// Output:
	// "line one\nline two\n" <nil>
	// a *ProxyError for the proxy: true
}

// ProxyFromEnvironment is what a nil Client.Proxy uses: ftp_proxy, else
// all_proxy, unless no_proxy lists the host.
func ExampleProxyFromEnvironment() {
	server := &url.URL{Scheme: "ftp", Host: "ftp.example.org:21"}
	p, err := fetch.ProxyFromEnvironment(server)
	fmt.Println(p, err) // whatever this machine's environment says
}

// A ProxyError says which proxy failed, and how.
func ExampleProxyError() {
	err := error(&fetch.ProxyError{Proxy: "http://127.0.0.1:3128", Target: "127.0.0.1:21", Code: 403, Status: "Forbidden"})
	fmt.Println(err)
	// Output:
	// proxy http://127.0.0.1:3128 (to 127.0.0.1:21): CONNECT answered 403 Forbidden
}
