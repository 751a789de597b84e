package ftpurl

import (
	"errors"
	"net/url"
	"reflect"
	"strings"
	"testing"
)

// FuzzInterop checks the invariants of DESIGN.md "Working with the rest
// of Go" for every input, in every grammar that parses it:
//   - FromURL(u.URL()) is u, part by part, and u.URL() is what
//     url.Parse(u.String()) gives;
//   - MarshalText and AppendText write String, and UnmarshalText reads
//     it back to u;
//   - Equal is String equality, between u and its re-parse, Parse of
//     case and escape variants of the input, and hand-made variants;
//   - ResolveReference never panics, returns an *Error with one
//     sentinel or a URL that Parse reads back, with no dot segments
//     left (RFC 3986 §5.2.4); resolving "" gives the base without its
//     fragment, and resolving an absolute URL without dot segments
//     gives that URL (§5.2.2).
func FuzzInterop(f *testing.F) {
	for _, s := range interopURLs {
		f.Add(s)
	}
	for _, s := range []string{"g", "../g", "//g/./x", "?y", "#s", "g;type=d", "%2E%2E/%2F", "http:g", "ftp:g", "g%", "a b/ü"} {
		f.Add(s)
	}
	base := MustParse(rfcBase)
	f.Fuzz(func(t *testing.T, s string) {
		checkResolveInvariants(t, base, s)
		for _, g := range []Grammar{Lenient, RFC1738, RFC2396, RFC3986} {
			u, err := g.Parse(s)
			if err != nil {
				continue
			}
			checkNetURLInvariants(t, u)
			checkTextInvariants(t, u)
			checkEqualInvariants(t, u, s)
			checkResolveOfParsed(t, u)
		}
	})
}

func checkResolveInvariants(t *testing.T, base *URL, ref string) {
	t.Helper()
	r, err := base.ResolveReference(ref)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || r != nil {
			t.Fatalf("ResolveReference(%q) = %v, %#v; want nil and an *Error", ref, r, err)
		}
		n := 0
		for _, s := range sentinels { // fuzz_test.go
			if e.Err == s {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("ResolveReference(%q): Err %v is not exactly one sentinel", ref, e.Err)
		}
		return
	}
	back, err := Parse(r.String())
	if err != nil || !back.Equal(r) {
		t.Fatalf("ResolveReference(%q) = %q, which parses back to %v, %v", ref, r, back, err)
	}
	for _, d := range r.Dirs {
		if d == "." || d == ".." {
			t.Fatalf("ResolveReference(%q) = %q keeps a dot segment", ref, r)
		}
	}
	if (r.Name == "." || r.Name == "..") && r.Type == TypeNone {
		t.Fatalf("ResolveReference(%q) = %q ends in a dot segment", ref, r)
	}
}

func checkNetURLInvariants(t *testing.T, u *URL) {
	t.Helper()
	v := u.URL()
	got, err := FromURL(v)
	if err != nil {
		t.Fatalf("FromURL(%q.URL()): %v", u, err)
	}
	if d := diffParts(u, got); d != "" || !got.Equal(u) {
		t.Fatalf("FromURL(%q.URL()) differs (-want +got):\n%s", u, d)
	}
	want, err := url.Parse(u.String())
	if err != nil {
		t.Fatalf("url.Parse(%q): %v", u, err)
	}
	if !reflect.DeepEqual(v, want) {
		t.Fatalf("%q.URL() = %#v\nwant url.Parse = %#v", u, v, want)
	}
}

func checkTextInvariants(t *testing.T, u *URL) {
	t.Helper()
	b, err := u.MarshalText()
	if err != nil || string(b) != u.String() {
		t.Fatalf("%q.MarshalText() = %q, %v", u, b, err)
	}
	if b, _ := u.AppendText([]byte("x")); string(b) != "x"+u.String() {
		t.Fatalf("%q.AppendText(x) = %q", u, b)
	}
	var back URL
	if err := back.UnmarshalText(b); err != nil {
		t.Fatalf("UnmarshalText(%q): %v", b, err)
	}
	if d := diffParts(u, &back); d != "" || !back.Equal(u) {
		t.Fatalf("UnmarshalText(%q) differs (-want +got):\n%s", b, d)
	}
}

func checkEqualInvariants(t *testing.T, u *URL, s string) {
	t.Helper()
	others := equalVariants(u)
	re := MustParse(u.String())
	if !u.Equal(re) {
		t.Fatalf("%q is not Equal to Parse of its String", u)
	}
	others = append(others, re)
	for _, variant := range []string{strings.ToUpper(s), strings.ToLower(s), flipEscapeCase(s)} {
		if v, err := Parse(variant); err == nil {
			others = append(others, v)
		}
	}
	for _, v := range others {
		if got, want := u.Equal(v), u.String() == v.String(); got != want || v.Equal(u) != got {
			t.Fatalf("(%#v).Equal(%#v) = %v, but Strings %q and %q equal: %v", u, v, got, u, v, want)
		}
	}
}

// flipEscapeCase returns s with the case of the hex digits of every
// escape flipped.
func flipEscapeCase(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && ishex(b[i+1]) && ishex(b[i+2]) {
			for _, j := range []int{i + 1, i + 2} {
				switch c := b[j]; {
				case 'a' <= c && c <= 'f':
					b[j] = c - 'a' + 'A'
				case 'A' <= c && c <= 'F':
					b[j] = c - 'A' + 'a'
				}
			}
			i += 2
		}
	}
	return string(b)
}

func checkResolveOfParsed(t *testing.T, u *URL) {
	t.Helper()
	// RFC 3986 §5.2.2: an empty reference is the base without its
	// fragment.
	got, err := u.ResolveReference("")
	want := *u
	want.Fragment = ""
	if err != nil || !got.Equal(&want) {
		t.Fatalf(`%q.ResolveReference("") = %v, %v; want %q`, u, got, err, &want)
	}
	// An absolute ftp URL is its own target, but for dot segments.
	for _, d := range append(u.Dirs, u.Name) {
		if d == "." || d == ".." {
			return
		}
	}
	got, err = MustParse("ftp://other.example/x/y").ResolveReference(u.String())
	if err != nil || !got.Equal(u) {
		t.Fatalf("ResolveReference(%q) = %v, %v; want the same URL", u, got, err)
	}
}
