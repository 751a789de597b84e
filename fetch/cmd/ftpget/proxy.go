package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"

	"golang.org/x/net/proxy"
)

// Proxies, as curl(1) picks them (ENVIRONMENT, --proxy, --noproxy):
// --proxy first; else the URL scheme's variable, ftp_proxy (or
// FTP_PROXY) for an ftp:// URL, ftps_proxy (FTPS_PROXY) for ftps://;
// else all_proxy (ALL_PROXY). --proxy "" uses none. A host that
// --noproxy, else no_proxy (NO_PROXY), lists is reached directly.
//
// ftpget takes SOCKS5 proxies (RFC 1928), through
// golang.org/x/net/proxy, and every connection goes through the proxy,
// the control connection and each data connection:
//
//   - socks5://: the host name is resolved here, and the proxy is
//     asked for its address, as curl does;
//   - socks5h://: the proxy is asked for the host name, and resolves
//     it.
//
// and HTTP proxies (http://, https://, and a proxy without a scheme,
// which curl takes for http://), as a tunnel (-p) or through the
// proxy's FTP gateway: see network.go. Any other proxy is refused
// before connecting, with exit status 5 (curl's "couldn't resolve
// proxy", the nearest of its codes for a proxy it cannot use), never
// ignored.

// proxyFor returns the proxy URL for the URL u of the scheme and host
// given, and where it came from (a flag or a variable's name, for
// messages); "" for none.
func (o *options) proxyFor(scheme, host string, getenv func(string) string) (proxyURL, from string) {
	env := func(names ...string) (string, string) {
		for _, n := range names {
			if v := getenv(n); v != "" {
				return v, n
			}
		}
		return "", ""
	}
	noProxy, _ := env("no_proxy", "NO_PROXY")
	if o.noProxySet {
		noProxy = o.noProxy
	}
	if noProxyMatch(noProxy, host) {
		return "", ""
	}
	if o.proxySet {
		return o.proxy, "--proxy"
	}
	if v, n := env(scheme+"_proxy", strings.ToUpper(scheme)+"_PROXY"); v != "" {
		return v, n
	}
	return env("all_proxy", "ALL_PROXY")
}

// noProxyMatch reports whether host is in list, curl's NO_PROXY: names
// separated by commas (and spaces), "*" alone for every host; a name
// matches itself and the names below it ("example.org" and
// ".example.org" both match "ftp.example.org"), an IP address only
// itself, a CIDR block the addresses in it.
func noProxyMatch(list, host string) bool {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
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

// A proxySetupError is a proxy that ftpget does not use: exit 5.
type proxySetupError struct{ msg string }

func (e *proxySetupError) Error() string { return e.msg }

// A proxyError is a SOCKS5 proxy that refused or failed the CONNECT
// (RFC 1928 §6), once connected to: curl's exit 97 (CURLE_PROXY).
type proxyError struct {
	proxy string // redacted
	err   error
}

func (e *proxyError) Error() string { return "proxy " + e.proxy + ": " + e.err.Error() }
func (e *proxyError) Unwrap() error { return e.err }

// A proxyConnectError is a proxy that could not be reached: exit 5
// when its name does not resolve, else 7, as curl's.
type proxyConnectError struct {
	proxy string // redacted
	err   error
}

func (e *proxyConnectError) Error() string {
	return "connecting to the proxy " + e.proxy + ": " + e.err.Error()
}
func (e *proxyConnectError) Unwrap() error { return e.err }

// newProxyDialer returns the DialContext for fetch.Client that goes
// through the proxy at raw (from says where raw came from).
func newProxyDialer(raw, from string) (func(ctx context.Context, network, addr string) (net.Conn, error), error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" || !strings.Contains(raw, "://") {
		return nil, &proxySetupError{fmt.Sprintf("%s %s: not a proxy URL: ftpget takes socks5://, socks5h://, http:// or https://HOST[:PORT]", from, redactProxy(raw))}
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "socks5", "socks5h":
	default:
		return nil, &proxySetupError{fmt.Sprintf("%s %s: the proxy scheme %q is not supported: ftpget takes socks5://, socks5h://, http:// and https:// proxies (give --proxy '' to use none)", from, u.Redacted(), u.Scheme)}
	}
	u.Scheme = scheme
	name := u.Redacted()
	forward := &forwardDialer{proxy: name}
	d, err := proxy.FromURL(u, forward)
	if err != nil {
		return nil, &proxySetupError{fmt.Sprintf("%s %s: %v", from, name, err)}
	}
	socks := d.(proxy.ContextDialer)
	local := scheme == "socks5"
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if local {
			// socks5://: resolve here, and ask the proxy for the
			// address (RFC 1928 §5, ATYP 1 or 4).
			host, port, err := net.SplitHostPort(addr)
			if err != nil {
				return nil, err
			}
			if net.ParseIP(host) == nil {
				ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
				if err != nil {
					return nil, err
				}
				addr = net.JoinHostPort(ips[0].Unmap().String(), port)
			}
		}
		c, err := socks.DialContext(ctx, network, addr)
		if err != nil {
			var ce *proxyConnectError
			if errors.As(err, &ce) || ctx.Err() != nil {
				return nil, err
			}
			return nil, &proxyError{proxy: name, err: err}
		}
		return c, nil
	}, nil
}

// forwardDialer connects to the proxy itself.
type forwardDialer struct{ proxy string }

func (f *forwardDialer) Dial(network, addr string) (net.Conn, error) {
	return f.DialContext(context.Background(), network, addr)
}

func (f *forwardDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, &proxyConnectError{proxy: f.proxy, err: err}
	}
	return c, nil
}

// redactProxy hides a password in a proxy string that may not parse.
func redactProxy(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		return u.Redacted()
	}
	if at := strings.LastIndex(raw, "@"); at >= 0 {
		return "xxxxx" + raw[at:]
	}
	return raw
}

// getenv is os.Getenv; tests set the variables with t.Setenv.
var getenv = os.Getenv
