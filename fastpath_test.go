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
// Dirs with its nil-ness and capacity, and the User pointer.
func sameURL(want, got *URL) string {
	var diff []string
	if want.Scheme != got.Scheme || want.User != got.User || want.Host != got.Host || want.Port != got.Port ||
		want.Name != got.Name || want.Type != got.Type || want.RawQuery != got.RawQuery || want.Fragment != got.Fragment {
		diff = append(diff, "fields")
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

// checkFastPath runs parseIntoFast and the parser on copies of state,
// and fails unless the fast way, where it answers, gives exactly what
// the parser gives (every field, the Dirs array reused the same way,
// no error), and where it declines, leaves the URL as it was and the
// array's unused part zero. It reports whether the fast way answered.
func checkFastPath(t *testing.T, g Grammar, s string, state URL) bool {
	t.Helper()
	fast, slow := cloneURL(state), cloneURL(state)
	ok := parseIntoFast(g.rules(), &fast, s)
	if tail := fast.Dirs[len(fast.Dirs):cap(fast.Dirs)]; slices.ContainsFunc(tail, func(d string) bool { return d != "" }) {
		t.Fatalf("%v %q: after parseIntoFast (%v) the Dirs array past len holds %q", g, s, ok, tail)
	}
	if !ok {
		// Only the elements of Dirs may have changed: parseIntoParser
		// overwrites or clears each of them.
		if len(fast.Dirs) != len(state.Dirs) || cap(fast.Dirs) != cap(state.Dirs) || (fast.Dirs == nil) != (state.Dirs == nil) {
			t.Fatalf("%v %q: parseIntoFast declined but changed Dirs from len %d cap %d to len %d cap %d", g, s, len(state.Dirs), cap(state.Dirs), len(fast.Dirs), cap(fast.Dirs))
		}
		want := state
		want.Dirs, fast.Dirs = nil, nil
		if diff := sameURL(&want, &fast); diff != "" {
			t.Fatalf("%v %q: parseIntoFast declined but changed the URL: %s", g, s, diff)
		}
		return false
	}
	if err := parseIntoParser(g, &slow, s); err != nil {
		t.Fatalf("%v %q: parseIntoFast accepted what the parser refuses: %v", g, s, err)
	}
	if diff := sameURL(&slow, &fast); diff != "" {
		t.Fatalf("%v %q: parseIntoFast differs from the parser: %s", g, s, diff)
	}
	return true
}

// FuzzParseIntoFastMatchesParser holds ParseInto's fast way to the
// parser: on every input, in every grammar, from every state of
// fastStates, it answers exactly as parseIntoParser or not at all.
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
	"ftp://h/" + strings.Repeat("d/", 40) + "f",                      // more directories than the array holds
}

// fastPathDeclined are URLs that the fast way leaves to the parser,
// with what makes each one other.
var fastPathDeclined = []struct{ in, why string }{
	{"FTP://h/", "the scheme in upper case"},
	{"ftps://h/", "ftps"},
	{"ftp://u@h/", "userinfo"},
	{"ftp://h/a%2Fb", "an escape (RFC 1738 §3.2.2)"},
	{"ftp://h/f;type=i", "a typecode (2011 draft §3.1)"},
	{"ftp://h/a;b/c", "a \";\""},
	{"ftp://h/f?q", "a query"},
	{"ftp://h/f#x", "a fragment"},
	{"ftp://h?q", "a query after the host"},
	{"ftp://[::1]/", "an IP literal"},
	{"ftp://127.0.0.1/", "a numeric host"},
	{"ftp://xn--bcher-kva.example/", "an A-label (RFC 5890 §2.3.2.1)"},
	{"ftp://bücher.example/", "a U-label"},
	{"ftp://a..b/", "an empty label"},
	{"ftp:///f", "no host"},
	{"ftp://h:/f", "an empty port"},
	{"ftp://h:0/f", "port 0"},
	{"ftp://h:65536/f", "a port over 65535"},
	{"ftp://h:2x/f", "a port that is not a number"},
	{"ftp://h/a b\x00", "a control character"},
	{"ftp://h/é", "raw UTF-8 (an IRI)"},
	{"ftp://h:21:22/", "two colons"},
}

// TestParseIntoFastPath: the fast way takes the common shapes, with the
// parser's results, and declines every other.
func TestParseIntoFastPath(t *testing.T) {
	for _, g := range []Grammar{Lenient, RFC3986} {
		for _, s := range fastPathTaken {
			if !checkFastPath(t, g, s, fastStates()[1]) {
				t.Errorf("%v %q: the fast way declined it", g, s)
			}
		}
	}
	for _, g := range allGrammars {
		for _, c := range fastPathDeclined {
			for _, state := range fastStates() {
				if checkFastPath(t, g, c.in, state) {
					t.Errorf("%v %q (%s): the fast way took it", g, c.in, c.why)
				}
			}
		}
	}
	// RFC 1738 and RFC 2396 check hosts more strictly than plainName
	// (RFC 1738 §5 hostname): the parser reads them all.
	for _, g := range []Grammar{RFC1738, RFC2396} {
		if checkFastPath(t, g, "ftp://h.example/a/b", fastStates()[1]) {
			t.Errorf("%v: the fast way took a URL", g)
		}
	}
	// The zero URL has no array for directories: the parser sizes it.
	if checkFastPath(t, Lenient, "ftp://h/a/b", URL{}) {
		t.Error(`Lenient "ftp://h/a/b" into the zero URL: the fast way took it`)
	}
	if !checkFastPath(t, Lenient, "ftp://h/b", URL{}) {
		t.Error(`Lenient "ftp://h/b" into the zero URL: the fast way declined a URL without directories`)
	}
}

// TestParseIntoFastPathTakesFreeBSDCorpus: every URL of the FreeBSD
// mirror corpus, which the README's ParseInto figure measures, takes the
// fast way once the URL value has a Dirs array, with the parser's
// results.
func TestParseIntoFastPathTakesFreeBSDCorpus(t *testing.T) {
	u := fastStates()[1]
	for _, s := range readCorpus(t, "testdata/freebsd-mirrors.txt") {
		if !checkFastPath(t, Lenient, s, u) {
			t.Errorf("%q: the fast way declined it", s)
		}
		if err := Lenient.ParseInto(&u, s); err != nil {
			t.Fatal(err)
		}
	}
}
