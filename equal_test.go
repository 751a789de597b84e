package ftpurl

import (
	"errors"
	"strings"
	"testing"
)

// checkEqual checks that a.Equal(b) and b.Equal(a) are both want.
func checkEqual(t *testing.T, a, b *URL, want bool) {
	t.Helper()
	if got := a.Equal(b); got != want {
		t.Errorf("(%#v).Equal(%#v) = %v, want %v", a, b, got, want)
	}
	if got := b.Equal(a); got != want {
		t.Errorf("(%#v).Equal(%#v) = %v, want %v (Equal must be symmetric)", b, a, got, want)
	}
}

// Equal's doc: equal after normalization.
// Each pair is parsed; want says whether they are the same URL.
func TestEqualAfterNormalization(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
		rule string
	}{
		{"ftp://h/", "ftp://h:21/", true, "RFC 1738 §3.2: 21 is the default port"},
		{"ftp://h/", "ftp://h:021", true, "Grammar's doc: leading zeros allowed; a missing path is /"},
		{"ftp://h/", "ftp://h:2121/", false, "another port"},
		{"ftp://HOST.Example/", "ftp://host.example/", true, "RFC 3986 §6.2.2.1: the host is case-insensitive"},
		{"ftp://Bücher.example/", "ftp://xn--bcher-kva.example/", true, "URL's doc: hosts in A-labels"},
		{"ftp://[2001:DB8:0::1]/", "ftp://[2001:db8::1]/", true, "RFC 5952 form of IPv6"},
		{"ftp://h/%7e%41", "ftp://h/~A", true, "RFC 3986 §6.2.2.2: path segments compare decoded"},
		{"ftp://h/%2fetc", "ftp://h/%2Fetc", true, "RFC 3986 §6.2.2.1: escape case"},
		{"ftp://h/a%2Fb", "ftp://h/a/b", false, "RFC 1738 §3.2.2: %2F is not a /"},
		{"ftp://h/%2Fetc", "ftp://h//etc", false, "RFC 1738 §3.2.2: %2F is not a null segment"},
		{"ftp://h/a;type=I", "ftp://h/a;TYPE=i", true, "RFC 1738 §3.2.2: the typecode is case-insensitive"},
		{"ftp://h/a;type=i", "ftp://h/a", false, "a typecode is part of the URL"},
		{"ftp://h/a;type=i", "ftp://h/a%3Btype=i", false, "Typecode's doc: only a raw ;type= is the typecode"},
		{"ftp://h/?%7e", "ftp://h/?%7E", true, "URL's doc: query kept escaped, hex upper-case"},
		{"ftp://h/?%7E", "ftp://h/?~", false, "the query is compared escaped, as String writes it"},
		{"ftp://h/?a b", "ftp://h/?a%20b", true, "Lenient encodes a raw space"},
		{"ftp://h/#%c3%a9", "ftp://h/#é", true, "Lenient encodes Unicode as UTF-8"},
		{"ftp://h/x?", "ftp://h/x", true, "an empty query is no query in String"},
		{"ftp://h/x?q", "ftp://h/x#q", false, "query is not fragment"},
		{"ftp://@h/", "ftp://h/", false, "RFC 1738 §3.2.1: an empty user is not no userinfo"},
		{"ftp://u:@h/", "ftp://u@h/", false, "RFC 1738 §3.2.1: an empty password is not no password"},
		{"ftp://u:p@h/", "ftp://u:P@h/", false, "passwords are case-sensitive"},
		{"ftp://U@h/", "ftp://u@h/", false, "user names are case-sensitive"},
		{"ftp://u%3A@h/", "ftp://u:@h/", false, "an encoded : is part of the user"},
		{"ftp://h/a/../b", "ftp://h/b", false, "URL.String's doc: dot segments are kept"},
		{"ftp://h/%2E%2E/b", "ftp://h/../b", true, "%2E is ."},
		{"ftp://h/a/", "ftp://h/a", false, "a directory listing is not a file"},
		{"ftps://h/", "ftps://h:990/", true, "990 is ftps' default port (DefaultFTPSPort)"},
		{"FTPS://h/", "ftps://h/", true, "RFC 3986 §6.2.2.1: the scheme is case-insensitive"},
		{"ftps://h/", "ftp://h/", false, "ftps (2011 draft §5) is not ftp"},
		{"ftps://h:21/", "ftp://h:21/", false, "ftps is not ftp on any port"},
		{"ftps://h:21/", "ftps://h/", false, "21 is not ftps' default port"},
		{"ftp://h:990/", "ftp://h/", false, "990 is not ftp's default port"},
	} {
		a, b := MustParse(tt.a), MustParse(tt.b)
		if a.Equal(b) != tt.want || b.Equal(a) != tt.want {
			t.Errorf("%q Equal %q = %v, want %v (%s)", tt.a, tt.b, a.Equal(b), tt.want, tt.rule)
		}
		if same := a.String() == b.String(); same != tt.want {
			t.Errorf("%q and %q: String equal = %v, but Equal should be %v", tt.a, tt.b, same, tt.want)
		}
	}
}

// A URL built by hand is compared as String normalizes it (URL.String's
// doc: "String also normalizes a URL value built by hand").
func TestEqualNormalizesHandBuiltURLs(t *testing.T) {
	parsed := MustParse("ftp://u:p@host.example/a/b;type=i?x=%7E#f%20g")
	checkEqual(t, parsed, &URL{
		User:     UserPassword("u", "p"),
		Host:     "HOST.Example",
		Port:     21,
		Dirs:     []string{"a"},
		Name:     "b",
		Type:     'I',
		RawQuery: "x=%7e",
		Fragment: "f g",
	}, true)
	checkEqual(t, MustParse("ftp://[::1]/"), &URL{Host: "::1"}, true)
	checkEqual(t, MustParse("ftp://[::1]/"), &URL{Host: "[::1]"}, true)
	checkEqual(t, MustParse("ftp://xn--bcher-kva.example/"), &URL{Host: "Bücher.example"}, true)
	checkEqual(t, &URL{Host: "h", Dirs: nil}, &URL{Host: "h", Dirs: []string{}}, true)
	checkEqual(t, &URL{Host: "h", Type: '1'}, &URL{Host: "h"}, true) // String leaves out a Type that is not a letter
	checkEqual(t, &URL{Host: "h", User: User("")}, &URL{Host: "h"}, false)
	checkEqual(t, &URL{Host: "h", Name: "a/b"}, &URL{Host: "h", Dirs: []string{"a"}, Name: "b"}, false)
	// Scheme: "" means ftp; case does not matter; a scheme ftpurl does
	// not read is compared as String writes it, and has no default port.
	checkEqual(t, &URL{Host: "h"}, &URL{Scheme: "ftp", Host: "h", Port: 21}, true)
	checkEqual(t, &URL{Scheme: "FTPS", Host: "h"}, MustParse("ftps://h:990/"), true)
	checkEqual(t, &URL{Scheme: "ftps", Host: "h"}, &URL{Host: "h"}, false)
	checkEqual(t, &URL{Scheme: "http", Host: "h"}, &URL{Scheme: "HTTP", Host: "h"}, true)
	checkEqual(t, &URL{Scheme: "http", Host: "h"}, &URL{Host: "h"}, false)
	checkEqual(t, &URL{Scheme: "sftp", Host: "h", Port: 21}, &URL{Scheme: "sftp", Host: "h"}, false)
}

// A URL built by hand with a Scheme that ftpurl does not read: String
// writes it lower-cased and escaped, so that it stays ASCII and Parse
// refuses it with ErrScheme, rather than turning it into an ftp URL;
// Address has nothing to dial.
func TestHandBuiltOtherSchemeIsNotFTP(t *testing.T) {
	for _, tt := range []struct {
		scheme string
		str    string
	}{
		{"SFTP", "sftp://h:21/f"},
		{"ftp://evil/", "ftp%3A%2F%2Fevil%2F://h:21/f"},
		{"ftp ", "ftp%20://h:21/f"},
	} {
		u := &URL{Scheme: tt.scheme, Host: "h", Port: 21, Name: "f"}
		if got := u.String(); got != tt.str {
			t.Errorf("String of Scheme %q = %q, want %q", tt.scheme, got, tt.str)
		}
		if _, err := Parse(u.String()); !errors.Is(err, ErrScheme) {
			t.Errorf("Parse(%q) = %v, want ErrScheme", u, err)
		}
		if a, p := u.Address(), u.PortOrDefault(); a != "" || p != 21 {
			t.Errorf("Scheme %q: Address %q, PortOrDefault %d; want \"\", 21", tt.scheme, a, p)
		}
	}
	if p := (&URL{Scheme: "sftp", Host: "h"}).PortOrDefault(); p != 0 {
		t.Errorf("PortOrDefault of sftp without a port = %d, want 0", p)
	}
}

// Equal on nil: a nil *URL is equal only to nil. It is not the zero
// URL, as a JSON null is not "" (see TestJSONRoundTripValueAndPointerFields).
// The zero URL is equal to itself, and to no URL whose String is not "".
func TestEqualNilAndZero(t *testing.T) {
	var n *URL
	if !n.Equal(nil) {
		t.Error("(*URL)(nil).Equal(nil) = false, want true")
	}
	checkEqual(t, n, &URL{}, false)
	checkEqual(t, n, MustParse("ftp://h/"), false)
	checkEqual(t, &URL{}, &URL{Dirs: []string{}}, true)
	checkEqual(t, &URL{}, &URL{Port: 21}, false) // String: "" and "ftp:///"
	u := MustParse("ftp://h/")
	if !u.Equal(u) {
		t.Error("u.Equal(u) = false")
	}
}

// Equal is String equality (the fuzz test FuzzInterop checks it on
// every input): within each URL of the corpus (every grammar), its
// re-parse and hand-made variants that normalize to it or not; across
// all pairs of interopURLs and their variants; and across neighbours in
// the corpus.
func TestEqualIsStringEquality(t *testing.T) {
	check := func(us []*URL) {
		t.Helper()
		for _, a := range us {
			for _, b := range us {
				if got, want := a.Equal(b), a.String() == b.String(); got != want {
					t.Fatalf("(%#v).Equal(%#v) = %v, but the Strings %q and %q equal: %v", a, b, got, a, b, want)
				}
			}
		}
	}
	corpus := parsedCorpus(t)
	for i, u := range corpus {
		check(append(equalVariants(u), u, MustParse(u.String())))
		check(corpus[i:min(i+8, len(corpus))])
	}
	var all []*URL
	for _, s := range interopURLs {
		u := MustParse(s)
		all = append(append(all, u), equalVariants(u)...)
	}
	check(all)
}

// equalVariants returns copies of u changed in ways String may or may
// not normalize away.
func equalVariants(u *URL) []*URL {
	var vs []*URL
	add := func(f func(v *URL)) {
		v := *u
		v.Dirs = append([]string(nil), u.Dirs...)
		f(&v)
		vs = append(vs, &v)
	}
	add(func(v *URL) { v.Host = strings.ToUpper(v.Host) })
	add(func(v *URL) { sc := schemeNamed(v.Scheme); v.Port = normalPort(sc, v.Port) ^ sc.port })
	add(func(v *URL) { v.Scheme = strings.ToUpper(v.Scheme) })
	add(func(v *URL) {
		if v.Scheme == "ftps" {
			v.Scheme = "ftp"
		} else {
			v.Scheme = "ftps"
		}
	})
	add(func(v *URL) {
		if v.Scheme == "ftp" {
			v.Scheme = "" // a hand-built URL: "" means ftp
		}
	})
	add(func(v *URL) {
		if l, ok := v.Type.lower(); ok {
			v.Type = l - 'a' + 'A'
		} else {
			v.Type = '1' // not a letter: String leaves it out
		}
	})
	add(func(v *URL) { v.RawQuery = strings.ToLower(v.RawQuery) })
	add(func(v *URL) { v.Fragment = strings.ToLower(v.Fragment) })
	add(func(v *URL) { v.Name = strings.ToUpper(v.Name) })
	add(func(v *URL) {
		if v.User == nil {
			v.User = User("")
		} else {
			v.User = nil
		}
	})
	add(func(v *URL) {
		if len(v.Dirs) > 0 {
			v.Dirs[len(v.Dirs)-1] += "/" + v.Name
			v.Name = ""
		}
	})
	return vs
}
