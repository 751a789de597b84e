package ftpurl

import (
	"errors"
	"flag"
	"net"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// parts is a URL seen part by part, the way the tests compare URLs:
// the password and whether it is set are plain fields, so that go-cmp
// can print a readable diff.
type parts struct {
	Scheme      string // "" for ftp, so that a table of ftp URLs need not spell it
	HasUser     bool
	User        string
	HasPassword bool
	Password    string
	Host        string
	Port        uint16
	Dirs        []string
	Name        string
	Type        Typecode
	RawQuery    string
	Fragment    string
}

func partsOf(u *URL) parts {
	p := parts{
		Scheme:   u.Scheme,
		HasUser:  u.User != nil,
		User:     u.User.Username(),
		Host:     u.Host,
		Port:     u.Port,
		Dirs:     u.Dirs,
		Name:     u.Name,
		Type:     u.Type,
		RawQuery: u.RawQuery,
		Fragment: u.Fragment,
	}
	if p.Scheme == "ftp" {
		p.Scheme = ""
	}
	p.Password, p.HasPassword = u.User.Password()
	return p
}

// diffParts compares two URLs part by part as URL.String's doc
// says: the scheme's default port equals Port 0 (RFC 1738 §3.2: 21 is
// ftp's default; 990 is ftps') and nil Dirs equal empty Dirs.
func diffParts(want, got *URL) string {
	w, g := partsOf(want), partsOf(got)
	w.Port, g.Port = normalPort(schemeNamed(want.Scheme), w.Port), normalPort(schemeNamed(got.Scheme), g.Port)
	return cmp.Diff(w, g, cmpopts.EquateEmpty())
}

// A seedExample is an example URL quoted in one of the documents in
// shared/seeds, with the parts that document gives it.
type seedExample struct {
	source   string    // where the URL is quoted
	in       string    // the URL as the document writes it
	grammars []Grammar // the grammars that must read it as want
	want     parts
	str      string // String of the result
}

var (
	allGrammars = []Grammar{Lenient, RFC1738, RFC2396, RFC3986}
	noRFC2396   = []Grammar{Lenient, RFC1738, RFC3986}
	uri3986     = []Grammar{Lenient, RFC3986}
)

var seedExamples = []seedExample{
	// RFC 1738 §3.2.1: the four userinfo examples.
	{
		source: "RFC 1738 §3.2.1: empty user name and no password",
		in:     "ftp://@host.com/",
		// The 2011 draft §3.1 has user = 1*usp-char, so RFC3986 refuses it
		// (see TestRFC3986Grammar).
		grammars: []Grammar{Lenient, RFC1738, RFC2396},
		want:     parts{HasUser: true, Host: "host.com"},
		str:      "ftp://@host.com/",
	},
	{
		source:   "RFC 1738 §3.2.1: no user name",
		in:       "ftp://host.com/",
		grammars: allGrammars,
		want:     parts{Host: "host.com"},
		str:      "ftp://host.com/",
	},
	{
		source:   `RFC 1738 §3.2.1: user name "foo" and an empty password`,
		in:       "ftp://foo:@host.com/",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "foo", HasPassword: true, Host: "host.com"},
		str:      "ftp://foo:@host.com/",
	},
	{
		source:   `RFC 1738 §3.2.1, §3.2.2; 1997 draft §2.5: user "myname", "CWD /etc", "RETR motd"`,
		in:       "ftp://myname@host.dom/%2Fetc/motd",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "myname", Host: "host.dom", Dirs: []string{"/etc"}, Name: "motd"},
		str:      "ftp://myname@host.dom/%2Fetc/motd",
	},
	// RFC 1738 §3.2.2 and the 1997 draft §2.5: the other %2F examples.
	{
		source:   `RFC 1738 §3.2.2; 1997 draft §2.5: "CWD etc" and then "RETR motd"`,
		in:       "ftp://myname@host.dom/etc/motd",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "myname", Host: "host.dom", Dirs: []string{"etc"}, Name: "motd"},
		str:      "ftp://myname@host.dom/etc/motd",
	},
	{
		source:   `RFC 1738 §3.2.2; 1997 draft §2.5: "CWD " with a null argument, then "CWD etc"`,
		in:       "ftp://myname@host.dom//etc/motd",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "myname", Host: "host.dom", Dirs: []string{"", "etc"}, Name: "motd"},
		str:      "ftp://myname@host.dom//etc/motd",
	},
	// The 1997 draft §2.9.
	{
		source:   "1997 draft §2.9: user jamesc, default directory /home/jamesc",
		in:       "ftp://jamesc@ftp.harlequin.com/foo.html",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "jamesc", Host: "ftp.harlequin.com", Name: "foo.html"},
		str:      "ftp://jamesc@ftp.harlequin.com/foo.html",
	},
	{
		source:   "1997 draft §2.9: user paulh, default directory /",
		in:       "ftp://paulh@ftp.harlequin.com/home/jamesc/foo.html",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "paulh", Host: "ftp.harlequin.com", Dirs: []string{"home", "jamesc"}, Name: "foo.html"},
		str:      "ftp://paulh@ftp.harlequin.com/home/jamesc/foo.html",
	},
	// The 2011 draft §3.1: the null and non-null <last-segment> examples.
	{
		source:   "2011 draft §3.1: null <last-segment>",
		in:       "ftp://example.org/",
		grammars: allGrammars,
		want:     parts{Host: "example.org"},
		str:      "ftp://example.org/",
	},
	{
		source:   "2011 draft §3.1: null <last-segment> after a <cwd>",
		in:       "ftp://example.net/foo/",
		grammars: allGrammars,
		want:     parts{Host: "example.net", Dirs: []string{"foo"}},
		str:      "ftp://example.net/foo/",
	},
	{
		source:   `2011 draft §3.1: <last-segment> "big.xls"`,
		in:       "ftp://example.com/big.xls",
		grammars: allGrammars,
		want:     parts{Host: "example.com", Name: "big.xls"},
		str:      "ftp://example.com/big.xls",
	},
	{
		source:   "2011 draft §3.2.4.2: fragment after the typecode",
		in:       "ftp://example.org/file.txt;type=a#char=100",
		grammars: noRFC2396, // the 1997 draft has no fragment
		want:     parts{Host: "example.org", Name: "file.txt", Type: TypeASCII, Fragment: "char=100"},
		str:      "ftp://example.org/file.txt;type=a#char=100",
	},
	// The 2011 draft §4: every URI.
	{
		source:   `2011 draft §4: port 49557, "CWD /somedir", "NLST seconddir"`,
		in:       "ftp://example.com:49557/%2Fsomedir/seconddir;type=d",
		grammars: noRFC2396, // Regexp::Common's type is [AIai]
		want:     parts{Host: "example.com", Port: 49557, Dirs: []string{"/somedir"}, Name: "seconddir", Type: TypeDirectory},
		str:      "ftp://example.com:49557/%2Fsomedir/seconddir;type=d",
	},
	{
		source:   `2011 draft §4: "USER fellow", "PASS bad-guy", "CWD /etc", query ignored`,
		in:       "ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
		grammars: uri3986, // RFC 1738 has no query: see the next example
		want: parts{HasUser: true, User: "fellow", HasPassword: true, Password: "bad-guy", Host: "203.0.113.42",
			Dirs: []string{"/etc"}, Name: "motd", RawQuery: "some=thing"},
		str: "ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
	},
	{
		source:   `RFC 1738 §5 reading of the 2011 draft §4 example: "?" is an fsegment character`,
		in:       "ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
		grammars: []Grammar{RFC1738},
		want: parts{HasUser: true, User: "fellow", HasPassword: true, Password: "bad-guy", Host: "203.0.113.42",
			Dirs: []string{"/etc"}, Name: "motd?some=thing"},
		str: "ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd%3Fsome=thing",
	},
	{
		source:   "2011 draft §4: invalid credentials, port 4916, listing of the default directory",
		in:       "ftp://user1:invalid-pass@example.net:4916/;type=d",
		grammars: noRFC2396,
		want: parts{HasUser: true, User: "user1", HasPassword: true, Password: "invalid-pass", Host: "example.net",
			Port: 4916, Type: TypeDirectory},
		str: "ftp://user1:invalid-pass@example.net:4916/;type=d",
	},
	{
		source:   `2011 draft §4: percent-encoded "?" and "#", "CWD ?foo", "CWD #bar", fragment`,
		in:       "ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
		grammars: noRFC2396,
		want:     parts{Host: "example.org", Dirs: []string{"?foo", "#bar"}, Name: "file.txt", Type: TypeASCII, Fragment: "char=500"},
		str:      "ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
	},
	{
		source:   `2011 draft §4: null <cwd> between foo and bar, "TYPE u"`,
		in:       "ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u",
		grammars: uri3986, // u is not an RFC 1738 or 1997 typecode
		want: parts{HasUser: true, User: "oh-no", Host: "example.org", Port: 7634,
			Dirs: []string{"foo", "", "bar", "foobar"}, Name: "bad-file.doc", Type: TypeUnicode},
		str: "ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u",
	},
	// The 2011 draft §4.1: IRIs are Lenient inputs (§6.2); their
	// percent-encoded forms are URIs (§6.1) that RFC3986 reads the same.
	{
		source:   "2011 draft §4.1: IRI with U+0109 in the host and U+2603 in a <cwd>",
		in:       "ftp://ĉat.example.com/weather/☃/snow.txt",
		grammars: []Grammar{Lenient},
		want:     parts{Host: "xn--at-0la.example.com", Dirs: []string{"weather", "☃"}, Name: "snow.txt"},
		str:      "ftp://xn--at-0la.example.com/weather/%E2%98%83/snow.txt",
	},
	{
		source:   "2011 draft §4.1, §6.1: the same IRI as a URI, UTF-8 percent-encoded",
		in:       "ftp://%C4%89at.example.com/weather/%E2%98%83/snow.txt",
		grammars: uri3986,
		want:     parts{Host: "xn--at-0la.example.com", Dirs: []string{"weather", "☃"}, Name: "snow.txt"},
		str:      "ftp://xn--at-0la.example.com/weather/%E2%98%83/snow.txt",
	},
	{
		source:   "2011 draft §4.1, §6.3.1: the same URI with the host in A-labels",
		in:       "ftp://xn--at-0la.example.com/weather/%E2%98%83/snow.txt",
		grammars: allGrammars,
		want:     parts{Host: "xn--at-0la.example.com", Dirs: []string{"weather", "☃"}, Name: "snow.txt"},
		str:      "ftp://xn--at-0la.example.com/weather/%E2%98%83/snow.txt",
	},
	{
		source:   "2011 draft §4.1: URI with U+0125 in the host and U+1D120 in a <cwd>, percent-encoded",
		in:       "ftp://%C4%A5ost.example.com/music/%F0%9D%84%A0/clef.pdf",
		grammars: uri3986,
		want:     parts{Host: "xn--ost-4sa.example.com", Dirs: []string{"music", "\U0001D120"}, Name: "clef.pdf"},
		str:      "ftp://xn--ost-4sa.example.com/music/%F0%9D%84%A0/clef.pdf",
	},
	{
		source:   "2011 draft §4.1, §6.2: the same resource as an IRI",
		in:       "ftp://ĥost.example.com/music/\U0001D120/clef.pdf",
		grammars: []Grammar{Lenient},
		want:     parts{Host: "xn--ost-4sa.example.com", Dirs: []string{"music", "\U0001D120"}, Name: "clef.pdf"},
		str:      "ftp://xn--ost-4sa.example.com/music/%F0%9D%84%A0/clef.pdf",
	},
	// The 1997 draft §3.1.
	{
		source:   "1997 draft §3.1: what browsers read as CWD /foo",
		in:       "ftp://host/foo/bar.html",
		grammars: allGrammars,
		want:     parts{Host: "host", Dirs: []string{"foo"}, Name: "bar.html"},
		str:      "ftp://host/foo/bar.html",
	},
	{
		source: "1997 draft §3.1: ~ for the default directory",
		in:     "ftp://host/~/foo/bar.html",
		// "~" is national in RFC 1738 §2.2, but RFC1738 accepts it raw.
		grammars: allGrammars,
		want:     parts{Host: "host", Dirs: []string{"~", "foo"}, Name: "bar.html"},
		str:      "ftp://host/~/foo/bar.html",
	},
	{
		source:   "1997 draft §3.1: the default directory of the current user",
		in:       "ftp://user:pass@host/~/",
		grammars: allGrammars,
		want:     parts{HasUser: true, User: "user", HasPassword: true, Password: "pass", Host: "host", Dirs: []string{"~"}},
		str:      "ftp://user:pass@host/~/",
	},
}

func TestSeedExamplesParseToTheirParts(t *testing.T) {
	for _, tt := range seedExamples {
		for _, g := range tt.grammars {
			u, err := g.Parse(tt.in)
			if err != nil {
				t.Errorf("%s: %v.Parse(%q): %v", tt.source, g, tt.in, err)
				continue
			}
			if diff := cmp.Diff(tt.want, partsOf(u), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("%s: %v.Parse(%q) parts (-want +got):\n%s", tt.source, g, tt.in, diff)
			}
			if got := u.String(); got != tt.str {
				t.Errorf("%s: %v.Parse(%q).String() = %q, want %q", tt.source, g, tt.in, got, tt.str)
			}
		}
	}
}

// URL.String's doc: String is idempotent, and its result reads back
// as the same URL (with Parse, which is Lenient).
func TestSeedExamplesRoundTrip(t *testing.T) {
	for _, tt := range seedExamples {
		u, err := Parse(tt.str)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tt.source, tt.str, err)
			continue
		}
		want := tt.want
		if diff := cmp.Diff(want, partsOf(u), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: Parse(%q) parts (-want +got):\n%s", tt.source, tt.str, diff)
		}
		if got := u.String(); got != tt.str {
			t.Errorf("%s: String is not idempotent: %q -> %q", tt.source, tt.str, got)
		}
	}
}

// URL.String's doc: the zero URL gives "".
func TestZeroURLStringIsEmpty(t *testing.T) {
	var u URL
	if got := u.String(); got != "" {
		t.Errorf("URL{}.String() = %q, want \"\"", got)
	}
	if got := u.Redacted(); got != "" {
		t.Errorf("URL{}.Redacted() = %q, want \"\"", got)
	}
}

// URL.String's doc: String and Redacted
// normalize a URL value built by hand.
func TestStringNormalizesHandBuiltURL(t *testing.T) {
	tests := []struct {
		rule     string
		u        URL
		str      string
		redacted string // "" means the same as str
	}{
		{
			rule: "host lower-case",
			u:    URL{Host: "FTP.Example.COM"},
			str:  "ftp://ftp.example.com/",
		},
		{
			rule: ";type=x lower-case",
			u:    URL{Host: "h", Name: "f", Type: 'A'},
			str:  "ftp://h/f;type=a",
		},
		{
			rule: "IPv6 in brackets, RFC 5952 form",
			u:    URL{Host: "2001:DB8:0:0:0:0:0:1", Port: 2121},
			str:  "ftp://[2001:db8::1]:2121/",
		},
		{
			rule: "IPv6 already in brackets is not bracketed twice",
			u:    URL{Host: "[::1]"},
			str:  "ftp://[::1]/",
		},
		{
			rule: "non-ASCII host to A-labels (idna Lookup)",
			u:    URL{Host: "ĉat.example.com"},
			str:  "ftp://xn--at-0la.example.com/",
		},
		{
			rule: "non-ASCII upper-case host to A-labels",
			u:    URL{Host: "Bücher.Example"},
			str:  "ftp://xn--bcher-kva.example/",
		},
		{
			rule: "port 21 and port 0 are left out",
			u:    URL{Host: "h", Port: 21},
			str:  "ftp://h/",
		},
		{
			rule:     "user and password encoded where usp-char needs it; \":\" in the password is encoded",
			u:        URL{User: UserPassword("a:b@c", "p:w/@ %"), Host: "h"},
			str:      "ftp://a%3Ab%40c:p%3Aw%2F%40%20%25@h/",
			redacted: "ftp://a%3Ab%40c:xxxxx@h/",
		},
		{
			rule: "user without password",
			u:    URL{User: User("anonymous"), Host: "h"},
			str:  "ftp://anonymous@h/",
		},
		{
			rule:     "empty password is kept, and redacted",
			u:        URL{User: UserPassword("foo", ""), Host: "h"},
			str:      "ftp://foo:@h/",
			redacted: "ftp://foo:xxxxx@h/",
		},
		{
			rule: "segments: %2F, %3B, %3F, %23, %25, %20 encoded; unreserved and sub-delims but \";\" raw",
			u:    URL{Host: "h", Dirs: []string{"/etc", "a;b", "sp ace", "100%"}, Name: "x?y#z~!$&'()*+,=:@"},
			str:  "ftp://h/%2Fetc/a%3Bb/sp%20ace/100%25/x%3Fy%23z~!$&'()*+,=:@",
		},
		{
			rule: "dot segments are kept (a CWD argument, URL.String's doc)",
			u:    URL{Host: "h", Dirs: []string{"..", "."}, Name: ".."},
			str:  "ftp://h/.././..",
		},
		{
			rule: "null segments are kept (2011 draft §3.2.3 (1))",
			u:    URL{Host: "h", Dirs: []string{"", ""}},
			str:  "ftp://h///",
		},
		{
			rule: "Latin-1 octets are encoded as they are (2011 draft §3.3)",
			u:    URL{Host: "h", Name: "\xe9t\xe9.txt"},
			str:  "ftp://h/%E9t%E9.txt",
		},
		{
			rule: "query and fragment: raw characters encoded, escape hex upper-case",
			u:    URL{Host: "h", RawQuery: "a b&c=%2f", Fragment: "x y%7e"},
			str:  "ftp://h/?a%20b&c=%2F#x%20y%7E",
		},
	}
	for _, tt := range tests {
		if got := tt.u.String(); got != tt.str {
			t.Errorf("%s: String() = %q, want %q", tt.rule, got, tt.str)
		}
		want := tt.redacted
		if want == "" {
			want = tt.str
		}
		if got := tt.u.Redacted(); got != want {
			t.Errorf("%s: Redacted() = %q, want %q", tt.rule, got, want)
		}
	}
}

// RFC 1738 §3.2, 2011 draft §3.2.1: the port defaults to 21; net.Dial
// wants an IPv6 host in brackets.
func TestAddressDefaultsToPort21(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ftp://host.com/", "host.com:21"},
		{"ftp://host.com:2121/", "host.com:2121"},
		{"ftp://host.com:021/", "host.com:21"},
		{"ftp://203.0.113.42/", "203.0.113.42:21"},
		{"ftp://[2001:DB8::1]/", "[2001:db8::1]:21"},
		{"ftp://[2001:db8::1]:990/", "[2001:db8::1]:990"},
		{"ftp://Bücher.example/", "xn--bcher-kva.example:21"},
	}
	for _, tt := range tests {
		u, err := Parse(tt.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := u.Address(); got != tt.want {
			t.Errorf("Parse(%q).Address() = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := (&URL{Host: "h"}).Address(); got != "h:21" {
		t.Errorf("URL{Host: h}.Address() = %q, want h:21", got)
	}
}

// URL.Address (URL's doc: Port 0 means none, 21 applies;
// RFC 1738 §3.2) gives net.Dial's form: an IPv6 host in brackets, and the
// port that net.SplitHostPort reads back, 21 for Port 0 and 21.
func TestAddressBracketsIPv6AndDefaultsPort0To21(t *testing.T) {
	tests := []struct {
		u          *URL
		want, port string
	}{
		{MustParse("ftp://[2001:DB8:0:0::1]/"), "[2001:db8::1]:21", "21"},
		{MustParse("ftp://[2001:db8::1]:21/"), "[2001:db8::1]:21", "21"},
		{MustParse("ftp://[2001:db8::1]:2121/"), "[2001:db8::1]:2121", "2121"},
		{MustParse("ftp://[::FFFF:192.0.2.1]:2121/"), "[::ffff:192.0.2.1]:2121", "2121"},
		{&URL{Host: "2001:db8::1", Port: 0}, "[2001:db8::1]:21", "21"},
		{&URL{Host: "h", Port: 0}, "h:21", "21"},
		{&URL{Host: "h", Port: 21}, "h:21", "21"},
		{&URL{Host: "h", Port: 2121}, "h:2121", "2121"},
	}
	for _, tt := range tests {
		got := tt.u.Address()
		if got != tt.want {
			t.Errorf("%#v.Address() = %q, want %q", *tt.u, got, tt.want)
		}
		if host, port, err := net.SplitHostPort(got); err != nil || host != tt.u.Host || port != tt.port {
			t.Errorf("net.SplitHostPort(%q) = %q, %q, %v; want %q, %q", got, host, port, err, tt.u.Host, tt.port)
		}
	}
	// Parse refuses port 0 (Grammar's doc: a port is 1..65535), so
	// only a URL built by hand has Port 0, and that is "none".
	if u, err := Parse("ftp://h:0/"); !errors.Is(err, ErrPort) {
		t.Errorf("Parse(ftp://h:0/) = %v, %v; want ErrPort", u, err)
	}
}

// URL's doc: Userinfo's methods are nil-safe, and an empty
// password differs from none (RFC 1738 §3.2.1).
func TestUserinfoNilSafeAndPasswordSet(t *testing.T) {
	var ui *Userinfo
	if got := ui.Username(); got != "" {
		t.Errorf("nil Username() = %q", got)
	}
	if p, ok := ui.Password(); p != "" || ok {
		t.Errorf("nil Password() = %q, %v; want \"\", false", p, ok)
	}
	if p, ok := User("me").Password(); p != "" || ok {
		t.Errorf("User(me).Password() = %q, %v; want \"\", false", p, ok)
	}
	if p, ok := UserPassword("me", "").Password(); p != "" || !ok {
		t.Errorf("UserPassword(me, \"\").Password() = %q, %v; want \"\", true", p, ok)
	}
	if got := UserPassword("me", "pw").Username(); got != "me" {
		t.Errorf("Username() = %q, want me", got)
	}
}

func TestMustParsePanicsOnBadInput(t *testing.T) {
	defer func() {
		r := recover()
		err, ok := r.(error)
		if !ok {
			t.Fatalf("MustParse panicked with %v (%T), want an error", r, r)
		}
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrPort) {
			t.Errorf("MustParse panicked with %v, want an *Error with ErrPort", err)
		}
	}()
	MustParse("ftp://host:70000/")
	t.Error("MustParse did not panic")
}

func TestMustParseReturnsTheURL(t *testing.T) {
	u := MustParse("FTP://Host.COM/pub/file;TYPE=I")
	if got, want := u.String(), "ftp://host.com/pub/file;type=i"; got != want {
		t.Errorf("MustParse(...).String() = %q, want %q", got, want)
	}
}

// Grammar.String's doc: Grammar names.
func TestGrammarStringAndText(t *testing.T) {
	names := map[Grammar]string{Lenient: "lenient", RFC1738: "rfc1738", RFC2396: "rfc2396", RFC3986: "rfc3986"}
	for g, name := range names {
		if got := g.String(); got != name {
			t.Errorf("%d.String() = %q, want %q", int(g), got, name)
		}
		b, err := g.MarshalText()
		if err != nil || string(b) != name {
			t.Errorf("%v.MarshalText() = %q, %v; want %q", g, b, err, name)
		}
		var back Grammar = -1
		if err := back.UnmarshalText([]byte(strings.ToUpper(name))); err != nil || back != g {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v (names are case-insensitive)", strings.ToUpper(name), back, err, g)
		}
	}
	if got := Grammar(7).String(); got != "Grammar(7)" {
		t.Errorf("Grammar(7).String() = %q, want Grammar(7)", got)
	}
	if _, err := Grammar(7).MarshalText(); err == nil {
		t.Error("Grammar(7).MarshalText() succeeded, want an error")
	}
	g := RFC1738
	for _, bad := range []string{"", "rfc1808", "lenient ", "rfc 3986"} {
		if err := g.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) succeeded, want an error", bad)
		}
		if g != RFC1738 {
			t.Errorf("a failed UnmarshalText(%q) changed the grammar to %v", bad, g)
		}
	}
}

// A Grammar is a flag.TextVar, as its doc comment says.
func TestGrammarIsAFlag(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	var g Grammar
	fs.TextVar(&g, "grammar", Lenient, "grammar")
	if err := fs.Parse([]string{"-grammar", "rfc2396"}); err != nil {
		t.Fatal(err)
	}
	if g != RFC2396 {
		t.Errorf("-grammar rfc2396 gave %v", g)
	}
}

// Every error is an *Error, even for a grammar that does not exist;
// but an invalid Grammar, like FromURL(nil), is a programming error and
// no fault of the URL (a valid one, here): it wraps none of the
// sentinels that classify URL faults, so that errors.Is(err, ErrScheme)
// cannot send a caller looking for a fault in the URL.
func TestProgrammingErrorsWrapNoSentinel(t *testing.T) {
	u, err := Grammar(42).Parse("ftp://u:secret@h/")
	v, err2 := FromURL(nil)
	for _, c := range []struct {
		call string
		u    *URL
		err  error
		says string
	}{
		{"Grammar(42).Parse", u, err, "Grammar(42) is not a Grammar"},
		{"FromURL(nil)", v, err2, "nil *url.URL"},
	} {
		var e *Error
		if c.u != nil || !errors.As(c.err, &e) || e.Op != "parse" || e.Offset != -1 {
			t.Errorf("%s = %v, %#v; want nil and an *Error with Offset -1", c.call, c.u, c.err)
			continue
		}
		for _, s := range []error{ErrScheme, ErrUserinfo, ErrHost, ErrPort, ErrEscape, ErrPath, ErrTypecode, ErrControl} {
			if errors.Is(c.err, s) {
				t.Errorf("%s: errors.Is(err, %v) is true for a programming error", c.call, s)
			}
		}
		if msg := c.err.Error(); !strings.Contains(msg, c.says) || strings.Contains(msg, "secret") {
			t.Errorf("%s: message %q does not say %q, or shows the password", c.call, msg, c.says)
		}
	}
}

// The Typecode constants are the letters of the 2011 draft §3.2.3.1.
func TestTypecodeString(t *testing.T) {
	tests := map[Typecode]string{TypeNone: "", TypeASCII: "a", TypeEBCDIC: "e", TypeImage: "i", TypeUnicode: "u", TypeDirectory: "d"}
	for tc, want := range tests {
		if got := tc.String(); got != want {
			t.Errorf("Typecode(%d).String() = %q, want %q", byte(tc), got, want)
		}
	}
}

// A nil *URL is no URL, not the zero URL (as a JSON null is not ""):
// every method with a pointer receiver accepts it without panicking and
// gives its "nothing" answer; the value methods, like any Go value
// method, need a non-nil pointer. A URL without a host has no address
// either: net.Dial would read ":21" as the local host (RFC 1738 §3.1:
// the host is the machine to connect to).
func TestNilURLIsNoURLForEveryPointerMethod(t *testing.T) {
	var u *URL
	if got := u.Address(); got != "" {
		t.Errorf("nil.Address() = %q, want \"\"", got)
	}
	if got := new(URL).Address(); got != "" {
		t.Errorf("URL{}.Address() = %q, want \"\" (no host)", got)
	}
	if got := (&URL{Port: 2121, Name: "f"}).Address(); got != "" {
		t.Errorf("URL{Port: 2121}.Address() = %q, want \"\" (no host)", got)
	}
	if user, pw, ok := u.Login(); user != "" || pw != "" || ok {
		t.Errorf("nil.Login() = %q, %q, %v; want \"\", \"\", false", user, pw, ok)
	}
	if p, err := u.Plan(); p != nil || err == nil || errors.Is(err, ErrHost) {
		t.Errorf("nil.Plan() = %v, %v; want an error that wraps no sentinel", p, err)
	}
	if v := u.URL(); v != nil {
		t.Errorf("nil.URL() = %v, want nil", v)
	}
	if !u.Equal(nil) || u.Equal(new(URL)) || new(URL).Equal(u) {
		t.Error("nil must be Equal to nil only")
	}
	if r, err := u.ResolveReference("//h/x"); err != nil || r.String() != "ftp://h/x" {
		t.Errorf(`nil.ResolveReference("//h/x") = %v, %v`, r, err)
	}
	if _, err := u.ResolveReference("g"); !errors.Is(err, ErrHost) {
		t.Errorf(`nil.ResolveReference("g") = %v, want ErrHost`, err)
	}
	for name, f := range map[string]func(){
		"String":      func() { _ = u.String() },
		"Redacted":    func() { _ = u.Redacted() },
		"MarshalText": func() { _, _ = u.MarshalText() },
		"AppendText":  func() { _, _ = u.AppendText(nil) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("nil.%s() did not panic: a value method needs a non-nil pointer", name)
				}
			}()
			f()
		}()
	}
}

// skip reads four bytes a step: a byte outside the class at any offset
// of a step stops it where a byte a step stops.
func TestSkipMatchesAByteAStep(t *testing.T) {
	for _, stop := range []string{"/", ";", "%", "#", "?", " ", "\x00", "é", "~"} {
		for k := 0; k <= 9; k++ {
			checkSkip(t, "abcdefghi"[:k]+stop+"abcdefghi"[k:])
		}
	}
}

// checkSkip checks skip against a byte a step, from every offset of s,
// for the path class of every grammar.
func checkSkip(t *testing.T, s string) {
	t.Helper()
	for _, g := range allGrammars {
		m := g.rules().seg
		for i := 0; i <= len(s); i++ {
			want := i
			for want < len(s) && chars[s[want]]&m != 0 {
				want++
			}
			if got := skip(s, i, m); got != want {
				t.Fatalf("%v: skip(%q, %d) = %d; a byte a step stops at %d", g, s, i, got, want)
			}
		}
	}
}

// ftpPrefix, the fast path's constant, is the scheme that every
// grammar reads first (rules.go's scheme table): the fast path and the
// table cannot disagree.
func TestFTPPrefixIsEveryGrammarsFirstScheme(t *testing.T) {
	for _, g := range allGrammars {
		if got := g.rules().schemes[0].name + "://"; got != ftpPrefix {
			t.Errorf("%v reads %q first; the fast path reads %q", g, got, ftpPrefix)
		}
	}
}
