package ftpurl

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks, for every grammar, the invariants that DESIGN.md
// ("String: the normalized form", "The API", "Grammars") states for
// every input: Parse never panics; an error is an *Error with one
// sentinel and a redacted URL; a parsed URL has no control character in
// any part that reaches FTP; String is ASCII, idempotent, and parses
// back to the same URL; Redacted is String with the password replaced
// by "xxxxx"; and Lenient accepts whatever a strict grammar accepts,
// with the same parts (except RFC 1738 strings holding "?", which
// Lenient reads as a query).
func FuzzParse(f *testing.F) {
	for _, s := range fuzzParseSeeds {
		f.Add(s)
	}
	for _, ex := range seedExamples {
		f.Add(ex.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var parsed [4]*URL
		for _, g := range allGrammars {
			parsed[g] = checkParseInvariants(t, g, s)
		}
		checkInsertedPasswordNeverQuoted(t, s)
		for _, g := range []Grammar{RFC1738, RFC2396, RFC3986} {
			u := parsed[g]
			if u == nil || g == RFC1738 && strings.Contains(s, "?") {
				continue
			}
			l := parsed[Lenient]
			if l == nil {
				_, err := Lenient.Parse(s)
				t.Fatalf("%v accepts %q but Lenient refuses it: %v", g, s, err)
			}
			if diff := diffParts(u, l); diff != "" {
				t.Fatalf("%q: Lenient parts differ from %v's (-%v +lenient):\n%s", s, g, g, diff)
			}
		}
	})
}

// fuzzParseSeeds are the shapes the grammars care about, good and bad;
// testdata/fuzz/FuzzParse holds more.
var fuzzParseSeeds = []string{
	"ftp://user:pass@host.example.com:2121/dir/sub/file.txt;type=i?q=1#frag",
	"ftp://@h/", "ftp://:@h/", "ftp://a:b:c@h/", "ftp://a@b:c@d@h/",
	"ftp://[2001:DB8:0:0:0:0:0:1]:21/", "ftp://[v1.x]/", "ftp://[fe80::1%25eth0]/",
	"ftp://ĉat.example.com/weather/☃/snow.txt", "ftp://%C4%A5ost.example.com/",
	"ftp://xn--bcher-kva.example/", "ftp://xn--a.example/",
	"ftp://010.1.1.1/", "ftp://1.2.3.256/", "ftp://host.123/", "ftp://0x7f.1/",
	"ftp://h:021/", "ftp://h:0/", "ftp://h:65536/", "ftp://h:/",
	"ftp://h/a%2Fb/%2e%2e/c%3Bd", "ftp://h/a;b/c;type=d", "ftp://h/f;TYPE=A", "ftp://h/f;type=ab",
	"ftp://h/a\\b", "ftp://h/a b", "ftp://h/a\u202eb", "ftp://h/\xff", "ftp://h/%E9t%E9",
	"ftp://h/a%0D%0ARETR x", "ftp://h/%", "ftp://h/%4", "ftp://h/a?b?c#d#e",
	"FTP://H.EXAMPLE./", "ftp://my_host/", "http://h/", "ftp:h", "",
}

var sentinels = []error{ErrScheme, ErrUserinfo, ErrHost, ErrPort, ErrEscape, ErrPath, ErrTypecode, ErrControl}

// checkParseInvariants parses s with g, checks the invariants of one
// grammar, and returns the URL (nil on error).
func checkParseInvariants(t *testing.T, g Grammar, s string) *URL {
	t.Helper()
	u, err, ok := tryParse(t, g, s)
	if !ok {
		t.FailNow()
	}
	if err != nil {
		checkParseError(t, g, s, u, err)
		return nil
	}

	// DESIGN.md "Grammars": no user, password, host or path segment
	// holds a control character, decoded.
	pw, hasPW := u.User.Password()
	for _, part := range append([]string{u.User.Username(), pw, u.Host, u.Name}, u.Dirs...) {
		if i := strings.IndexFunc(part, func(r rune) bool { return r < 0x20 || r == 0x7F }); i >= 0 {
			t.Fatalf("%v.Parse(%q): part %q holds a control character", g, s, part)
		}
	}
	// DESIGN.md "The API": the host is lower-case ASCII, an IPv6 host in
	// RFC 5952 form without brackets; Type is 0 or a lower-case letter.
	if u.Host == "" || u.Host != strings.ToLower(u.Host) || !isASCII(u.Host) {
		t.Fatalf("%v.Parse(%q).Host = %q: want non-empty lower-case ASCII", g, s, u.Host)
	}
	if strings.Contains(u.Host, ":") {
		a, err := netip.ParseAddr(u.Host)
		if err != nil || !a.Is6() || a.String() != u.Host {
			t.Fatalf("%v.Parse(%q).Host = %q: not an IPv6 address in RFC 5952 form", g, s, u.Host)
		}
	}
	if u.Type != 0 && (u.Type < 'a' || u.Type > 'z') {
		t.Fatalf("%v.Parse(%q).Type = %q: want a lower-case letter", g, s, u.Type)
	}

	// String is ASCII (a URI: printable, no space) and idempotent, and
	// Parse(u.String()) gives an equal URL.
	str := u.String()
	for i := 0; i < len(str); i++ {
		if c := str[i]; c <= ' ' || c >= 0x7F {
			t.Fatalf("%v.Parse(%q).String() = %q: byte %#02x is not a URI character", g, s, str, c)
		}
	}
	back, err := Parse(str)
	if err != nil {
		t.Fatalf("%v.Parse(%q).String() = %q, which Parse refuses: %v", g, s, str, err)
	}
	if diff := diffParts(u, back); diff != "" {
		t.Fatalf("%v.Parse(%q) and Parse(%q) differ (-first +second):\n%s", g, s, str, diff)
	}
	if again := back.String(); again != str {
		t.Fatalf("String is not idempotent: %v.Parse(%q) gives %q, then %q", g, s, str, again)
	}
	// String is a URI of the RFC3986 grammar ("Parse re-encodes all of
	// this, so String is a URI"), unless the user name is empty, which
	// the 2011 draft's user = 1*usp-char cannot write.
	if u.User == nil || u.User.Username() != "" {
		v, err := RFC3986.Parse(str)
		if err != nil {
			t.Fatalf("%v.Parse(%q).String() = %q, which RFC3986 refuses: %v", g, s, str, err)
		}
		if diff := diffParts(u, v); diff != "" {
			t.Fatalf("%v.Parse(%q) and RFC3986.Parse(%q) differ (-first +second):\n%s", g, s, str, diff)
		}
	}

	// Redacted is exactly String with the password replaced by "xxxxx".
	red := u.Redacted()
	want := str
	if hasPW {
		v := *u
		v.User = UserPassword(u.User.Username(), "xxxxx")
		want = v.String()
	}
	if red != want {
		t.Fatalf("%v.Parse(%q).Redacted() = %q, want %q", g, s, red, want)
	}
	if hasPW {
		r, err := Parse(red)
		if err != nil {
			t.Fatalf("Parse(Redacted() = %q): %v", red, err)
		}
		if p, _ := r.User.Password(); p != "xxxxx" {
			t.Fatalf("%v.Parse(%q).Redacted() = %q holds password %q", g, s, red, p)
		}
	}
	return u
}

// checkParseError checks an error of g.Parse(s): an *Error and no URL,
// Op "parse", exactly one sentinel, an offset inside the input, and the
// input redacted as DESIGN.md "The API" says.
func checkParseError(t *testing.T, g Grammar, s string, u *URL, err error) {
	t.Helper()
	if u != nil {
		t.Fatalf("%v.Parse(%q) returned a URL and an error", g, s)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%v.Parse(%q) error %v is a %T, want *Error", g, s, err, err)
	}
	if e.Op != "parse" {
		t.Fatalf("%v.Parse(%q).Op = %q", g, s, e.Op)
	}
	known := false
	for _, sentinel := range sentinels {
		known = known || e.Err == sentinel
	}
	if !known {
		t.Fatalf("%v.Parse(%q).Err = %v, not one of the sentinels", g, s, e.Err)
	}
	if e.Offset < 0 || e.Offset > len(s) {
		t.Fatalf("%v.Parse(%q).Offset = %d, outside the input", g, s, e.Offset)
	}
	if !utf8.ValidString(e.URL) && utf8.ValidString(s) {
		t.Fatalf("%v.Parse(%q).URL = %q is not UTF-8", g, s, e.URL)
	}
	// The rule as DESIGN.md states it applies when the input has "//".
	if i := strings.Index(s, "//"); i >= 0 {
		red := s
		rest := s[i+2:]
		if at := strings.LastIndexByte(rest, '@'); at >= 0 {
			if c := strings.IndexByte(rest[:at], ':'); c >= 0 {
				red = s[:i+2+c+1] + "xxxxx" + s[i+2+at:]
			}
		}
		if len(red) <= 256 {
			if e.URL != red {
				t.Fatalf("%v.Parse(%q).URL = %q, want %q", g, s, e.URL, red)
			}
		} else if cut, ok := strings.CutSuffix(e.URL, "…"); !ok || len(cut) > 256 || len(cut) < 253 || !strings.HasPrefix(red, cut) {
			t.Fatalf("%v.Parse(%q).URL = %q, want the first 256 bytes of %q and \"…\"", g, s, e.URL, red)
		}
	}
}

// checkInsertedPasswordNeverQuoted inserts ":ZQZQ@" into s after its
// "//", which puts "ZQZQ" inside the range that Error.URL hides, and
// checks that no grammar's message quotes it (DESIGN.md "The API").
func checkInsertedPasswordNeverQuoted(t *testing.T, s string) {
	t.Helper()
	i := strings.Index(s, "//")
	if i < 0 || strings.ContainsAny(s, "ZQ") {
		return
	}
	for _, p := range []int{i + 2, len(s), i + 2 + (len(s)-i-2)/2} {
		in := s[:p] + ":ZQZQ@" + s[p:]
		for _, g := range allGrammars {
			_, err, ok := tryParse(t, g, in)
			if !ok {
				t.FailNow()
			}
			if err != nil && strings.ContainsAny(err.Error(), "ZQ") {
				t.Fatalf("%v.Parse(%q): message %q quotes the redacted range", g, in, err)
			}
		}
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
