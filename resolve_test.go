package ftpurl

import (
	"errors"
	"strings"
	"testing"
)

// rfcBase is the base URI of RFC 3986 §5.4, "http://a/b/c/d;p?q", with
// the scheme ftp.
//
// Lenient reads the last segment "d;p" as a name: ";p" is not a final
// ";type=", so ";" is data (Typecode's doc), and String
// writes the base as "ftp://a/b/c/d%3Bp?q". §5.2 on that string gives
// the same segments as on "d;p": the ";" never splits a path, so every
// target of §5.4 is the one the RFC lists, and each is checked with
// Equal against Parse of the RFC's target, which reads ";" as data the
// same way.
const rfcBase = "ftp://a/b/c/d;p?q"

type resolveCase struct {
	ref, want string
}

// checkResolve resolves ref against base and checks that the target
// is Equal to Parse(want) and has the same String.
func checkResolve(t *testing.T, base *URL, tests []resolveCase) {
	t.Helper()
	for _, tt := range tests {
		got, err := base.ResolveReference(tt.ref)
		if err != nil {
			t.Errorf("%q.ResolveReference(%q): %v", base, tt.ref, err)
			continue
		}
		want := MustParse(tt.want)
		if !got.Equal(want) {
			t.Errorf("%q.ResolveReference(%q) = %q, want %q\n%s", base, tt.ref, got, want, diffParts(want, got))
		}
		if got.String() != want.String() {
			t.Errorf("%q.ResolveReference(%q).String() = %q, want %q", base, tt.ref, got.String(), want.String())
		}
	}
}

// RFC 3986 §5.4.1 "Normal Examples", "http:" written "ftp:"; "g:h" is
// in TestResolveReferenceOtherSchemeIsErrScheme.
func TestResolveReferenceRFC3986NormalExamples(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		{"g", "ftp://a/b/c/g"},
		{"./g", "ftp://a/b/c/g"},
		{"g/", "ftp://a/b/c/g/"},
		{"/g", "ftp://a/g"},
		{"//g", "ftp://g"},
		{"?y", "ftp://a/b/c/d;p?y"},
		{"g?y", "ftp://a/b/c/g?y"},
		{"#s", "ftp://a/b/c/d;p?q#s"},
		{"g#s", "ftp://a/b/c/g#s"},
		{"g?y#s", "ftp://a/b/c/g?y#s"},
		{";x", "ftp://a/b/c/;x"},
		{"g;x", "ftp://a/b/c/g;x"},
		{"g;x?y#s", "ftp://a/b/c/g;x?y#s"},
		{"", "ftp://a/b/c/d;p?q"},
		{".", "ftp://a/b/c/"},
		{"./", "ftp://a/b/c/"},
		{"..", "ftp://a/b/"},
		{"../", "ftp://a/b/"},
		{"../g", "ftp://a/b/g"},
		{"../..", "ftp://a/"},
		{"../../", "ftp://a/"},
		{"../../g", "ftp://a/g"},
	})
}

// RFC 3986 §5.4.2 "Abnormal Examples"; "http:g" is in
// TestResolveReferenceOtherSchemeIsErrScheme.
func TestResolveReferenceRFC3986AbnormalExamples(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		// More ".." than there are hierarchical levels.
		{"../../../g", "ftp://a/g"},
		{"../../../../g", "ftp://a/g"},
		// Dot segments inside an absolute path.
		{"/./g", "ftp://a/g"},
		{"/../g", "ftp://a/g"},
		// Segments that only look like dot segments.
		{"g.", "ftp://a/b/c/g."},
		{".g", "ftp://a/b/c/.g"},
		{"g..", "ftp://a/b/c/g.."},
		{"..g", "ftp://a/b/c/..g"},
		// Unnecessary or nonsensical dot segments.
		{"./../g", "ftp://a/b/g"},
		{"./g/.", "ftp://a/b/c/g/"},
		{"g/./h", "ftp://a/b/c/g/h"},
		{"g/../h", "ftp://a/b/c/h"},
		{"g;x=1/./y", "ftp://a/b/c/g;x=1/y"},
		{"g;x=1/../y", "ftp://a/b/c/y"},
		// Query and fragment hold no dot segments.
		{"g?y/./x", "ftp://a/b/c/g?y/./x"},
		{"g?y/../x", "ftp://a/b/c/g?y/../x"},
		{"g#s/./x", "ftp://a/b/c/g#s/./x"},
		{"g#s/../x", "ftp://a/b/c/g#s/../x"},
	})
}

// RFC 3986 §5.4.1 "g:h" and §5.4.2 "http:g": a strict parser takes a
// scheme as written, so both are absolute and not ftp (ResolveReference's
// doc: another scheme is ErrScheme).
func TestResolveReferenceOtherSchemeIsErrScheme(t *testing.T) {
	base := MustParse(rfcBase)
	for _, ref := range []string{"g:h", "http:g", "http://a/b/c/g", "sftp://a/g", ":g", "1a:b", "a b:c"} {
		u, err := base.ResolveReference(ref)
		if !errors.Is(err, ErrScheme) || u != nil {
			t.Errorf("ResolveReference(%q) = %v, %v; want nil, ErrScheme", ref, u, err)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Offset != 0 || e.URL != ref || e.Op != "parse" {
			t.Errorf("ResolveReference(%q) error = %#v; want Op parse, URL the reference, Offset 0", ref, err)
		}
		// RFC 3986 §4.2: the way to write a relative path with ":" in
		// its first segment; no such hint for "scheme://".
		if hint := strings.Contains(err.Error(), `"./"`); hint != !strings.Contains(ref, "//") {
			t.Errorf("ResolveReference(%q) error %q: the \"./\" hint is there: %v", ref, err, hint)
		}
	}
}

// RFC 3986 §5.2.2 with strict set: "ftp:g" keeps its own (missing)
// authority instead of borrowing the base's, and an ftp URL without a
// host is ErrHost (ResolveReference's doc).
func TestResolveReferenceStrictFTPWithoutAuthorityIsErrHost(t *testing.T) {
	base := MustParse(rfcBase)
	for _, tt := range []struct {
		ref    string
		offset int
	}{
		{"ftp:g", 4},
		{"FTP:../g", 4},
		{"ftp:", 4},
		{"ftp:?q", 4},
		{"//", 2},
		{"ftp:///g", 6},
		{"//user@/g", 7},
	} {
		u, err := base.ResolveReference(tt.ref)
		var e *Error
		if !errors.Is(err, ErrHost) || !errors.As(err, &e) || u != nil {
			t.Errorf("ResolveReference(%q) = %v, %v; want nil, ErrHost", tt.ref, u, err)
			continue
		}
		if e.Offset != tt.offset {
			t.Errorf("ResolveReference(%q) error offset = %d, want %d (%v)", tt.ref, e.Offset, tt.offset, err)
		}
	}
}

// An absolute ftp reference is the target, with its dot segments
// removed (RFC 3986 §5.2.2 "if defined(R.scheme)": remove_dot_segments),
// unlike Parse, which keeps them as CWD arguments (URL.String's doc).
func TestResolveReferenceAbsoluteFTPReferenceRemovesDotSegments(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		{"ftp://x/a/./b/../c", "ftp://x/a/c"},
		{"FTP://X:2121/", "ftp://x:2121/"},
		{"ftp://x/a;type=i", "ftp://x/a;type=i"},
		{"ftp://u:p@x/../../a", "ftp://u:p@x/a"},
		{"//x/a/../b?q#f", "ftp://x/b?q#f"},
		{"//user:pw@h:2121/x/../y", "ftp://user:pw@h:2121/y"},
		{"//x", "ftp://x/"},
		{"//x?q", "ftp://x/?q"},
	})
	if got := MustParse("ftp://x/a/../b").String(); got != "ftp://x/a/../b" {
		t.Errorf("Parse keeps dot segments, but String = %q", got)
	}
}

// The base's userinfo, host and port carry over to every reference
// without an authority (RFC 3986 §5.2.2: T.authority = Base.authority).
func TestResolveReferenceKeepsBaseAuthority(t *testing.T) {
	checkResolve(t, MustParse("ftp://u:p%40ss@A:2121/b/c"), []resolveCase{
		{"g", "ftp://u:p%40ss@a:2121/b/g"},
		{"/g", "ftp://u:p%40ss@a:2121/g"},
		{"?y", "ftp://u:p%40ss@a:2121/b/c?y"},
	})
	checkResolve(t, MustParse("ftp://[2001:DB8::1]:21/b/c"), []resolveCase{
		{"../g", "ftp://[2001:db8::1]/g"},
	})
}

// The target has the reference's scheme, or the base's (RFC 3986 §5.2.2:
// T.scheme = Base.scheme unless R.scheme is defined): ftps (2011 draft
// §5) carries over to every relative reference, "//host/g" included,
// and an absolute reference brings its own.
func TestResolveReferenceCarriesTheScheme(t *testing.T) {
	checkResolve(t, MustParse("ftps://u@h:990/b/c"), []resolveCase{
		{"g", "ftps://u@h/b/g"},
		{"//x/g", "ftps://x/g"},
		{"//x:21/g", "ftps://x:21/g"},
		{"?y", "ftps://u@h/b/c?y"},
		{"ftp://x/g", "ftp://x/g"},
		{"FTPS://x:990/./g", "ftps://x/g"},
	})
	checkResolve(t, MustParse("ftp://h/b/c"), []resolveCase{
		{"ftps://x/a/../g", "ftps://x/g"},
	})
	checkResolve(t, &URL{Host: "h", Dirs: []string{"b"}, Name: "c"}, []resolveCase{
		{"g", "ftp://h/b/g"}, // a hand-built base without a scheme is ftp
	})
	base := MustParse("ftps://h/b/c")
	if _, err := base.ResolveReference("ftps:g"); !errors.Is(err, ErrHost) || !strings.Contains(err.Error(), `"ftps:"`) {
		t.Errorf(`ResolveReference("ftps:g") = %v; want ErrHost naming "ftps:"`, err)
	}
	if _, err := base.ResolveReference("sftp://h/g"); !errors.Is(err, ErrScheme) {
		t.Errorf(`ResolveReference("sftp://h/g") = %v; want ErrScheme`, err)
	}
	if _, err := (&URL{Scheme: "sftp", Host: "h"}).ResolveReference("g"); !errors.Is(err, ErrScheme) {
		t.Errorf(`a hand-built sftp base: ResolveReference("g") = %v; want ErrScheme`, err)
	}
}

// The typecode belongs to the last segment (2011 draft §3.1
// typecode-part ends the path): a reference with a path brings its own
// or none (RFC 3986 §5.2.3 merge drops the base's last segment); "",
// "?y" and "#s" keep the base's path and with it its typecode.
func TestResolveReferenceTypecodeFollowsTheLastSegment(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		{"g;type=d", "ftp://a/b/c/g;type=d"},
		{"g;TYPE=I", "ftp://a/b/c/g;type=i"},
		{"../;type=d", "ftp://a/b/;type=d"},
		{"x;type=a/../g", "ftp://a/b/c/g"},
	})
	checkResolve(t, MustParse("ftp://a/b/c/d;type=i?q"), []resolveCase{
		{"", "ftp://a/b/c/d;type=i?q"},
		{"?y", "ftp://a/b/c/d;type=i?y"},
		{"#s", "ftp://a/b/c/d;type=i?q#s"},
		{"g", "ftp://a/b/c/g"},
		{".", "ftp://a/b/c/"},
		{"/g", "ftp://a/g"},
		{"//h/d", "ftp://h/d"},
		// "..;type=d" is not the segment "..": it stays, as §5.2.4
		// compares whole segments.
		{"..;type=d", "ftp://a/b/c/..;type=d"},
	})
	u, err := MustParse("ftp://a/b/c/d;type=i").ResolveReference("..;type=d")
	if err != nil || u.Name != ".." || u.Type != TypeDirectory {
		t.Errorf(`ResolveReference("..;type=d") = %+v, %v; want Name "..", Type d`, u, err)
	}
}

// "%2F" is a "/" inside one segment (RFC 1738 §3.2.2), so a reference
// that carries it stays one segment, and ".." removes such a segment
// whole (RFC 3986 §5.2.4 works on segments between raw "/").
func TestResolveReferenceKeepsEncodedSlashInsideSegment(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		{"g%2Fh", "ftp://a/b/c/g%2Fh"},
		{"%2Fetc/motd", "ftp://a/b/c/%2Fetc/motd"},
		{"../x%2f..%2Fy/z", "ftp://a/b/x%2F..%2Fy/z"},
	})
	checkResolve(t, MustParse("ftp://a/b%2Fc/d%2Fe/f"), []resolveCase{
		{"../g", "ftp://a/b%2Fc/g"},
		{"../../g", "ftp://a/g"},
		{".", "ftp://a/b%2Fc/d%2Fe/"},
		{"g%2F..", "ftp://a/b%2Fc/d%2Fe/g%2F.."},
	})
	u, err := MustParse("ftp://a/b%2Fc/d%2Fe/f").ResolveReference("../g")
	if err != nil || len(u.Dirs) != 1 || u.Dirs[0] != "b/c" || u.Name != "g" {
		t.Errorf(`ResolveReference("../g") = %+v, %v; want Dirs ["b/c"], Name "g"`, u, err)
	}
}

// "%2E" is "." (unreserved, RFC 3986 §2.3, §6.2.2.2), and Parse reads
// "%2E%2E" and ".." as the same segment, so the reference "%2E%2E/g"
// is the same reference as "../g" and resolves the same way.
func TestResolveReferenceEncodedDotSegmentsAreDotSegments(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		{"%2E%2E/g", "ftp://a/b/g"},
		{"%2e/g", "ftp://a/b/c/g"},
		{".%2E", "ftp://a/b/"},
	})
}

// Dot segments already in the base are removed too when the base path
// is merged (RFC 3986 §5.2.2 applies remove_dot_segments to the merged
// path), but kept when the reference has no path (T.path = Base.path).
func TestResolveReferenceBaseDotSegments(t *testing.T) {
	checkResolve(t, MustParse("ftp://a/x/../y/z"), []resolveCase{
		{"g", "ftp://a/y/g"},
		{"", "ftp://a/x/../y/z"},
		{"?q", "ftp://a/x/../y/z?q"},
	})
}

// The reference is read with Lenient's rules (ResolveReference's
// doc): raw spaces, Unicode and other printable ASCII are
// accepted, and the result is percent-encoded like Parse would do.
func TestResolveReferenceReadsTheReferenceLeniently(t *testing.T) {
	checkResolve(t, MustParse(rfcBase), []resolveCase{
		{"my file.txt", "ftp://a/b/c/my%20file.txt"},
		{"é/ü", "ftp://a/b/c/%C3%A9/%C3%BC"},
		{`a\b`, "ftp://a/b/c/a%5Cb"},
		{"g?a b#c d", "ftp://a/b/c/g?a%20b#c%20d"},
		{"g?%7e", "ftp://a/b/c/g?%7E"},
		{"//Bücher.example/", "ftp://xn--bcher-kva.example/"},
		{"//us er:p w@h/", "ftp://us%20er:p%20w@h/"},
		{"./a:b", "ftp://a/b/c/a:b"},
	})
}

// A fault in the reference is the *Error of Parse's rules, pointing
// into the reference, with the sentinel Parse would give (the
// sentinels' doc: most specific first) and the password hidden.
func TestResolveReferenceErrorsPointIntoTheReference(t *testing.T) {
	base := MustParse(rfcBase)
	for _, tt := range []struct {
		ref    string
		want   error
		offset int
	}{
		{"g%zz", ErrEscape, 1},
		{"g%", ErrEscape, 1},
		{"%", ErrEscape, 0},
		{"a/%/b", ErrEscape, 2},
		{"http:g%zz", ErrEscape, 6}, // ErrEscape ranks before ErrScheme
		{"ht\rtp:g", ErrControl, 2}, // and ErrControl too
		{"g\r\nDELE x", ErrControl, 1},
		{"g%0A", ErrControl, 1},
		{"../a%00/b", ErrControl, 4},
		{"g;type=xy", ErrTypecode, 1},
		{"g;type=", ErrTypecode, 1},
		{"//h:99999/", ErrPort, 4},
		{"//h:0/", ErrPort, 4},
		{"//010.1.1.1/", ErrHost, 2},
		{"//[fe80::1%25eth0]/", ErrHost, 10},
		{"a\u200Eb", ErrPath, 1},
		{"a\xffb", ErrPath, 1},
		{"g?\x7f", ErrControl, 2},
		{"g?\xff", ErrPath, 2},
		{"g#\u202e", ErrPath, 2},
	} {
		u, err := resolveNoPanic(t, base, tt.ref)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tt.want) || u != nil {
			t.Errorf("ResolveReference(%q) = %v, %v; want an *Error with %v", tt.ref, u, err, tt.want)
			continue
		}
		if e.Offset != tt.offset || e.URL != redactInput(tt.ref) || e.Op != "parse" {
			t.Errorf("ResolveReference(%q) error = {Op %q URL %q Offset %d}; want {parse %q %d}",
				tt.ref, e.Op, e.URL, e.Offset, redactInput(tt.ref), tt.offset)
		}
	}

	_, err := base.ResolveReference("//user:secret@h:99999/")
	var e *Error
	if !errors.As(err, &e) || e.URL != "//user:xxxxx@h:99999/" || strings.Contains(err.Error(), "secret") {
		t.Errorf("ResolveReference with a password: error %v; want the password hidden", err)
	}
}

// resolveNoPanic is base.ResolveReference(ref), with a panic reported
// as a test failure (no input may make it panic), so that one
// bad input does not stop the other tests.
func resolveNoPanic(t *testing.T, base *URL, ref string) (u *URL, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("ResolveReference(%q) panics: %v", ref, r)
			u, err = nil, nil
		}
	}()
	return base.ResolveReference(ref)
}

// RFC 3986 §5.1 needs a base with a scheme and, for ftp, a host: a nil
// or zero base resolves only references that carry an authority, and
// anything else is ErrHost with no offset.
func TestResolveReferenceWithoutBaseHostIsErrHost(t *testing.T) {
	for _, base := range []*URL{nil, {}, {Name: "x"}} {
		for _, ref := range []string{"", "g", "/g", "?q", "#f"} {
			u, err := base.ResolveReference(ref)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrHost) || e.Offset != -1 || u != nil {
				t.Errorf("(%#v).ResolveReference(%q) = %v, %v; want ErrHost at offset -1", base, ref, u, err)
			}
		}
		u, err := base.ResolveReference("ftp://h/a/../g")
		if err != nil || u.String() != "ftp://h/g" {
			t.Errorf("(%#v).ResolveReference(absolute) = %v, %v; want ftp://h/g", base, u, err)
		}
	}
}

// The base is used as String writes it (ResolveReference's
// doc): a hand-built base is normalized, and one that String
// cannot make valid gives the *Error of the resolved URL.
func TestResolveReferenceHandBuiltBase(t *testing.T) {
	base := &URL{Host: "A.Example", Port: 21, Dirs: []string{"x"}, Name: "F", Type: 'I'}
	checkResolve(t, base, []resolveCase{
		{"", "ftp://a.example/x/F;type=i"},
		{"g", "ftp://a.example/x/g"},
	})

	bad := &URL{Host: "h", Dirs: []string{"a\r"}, Name: "f"}
	_, err := bad.ResolveReference("g")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrControl) || e.URL != "ftp://h/a%0D/g" {
		t.Errorf("ResolveReference on a base with CR = %v; want ErrControl quoting the resolved URL", err)
	}
	if u, err := bad.ResolveReference("/g"); err != nil || u.String() != "ftp://h/g" {
		t.Errorf(`ResolveReference("/g") = %v, %v; want ftp://h/g (the bad directory is replaced)`, u, err)
	}
}

// ResolveReference returns a new URL and never changes its base.
func TestResolveReferenceLeavesTheBaseAlone(t *testing.T) {
	base := MustParse("ftp://a/b/c/./d/e?q#f")
	before := base.String()
	for _, ref := range []string{"", "../g", "./../../x/..", "//h/x/../y", "/.."} {
		got, err := base.ResolveReference(ref)
		if err != nil {
			t.Fatal(err)
		}
		if got == base {
			t.Errorf("ResolveReference(%q) returned its base", ref)
		}
		if base.String() != before {
			t.Fatalf("ResolveReference(%q) changed its base to %q", ref, base)
		}
	}
}

// RFC 3986 §5.2.4 worked example and edge cases of removeDotSegments,
// against the path string the RFC's algorithm gives.
func TestRemoveDotSegmentsFollowsRFC3986(t *testing.T) {
	for _, tt := range []struct {
		dirs  []string
		name  string
		typed bool
		want  string // "/" + dirs + "/" + name, after §5.2.4
	}{
		{[]string{"a", "b", "c", ".", "..", ".."}, "g", false, "/a/g"}, // §5.2.4: /a/b/c/./../../g
		{[]string{"mid"}, "6", false, "/mid/6"},                        // §5.2.4: mid/content=5/../6
		{nil, "..", false, "/"},
		{nil, ".", false, "/"},
		{[]string{"a", "b"}, "..", false, "/a/"},
		{[]string{"a", "b"}, ".", false, "/a/b/"},
		{[]string{"a", "", ".."}, "b", false, "/a/b"},
		{[]string{"..", "..", "a"}, "", false, "/a/"},
		{[]string{"a"}, "..", true, "/a/.."},
		{[]string{"a", "."}, ".", true, "/a/."},
	} {
		dirs, name := removeDotSegments(append([]string(nil), tt.dirs...), tt.name, tt.typed)
		got := "/" + strings.Join(append(dirs, name), "/")
		if got != tt.want {
			t.Errorf("removeDotSegments(%q, %q, %v) = %q, want %q", tt.dirs, tt.name, tt.typed, got, tt.want)
		}
	}
}

// RFC 3986 §3.2.1: a password in a URL is not to be shown. A reference
// such as "//a:Secret/c@x" holds one (from its first ":" to its last
// "@"), and its fault (the port "Secret") lies in that range: the
// message of ResolveReference, like that of Parse, hides it and quotes
// none of it.
func TestResolveReferenceErrorNeverQuotesThePassword(t *testing.T) {
	base := MustParse("ftp://h/d/f")
	for _, tt := range []struct{ ref, url string }{
		{"//a:Secret/c@x", "//a:xxxxx@x"},
		{"//a:Secret?c@x", "//a:xxxxx@x"},
		{"ftp://a:Secret/c@x", "ftp://a:xxxxx@x"},
		{"ftp:/a:Secret@h//x", "ftp:/a:xxxxx@h//x"},
		{"//u:S\u202eecret@h/", "//u:xxxxx@h/"},
	} {
		_, err := base.ResolveReference(tt.ref)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("ResolveReference(%q) = %v, want an *Error", tt.ref, err)
			continue
		}
		if e.URL != tt.url {
			t.Errorf("ResolveReference(%q).URL = %q, want %q", tt.ref, e.URL, tt.url)
		}
		msg := err.Error()
		for _, secret := range []string{"Secret", "ecret", "'S'", "U+202E"} {
			if strings.Contains(msg, secret) {
				t.Errorf("ResolveReference(%q): message %q quotes %q from the password", tt.ref, msg, secret)
			}
		}
	}
}
