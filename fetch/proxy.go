package fetch

import (
	"bufio"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"golang.org/x/net/proxy"
)

// Proxies (Client.Proxy; DESIGN "Every network"). Every connection of
// a session, the control connection and each data connection, goes
// through the proxy that Client.Proxy names for the server:
//
//   - socks5:// (RFC 1928): the server's host name is resolved here and
//     the proxy is asked for the address, as curl does; socks5h://: the
//     proxy is asked for the name;
//   - http:// and https:// (TLS to the proxy): a tunnel by CONNECT
//     host:port (RFC 9110 §9.3.6), curl's --proxytunnel, with Basic
//     credentials (RFC 7617) from the proxy URL's user and password in
//     Proxy-Authorization (RFC 9110 §11.7.2).

// A ProxyError is a proxy that fetch could not use for a connection:
// its answer to CONNECT was not 2xx (a 407 asks for credentials, or
// refuses them), the SOCKS5 proxy refused the connection, or fetch
// could not reach the proxy. It names the proxy by its scheme and host
// alone, never its credentials. An *[Error] wraps it: Op "dial" for the
// control connection, the transfer's Op for a data connection.
type ProxyError struct {
	Proxy  string // the proxy's scheme and address: "http://127.0.0.1:3128"
	Target string // the address asked for: "ftp.example.org:21"
	Code   int    // the CONNECT's HTTP status (407); 0 for none
	Status string // the status line's text ("Proxy Authentication Required")
	Err    error  // the cause where there is no status: a refusal, a network error
}

func (e *ProxyError) Error() string {
	var b strings.Builder
	b.WriteString("proxy ")
	b.WriteString(e.Proxy)
	if e.Target != "" {
		b.WriteString(" (to ")
		b.WriteString(e.Target)
		b.WriteString(")")
	}
	b.WriteString(": ")
	switch {
	case e.Code != 0:
		fmt.Fprintf(&b, "CONNECT answered %d %s", e.Code, escape(e.Status))
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("failed")
	}
	return b.String()
}

func (e *ProxyError) Unwrap() error { return e.Err }

// proxyName is u's scheme and host, for messages: never its user or
// password.
func proxyName(u *url.URL) string { return u.Scheme + "://" + u.Host }

// ProxyFromEnvironment returns the proxy for a server as curl reads
// the environment: ftp_proxy (or FTP_PROXY) for an ftp URL, ftps_proxy
// (FTPS_PROXY) for ftps, else all_proxy (ALL_PROXY); nil, and no
// error, for none, and for a host that no_proxy (NO_PROXY) lists:
// names separated by commas, "*" for every host, a name matching
// itself and the names below it ("example.org" and ".example.org"
// match "ftp.example.org"), an IP address itself, a CIDR block the
// addresses in it. A value without "://" is taken as http://, as curl
// takes it. It is what a Client with a nil Proxy (and a nil
// DialContext) uses; u is the server's ftp or ftps URL (only its
// Scheme and Host are read).
func ProxyFromEnvironment(u *url.URL) (*url.URL, error) {
	return proxyFromEnv(u, os.Getenv)
}

func proxyFromEnv(u *url.URL, getenv func(string) string) (*url.URL, error) {
	env := func(names ...string) string {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v
			}
		}
		return ""
	}
	if noProxyMatch(env("no_proxy", "NO_PROXY"), u.Hostname()) {
		return nil, nil
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" {
		scheme = "ftp"
	}
	raw := env(scheme+"_proxy", strings.ToUpper(scheme)+"_PROXY")
	if raw == "" {
		raw = env("all_proxy", "ALL_PROXY")
	}
	if raw == "" {
		return nil, nil
	}
	return parseProxy(raw)
}

// parseProxy reads a proxy as curl's --proxy takes it:
// scheme://[user[:password]@]host[:port], the scheme socks5, socks5h,
// http or https (any case), http:// where it has none; where it has no
// port, 443 for https and 1080 for the others (curl's defaults). Any
// other scheme, or no host, is an error that quotes the proxy without
// its password.
func parseProxy(raw string) (*url.URL, error) {
	s := raw
	if !strings.Contains(s, "://") {
		s = "http://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return nil, fmt.Errorf("not a proxy URL: %q (want scheme://host[:port])", redactedProxy(raw))
	}
	u.Scheme = strings.ToLower(u.Scheme)
	port := ""
	switch u.Scheme {
	case "socks5", "socks5h", "http":
		port = "1080"
	case "https":
		port = "443"
	default:
		return nil, fmt.Errorf("proxy %s: the scheme %q is not supported: fetch takes socks5, socks5h, http and https proxies", proxyName(u), u.Scheme)
	}
	if u.Port() == "" {
		u.Host = net.JoinHostPort(u.Hostname(), port)
	}
	return u, nil
}

// redactedProxy hides a password in a proxy string that may not
// parse.
func redactedProxy(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	if at := strings.LastIndex(raw, "@"); at >= 0 {
		return "xxxxx" + raw[at:]
	}
	return raw
}

// noProxyMatch reports whether host is in list, read as curl reads
// NO_PROXY (see [ProxyFromEnvironment]).
func noProxyMatch(list, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	ip := net.ParseIP(host)
	for _, p := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || r == ' ' }) {
		p = strings.ToLower(strings.TrimSuffix(p, "."))
		if p == "*" {
			return true
		}
		if ip != nil {
			if _, block, err := net.ParseCIDR(p); err == nil && block.Contains(ip) {
				return true
			}
			if pip := net.ParseIP(strings.Trim(p, "[]")); pip != nil && pip.Equal(ip) {
				return true
			}
			continue
		}
		p = strings.TrimPrefix(p, ".")
		if p != "" && (host == p || strings.HasSuffix(host, "."+p)) {
			return true
		}
	}
	return false
}

// proxyFor returns the proxy for the server of r (nil for none): the
// Client's Proxy, else the environment's where DialContext is nil too
// (a DialContext is the whole network, as before Proxy existed). The
// URL handed to Proxy is the server's, "ftp://host:port" or
// "ftps://host:port", without user, password or path.
func (c *Client) proxyFor(r *request) (*url.URL, error) {
	fn := c.Proxy
	if fn == nil {
		if c.DialContext != nil {
			return nil, nil
		}
		fn = ProxyFromEnvironment
	}
	p, err := fn(&url.URL{Scheme: r.key.scheme, Host: r.key.addr})
	if err != nil || p == nil {
		return nil, err
	}
	// A proxy given as a URL is checked as one read from a string
	// (the password aside, which may hold anything).
	q := *p
	q.User = nil
	checked, err := parseProxy(q.String())
	if err != nil {
		return nil, err
	}
	checked.User = p.User
	return checked, nil
}

// dialProxy connects to addr through the proxy p: the connection to the
// proxy by the Client's DialContext (or a net.Dialer), then SOCKS5 or
// CONNECT. A failure is a *ProxyError, or the context's error.
func (s *session) dialProxy(ctx context.Context, p *url.URL, addr string) (net.Conn, error) {
	fail := func(err error) (net.Conn, error) {
		var pe *ProxyError
		if ctx.Err() != nil || errors.As(err, &pe) {
			return nil, err
		}
		return nil, &ProxyError{Proxy: proxyName(p), Target: addr, Err: err}
	}
	forward := dialerFunc(func(ctx context.Context, network, a string) (net.Conn, error) {
		if s.client.DialContext != nil {
			return s.client.DialContext(ctx, network, a)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, a)
	})
	switch p.Scheme {
	case "socks5", "socks5h":
		if p.Scheme == "socks5" {
			// Resolved here; the proxy gets the address (RFC 1928 §5,
			// ATYP 1 or 4).
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return fail(err)
			}
			if net.ParseIP(host) == nil {
				ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
				if err != nil {
					return fail(err)
				}
				addr = net.JoinHostPort(ips[0].Unmap().String(), port)
			}
		}
		q := *p
		q.Scheme = "socks5"
		d, err := proxy.FromURL(&q, forward)
		if err != nil {
			return fail(err)
		}
		c, err := d.(proxy.ContextDialer).DialContext(ctx, "tcp", addr)
		if err != nil {
			return fail(err)
		}
		return c, nil
	}
	c, err := forward(ctx, "tcp", p.Host)
	if err != nil {
		return fail(err)
	}
	if p.Scheme == "https" {
		cfg := &tls.Config{}
		switch {
		case s.client.ProxyTLSConfig != nil:
			cfg = s.client.ProxyTLSConfig.Clone()
		case s.client.TLSConfig != nil:
			// The servers' settings: not their name, nor their sessions.
			cfg = s.client.TLSConfig.Clone()
			cfg.ServerName, cfg.ClientSessionCache = "", nil
		}
		if cfg.ServerName == "" {
			cfg.ServerName = p.Hostname()
		}
		tc := tls.Client(c, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			c.Close()
			return fail(err)
		}
		c = tc
	}
	tunnel, err := connectTunnel(ctx, c, p, addr)
	if err != nil {
		c.Close()
		return fail(err)
	}
	return tunnel, nil
}

// dialerFunc is a function as a proxy.ContextDialer.
type dialerFunc func(ctx context.Context, network, addr string) (net.Conn, error)

func (f dialerFunc) Dial(network, addr string) (net.Conn, error) {
	return f(context.Background(), network, addr)
}

func (f dialerFunc) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	return f(ctx, network, addr)
}

// connectTunnel asks the HTTP proxy at the other end of c for a tunnel
// to addr: "CONNECT addr HTTP/1.1" (RFC 9110 §9.3.6), with
// Proxy-Authorization: Basic (RFC 7617) where p has a user. A 2xx
// opens the tunnel; any other answer is a *ProxyError with its status.
// Bytes the proxy sent after its answer (the server's greeting) are
// read first from the connection returned.
func connectTunnel(ctx context.Context, c net.Conn, p *url.URL, addr string) (net.Conn, error) {
	stop := context.AfterFunc(ctx, func() { _ = c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	var b strings.Builder
	b.WriteString("CONNECT " + addr + " HTTP/1.1\r\nHost: " + addr + "\r\n")
	if p.User != nil {
		pw, _ := p.User.Password()
		b.WriteString("Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(p.User.Username()+":"+pw)) + "\r\n")
	}
	b.WriteString("\r\n")
	if _, err := c.Write([]byte(b.String())); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(c, 4096)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("reading the answer to CONNECT: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		resp.Body.Close()
		status := strings.TrimSpace(strings.TrimPrefix(resp.Status, fmt.Sprint(resp.StatusCode)))
		return nil, &ProxyError{Proxy: proxyName(p), Target: addr, Code: resp.StatusCode, Status: status}
	}
	_ = c.SetDeadline(time.Time{})
	if br.Buffered() == 0 {
		return c, nil
	}
	return &bufferedConn{Conn: c, r: br}, nil
}

// bufferedConn is a tunnel whose first bytes came with the proxy's
// answer, in r.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// CloseWrite shuts the writing side of the tunnel, where its
// connection has one (closeWrite of an upload).
func (c *bufferedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errors.ErrUnsupported
}

// errActiveProxy is Client.Active with a proxy: the server could not
// connect back through it (curl refuses it too).
var errActiveProxy = errors.New("active mode (Client.Active) cannot work through a proxy: the server would have to connect back to this host; use passive mode")

// checkNetwork checks the Client's Active and finds the server's proxy
// before x connects: an Active that cannot be read is an *Error of Op
// "port", as is Active with a proxy (curl refuses it too); a proxy that
// Client.Proxy fails to give, or that fetch cannot use, is one of Op
// "dial".
func (x *exchange) checkNetwork() *Error {
	p, err := x.c.proxyFor(x.req)
	if err != nil {
		return &Error{Op: "dial", URL: x.req.redacted, Err: err}
	}
	x.proxy = p
	if x.c.Active == "" {
		return nil
	}
	if _, err := parseActive(x.c.Active); err != nil {
		return &Error{Op: "port", URL: x.req.redacted, Err: err}
	}
	if p != nil {
		return &Error{Op: "port", URL: x.req.redacted, Err: &ProxyError{Proxy: proxyName(p), Err: errActiveProxy}}
	}
	return nil
}
