package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
)

// An HTTP proxy's FTP gateway (curl -x http://... without -p): ftpget
// sends the proxy an HTTP request whose target is the ftp URL in its
// absolute form (RFC 9112 §3.2.2: "GET ftp://host/path HTTP/1.1"), and
// the proxy speaks FTP to the server. What Squid's FTP gateway does
// with it, as Squid documents it and as Squid 5.7 did in
// TestSquidWithFtpget (fetch's tests, on vsftpd; this package's tests
// use a gateway of their own that answers the same way):
//   - GET of a file: the file's bytes, 200, Content-Length from SIZE,
//     Last-Modified from MDTM;
//   - GET of a directory (a URL ending with "/"): an HTML page that it
//     renders from LIST, with a link per entry: ftpget prints it as it
//     comes, as curl does;
//   - HEAD: the headers of GET;
//   - PUT: STOR of the request body, answered 201 Created (Squid
//     allows it where its http_access does);
//   - the login: the URL's user and password from the Authorization
//     header (Basic); anonymous where there is none.
//
// The URL's user and password go in Authorization (RFC 7617), never in
// the request line, which proxies log; the proxy URL's in
// Proxy-Authorization. A status that is not 2xx is an error: 404 is
// exit 78 (not found), 401 and 403 67 (the login refused), 407 97 (the
// proxy refused ftpget), an upload's refusal 25, another 1. curl exits
// 0 there unless --fail is given: ftpget never takes an error page for
// the file. -C, --tls, --mirror and -T DIR --mirror are refused with a
// gateway (exit 2): give -p to tunnel.

// gateway returns the HTTP proxy whose FTP gateway g's URL goes
// through, or nil.
func (g *getter) gateway() *url.URL {
	scheme := g.u.Scheme
	if scheme == "" {
		scheme = "ftp"
	}
	raw, _ := g.o.proxyFor(scheme, g.u.Host, getenv)
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.gateways[raw]
}

// viaGateway runs g's transfer through the proxy p's FTP gateway and
// returns the exit status.
func (g *getter) viaGateway(p *url.URL) int {
	o := g.o
	switch {
	case o.mirror.on() || o.mirror.up:
		g.printf("--mirror cannot go through the FTP gateway of the proxy %s: give -p (--proxytunnel) to tunnel", proxyName(p))
		return exitUsage
	case o.resumeSet:
		g.printf("-C cannot go through the FTP gateway of the proxy %s: give -p (--proxytunnel) to tunnel", proxyName(p))
		return exitUsage
	case o.tls:
		g.printf("--tls cannot go through the FTP gateway of the proxy %s: it would speak FTP in clear text; give -p (--proxytunnel) to tunnel", proxyName(p))
		return exitUsage
	}
	method, target := http.MethodGet, g.t.url
	var body io.Reader
	size := int64(-1)
	switch {
	case o.upload != "":
		method, target = http.MethodPut, uploadURL(g.t.url, o.upload)
		if o.upload == "-" {
			body = g.stdin
		} else {
			f, err := os.Open(o.upload)
			if err != nil {
				g.printf("%v", err)
				return exitUploadRead
			}
			defer f.Close()
			if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
				size = fi.Size()
			}
			body = f
		}
	case o.head:
		method = http.MethodHead
	}
	resp, shown, err := g.gatewayRequest(p, method, target, body, size)
	if err != nil {
		g.printf("%v", err)
		return exitCode(err, false)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		g.printf("proxy %s: %s %s: %s", proxyName(p), method, shown, printable(resp.Status))
		switch {
		case method == http.MethodPut:
			return exitUpload
		case resp.StatusCode == http.StatusNotFound:
			return exitNotFound
		case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
			return exitLogin
		case resp.StatusCode == http.StatusProxyAuthRequired:
			return exitProxyError
		}
		return exitFailed
	}
	switch method {
	case http.MethodPut:
		return exitOK
	case http.MethodHead:
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s\r\n", resp.Proto, resp.Status)
		keys := make([]string, 0, len(resp.Header))
		for k := range resp.Header {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, v := range resp.Header[k] {
				fmt.Fprintf(&b, "%s: %s\r\n", k, v)
			}
		}
		b.WriteString("\r\n")
		return g.writeText(b.String())
	}
	w, code := g.openOutput(false)
	if w == nil {
		return code
	}
	bar := g.progressBar(w, resp.ContentLength, 0)
	cw := &countingWriter{w: w, bar: bar}
	n, err := io.Copy(cw, resp.Body)
	if err == nil && resp.ContentLength >= 0 && n != resp.ContentLength {
		err = fmt.Errorf("proxy %s: the file ended after %d of %d bytes", proxyName(p), n, resp.ContentLength)
	}
	if bar != nil {
		bar.End(err == nil)
	}
	switch {
	case err != nil && cw.err != nil:
		g.closeOutput(w)
		return g.writeFailed(cw.err)
	case err != nil:
		g.closeOutput(w)
		g.printf("%v", err)
		return exitPartial
	}
	return g.closeOutput(w)
}

// gatewayRequest sends the request to the proxy p and reads its
// answer's head; shown is the target without user and password, for
// messages.
func (g *getter) gatewayRequest(p *url.URL, method, target string, body io.Reader, size int64) (*http.Response, string, error) {
	tu, err := url.Parse(target)
	if err != nil {
		return nil, "", err
	}
	user := tu.User
	tu.User = nil
	shown := tu.String()
	if user != nil {
		if _, has := user.Password(); !has {
			switch {
			case g.password != nil:
				user = url.UserPassword(user.Username(), *g.password)
			default:
				pw, err := g.askPassword()
				if err != nil {
					return nil, shown, &promptError{err}
				}
				user = url.UserPassword(user.Username(), pw)
			}
		}
	}
	ctx := context.Background()
	if g.o.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, g.o.timeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, method, tu.String(), body)
	if err != nil {
		return nil, shown, err
	}
	req.Close = true
	req.Header.Set("User-Agent", "ftpget")
	if size >= 0 {
		req.ContentLength = size
	} else if body != nil {
		req.ContentLength = -1 // chunked
	}
	if user != nil {
		pw, _ := user.Password()
		req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user.Username()+":"+pw)))
	}
	if p.User != nil {
		pw, _ := p.User.Password()
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(p.User.Username()+":"+pw)))
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", p.Host)
	if err != nil {
		return nil, shown, &proxyConnectError{proxy: proxyName(p), err: err}
	}
	if p.Scheme == "https" {
		cfg := g.proxyTLSConfig()
		cfg.ServerName = p.Hostname()
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, shown, &proxyConnectError{proxy: proxyName(p), err: err}
		}
		conn = tc
	}
	stop := context.AfterFunc(ctx, func() { conn.Close() })
	if err := req.WriteProxy(conn); err != nil {
		stop()
		conn.Close()
		return nil, shown, fmt.Errorf("proxy %s: %s %s: %w", proxyName(p), method, shown, err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	if err != nil {
		stop()
		conn.Close()
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return nil, shown, fmt.Errorf("proxy %s: %s %s: %w", proxyName(p), method, shown, err)
	}
	resp.Body = &closeBoth{ReadCloser: resp.Body, conn: conn, stop: stop}
	return resp, shown, nil
}

// closeBoth closes an answer's body and its connection.
type closeBoth struct {
	io.ReadCloser
	conn net.Conn
	stop func() bool
}

func (c *closeBoth) Close() error {
	c.stop()
	c.ReadCloser.Close()
	return c.conn.Close()
}

// proxyName is a proxy URL's scheme and host, never its user or
// password.
func proxyName(p *url.URL) string { return p.Scheme + "://" + p.Host }
