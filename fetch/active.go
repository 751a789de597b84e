package fetch

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// Active mode (Client.Active; curl's --ftp-port): fetch listens, tells
// the server where with PORT (RFC 959 §4.1.2) or EPRT (RFC 2428 §2),
// and the server connects to it once it has the transfer command.
// The connection is taken only from the control connection's peer
// address, within the StallTimeout: a connection from any other
// address is closed unread (RFC 2577 §3, the "FTP bounce" and port
// theft it warns of).

// An activeSpec is Client.Active, parsed: where to listen, and the
// ports to try.
type activeSpec struct {
	local  bool   // "-": the control connection's local address
	host   string // an IP address, an interface name, or a host name
	lo, hi int    // the ports to try, lowest first; 0, 0: any
}

// An ActiveError is a Client.Active that fetch cannot read: an *Error
// of Op "port" wraps it, before any connection is made.
type ActiveError struct {
	Value string // Client.Active as given
	Why   string // what is wrong with it
}

func (e *ActiveError) Error() string {
	return "Client.Active " + strconv.Quote(e.Value) + ": " + e.Why
}

// parseActive reads Client.Active: "-", or host[:port[-port]], where
// host is an IP address (an IPv6 one in brackets when a port follows:
// "[::1]:5000"), an interface name or a host name, and port 1-65535,
// as curl's --ftp-port takes it. A bare IPv6 address ("::1") is a host
// without a port.
func parseActive(v string) (activeSpec, error) {
	bad := func(why string) (activeSpec, error) { return activeSpec{}, &ActiveError{Value: v, Why: why} }
	switch {
	case v == "-":
		return activeSpec{local: true}, nil
	case v == "":
		return bad("empty: \"\" is passive mode, which needs no address")
	case strings.ContainsAny(v, " \t\r\n\x00/@"):
		return bad("not a host[:port[-port]]")
	}
	host, ports, hasPort := v, "", false
	switch {
	case strings.HasPrefix(v, "["):
		end := strings.IndexByte(v, ']')
		if end < 0 {
			return bad("an IPv6 address opened with [ is not closed with ]")
		}
		host = v[1:end]
		rest := v[end+1:]
		if rest != "" {
			if rest[0] != ':' {
				return bad("after ] comes :port or nothing")
			}
			ports, hasPort = rest[1:], true
		}
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return bad("the host in brackets is not an IPv6 address")
		}
	case strings.Count(v, ":") > 1:
		// A bare IPv6 address: no port can follow.
		if _, err := netip.ParseAddr(v); err != nil {
			return bad("not an IPv6 address (write [address]:port for a port)")
		}
	default:
		host, ports, hasPort = strings.Cut(v, ":")
	}
	if host == "" {
		return bad("no host before the port")
	}
	s := activeSpec{host: host}
	if !hasPort {
		return s, nil
	}
	lo, hi, isRange := strings.Cut(ports, "-")
	var err error
	if s.lo, err = portNumber(lo); err != nil {
		return bad(err.Error())
	}
	s.hi = s.lo
	if isRange {
		if s.hi, err = portNumber(hi); err != nil {
			return bad(err.Error())
		}
		if s.hi < s.lo {
			return bad(fmt.Sprintf("the port range %d-%d runs backwards", s.lo, s.hi))
		}
	}
	return s, nil
}

// portNumber reads a port of Client.Active: 1-65535, decimal.
func portNumber(p string) (int, error) {
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 || n > 65535 || p[0] == '+' {
		return 0, fmt.Errorf("the port %q is not a number from 1 to 65535", p)
	}
	return n, nil
}

// An activeListener is the listener of one active-mode transfer, from
// PORT or EPRT to the server's connection; it stands for the data
// connection until opened accepts that.
type activeListener struct {
	l    *net.TCPListener
	peer netip.Addr // the control connection's peer: the only address taken
	line string     // the PORT or EPRT sent, for errors
}

// Close closes the listener.
func (a *activeListener) Close() error { return a.l.Close() }

// active opens the listener of an active-mode transfer and sends PORT
// or EPRT for it (see Client.Active). EPRT (RFC 2428 §2) goes for an
// IPv6 address, and where the server's FEAT lists EPRT; PORT (RFC 959
// §4.1.2) otherwise, and after an EPRT that the server refuses as
// unknown (500, 502) for an IPv4 address. The reply must be 200. A
// failure is a *stepError of Op "port".
func (s *session) active(o *opening, spec activeSpec) (*activeListener, error) {
	ctlLocal, ok1 := tcpAddrOf(s.ctl.t.Conn.LocalAddr())
	peer, ok2 := tcpAddrOf(s.ctl.t.Conn.RemoteAddr())
	if !ok1 || !ok2 {
		return nil, &stepError{op: "port", line: "PORT", err: errors.New("active mode needs a TCP control connection with IP addresses: the Client's DialContext gave another kind of connection")}
	}
	ip, err := spec.listenIP(o.ctx, ctlLocal.Addr())
	if err != nil {
		return nil, &stepError{op: "port", line: "PORT", err: err}
	}
	l, err := listenOn(ip, spec.lo, spec.hi)
	if err != nil {
		return nil, &stepError{op: "port", line: "PORT", err: err}
	}
	port := l.Addr().(*net.TCPAddr).AddrPort().Port()
	a := &activeListener{l: l, peer: peer.Addr().Unmap()}
	useEPRT := ip.Is6() || (s.ctl.has("EPRT") && !s.noEPRT)
	if useEPRT {
		a.line = eprtLine(ip, port)
		rep, err := s.ctl.cmd(a.line)
		switch {
		case err != nil:
		case rep.code == 200:
			return a, nil
		case ip.Is4() && (rep.code == 500 || rep.code == 502):
			s.noEPRT = true // unknown to the server: PORT says the same
		default:
			err = rep.err()
		}
		if err != nil {
			l.Close()
			return nil, &stepError{op: "port", line: a.line, err: err}
		}
	}
	a.line = portLine(ip, port)
	rep, err := s.ctl.cmd(a.line)
	if err == nil && rep.code != 200 {
		err = rep.err()
	}
	if err != nil {
		l.Close()
		return nil, &stepError{op: "port", line: a.line, err: err}
	}
	return a, nil
}

// tcpAddrOf returns a's IP address and port, unmapped.
func tcpAddrOf(a net.Addr) (netip.AddrPort, bool) {
	ta, ok := a.(*net.TCPAddr)
	if !ok || ta.IP == nil {
		return netip.AddrPort{}, false
	}
	ap := ta.AddrPort()
	return netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()), true
}

// listenIP returns the address to listen on and to send: the control
// connection's local one for "-" or an unspecified address (0.0.0.0,
// ::: a server cannot connect to it); else the IP address given, the
// interface's first address of the control connection's family (else
// any), or the host name's.
func (spec activeSpec) listenIP(ctx context.Context, local netip.Addr) (netip.Addr, error) {
	if spec.local {
		return local, nil
	}
	if a, err := netip.ParseAddr(spec.host); err == nil {
		a = a.Unmap()
		if a.IsUnspecified() {
			return local, nil
		}
		return a, nil
	}
	if ifi, err := net.InterfaceByName(spec.host); err == nil {
		addrs, err := ifi.Addrs()
		if err != nil {
			return netip.Addr{}, err
		}
		var found []netip.Addr
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(n.IP); ok {
					found = append(found, ip.Unmap())
				}
			}
		}
		if a, ok := pickFamily(found, local); ok {
			return a, nil
		}
		return netip.Addr{}, fmt.Errorf("the interface %s has no IP address to listen on", spec.host)
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", spec.host)
	if err != nil {
		return netip.Addr{}, err
	}
	for i := range ips {
		ips[i] = ips[i].Unmap()
	}
	if a, ok := pickFamily(ips, local); ok {
		return a, nil
	}
	return netip.Addr{}, fmt.Errorf("the host %s has no IP address", spec.host)
}

// pickFamily returns the first of addrs in local's family, else the
// first, skipping IPv6 link-local addresses, which need a zone a PORT
// cannot carry.
func pickFamily(addrs []netip.Addr, local netip.Addr) (netip.Addr, bool) {
	var other netip.Addr
	for _, a := range addrs {
		if a.Is6() && a.IsLinkLocalUnicast() {
			continue
		}
		if a.Is4() == local.Is4() {
			return a, true
		}
		if !other.IsValid() {
			other = a
		}
	}
	return other, other.IsValid()
}

// listenOn listens on ip, at the first port from lo to hi that is
// free (curl tries them in order); any port where lo is 0.
func listenOn(ip netip.Addr, lo, hi int) (*net.TCPListener, error) {
	var lastErr error
	for p := lo; p <= hi; p++ {
		l, err := net.ListenTCP("tcp", net.TCPAddrFromAddrPort(netip.AddrPortFrom(ip, uint16(p))))
		if err == nil {
			return l, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// portLine is "PORT h1,h2,h3,h4,p1,p2" (RFC 959 §4.1.2) for an IPv4
// address; an IPv6 one goes by EPRT.
func portLine(ip netip.Addr, port uint16) string {
	b := ip.As4()
	return fmt.Sprintf("PORT %d,%d,%d,%d,%d,%d", b[0], b[1], b[2], b[3], port>>8, port&255)
}

// eprtLine is "EPRT |1|a.b.c.d|port|" or "EPRT |2|ipv6|port|" (RFC
// 2428 §2).
func eprtLine(ip netip.Addr, port uint16) string {
	family := "1"
	if ip.Is6() {
		family = "2"
	}
	return "EPRT |" + family + "|" + ip.String() + "|" + strconv.Itoa(int(port)) + "|"
}

// accept takes the server's data connection: the first one from the
// control connection's peer address, within the dial timeout (else
// StallTimeout) and the context; one from any other address is closed
// at once, never read. The listener is closed either way. The
// connection is the session's (closed with it), timed, and TLS where
// the session is, fetch being the TLS client and resuming the control
// connection's TLS session as a passive one does (RFC 4217 §10.2).
//
// While it waits, it watches the control connection (unless final is
// read already): a refusal there (vsftpd's "425 Failed to establish
// connection.") ends the wait at once, and a 226 or 250 (a small file
// sent whole before the connection was taken) is returned as final,
// the connection still taken.
func (s *session) accept(o *opening, a *activeListener, haveFinal bool) (net.Conn, *reply, error) {
	defer a.l.Close()
	wait := o.dialTimeout
	if wait <= 0 {
		wait = s.client.stall()
	}
	var deadline time.Time
	if wait > 0 {
		deadline = time.Now().Add(wait)
	}
	if d, ok := o.ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	_ = a.l.SetDeadline(deadline)
	stop := context.AfterFunc(o.ctx, func() { a.l.Close() })
	defer stop()
	type result struct {
		c   *net.TCPConn
		err error
	}
	got := make(chan result, 1)
	go func() {
		c, err := a.take()
		got <- result{c, err}
	}()
	var final *reply
	if !haveFinal {
		ctl := make(chan error, 1)
		go func() {
			_, err := s.ctl.r.Peek(1)
			ctl <- err
		}()
		select {
		case r := <-got:
			// Taken first: the watch ends, nothing read.
			s.ctl.t.interrupt()
			<-ctl
			s.ctl.t.resume()
			got <- r
		case err := <-ctl:
			if err == nil {
				var rep reply
				rep, err = s.ctl.read()
				if err == nil && rep.code != 226 && rep.code != 250 {
					err = rep.err()
				}
				final = &rep
			}
			if err != nil && !isTimeout(err) {
				a.l.Close()
				if r := <-got; r.c != nil {
					r.c.Close()
				}
				if err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				return nil, nil, err
			}
		}
	}
	r := <-got
	if r.err != nil {
		if cerr := o.ctx.Err(); cerr != nil {
			return nil, nil, cerr
		}
		if isTimeout(r.err) {
			return nil, nil, fmt.Errorf("the server did not connect to the address it was given within %v: %w", wait, &stallError{wait})
		}
		return nil, nil, r.err
	}
	if err := s.track(r.c); err != nil {
		return nil, nil, err
	}
	var conn net.Conn = &timed{Conn: r.c, dl: &s.dl}
	if s.tls != nil {
		conn = tls.Client(conn, s.tls)
	}
	return conn, final, nil
}

// take accepts connections until one comes from the control
// connection's peer, closing the others unread (RFC 2577 §3).
func (a *activeListener) take() (*net.TCPConn, error) {
	for {
		c, err := a.l.AcceptTCP()
		if err != nil {
			return nil, err
		}
		if from, ok := tcpAddrOf(c.RemoteAddr()); ok && from.Addr() == a.peer {
			return c, nil
		}
		_ = c.SetLinger(0) // a reset: nothing of it is read or kept
		c.Close()
	}
}

// track makes c one of the session's connections, closed with it.
func (s *session) track(c net.Conn) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		c.Close()
		return net.ErrClosed
	}
	s.conns = append(s.conns, c)
	return nil
}

// dataFor opens what a transfer's data connection comes through: the
// connection itself in passive mode, or active mode's listener
// (Client.Active), which opened turns into the connection.
func (s *session) dataFor(o *opening) (io.Closer, error) {
	if s.client.Active == "" {
		c, err := s.passive(o)
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	spec, err := parseActive(s.client.Active)
	if err != nil {
		return nil, &stepError{op: "port", err: err}
	}
	a, err := s.active(o, spec)
	if err != nil {
		return nil, err
	}
	return a, nil
}

// openedActive is opened in active mode: it reads the reply to line,
// and where it opens the transfer (1xx, or a 226 or 250 for one done
// already), takes the server's connection (accept).
func (s *session) openedActive(o *opening, a *activeListener, line string) (*transfer, error) {
	rep, err := s.ctl.read()
	if err != nil {
		a.Close()
		return nil, &stepError{line: line, err: err}
	}
	if rep.code >= 200 && rep.code != 226 && rep.code != 250 {
		a.Close()
		return nil, &stepError{line: line, err: rep.err()}
	}
	conn, final, err := s.accept(o, a, rep.code >= 200)
	if err != nil {
		return nil, &stepError{op: "port", line: a.line, err: err}
	}
	t := &transfer{s: s, conn: conn, opened: rep, final: final, outlive: o.outlive}
	if rep.code < 200 {
		t.watchControl()
	} else {
		t.final = &rep
	}
	return t, nil
}
