package fetch

import (
	"context"
	"crypto/tls"
	"net"
	"net/url"
	"sync"
	"time"
)

// A Client fetches ftp and ftps URLs and keeps the sessions it logged
// in for the next URL of the same server, as curl, wget and
// net/http.Client do: 300 files from one mirror cost one login. Its
// zero value is ready to use, with the defaults below; [DefaultClient]
// is the one that [Open] and [Stat] use.
//
// Sessions are kept per scheme, address, user, password and TLS mode.
// A reused session first goes back to the login directory (the PWD
// after login) unless the URL's path is absolute. A file read to its
// end gives its session back; one closed early, or broken, ends it.
//
// Faults are recovered from as net/http's Transport does. A session
// the server left while idle (a 421, the connection's end) is replaced
// before the plan starts. When a reused session fails as the plan runs
// because the server has left it (a 421 reply to any command, the
// connection ended or reset: a server restarted while the session was
// idle, its FIN lost on the way), Open, Stat, ReadDir, Walk and Put run
// again once, on a new session (the other idle sessions of a server
// that restarted are as dead), within their context: nothing of the
// result has reached the caller then (Open returns only once the
// transfer has begun; a Read's error is never retried). A Put whose
// STOR or APPE the server accepted is never sent again. A new
// session's failure is the caller's.
//
// A server's own connection limit is waited out. A new session that
// the server turns away (a 421 in place of its greeting, RFC 959 §5.4,
// as vsftpd's max_per_ip, Pure-FTPd's -C and pyftpdlib's
// max_cons_per_ip answer; a connection refused, reset or closed before
// the greeting; or a login refused with 530 while the Client holds
// another session of that user and password, as ProFTPD's
// MaxClientsPerHost refuses PASS) while the Client holds other
// sessions of that server lowers the Client's limit for that server to
// the sessions it holds, and the Open waits for one of them, within
// its context. The limit rises again to
// MaxConnsPerHost after IdleTimeout (30 seconds where sessions are not
// reused), and the Opens still waiting may then dial. With no other
// session, the refusal is the caller's error: an *[Error] of Op "dial"
// (Code 421, or 0 for a connection refused) or "login" (Code 530).
//
// A Client is safe for concurrent use by several goroutines. Its
// fields must not change once it is in use.
type Client struct {
	// TLSConfig configures TLS for ftps:// URLs and WithTLS. Each
	// control connection gets its own clone, with a ClientSessionCache
	// of its own, and ServerName set to the URL's host when the config
	// has none (see the package doc, "TLS"). nil: a zero tls.Config,
	// which verifies certificates against the system's roots, as
	// net/http does.
	TLSConfig *tls.Config

	// DialContext makes the TCP connections, control and data alike: a
	// proxy or a test network goes here. nil: a net.Dialer.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)

	// MaxConnsPerHost caps the sessions to one server (scheme, host
	// and port) at once, busy and idle: FTP servers limit connections
	// per address and answer 421 beyond it. An Open or Stat beyond it
	// waits for a session, within its context. A server whose limit is
	// lower sets the cap for a while (see above). The sessions of
	// Download's WithSegments count too: raise it for n segments to
	// run. 0: 2.
	MaxConnsPerHost int

	// IdleTimeout is how long an idle session is kept for reuse. 0: 30
	// seconds; negative: sessions are never reused (each fetch logs in
	// and ends with QUIT).
	IdleTimeout time.Duration

	// StallTimeout fails the step at hand when the server sends nothing
	// (or takes nothing) for this long, with or without a context
	// deadline: a greeting, a reply or a byte of a transfer that does
	// not come. One stall costs one StallTimeout wherever it happens: a
	// transfer that stalled does not wait again for its final reply,
	// and an EPSV that got no answer is not followed by PASV. The
	// *[Error] names the command that stalled, and errors.Is(err,
	// os.ErrDeadlineExceeded) holds. 0: 2 minutes; negative: none.
	StallTimeout time.Duration

	// Active chooses how data connections are made. "" (the zero
	// value): passive mode, EPSV (RFC 2428 §3), then PASV (RFC 959
	// §4.1.2) where EPSV is refused. Else active mode, as curl's
	// --ftp-port: fetch listens and the server connects to it. "-"
	// listens on the control connection's local address; else
	// host[:port[-port]]: an IP address ("[::1]:5000" for IPv6 with a
	// port), an interface name or a host name, and the port, or the
	// first free one of the range (any port without one). An
	// unspecified address (0.0.0.0, ::) means the control connection's.
	// fetch sends "EPRT |2|addr|port|" (RFC 2428 §2) for an IPv6
	// address, and for IPv4 where the server's FEAT lists EPRT, else
	// "PORT h1,h2,h3,h4,p1,p2" (RFC 959 §4.1.2), and PORT after an EPRT
	// refused with 500 or 502. It takes one connection per transfer,
	// only from the control connection's peer address: one from any
	// other address is closed unread (RFC 2577 §3). The server has the
	// dial timeout (WithDialTimeout, else StallTimeout) to connect.
	// Over TLS, fetch is the TLS client on the accepted connection and
	// resumes the control connection's TLS session, as in passive
	// mode. A failure of PORT or EPRT, of the listener, or a server
	// that does not connect is an *[Error] of Op "port" whose Command
	// is the PORT or EPRT line; a value fetch cannot read is one too,
	// wrapping an *[ActiveError], before any connection is made. Active
	// mode needs the server to reach this host: not through a proxy
	// (see Proxy), and not with a DialContext whose connections have no
	// TCP addresses.
	Active string

	// DisableEPSV makes passive mode use PASV (RFC 959 §4.1.2) alone,
	// never EPSV (RFC 2428 §3), as curl's --disable-epsv: for a
	// server or a middlebox that mishandles EPSV. PASV carries only
	// IPv4 addresses, so a server reached over IPv6 may refuse it.
	DisableEPSV bool

	// Proxy returns the proxy for a server, in the shape of
	// http.Transport.Proxy and x/net/http/httpproxy's ProxyFunc: it is
	// given the server's URL ("ftp://host:port" or "ftps://host:port",
	// no user, password or path) and returns the proxy's URL, or nil
	// for none. Every connection to that server goes through it, the
	// control connection and each data connection (to the server's host
	// and the passive port):
	//   - socks5://host[:port] (RFC 1928): the server's name is
	//     resolved here and the proxy asked for the address; socks5h://:
	//     the proxy resolves the name;
	//   - http://host[:port] and https:// (TLS to the proxy, verified
	//     as ProxyTLSConfig says): a tunnel by "CONNECT host:port" (RFC
	//     9110 §9.3.6), curl's --proxytunnel; the proxy URL's user and
	//     password go as Basic credentials in Proxy-Authorization, and
	//     never in an error.
	// A port left out is 1080 (443 for https), as in curl. A proxy
	// that answers CONNECT with anything but 2xx (407: credentials
	// missing or wrong), that refuses or that cannot be reached fails
	// the connection with a *[ProxyError] naming it by scheme and host
	// alone, inside an *[Error] (Op "dial" for the control connection).
	// An error of Proxy itself, or a proxy of another scheme, fails the
	// use with an *[Error] of Op "dial" before connecting. DialContext,
	// where set, makes the connections to the proxy.
	//
	// nil: [ProxyFromEnvironment] (ftp_proxy, ftps_proxy, all_proxy and
	// no_proxy, as curl reads them), unless DialContext is set, which
	// then stays the whole network as it was before Proxy existed. A
	// program that sets neither and whose environment names a proxy
	// now goes through it; a Proxy that returns nil, nil uses none.
	// Active mode with a proxy is an *[Error] of Op "port" before
	// connecting, as in curl: the server cannot connect back through
	// it.
	Proxy func(*url.URL) (*url.URL, error)

	// ProxyTLSConfig configures TLS to an https:// proxy: its roots,
	// client certificates and the rest, each connection a clone of it,
	// with ServerName the proxy's host where it has none. nil:
	// TLSConfig's settings, with ServerName the proxy's host, as
	// net/http's Transport checks an https proxy with its
	// TLSClientConfig. curl keeps the two apart (--proxy-cacert and
	// --proxy-insecure for the proxy, --cacert and -k for the server);
	// a ProxyTLSConfig does the same.
	ProxyTLSConfig *tls.Config

	mu    sync.Mutex
	cond  *sync.Cond // on mu: a new session has logged in or failed
	hosts map[hostKey]*hostPool

	timeForms map[hostKey]int // SetModTime: the form that worked, per server
}

// DefaultClient is the Client that the package functions Open and Stat
// use.
var DefaultClient = &Client{}
