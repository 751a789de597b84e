package ftpurl

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// ParseInto's fast way (fastpath.go) must give the parser's results,
// and take the inputs it is for: the README's ParseInto figures rest on
// it.

// fastStates are URL values as ParseInto meets them: the zero URL (no
// Dirs array yet), one that a parse left with directories, an upper- or
// lower-case host and a Userinfo, and one whose array has room to
// spare. Each call gets its own copy (cloneURL).
func fastStates() []URL {
	spare := make([]string, 2, 16)
	spare[0], spare[1] = "x", "y"
	return []URL{
		{},
		{Scheme: "ftp", User: UserPassword("old", "secret"), Host: "old.example", Dirs: []string{"a", "b", "c"}, Name: "n", Type: 'i', RawQuery: "q", Fragment: "f"},
		{Scheme: "ftps", Host: "host.example", Port: 990, Dirs: spare, Name: "f"},
		{Host: "mirror.example", Dirs: []string{}},
	}
}

// cloneURL returns a copy of u with its own Dirs array, of the same
// length and capacity.
func cloneURL(u URL) URL {
	if u.Dirs != nil {
		d := make([]string, len(u.Dirs), cap(u.Dirs))
		copy(d, u.Dirs)
		u.Dirs = d
	}
	return u
}

// sameURL reports how the fields of got differ from want's: every field,
// Dirs with its nil-ness and capacity, and the Userinfo's value.
func sameURL(want, got *URL) string {
	var diff []string
	if want.Scheme != got.Scheme || want.Host != got.Host || want.Port != got.Port ||
		want.Name != got.Name || want.Type != got.Type || want.RawQuery != got.RawQuery || want.Fragment != got.Fragment {
		diff = append(diff, "fields")
	}
	if (want.User == nil) != (got.User == nil) || want.User != nil && *want.User != *got.User {
		diff = append(diff, "User")
	}
	if (want.Dirs == nil) != (got.Dirs == nil) || !slices.Equal(want.Dirs, got.Dirs) || cap(want.Dirs) != cap(got.Dirs) {
		diff = append(diff, "Dirs")
	}
	if len(diff) == 0 {
		return ""
	}
	return strings.Join(diff, ", ") + ": want " + dumpURL(want) + ", got " + dumpURL(got)
}

func dumpURL(u *URL) string {
	return fmt.Sprintf("{%q user %p %q %d dirs %q (cap %d, nil %v) %q %q %q %q}",
		u.Scheme, u.User, u.Host, u.Port, u.Dirs, cap(u.Dirs), u.Dirs == nil, u.Name, u.Type, u.RawQuery, u.Fragment)
}

// checkFastPath runs ParseInto's way (parseIntoFast, then the parser
// from where it stopped) and the parser alone on copies of state, and
// fails unless both give the same URL or the same error: every field,
// the Dirs array reused the same way and zero past its length, the
// Userinfo kept or replaced alike; and unless parseIntoFast, where it
// declines, left every field as it was. It reports whether the fast way
// read the whole URL, and whether it read the scheme and the authority.
func checkFastPath(t *testing.T, g Grammar, s string, state URL) (whole, authority bool) {
	t.Helper()
	fast, slow := cloneURL(state), cloneURL(state)
	var rest fastRest
	whole = parseIntoFast(g.rules(), &fast, s, &rest)
	var err error
	if !whole {
		if len(fast.Dirs) != len(state.Dirs) || cap(fast.Dirs) != cap(state.Dirs) || (fast.Dirs == nil) != (state.Dirs == nil) {
			t.Fatalf("%v %q: parseIntoFast declined but changed Dirs from len %d cap %d to len %d cap %d", g, s, len(state.Dirs), cap(state.Dirs), len(fast.Dirs), cap(fast.Dirs))
		}
		// Only the elements of Dirs may have changed: the parser
		// overwrites or clears each of them.
		was, now := state, fast
		was.Dirs, now.Dirs = nil, nil
		if diff := sameURL(&was, &now); diff != "" || fast.User != state.User {
			t.Fatalf("%v %q: parseIntoFast declined but changed the URL: %s", g, s, diff)
		}
		err = parseIntoParser(g, &fast, s, &rest)
	}
	slowErr := parseIntoParser(g, &slow, s, &fastRest{})
	switch {
	case whole && slowErr != nil:
		t.Fatalf("%v %q: parseIntoFast accepted what the parser refuses: %v", g, s, slowErr)
	case (err == nil) != (slowErr == nil) || err != nil && err.Error() != slowErr.Error():
		t.Fatalf("%v %q: from where parseIntoFast stopped (%+v) the parser says %v, from the start %v", g, s, rest, err, slowErr)
	}
	if diff := sameURL(&slow, &fast); diff != "" || (fast.User == state.User) != (slow.User == state.User) {
		t.Fatalf("%v %q: ParseInto's way (whole %v, authority %v) differs from the parser's: %s", g, s, whole, rest.ok, diff)
	}
	if tail := fast.Dirs[len(fast.Dirs):cap(fast.Dirs)]; slices.ContainsFunc(tail, func(d string) bool { return d != "" }) {
		t.Fatalf("%v %q: the Dirs array past len holds %q", g, s, tail)
	}
	return whole, whole || rest.ok
}

// FuzzParseIntoFastMatchesParser holds ParseInto's fast way to the
// parser: on every input, in every grammar, from every state of
// fastStates, ParseInto's way gives exactly what parseIntoParser gives
// alone; and splitPathLenient finds what splitPath finds.
func FuzzParseIntoFastMatchesParser(f *testing.F) {
	for _, s := range fuzzParseSeeds {
		f.Add(s)
	}
	for _, ex := range seedExamples {
		f.Add(ex.in)
	}
	for _, s := range fastPathTaken {
		f.Add(s)
	}
	for _, c := range fastPathDeclined {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range allGrammars {
			for _, state := range fastStates() {
				checkFastPath(t, g, s, state)
			}
		}
		checkSplitPath(t, s, 0)
	})
}

// fastPathTaken are URLs that Lenient and RFC3986 read the fast way
// into a URL value that has a Dirs array.
var fastPathTaken = []string{
	"ftp://ftp.freebsd.org/pub/FreeBSD/",
	"ftp://ftp4.jp.FreeBSD.org/pub/FreeBSD-jp/ports-jp/LOCAL_PORTS/", // upper case: plainName lowers it
	"ftp://old.EXAMPLE/a",                                            // the host in *u already, in another case
	"ftp://h",                                                        // no path (2011 draft §3.2.3)
	"ftp://h/",                                                       // a listing of the login directory
	"ftp://h:2121/a/b/c.txt",                                         // a port (RFC 3986 §3.2.3)
	"ftp://h:0021/f",                                                 // leading zeros (parser.port)
	"ftp://h:65535/f",                                                // the highest port
	"ftp://h//a//",                                                   // null segments (RFC 1738 §3.2.2)
	"ftp://h.example./f",                                             // a final dot (RFC 3986)
	"ftp://my_host-1.example/f",                                      // "_" (every grammar's labels)
	"ftp://h/" + strings.Repeat("d/", 14) + "f",                      // the most directories it splits, more than the parser's array
}

// fastPathDeclined are URLs that the fast way does not read whole, with
// what makes each one other; resumes when it reads the scheme and the
// authority, and the parser goes on from the path segment it stopped in.
var fastPathDeclined = []struct {
	in, why string
	resumes bool
}{
	{"FTP://h/", "the scheme in upper case", false},
	{"ftps://h/", "ftps", false},
	{"ftp://u@h/", "userinfo", false},
	{"ftp://[::1]/", "an IP literal", false},
	{"ftp://127.0.0.1/", "a numeric host", false},
	{"ftp://xn--bcher-kva.example/", "an A-label (RFC 5890 §2.3.2.1)", false},
	{"ftp://bücher.example/", "a U-label", false},
	{"ftp://a..b/", "an empty label", false},
	{"ftp:///f", "no host", false},
	{"ftp://h:/f", "an empty port", false},
	{"ftp://h:0/f", "port 0", false},
	{"ftp://h:65536/f", "a port over 65535", false},
	{"ftp://h:2x/f", "a port that is not a number", false},
	{"ftp://h:21:22/", "two colons", false},
	{"ftp://h%41/", "an escape in the host", false},
	{"ftp://h/a%2Fb", "an escape (RFC 1738 §3.2.2)", true},
	{"ftp://h/d/e/f;type=i", "a typecode (2011 draft §3.1)", true},
	{"ftp://h/a;b/c", "a \";\"", true},
	{"ftp://h/f?q", "a query", true},
	{"ftp://h/f#x", "a fragment", true},
	{"ftp://h?q", "a query after the host", true},
	{"ftp://h:21#x", "a fragment after the port", true},
	{"ftp://h/a/b c\x00", "a control character", true},
	{"ftp://h/d/é", "raw UTF-8 (an IRI)", true},
	{"ftp://h/d/%", "a bad escape", true},
	{"ftp://h/" + strings.Repeat("d/", 15) + "f", "more directories than maxFastDirs", true},
}

// TestParseIntoFastPath: the fast way reads the common shapes whole,
// reads the authority of URLs whose path is other and hands them to the
// parser, leaves the others to it, and always gives the parser's
// results.
func TestParseIntoFastPath(t *testing.T) {
	for _, g := range []Grammar{Lenient, RFC3986} {
		for _, s := range fastPathTaken {
			if whole, _ := checkFastPath(t, g, s, fastStates()[1]); !whole {
				t.Errorf("%v %q: the fast way did not read it whole", g, s)
			}
		}
		for _, c := range fastPathDeclined {
			for _, state := range fastStates() {
				whole, authority := checkFastPath(t, g, c.in, state)
				if whole || authority != c.resumes {
					t.Errorf("%v %q (%s): the fast way read it whole: %v, its authority: %v; want false, %v", g, c.in, c.why, whole, authority, c.resumes)
				}
			}
		}
	}
	// RFC 1738 and RFC 2396 check hosts more strictly than plainName
	// (RFC 1738 §5 hostname): the parser reads them all.
	for _, g := range []Grammar{RFC1738, RFC2396} {
		for _, s := range append(slices.Clone(fastPathTaken), "ftp://h/a%2Fb") {
			if _, authority := checkFastPath(t, g, s, fastStates()[1]); authority {
				t.Errorf("%v %q: the fast way read it", g, s)
			}
		}
	}
	// Into the zero URL, which has no array for directories, the fast
	// way makes one as the parser does (max(directories, 8)); where the
	// parser reads on, it leaves the array to it.
	for _, c := range []struct {
		in               string
		whole, authority bool
	}{
		{"ftp://h/a/b", true, true},
		{"ftp://h/b", true, true},
		{"ftp://h/" + strings.Repeat("d/", 12) + "f", true, true},
		{"ftp://h/a/b%41", false, true},
		{"ftp://h/a/b;type=i", false, true},
	} {
		if whole, authority := checkFastPath(t, Lenient, c.in, URL{}); whole != c.whole || authority != c.authority {
			t.Errorf("Lenient %q into the zero URL: whole %v, authority %v; want %v, %v", c.in, whole, authority, c.whole, c.authority)
		}
	}
}

// TestParseIntoFastPathTakesFreeBSDCorpus: every URL of the FreeBSD
// mirror corpus, which the README's ParseInto figure measures, takes the
// fast way whole once the URL value has a Dirs array, with the parser's
// results.
func TestParseIntoFastPathTakesFreeBSDCorpus(t *testing.T) {
	u := fastStates()[1]
	for _, s := range readCorpus(t, "testdata/freebsd-mirrors.txt") {
		if whole, _ := checkFastPath(t, Lenient, s, u); !whole {
			t.Errorf("%q: the fast way did not read it whole", s)
		}
		if err := Lenient.ParseInto(&u, s); err != nil {
			t.Fatal(err)
		}
	}
}

// TestParseIntoFastPathOnMixedCorpus: on the mixed corpus, every URL
// gives the parser's results through ParseInto's way, from the URL value
// the one before it left; and the share that the fast way reads whole or
// hands on after the authority is what docs/performance.md states.
func TestParseIntoFastPathOnMixedCorpus(t *testing.T) {
	u := fastStates()[1]
	urls := readCorpus(t, "testdata/mixed.txt")
	var whole, authority int
	for _, s := range urls {
		w, a := checkFastPath(t, Lenient, s, u)
		if w {
			whole++
		}
		if a && !w {
			authority++
		}
		if err := Lenient.ParseInto(&u, s); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("mixed corpus: %d of %d URLs read whole the fast way, %d handed to the parser after the authority", whole, len(urls), authority)
	if whole != 109 || authority != 97 {
		t.Errorf("mixed corpus: %d URLs read whole, %d after the authority; docs/performance.md says 109 and 97", whole, authority)
	}
}

// checkSplitPath fails unless splitPathLenient, eight bytes a step,
// finds in s from offset i what splitPath finds a byte at a time with
// Lenient's class: the same end, as many "/", at the same offsets.
func checkSplitPath(t *testing.T, s string, i int) {
	t.Helper()
	var want, got [maxFastDirs + 1]int32
	wantEnd, wantN := splitPath(s, i, lenientSeg, &want, 0)
	gotEnd, gotN := splitPathLenient(s, i, &got)
	if gotEnd != wantEnd || gotN != wantN || wantN <= maxFastDirs && !slices.Equal(want[:wantN], got[:gotN]) {
		t.Fatalf("%q from %d: splitPathLenient found end %d, %d slashes %v; splitPath end %d, %d slashes %v",
			s, i, gotEnd, gotN, got[:min(gotN, len(got))], wantEnd, wantN, want[:min(wantN, len(want))])
	}
}

// TestSplitPathLenient: every byte value, at every offset of a word and
// of the tail, stops splitPathLenient (or not) as it stops splitPath
// (Lenient's path class, cPathLenient, with "/" splitting segments).
func TestSplitPathLenient(t *testing.T) {
	const path = "/pub/FreeBSD/ports/distfiles/" // 29 bytes: three words and a tail
	for b := 0; b < 256; b++ {
		for at := 0; at < len(path); at++ {
			s := []byte(path)
			s[at] = byte(b)
			for i := 0; i < 9; i++ {
				checkSplitPath(t, string(s), i)
			}
		}
	}
	for _, s := range []string{"", "/", "////////////////////////////////", "/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q", "/é/x", "/a b/%41/c"} {
		checkSplitPath(t, s, 0)
	}
}
