package main

import (
	"errors"
	"net/url"
	"strings"

	"github.com/ftpurl/ftpurl/fetch"
)

// The network flags, as curl's (curl(1)):
//
//	-P, --ftp-port ADDR active mode: the server connects to ADDR, "-"
//	                    (the control connection's own address), or
//	                    HOST[:PORT[-PORT]] (fetch.Client.Active); PORT
//	                    (RFC 959 §4.1.2), or EPRT (RFC 2428 §2)
//	--ftp-pasv          passive mode (the default): undoes --ftp-port
//	--disable-epsv      passive mode by PASV alone, never EPSV
//	-p, --proxytunnel   with an http:// or https:// proxy: tunnel the
//	                    control and every data connection by CONNECT
//
// An http:// or https:// proxy (--proxy, -x, ftp_proxy, all_proxy; one
// without a scheme is http://, as in curl) is used two ways, as curl
// uses it:
//   - with -p, as a tunnel: every connection is a CONNECT (RFC 9110
//     §9.3.6), and everything ftpget does works through it, TLS too;
//   - without -p, through the proxy's own FTP gateway: ftpget asks the
//     proxy "GET ftp://host/path" (RFC 9112 §3.2.2, the absolute form)
//     and prints what it answers: a file's bytes, a directory as the
//     proxy renders it (Squid: an HTML page), "-I" by HEAD (the
//     answer's status line and headers), "-T" by PUT where the proxy
//     allows it. That is what a stock Squid offers, whose default
//     refuses CONNECT to any port but 443 (see gateway.go).
//
// Active mode through a proxy is an error: the server cannot connect
// back through it.

// networkFlags are the flags above.
type networkFlags struct {
	ftpPort     string // --ftp-port; "": passive
	tunnel      bool   // -p, --proxytunnel
	disableEPSV bool   // --disable-epsv
}

// setNetwork makes cl take the network flags and the proxy raw (from
// where from says; "" for none): SOCKS5 through newProxyDialer, an
// HTTP proxy as a tunnel (-p) through fetch.Client.Proxy. It returns
// the proxy whose FTP gateway the URLs go through instead (an HTTP
// proxy without -p), or nil.
func (c *command) setNetwork(cl *fetch.Client, raw, from string) (*url.URL, error) {
	n := c.o.network
	cl.Active = n.ftpPort
	cl.DisableEPSV = n.disableEPSV
	// ftpget has chosen the proxy (proxyFor, --noproxy included): the
	// Client does not read the environment again.
	cl.Proxy = func(*url.URL) (*url.URL, error) { return nil, nil }
	if raw == "" {
		return nil, nil
	}
	if !strings.Contains(raw, "://") {
		raw = "http://" + raw // curl: a proxy without a scheme is HTTP
	}
	p, err := url.Parse(raw)
	if err != nil || p.Host == "" {
		return nil, &proxySetupError{from + " " + redactProxy(raw) + ": not a proxy URL: ftpget takes socks5://, socks5h://, http:// or https://HOST[:PORT]"}
	}
	switch strings.ToLower(p.Scheme) {
	case "http", "https":
		p.Scheme = strings.ToLower(p.Scheme)
		if p.Port() == "" {
			port := "1080" // curl's default proxy port
			if p.Scheme == "https" {
				port = "443"
			}
			p.Host += ":" + port
		}
		if n.tunnel {
			cl.Proxy = func(*url.URL) (*url.URL, error) { return p, nil }
			return nil, nil
		}
		return p, nil
	}
	dial, err := newProxyDialer(raw, from)
	if err != nil {
		return nil, err
	}
	cl.DialContext = dial
	return nil, nil
}

// proxyExitCode is curl's exit status for a tunnel that failed: 56
// (CURLE_RECV_ERROR, curl's "Received HTTP code 407 from proxy after
// CONNECT") for a CONNECT answered with anything but 2xx, 60 for an
// https:// proxy whose certificate does not verify (as curl), 7 for a
// proxy that cannot be reached; 0 for an error that is not the
// tunnel's.
func proxyExitCode(err error) int {
	var pe *fetch.ProxyError
	var fe *fetch.Error
	switch {
	case !errors.As(err, &pe), errors.As(err, &fe) && fe.Op == "port":
		return 0 // active mode with a proxy: no network failed
	case pe.Code != 0:
		return exitRecv
	case isCertificateError(err):
		return exitCert // an https:// proxy not trusted: curl's 60 too
	}
	return exitConnect
}
