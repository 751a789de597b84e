package fetch

import (
	"context"
	"errors"
	"net/netip"
	"testing"
)

// Client.Active is read as curl's --ftp-port takes it: "-", or
// host[:port[-port]], an IPv6 address in brackets when a port follows.
func TestParseActive(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want activeSpec
	}{
		{"-", activeSpec{local: true}},
		{"127.0.0.1", activeSpec{host: "127.0.0.1"}},
		{"127.0.0.1:5000", activeSpec{host: "127.0.0.1", lo: 5000, hi: 5000}},
		{"127.0.0.1:5000-5010", activeSpec{host: "127.0.0.1", lo: 5000, hi: 5010}},
		{"localhost:21-21", activeSpec{host: "localhost", lo: 21, hi: 21}},
		{"::1", activeSpec{host: "::1"}},
		{"[::1]", activeSpec{host: "::1"}},
		{"[::1]:6000", activeSpec{host: "::1", lo: 6000, hi: 6000}},
		{"lo", activeSpec{host: "lo"}},
	} {
		got, err := parseActive(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("parseActive(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
	for _, in := range []string{"", ":21", "h:", "h:0", "h:65536", "h:+5", "h:5-", "h:9-3", "[::1", "[::1]x", "[1.2.3.4]:5", "::1:x", "a b", "h/x", "u@h"} {
		_, err := parseActive(in)
		var ae *ActiveError
		if !errors.As(err, &ae) || ae.Value != in || ae.Why == "" {
			t.Errorf("parseActive(%q) = %v; want an *ActiveError", in, err)
		}
	}
}

// PORT carries an IPv4 address and the port as six decimal bytes (RFC
// 959 §4.1.2); EPRT names the family, 1 or 2 (RFC 2428 §2).
func TestPortAndEPRTLines(t *testing.T) {
	v4, v6 := netip.MustParseAddr("127.0.0.1"), netip.MustParseAddr("::1")
	for _, tc := range []struct{ got, want string }{
		{portLine(v4, 0x1234), "PORT 127,0,0,1,18,52"},
		{portLine(v4, 65535), "PORT 127,0,0,1,255,255"},
		{eprtLine(v4, 6446), "EPRT |1|127.0.0.1|6446|"},
		{eprtLine(v6, 6446), "EPRT |2|::1|6446|"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// "-" and an unspecified address listen on the control connection's
// local address; the loopback interface's name gives its address of
// that family (curl takes an interface name too).
func TestActiveListenAddress(t *testing.T) {
	local := netip.MustParseAddr("127.0.0.1")
	for _, in := range []string{"-", "0.0.0.0", "::", "127.0.0.1", "lo"} {
		spec, err := parseActive(in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := spec.listenIP(context.Background(), local)
		if in == "lo" && err != nil {
			t.Skipf("no interface lo: %v", err)
		}
		if err != nil || got != local {
			t.Errorf("%q: listens on %v, %v; want %v", in, got, err, local)
		}
	}
}
