package ftpurl

// The fuzz targets: FuzzParse (the parser's invariants), FuzzPlan (no
// command can be injected), FuzzPattern and FuzzFindAll (Pattern and
// FindAll agree with Parse), FuzzInterop (net/url, text and Equal round
// trips). Their seed corpora are in testdata/fuzz/.

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzParse checks, for every grammar, the invariants that the docs of
// URL.String, Error and Grammar state for
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
		checkPlainNameIsCheckHostName(t, s)
		checkAuthorityScan(t, s)
		checkSkip(t, s)
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

// ParseInto is Parse without allocating (Grammar.ParseInto's doc), and
// never changes a Userinfo that a caller kept or another URL shares: on
// every input, in every grammar, into a URL value that holds the parts
// of earlier URLs (a Userinfo, directories), it gives Parse's parts or
// Parse's error, and after an error the value holds no URL.
func FuzzParseInto(f *testing.F) {
	for _, s := range fuzzParseSeeds {
		f.Add(s)
	}
	for _, ex := range seedExamples {
		f.Add(ex.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shared := UserPassword("old", "secret")
		u := URL{User: shared, Host: "old.example", Dirs: []string{"a", "b", "c"}, Name: "n", Type: 'i'}
		for _, g := range allGrammars {
			want, wantErr := g.Parse(s)
			before := u.User // a Userinfo that the caller may have kept
			var kept Userinfo
			if before != nil {
				kept = *before
			}
			err := g.ParseInto(&u, s)
			// ParseInto never writes into a Userinfo (Userinfo's doc).
			if *shared != *UserPassword("old", "secret") || before != nil && *before != kept {
				t.Fatalf("%v %q: ParseInto changed a Userinfo that another URL holds", g, s)
			}
			switch {
			case (err == nil) != (wantErr == nil):
				t.Fatalf("%v %q: ParseInto error %v, Parse error %v", g, s, err, wantErr)
			case err != nil:
				if err.Error() != wantErr.Error() {
					t.Fatalf("%v %q: ParseInto error %q, Parse error %q", g, s, err, wantErr)
				}
				if u.String() != "" || u.User != nil || len(u.Dirs) != 0 || u.Host != "" {
					t.Fatalf("%v %q: after an error the URL holds %+v", g, s, u)
				}
			default:
				if diff := cmp.Diff(partsOf(want), partsOf(&u), cmpopts.EquateEmpty()); diff != "" {
					t.Fatalf("%v %q: ParseInto parts (-Parse +ParseInto):\n%s", g, s, diff)
				}
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
	// ftps (2011 draft §5, §7.2): Lenient and RFC3986 only; 990 is its
	// default port, 21 is not.
	"ftps://u:p@h:990/a/b;type=i?q#f", "FTPS://h:21/", "ftps://[::1]:0990/", "ftps:h", "ftps:/h", "sftp://h/", "ftps://u:p@h:0/",
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

	// Grammar's doc: no user, password, host or path segment
	// holds a control character, decoded.
	pw, hasPW := u.User.Password()
	for _, part := range append([]string{u.User.Username(), pw, u.Host, u.Name}, u.Dirs...) {
		if i := strings.IndexFunc(part, func(r rune) bool { return r < 0x20 || r == 0x7F }); i >= 0 {
			t.Fatalf("%v.Parse(%q): part %q holds a control character", g, s, part)
		}
	}
	// URL's doc: the host is lower-case ASCII, an IPv6 host in
	// RFC 5952 form without brackets; Type is 0 or a lower-case letter.
	if u.Host == "" || u.Host != strings.ToLower(u.Host) || !asciiOnly(u.Host) {
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
// input redacted as Error's doc says.
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
	checkErrorURL(t, fmt.Sprintf("%v.Parse(%q)", g, s), e, s)
}

// checkErrorURL checks that e.URL is input redacted by
// redactedByRule and cut to 256 bytes with "…".
func checkErrorURL(t *testing.T, call string, e *Error, input string) {
	t.Helper()
	red := redactedByRule(input)
	if len(red) <= 256 {
		if e.URL != red {
			t.Fatalf("%s.URL = %q, want %q", call, e.URL, red)
		}
	} else if cut, ok := strings.CutSuffix(e.URL, "…"); !ok || len(cut) > 256 || len(cut) < 253 || !strings.HasPrefix(red, cut) {
		t.Fatalf("%s.URL = %q, want the first 256 bytes of %q and \"…\"", call, e.URL, red)
	}
}

// checkInsertedPasswordNeverQuoted inserts ":ZQZQ@" into s after its
// "//", which puts "ZQZQ" inside the range that Error.URL hides, and
// checks that no message quotes it (RFC 3986 §3.2.1: a password is not
// to be shown), whichever entry point made the error: Parse in every
// grammar, UnmarshalText, FromURL, and ResolveReference with the
// password in the reference (with and without its scheme) or in the
// base.
func checkInsertedPasswordNeverQuoted(t *testing.T, s string) {
	t.Helper()
	i := strings.Index(s, "//")
	if i < 0 || strings.ContainsAny(s, "ZQ") {
		return
	}
	// An escaped Z or Q decodes to the letter itself, and FromURL's message
	// quotes net/url's re-escaped form, which writes it raw: a letter the
	// password did not put there.
	if up := strings.ToUpper(s); strings.Contains(up, "%5A") || strings.Contains(up, "%51") {
		return
	}
	leaks := func(call string, err error) {
		t.Helper()
		if err != nil && strings.ContainsAny(err.Error(), "ZQ") {
			t.Fatalf("%s: message %q quotes the redacted range", call, err)
		}
	}
	for _, p := range []int{i + 2, len(s), i + 2 + (len(s)-i-2)/2} {
		in := s[:p] + ":ZQZQ@" + s[p:]
		if !strings.Contains(redactedByRule(in), "xxxxx@") || strings.Contains(redactedByRule(in), "ZQ") {
			t.Fatalf("redactedByRule(%q) = %q does not hide the inserted password", in, redactedByRule(in))
		}
		for _, g := range allGrammars {
			_, err, ok := tryParse(t, g, in)
			if !ok {
				t.FailNow()
			}
			leaks(fmt.Sprintf("%v.Parse(%q)", g, in), err)
		}
		var u URL
		leaks(fmt.Sprintf("UnmarshalText(%q)", in), u.UnmarshalText([]byte(in)))

		// The reference as it is, and without its scheme.
		base := MustParse("ftp://h/d/f")
		for _, ref := range []string{in, in[len(reScheme3986.FindString(in)):]} {
			_, err := base.ResolveReference(ref)
			leaks(fmt.Sprintf("ResolveReference(%q)", ref), err)
		}
		// The password in the base: every fault is in the reference or
		// in the resolved URL, which String writes with the password.
		if b, err := Parse(in); err == nil {
			for _, ref := range []string{"%zz", "//h:0/", "../a%0Ab", "http:g", "g;type=xy", "?\x7f"} {
				_, err := b.ResolveReference(ref)
				leaks(fmt.Sprintf("Parse(%q).ResolveReference(%q)", in, ref), err)
			}
		}
		// FromURL quotes v.String(): only a password that net/url keeps
		// inside the hidden range must stay hidden.
		if v, err := url.Parse(in); err == nil && !strings.Contains(redactedByRule(v.String()), "ZQ") {
			_, err := FromURL(v)
			leaks(fmt.Sprintf("FromURL(%q)", v), err)
		}
	}
}

// FuzzPlan checks, for every input that parses in the grammar its
// second argument picks, with every Method and with and without
// WithAbsolutePaths:
//   - Plan succeeds, or refuses with ErrPath (Op "plan", Offset -1) a
//     LIST or NLST argument that begins with "-" (URL.Plan's
//     doc);
//   - no line of Commands holds CR, LF or NUL (RFC 959 §4.1.3), and every
//     line is a CWD, TYPE, RETR, LIST or NLST line;
//   - with MultiCWD, each CWD argument equals the decoded segment it came
//     from, found by a reference split of the raw input on "/" (2011
//     draft §3.2.3 (1): null segments send nothing), after "CWD /" with
//     WithAbsolutePaths unless the first segment is "~" (1997 draft
//     §3.1); Name is the decoded last segment without its typecode;
//     either with "./" before it when it begins with "~" and is not the
//     first segment sent as it is (URL.Plan's "./~" rule);
//   - no argument, of Commands, Fallback or Verify, begins with "~"
//     unless it begins with the first segment, without
//     WithAbsolutePaths;
//   - SingleCWD sends at most one CWD, NoCWD none, and the Action follows
//     the typecode (§3.2.3 (4a)-(4d));
//   - a LIST or NLST with an argument, and only it, carries a Verify
//     whose one line is CWD of that argument (Plan's doc).
//
// Login never returns a user or password with CR, LF or NUL.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		"ftp://example.com:49557/%2Fsomedir/seconddir;type=d",
		"ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
		"ftp://user1:invalid-pass@example.net:4916/;type=d",
		"ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
		"ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u",
		"ftp://ĉat.example.com/weather/☃/snow.txt",
		"ftp://%C4%A5ost.example.com/music/%F0%9D%84%A0/clef.pdf",
		"ftp://myname@host.dom//etc/motd",
		"ftp://host/~/foo/bar.html",
		"ftp://h/odd/~",
		"ftp://h//~/~x/;type=d",
		"ftp://h/a/%2Fetc/motd",
		"ftp://h/-R/;type=d",
		"ftp://h/%2D-help",
		"ftp://[2001:db8::1]:2121/a%2F/b/",
		"ftp://foo:bar%0d%0aINJECTED@example.net/file.png",
		"ftp://h/a%00b",
		"FTP://H/A;TYPE=I",
		"ftp://h/dir?x/y;type=i",
	} {
		for g := range 4 {
			f.Add(s, uint8(g))
		}
	}
	f.Fuzz(func(t *testing.T, raw string, gb uint8) {
		g := Grammar(gb % 4)
		u, err := parseNoPanic(t, g, raw)
		if err != nil {
			return
		}
		if user, pass, _ := u.Login(); hasLineBreak(user) || hasLineBreak(pass) {
			t.Fatalf("%v %q: Login = %q, %q", g, raw, user, pass)
		}
		dirs, name, err := planReferenceSplit(g, raw)
		if err != nil {
			t.Fatalf("%v %q: Parse accepted an escape that net/url refuses: %v", g, raw, err)
		}
		for _, m := range []Method{MultiCWD, SingleCWD, NoCWD} {
			for _, abs := range []bool{false, true} {
				checkPlan(t, g, raw, u, dirs, name, m, abs)
			}
		}
	})
}

// parseNoPanic is g.Parse, with a panic (which no
// input may cause) reported as this input's failure rather than ending the test
// binary.
func parseNoPanic(t *testing.T, g Grammar, raw string) (u *URL, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%v.Parse(%q) panicked: %v", g, raw, r)
		}
	}()
	return g.Parse(raw)
}

func checkPlan(t *testing.T, g Grammar, raw string, u *URL, dirs []string, name string, m Method, abs bool) {
	t.Helper()
	// WithAbsolutePaths: a first segment "~", directory or name, is the
	// login directory and is dropped (1997 draft §3.1).
	rest, root := dirs, abs
	if abs && len(dirs) > 0 && dirs[0] == "~" {
		rest, root = dirs[1:], false
	} else if abs && len(dirs) == 0 && name == "~" {
		name, root = "", false
	}
	// The Action follows the typecode (2011 draft §3.2.3 (4a)-(4d)).
	var want Action
	switch typ := u.Type; {
	case typ == TypeDirectory:
		want = NameList
	case name == "":
		want = List
	case sendsType(typ):
		want = Retrieve
	default:
		want = RetrieveOrList
	}

	p, err := u.Plan(planOpts(m, abs)...)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Err != ErrPath || e.Op != "plan" || e.Offset != -1 {
			t.Fatalf("%v %q %v abs=%v: Plan: %v", g, raw, m, abs, err)
		}
		// Only a LIST or NLST argument is refused.
		if want != List && want != NameList {
			t.Fatalf("%v %q %v abs=%v: %v refused: %v", g, raw, m, abs, want, err)
		}
		// The refused argument: Name, or for NoCWD the joined path,
		// which begins with the last element that begins with "/", or
		// else with the first element.
		arg := name
		if m == NoCWD {
			var elems []string
			if root {
				elems = append(elems, "/")
			}
			for _, d := range append(rest[:len(rest):len(rest)], name) {
				if d != "" {
					elems = append(elems, d)
				}
			}
			arg = ""
			for _, e := range elems {
				if arg == "" || e[0] == '/' {
					arg = e
				}
			}
		}
		if !strings.HasPrefix(arg, "-") {
			t.Fatalf("%v %q %v abs=%v: ErrPath, but %q does not begin with \"-\": %v", g, raw, m, abs, arg, err)
		}
		return
	}
	lines := p.Commands()
	if lines == nil {
		t.Fatalf("%v %q %v abs=%v: Commands = nil", g, raw, m, abs)
	}
	checkStepsAreCommands(t, p)
	checkStepsAreCommands(t, p.Fallback)
	checkStepsAreCommands(t, p.Verify)
	cwds, types := 0, 0
	for _, l := range lines {
		if strings.ContainsAny(l, "\r\n\x00") {
			t.Fatalf("%v %q %v abs=%v: line %q holds CR, LF or NUL", g, raw, m, abs, l)
		}
		switch verb, _, _ := strings.Cut(l, " "); verb {
		case "CWD":
			cwds++
		case "TYPE":
			types++
		case "RETR", "LIST", "NLST":
		default:
			t.Fatalf("%v %q %v abs=%v: unexpected line %q", g, raw, m, abs, l)
		}
	}
	if p.Action != want {
		t.Fatalf("%v %q: Action %v, want %v", g, raw, p.Action, want)
	}
	// Exactly one TYPE: the typecode's, else I for RETR and A for a
	// listing (2011 draft §3.2.3 (2); RFC 1738 §3.2.2).
	wantType := TypeImage
	if typ, _ := u.Type.lower(); sendsType(typ) {
		wantType = typ
	} else if want == List || want == NameList {
		wantType = TypeASCII
	}
	if types != 1 || p.Type != wantType {
		t.Fatalf("%v %q: Type %q in %d TYPE lines, want %q in one", g, raw, p.Type, types, wantType)
	}
	// RetrieveOrList, and only it, falls back to CWD into the name and
	// LIST (2011 draft §3.2.3 (4d)).
	if want == RetrieveOrList {
		if got := p.Fallback.Commands(); !slices.Equal(got, []string{"CWD " + p.Name, "TYPE A", "LIST"}) {
			t.Fatalf("%v %q %v abs=%v: Fallback %q", g, raw, m, abs, got)
		}
	} else if p.Fallback != nil {
		t.Fatalf("%v %q: %v has a Fallback", g, raw, want)
	}
	// A LIST or NLST with an argument, and only it, is verified by CWD
	// of that argument (Plan's doc).
	if (want == List || want == NameList) && p.Name != "" {
		if got := p.Verify.Commands(); !slices.Equal(got, []string{"CWD " + p.Name}) {
			t.Fatalf("%v %q %v abs=%v: Verify %q", g, raw, m, abs, got)
		}
	} else if p.Verify != nil || p.Fallback != nil && p.Fallback.Verify != nil {
		t.Fatalf("%v %q %v abs=%v: %v %q has a Verify", g, raw, m, abs, want, p.Name)
	}
	// The "./~" rule (URL.Plan's doc): only an argument that begins
	// with the path's first segment, without WithAbsolutePaths, begins
	// with "~".
	firstSeg := name
	if len(dirs) > 0 {
		firstSeg = dirs[0]
	}
	dotTilde := func(arg string, first bool) string {
		if !first && strings.HasPrefix(arg, "~") {
			return "./" + arg
		}
		return arg
	}
	for _, l := range slices.Concat(lines, p.Fallback.Commands(), p.Verify.Commands()) {
		if _, arg, _ := strings.Cut(l, " "); strings.HasPrefix(arg, "~") && (abs || !strings.HasPrefix(firstSeg, "~") || !strings.HasPrefix(arg, firstSeg)) {
			t.Fatalf("%v %q %v abs=%v: %q begins with a \"~\" that is not the first segment's", g, raw, m, abs, l)
		}
	}

	switch m {
	case MultiCWD:
		var wantDirs []string
		if root {
			wantDirs = append(wantDirs, "/")
		}
		for i, d := range rest {
			if strings.HasPrefix(d, "/") {
				wantDirs = nil // an absolute directory drops those before it
			}
			if d != "" {
				wantDirs = append(wantDirs, dotTilde(d, !abs && i == 0))
			}
		}
		if strings.HasPrefix(name, "/") {
			wantDirs = nil
		}
		if !slices.Equal(p.Dirs, wantDirs) {
			t.Fatalf("%v %q abs=%v: CWD arguments %q, want the decoded segments %q", g, raw, abs, p.Dirs, wantDirs)
		}
		for i, d := range wantDirs {
			if lines[i] != "CWD "+d {
				t.Fatalf("%v %q abs=%v: line %d is %q, want %q", g, raw, abs, i, lines[i], "CWD "+d)
			}
		}
		if want := dotTilde(name, !abs && len(dirs) == 0); p.Name != want {
			t.Fatalf("%v %q abs=%v: Name %q, want the decoded last segment %q", g, raw, abs, p.Name, want)
		}
	case SingleCWD:
		if cwds > 1 || cwds > 0 && strings.HasPrefix(name, "/") {
			t.Fatalf("%v %q abs=%v: SingleCWD sent %d CWD lines: %q", g, raw, abs, cwds, lines)
		}
		if want := dotTilde(name, !abs && len(dirs) == 0); p.Name != want {
			t.Fatalf("%v %q abs=%v: Name %q, want %q", g, raw, abs, p.Name, want)
		}
	case NoCWD:
		if cwds != 0 {
			t.Fatalf("%v %q abs=%v: NoCWD sent CWD: %q", g, raw, abs, lines)
		}
		if !strings.HasSuffix(p.Name, name) {
			t.Fatalf("%v %q abs=%v: NoCWD argument %q does not end with the name %q", g, raw, abs, p.Name, name)
		}
	}
}

// Fuzz targets for FindAll and Pattern, and the checks they
// share with find_test.go and pattern_test.go.

var findGrammars = [...]Grammar{Lenient, RFC1738, RFC2396, RFC3986}

// anchoredPatterns are "^(?:" + g.Pattern() + ")$" for each grammar.
var anchoredPatterns = sync.OnceValue(func() (re [4]*regexp.Regexp) {
	for _, g := range findGrammars {
		re[g] = regexp.MustCompile("^(?:" + g.Pattern() + ")$")
	}
	return re
})

// checkPattern checks, for every grammar, that the anchored Pattern
// matches s exactly when Parse accepts it (Pattern's
// doc), except for hosts that go through IDNA, and that the named
// groups hold the parts that Parse returns.
func checkPattern(t *testing.T, s string) {
	t.Helper()
	re := anchoredPatterns()
	for _, g := range findGrammars {
		u, err := g.Parse(s)
		loc := re[g].FindStringSubmatchIndex(s)
		// FindAll's syntax is Pattern without the semantic checks: it
		// holds every URL that Parse accepts, and what it holds Parse
		// refuses only for a host, a port or a control character.
		syn := syntaxPatterns()[g].FindStringIndex(s)
		if synFull := syn != nil && syn[1] == len(s); err == nil && !synFull {
			t.Errorf("%v: %q: Parse accepts it, FindAll's syntax does not", g, s)
		} else if err != nil && synFull && !errors.Is(err, ErrHost) && !errors.Is(err, ErrPort) && !errors.Is(err, ErrControl) {
			t.Errorf("%v: %q: FindAll's syntax accepts it, Parse refuses it for a syntax fault: %v", g, s, err)
		}
		if hostGoesThroughIDNA(g, s) {
			continue
		}
		if (err == nil) != (loc != nil) {
			t.Errorf("%v: %q: Parse error %v, but Pattern matches: %v", g, s, err, loc != nil)
			continue
		}
		if loc != nil {
			checkGroups(t, g, s, u, re[g], loc)
		}
	}
}

// checkGroups checks the named groups of a match of the whole of s
// against the URL that Parse returned for s.
func checkGroups(t *testing.T, g Grammar, s string, u *URL, re *regexp.Regexp, loc []int) {
	t.Helper()
	group := func(name string) (string, bool) {
		i := re.SubexpIndex(name)
		if loc[2*i] < 0 {
			return "", false
		}
		return s[loc[2*i]:loc[2*i+1]], true
	}
	user, hasUser := group("user")
	password, hasPassword := group("password")
	switch {
	case hasUser != (u.User != nil):
		t.Errorf("%v: %q: user group set %v, User %v", g, s, hasUser, u.User)
	case hasUser:
		p, ok := u.User.Password()
		if unescape(user) != u.User.Username() || ok != hasPassword || unescape(password) != p {
			t.Errorf("%v: %q: groups user %q password %q (%v), URL has %q %q (%v)",
				g, s, user, password, hasPassword, u.User.Username(), p, ok)
		}
	}
	if scheme, _, _ := strings.Cut(s, "://"); !strings.EqualFold(scheme, u.Scheme) {
		t.Errorf("%v: %q: the pattern's scheme %q, URL scheme %q", g, s, scheme, u.Scheme)
	}
	host, _ := group("host")
	if strings.HasPrefix(host, "[") {
		if a, err := netip.ParseAddr(host[1 : len(host)-1]); err != nil || a.String() != u.Host {
			t.Errorf("%v: %q: host group %q, URL host %q", g, s, host, u.Host)
		}
	} else if strings.ToLower(unescape(host)) != u.Host { // Parse decodes a name (Pattern's doc)
		t.Errorf("%v: %q: host group %q, URL host %q", g, s, host, u.Host)
	}
	port, _ := group("port")
	if p, _ := strconv.Atoi(port); p != int(u.Port) {
		t.Errorf("%v: %q: port group %q, URL port %d", g, s, port, u.Port)
	}
	path, hasPath := group("path")
	typ, hasType := group("type")
	if hasType != (u.Type != 0) && !(g == Lenient && !hasType) {
		t.Errorf("%v: %q: type group %q, URL type %q", g, s, typ, u.Type)
	}
	if !hasType && u.Type != 0 {
		// Lenient, where ";" is data: a name that holds ";type=" itself
		// keeps the final ";type=X" in path (Pattern's doc comment).
		last := path[strings.LastIndexByte(path, '/')+1:]
		name, code, at := splitTypecode(last)
		if at < 0 || len(code) != 1 || !strings.Contains(strings.ToLower(name), typeParam) {
			t.Errorf("%v: %q: path group %q has no type group, URL type %q", g, s, path, u.Type)
		}
		path = path[:len(path)-len(last)] + name
	} else if hasType && Typecode(strings.ToLower(typ)[0]) != u.Type {
		t.Errorf("%v: %q: type group %q, URL type %q", g, s, typ, u.Type)
	}
	var dirs []string
	name := ""
	if hasPath {
		segs := strings.Split(path, "/")
		for _, d := range segs[:len(segs)-1] {
			dirs = append(dirs, unescape(d))
		}
		name = unescape(segs[len(segs)-1])
	}
	if !reflect.DeepEqual(dirs, u.Dirs) || name != u.Name {
		t.Errorf("%v: %q: path group %q gives %q %q, URL has %q %q", g, s, path, dirs, name, u.Dirs, u.Name)
	}
}

// checkFindAll checks FindAll against referenceFindAll for every
// grammar, that every match re-parses to the same URL, and n.
func checkFindAll(t *testing.T, text string) {
	t.Helper()
	for _, g := range findGrammars {
		got := g.FindAll(text, -1)
		want := referenceFindAll(g, text)
		if !sameSpans(got, want) {
			t.Errorf("%v: FindAll(%q) = %v, reference finds %v", g, text, spans(text, got), spans(text, want))
			continue
		}
		for _, m := range got {
			u, err := g.Parse(text[m.Start:m.End])
			if err != nil || !reflect.DeepEqual(u, m.URL) {
				t.Errorf("%v: FindAll(%q): %q re-parses to %v, %v; Match.URL %v", g, text, text[m.Start:m.End], u, err, m.URL)
			}
		}
		for n := 0; n <= len(got); n++ {
			if some := g.FindAll(text, n); !sameSpans(some, got[:n]) {
				t.Errorf("%v: FindAll(%q, %d) = %v, want the first %d of %v", g, text, n, spans(text, some), n, spans(text, got))
			}
		}
	}
}

func sameSpans(a, b []Match) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Start != b[i].Start || a[i].End != b[i].End {
			return false
		}
	}
	return true
}

func spans(text string, ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, strconv.Itoa(m.Start)+":"+strconv.Quote(text[m.Start:m.End]))
	}
	return out
}

// FuzzPattern: for every grammar, "^(?:" + g.Pattern() + ")$" matches s
// exactly when g.Parse accepts s, except for hosts that go through IDNA,
// and the named groups hold the parts of the parsed URL.
func FuzzPattern(f *testing.F) {
	for _, s := range patternSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkPattern(t, s)
	})
}

// FuzzFindAll: FindAll finds what the reference finds, every match
// re-parses to the same URL, and n limits the matches.
func FuzzFindAll(f *testing.F) {
	for _, s := range findSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1024 {
			return // the reference is quadratic
		}
		checkFindAll(t, text)
	})
}

// patternSeeds are URLs at the edges of each grammar.
var patternSeeds = []string{
	"ftp://ftp.example.com/pub/file.txt",
	"FTP://User:Pass@Host.Example:021/a/b%2Fc/d;TYPE=I",
	"ftp://host:0/", "ftp://host:65535/", "ftp://host:65536/", "ftp://host:/", "ftp://host:00000000021",
	"ftp://1.2.3.4/", "ftp://1.2.3.256/", "ftp://01.2.3.4/", "ftp://1.2.3.4./", "ftp://host.123/", "ftp://0x7f.1/", "ftp://a.0x/",
	"ftp://[::1]/", "ftp://[2001:db8::1]:21/", "ftp://[::ffff:1.2.3.4]/", "ftp://[1:2:3:4:5:6:7::]/", "ftp://[v1.x]/", "ftp://[fe80::1%25eth0]/",
	"ftp://a:b:c@host/", "ftp://@host/", "ftp://:p@host/", "ftp://u@v@host/", "ftp://u?x@host/",
	"ftp://host/a;type=a", "ftp://host/a;type=d", "ftp://host/a;type=x", "ftp://host/a;type=", "ftp://host/a;type=ab",
	"ftp://host/a;b/c", "ftp://host/a;type=i/b", "ftp://host/x;type=a;type=b", "ftp://host/x;type=ab;type=c", "ftp://host/;type;typ;type=",
	"ftp://host/a?b#c", "ftp://host/a?%00#%00", "ftp://host/%00", "ftp://host/%7F", "ftp://host/%zz", "ftp://host/a b",
	"ftp://host_name/", "ftp://-host/", "ftp://host-/", "ftp://a..b/", "ftp://host./", "ftp://xn--bcher-kva.example/",
	"ftp://a.%31/", "ftp://a.0%78/", "ftp://%2E/", "ftp://a%2E%2Eb/", "ftp://a%2Fb/", "ftp://%5Bx%5D/", "ftp://%31.2.3.4/",
	"ftp://b%C3%BCcher.example/", "ftp://%78n--bcher-kva.example/", "ftp://r3---sn-a.example/", "ftp://b%C3%BCcher_x.example/",
	"ftp://bücher.example/", "ftp://host/é", "ftp://host/\u200e", "ftp://host/\xff", "ftp://h/~abigail/",
	"ftp:/host/", "ftp:host", "http://host/", "ftp://",
	"ftps://host/", "FtPs://u:p@host:990/a;type=d", "ftps://host:21/", "ftps://bücher.example/", "ftps:/host/", "sftp://host/",
}

// findSeeds are texts with URLs as people write them.
var findSeeds = []string{
	"See ftp://ftp.example.com/pub/file.txt.",
	"(ftp://host/a_(b)) and [ftp://host/c] {ftp://host/d}",
	`<a href="ftp://host/x">ftp://host/y</a>`,
	"> > ftp://host/quoted\n> ftp://host/again",
	"<URL:ftp://host/file> 'ftp://host/q' \"ftp://host/dq\"",
	"sftp://no xftp://no a.ftp://no FTP://YES.example/",
	"ftp://host:99999/ ftp://ok/ ftp://h:0/ftp://nested/ok",
	"ftp://bad%0D/,ftp://ok/ ftp://host/a%0Db ftp://1.2.3.4.",
	"ftp://a.example/x, ftp://b.example/y; ftp://c.example/z: done!",
	"ftp://h/x;type=i. ftp://h/?. ftp://h:? ftp://a@.",
	"詳細は ftp://例え.jp/ を参照。ftp://example.jp/pub。",
	"ftps://secure.example/a.txt, sftp://no sftps://no xftps://no FTPS://YES:990/ ftp:ftps://h/",
	"(ftps://h:21/x) ftps://h:0/ftps://nested/ok ftpsftp://no",
}

// FuzzInterop checks the invariants of the docs of FromURL
// and URL.URL for every input, in every grammar that parses it:
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

// FuzzIDNAFastPathMatchesRoundTrip checks that toASCII, which skips the
// way back through ToUnicode where it cannot change the answer, accepts
// and refuses the same hosts as toASCIIFull, the full round trip of
// UTS #46 §4 and RFC 5891 §5.4, and gives the same A-labels.
func FuzzIDNAFastPathMatchesRoundTrip(f *testing.F) {
	for _, h := range idnSeeds {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if !utf8.ValidString(h) {
			return // checkHostName refuses it before toASCII
		}
		got, err := toASCII(h)
		want, wantErr := toASCIIFull(h)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Fatalf("toASCII(%+q) = %q, %v; the full round trip gives %q, %v", h, got, err, want, wantErr)
		}
	})
}

// redactSeeds are inputs for the rule of Error's doc, most of them
// from the package's own tests of it.
var redactSeeds = []string{
	"ftp://user:s3cr3t@h:0/", "ftp://u:p@ss@h:0/", "ftp://u:p:q@h:0/", "ftp://u:@h:0/",
	"ftp://u@h:0/", "ftp://h:0/", "ftp://h:0/a@b", "FTP://U:S3CR3T@H:0/", "ftp://u:pw@h/%zz",
	"http://u:pw@h/", "ftp://u:p/w@h/x%", "ftp://u:pw@h:0/\xff@x", "ftp:/alice:secret@h//x",
	"ftp//alice:secret@host", "alice:secret@host", " alice:secret@host", "ftps://u:pw@h:0/",
	"fTpS:u:pw@h", "ftp:u:pw@h:0", "sftp://u:pw@h/", "ftp://h/a:b@c", "ftp://a@b:c@d/",
	"x+y-z.1:u:pw@h", "1ftp://u:pw@h", "ftp://u:pw@h/%", "ftp://u:pw@h/ok", "ftp://h/",
	"ftp:\\\\u:pw@h\\", "ftp://u:" + strings.Repeat("p", 300) + "@h:0/", "@", ":@", "ftp:@:",
}

// Redact hides what Error.URL hides: on every input, parsed or not, it
// gives redactedByRule, the rule of Error.URL written from its words
// (RFC 3986 §3.1, §3.2.1), which checkErrorURL holds Error.URL to.
func FuzzRedactAgreesWithError(f *testing.F) {
	for _, s := range redactSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Redact(s), redactedByRule(s); got != want {
			t.Errorf("Redact(%q) = %q; the rule of Error.URL gives %q", s, got, want)
		}
		// A URL that parses with a password has it hidden.
		for _, g := range allGrammars {
			if u, err := g.Parse(s); err == nil && u.User != nil {
				if _, ok := u.User.Password(); ok && Redact(s) == s {
					t.Errorf("%v.Parse(%q) has a password, but redactInput hides nothing", g, s)
				}
			}
		}
	})
}
