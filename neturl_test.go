package ftpurl

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// interopURLs are Lenient inputs that exercise every part a conversion
// can lose: userinfo with delimiters, port 21, IPv6, IDN hosts, "%2F",
// ";" as data and as ";type=", dot segments, raw spaces and Unicode,
// Latin-1 octets, query and fragment escapes.
var interopURLs = []string{
	"ftp://host/",
	"ftp://@host/",
	"ftp://foo:@host/",
	"ftp://us%3Aer:p%40ss:w%2Fx@host/",
	"ftp://u%20n:p!$&'()*+,;=w@host/",
	"ftp://u:p@h:p@host/x", // the last "@" ends the userinfo
	"ftp://HOST.Example.:021/",
	"ftp://h:2121/a/b/c",
	"ftp://h/%2Fetc/motd",
	"ftp://h//a//b/",
	"ftp://h/a%2Fb/c%3Bd;type=i",
	"ftp://h/dir/;type=d",
	"ftp://h/file;TYPE=A",
	"ftp://h/a;b/c;d",
	"ftp://h/a;type=i/b",
	"ftp://h/%E9t%E9.txt",
	"ftp://h/my file.txt",
	"ftp://h/é/日本.txt",
	"ftp://h/a:b@c/~user/x",
	"ftp://h/./../a/..",
	"ftp://h/%2E%2E/%2e",
	"ftp://h/?a=b&c=%2f#frag%2Fx",
	"ftp://h/x?q%41#%41",
	"ftp://h/x?a b#c d",
	"ftp://h/x#a/b?c",
	"ftp://h/x?#",
	"ftp://h/x?%00#%0d%0a",
	"ftp://[2001:DB8::1]/",
	"ftp://[::ffff:1.2.3.4]:2121/x",
	"ftp://192.0.2.1:21/x",
	"ftp://Bücher.example/x",
	"ftp://xn--bcher-kva.example/x",
	"ftp://b%C3%BCcher.example/",
	"ftp://h_1.example/",
	"ftp://h/%25/%3F/%23/%5C",
	`ftp://u:p@h/\x`,
	"ftp://h/a\"b<c>d{e}|^`[f]",
	"FTP://H/Ä?ö#ü",
	// ftps (2011 draft §5): its default port is 990, not 21.
	"ftps://u:p@h/a%2Fb/c;type=i",
	"FTPS://h:990/x",
	"ftps://h:21/x",
	"ftps://[2001:db8::1]:2121/",
}

// interopCorpus returns interopURLs and the URLs of the mixed corpus
// (testdata/mixed.txt), which come from the wild.
func interopCorpus(t *testing.T) []string {
	t.Helper()
	return append(append([]string(nil), interopURLs...), readCorpus(t, "testdata/mixed.txt")...)
}

// parsedCorpus returns every URL of interopCorpus that one of the
// grammars parses, as that grammar reads it.
func parsedCorpus(t *testing.T) []*URL {
	t.Helper()
	var us []*URL
	for _, s := range interopCorpus(t) {
		for _, g := range []Grammar{Lenient, RFC1738, RFC2396, RFC3986} {
			if u, err := g.Parse(s); err == nil {
				us = append(us, u)
			}
		}
	}
	for _, s := range interopURLs {
		if _, err := Parse(s); err != nil {
			t.Fatalf("interopURLs: %v", err)
		}
	}
	return us
}

// FromURL's doc: FromURL(u.URL()) is u, for
// every URL the package accepts, in every grammar: part by part (Port
// 21 equal to 0, as URL.String's doc says) and by Equal.
func TestFromURLOfURLIsLossless(t *testing.T) {
	for _, u := range parsedCorpus(t) {
		got, err := FromURL(u.URL())
		if err != nil {
			t.Errorf("FromURL(%q.URL()): %v", u, err)
			continue
		}
		if d := diffParts(u, got); d != "" {
			t.Errorf("FromURL(%q.URL()) differs (-want +got):\n%s", u, d)
		}
		if !got.Equal(u) {
			t.Errorf("FromURL(%q.URL()) = %q, not Equal", u, got)
		}
	}
}

// URL is what net/url reads from String: reflect.DeepEqual to
// url.Parse(u.String()), so RawPath and RawFragment are set exactly
// where url.Parse sets them.
func TestURLIsNetURLParseOfString(t *testing.T) {
	for _, u := range parsedCorpus(t) {
		want, err := url.Parse(u.String())
		if err != nil {
			t.Errorf("url.Parse(%q): %v", u, err)
			continue
		}
		if got := u.URL(); !reflect.DeepEqual(got, want) {
			t.Errorf("%q.URL() = %#v\nwant url.Parse = %#v", u, got, want)
		}
	}
}

// The fields of URL, one by one, for the parts net/url stores
// differently: decoded Path with the escaped RawPath where "%2F" or
// another escape needs it (RFC 1738 §3.2.2), ";type=" in the path, an
// IPv6 host in brackets with its port, decoded userinfo, the escaped
// RawQuery, and Fragment decoded with RawFragment escaped.
func TestURLKeepsEscapesInRawPathAndRawFragment(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want url.URL
	}{
		{"ftp://h/a%2Fb/c;type=i", url.URL{Scheme: "ftp", Host: "h", Path: "/a/b/c;type=i", RawPath: "/a%2Fb/c;type=i"}},
		{"ftp://h/a;b", url.URL{Scheme: "ftp", Host: "h", Path: "/a;b", RawPath: "/a%3Bb"}},
		{"ftp://h/my file", url.URL{Scheme: "ftp", Host: "h", Path: "/my file"}},
		{"ftp://h/%E9", url.URL{Scheme: "ftp", Host: "h", Path: "/\xe9"}},
		{"ftp://H:21", url.URL{Scheme: "ftp", Host: "h", Path: "/"}},
		{"ftp://[2001:DB8:0::1]:2121/", url.URL{Scheme: "ftp", Host: "[2001:db8::1]:2121", Path: "/"}},
		{"ftp://us%3Aer:p%40ss:w@h/", url.URL{Scheme: "ftp", User: url.UserPassword("us:er", "p@ss:w"), Host: "h", Path: "/"}},
		{"ftp://anonymous@h/", url.URL{Scheme: "ftp", User: url.User("anonymous"), Host: "h", Path: "/"}},
		{"ftp://h/?a=%2f&b", url.URL{Scheme: "ftp", Host: "h", Path: "/", RawQuery: "a=%2F&b"}},
		{"ftp://h/#a%2Fb", url.URL{Scheme: "ftp", Host: "h", Path: "/", Fragment: "a/b", RawFragment: "a%2Fb"}},
		{"ftp://h/#a%20b", url.URL{Scheme: "ftp", Host: "h", Path: "/", Fragment: "a b"}},
		{"ftp://Bücher.example/", url.URL{Scheme: "ftp", Host: "xn--bcher-kva.example", Path: "/"}},
	} {
		got := MustParse(tt.in).URL()
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%q.URL() = %#v\nwant %#v", tt.in, *got, tt.want)
		}
	}
	u := MustParse("ftp://[::1]:2121/")
	if v := u.URL(); v.Hostname() != "::1" || v.Port() != "2121" {
		t.Errorf("URL() Hostname, Port = %q, %q; want ::1, 2121", v.Hostname(), v.Port())
	}
}

// URL sets a password with url.UserPassword, even an empty one
// (RFC 1738 §3.2.1: "ftp://u:@h/" has a password), and none with
// url.User, so net/url's Redacted hides exactly what ftpurl's Redacted
// hides (Error's doc), and both write the same
// string.
func TestURLRedactedAgreesWithNetURLRedacted(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"ftp://us%3Aer:p%40ss:w@h/", "ftp://us%3Aer:xxxxx@h/"},
		{"ftp://alice:s3cret@[2001:db8::1]:2121/a%2Fb;type=i", "ftp://alice:xxxxx@[2001:db8::1]:2121/a%2Fb;type=i"},
		{"ftp://u:@h/f", "ftp://u:xxxxx@h/f"},
		{"ftp://u@h/f", "ftp://u@h/f"},
		{"ftp://h/f", "ftp://h/f"},
	} {
		u := MustParse(tt.in)
		if got := u.Redacted(); got != tt.want {
			t.Errorf("%q.Redacted() = %q, want %q", tt.in, got, tt.want)
		}
		if got := u.URL().Redacted(); got != tt.want {
			t.Errorf("%q.URL().Redacted() = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// URL of a nil *URL is nil, and of the zero URL an empty url.URL, whose
// String is "" as the zero URL's is (URL.String's doc).
func TestURLOfNilAndZero(t *testing.T) {
	var n *URL
	if v := n.URL(); v != nil {
		t.Errorf("(*URL)(nil).URL() = %#v, want nil", v)
	}
	if v := new(URL).URL(); v == nil || *v != (url.URL{}) {
		t.Errorf("URL{}.URL() = %#v, want &url.URL{}", v)
	}
}

// FromURL reads what url.Parse reads from an ftp URL without losing
// what net/url keeps only in RawPath and RawFragment: the result is
// what Parse gives for the same string.
func TestFromURLOfNetURLParse(t *testing.T) {
	for _, s := range []string{
		"ftp://h/a%2Fb;type=i",
		"ftp://h/%2Fetc/motd",
		"FTP://User:P%40ss@Host.Example:2121/x/y;TYPE=D?q=%2f#f%2Fx",
		"ftp://h/a;b/c",
		"ftp://h/%41%2e%2E/",
		"ftp://[2001:db8::1]/x",
		"ftp://h",
		"ftp://h/#%E9",
	} {
		v, err := url.Parse(s)
		if err != nil {
			t.Fatalf("url.Parse(%q): %v", s, err)
		}
		got, err := FromURL(v)
		if err != nil {
			t.Errorf("FromURL(url.Parse(%q)): %v", s, err)
			continue
		}
		want := MustParse(s)
		if d := diffParts(want, got); d != "" {
			t.Errorf("FromURL(url.Parse(%q)) differs from Parse (-want +got):\n%s", s, d)
		}
	}
}

// A url.URL built field by field: FromURL escapes what needs it (as
// url.URL.String does), reads an unescaped ";type=" in Path as the
// typecode, and normalizes the host.
func TestFromURLHandBuiltNetURL(t *testing.T) {
	v := &url.URL{
		Scheme: "FTP",
		User:   url.UserPassword("a:b", "c@d/e"),
		Host:   "Bücher.Example:2121",
		Path:   "/pub/a b/c;type=d",
	}
	got, err := FromURL(v)
	if err != nil {
		t.Fatal(err)
	}
	want := &URL{User: UserPassword("a:b", "c@d/e"), Host: "xn--bcher-kva.example", Port: 2121,
		Dirs: []string{"pub", "a b"}, Name: "c", Type: TypeDirectory}
	if d := diffParts(want, got); d != "" {
		t.Errorf("FromURL(hand-built) differs (-want +got):\n%s", d)
	}
	if s := got.String(); s != "ftp://a%3Ab:c%40d%2Fe@xn--bcher-kva.example:2121/pub/a%20b/c;type=d" {
		t.Errorf("FromURL(hand-built).String() = %q", s)
	}
}

// FromURL and URL carry the scheme both ways: ftps (2011 draft §5) in
// any case, its default port 990 left out of Host as String leaves it
// out, and 21 kept.
func TestFromURLAndURLCarryTheScheme(t *testing.T) {
	for _, tt := range []struct {
		v          *url.URL
		str, vHost string
	}{
		{&url.URL{Scheme: "ftps", User: url.UserPassword("u", "p"), Host: "h:990", Path: "/a/b"}, "ftps://u:p@h/a/b", "h"},
		{&url.URL{Scheme: "FTPS", Host: "h:21", Path: "/a/b", RawPath: "/a%2Fb"}, "ftps://h:21/a%2Fb", "h:21"},
		{&url.URL{Scheme: "ftp", Host: "h:990"}, "ftp://h:990/", "h:990"},
	} {
		u, err := FromURL(tt.v)
		if err != nil || u.String() != tt.str {
			t.Errorf("FromURL(%v) = %v, %v; want %s", tt.v, u, err, tt.str)
			continue
		}
		if back := u.URL(); back.Scheme != strings.ToLower(tt.v.Scheme) || back.Host != tt.vHost {
			t.Errorf("%q.URL() = scheme %q host %q; want %q %q", u, back.Scheme, back.Host, strings.ToLower(tt.v.Scheme), tt.vHost)
		}
	}
}

// FromURL refuses a URL whose scheme is not ftp or ftps with ErrScheme
// (FromURL's doc), before looking at anything
// else, and hides a password in the error. (A nil *url.URL is a
// programming error, which wraps no sentinel.)
func TestFromURLRefusesOtherSchemes(t *testing.T) {
	for _, v := range []*url.URL{
		{},
		{Scheme: "http", Host: "h", Path: "/x"},
		{Scheme: "sftp", Host: "h"},
		{Scheme: "ftpes", Host: "h"},
		{Scheme: "http", User: url.UserPassword("u", "secret"), Host: "h", Path: "/a%0D"},
		{Host: "h", Path: "/x"},
	} {
		u, err := FromURL(v)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrScheme) || u != nil {
			t.Errorf("FromURL(%v) = %v, %v; want nil, ErrScheme", v, u, err)
			continue
		}
		if e.Op != "parse" || strings.Contains(err.Error(), "secret") {
			t.Errorf("FromURL(%v) error %q: want Op parse and no password", v, err)
		}
	}
}

// An ftp url.URL that ftpurl refuses gives Parse's *Error and sentinel
// (the sentinels' doc): FromURL checks as much as Parse does.
func TestFromURLRefusesWhatParseRefuses(t *testing.T) {
	for _, tt := range []struct {
		v    url.URL
		want error
	}{
		{url.URL{Scheme: "ftp", Host: "h", Path: "/a\r\nDELE x"}, ErrControl},
		{url.URL{Scheme: "ftp", User: url.User("a\nb"), Host: "h"}, ErrControl},
		{url.URL{Scheme: "ftp", Host: "h", Path: "/x;type=ab"}, ErrTypecode},
		{url.URL{Scheme: "ftp", Opaque: "x"}, ErrScheme},
		{url.URL{Scheme: "ftp", Path: "/x"}, ErrHost},
		{url.URL{Scheme: "ftp", Host: "[fe80::1%eth0]"}, ErrHost},
		{url.URL{Scheme: "ftp", Host: "010.0.0.1"}, ErrHost},
		{url.URL{Scheme: "ftp", Host: "h:0"}, ErrPort},
		{url.URL{Scheme: "ftp", Host: "h:65536"}, ErrPort},
	} {
		u, err := FromURL(&tt.v)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tt.want) || u != nil {
			t.Errorf("FromURL(%#v) = %v, %v; want %v", tt.v, u, err, tt.want)
		}
	}
}
