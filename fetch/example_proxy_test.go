package fetch_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
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
