package ftpurl

// The allocation budgets, held by testing.AllocsPerRun so
// that they cannot regress, and the proof that ASCII host names never
// reach idna (checkHostName's doc).

import (
	"strings"
	"testing"
)

// allocRuns is how many runs AllocsPerRun averages.
const allocRuns = 100

// withinBudget reports whether a raw URL is one the budget of one
// allocation per Parse covers: it has no escape, its host is already in
// the form Parse gives (lower case; an IPv6 literal in RFC 5952 form),
// and it has at most eight directories. Hosts with an "xn--" label are
// left out: Parse sends them through idna, which allocates.
func withinBudget(raw string, u *URL) bool {
	host := rawHostOf(raw)
	if strings.HasPrefix(host, "[") {
		host = strings.Trim(host, "[]")
	}
	return !strings.Contains(raw, "%") && host == u.Host && !hasXNLabel(host) && len(u.Dirs) <= 8
}

// TestParseAllocatesOnceWithinBudget holds the budget: at most
// one allocation per Parse when the URL has no escape, its host is
// already lower case, and it has at most four directories (the URL,
// its Userinfo and four directories share one allocation).
func TestParseAllocatesOnceWithinBudget(t *testing.T) {
	for _, s := range []string{
		"ftp://ftp.freebsd.org",
		"ftp://ftp.freebsd.org/",
		"ftp://ftp.freebsd.org/pub/FreeBSD/ports/distfiles/gcc-4.8.2.tar.bz2", // four directories
		"ftp://ftp.freebsd.org/pub/FreeBSD/ports/distfiles/",
		"ftp://user:secret@ftp.example.org:2121/pub/file.txt;type=i",
		"ftp://@ftp.example.org/a/b/",
		"ftp://anonymous:@ftp.example.org/a//b/;TYPE=D",
		"FTP://ftp.example.org./pub/../README",
		"ftp://192.0.2.1/pub/",
		"ftp://[2001:db8::1]/pub/",
		"ftp://ftp.example.org/pub/README?raw=1#top",
		"ftp://ftp.example.org/café/文書.txt",                 // raw UCS: Lenient, nothing to decode
		"ftp://ftp.example.org/My Documents/a;b.txt;type=a", // raw space and ";" as data
		// Scheme is the name in the rules, whatever the input's case.
		"FTPS://user:secret@ftp.example.org:990/pub/file.txt",
	} {
		if _, err := Parse(s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
			continue
		}
		if n := testing.AllocsPerRun(allocRuns, func() { sinkURL, _ = Parse(s) }); n > 1 {
			t.Errorf("Parse(%q): %v allocations, want at most 1", s, n)
		}
	}
}

// TestParseAllocatesOnceOnCorpora holds the same budget on every URL
// of both benchmark corpora that it covers.
func TestParseAllocatesOnceOnCorpora(t *testing.T) {
	for _, c := range benchCorpora {
		urls := readCorpus(t, c.file)
		covered := 0
		for i, u := range parseCorpus(t, urls) {
			s := urls[i]
			if !withinBudget(s, u) {
				continue
			}
			covered++
			if n := testing.AllocsPerRun(allocRuns, func() { sinkURL, _ = Parse(s) }); n > 1 {
				t.Errorf("%s:%d: Parse(%q): %v allocations, want at most 1", c.file, i+1, s, n)
			}
		}
		// The test must test something: a good share of each corpus.
		if covered < len(urls)/3 {
			t.Errorf("%s: only %d of %d URLs within the budget", c.file, covered, len(urls))
		}
	}
}

// ParseInto's contract: no allocation at all for a URL whose segments
// and userinfo hold no escape and whose host needs no IDNA (an upper-case
// host is the host already in *u), once u.Dirs has room: on every such
// URL of both corpora, with the URL value reused as a crawler would.
func TestParseIntoAllocatesNothingOnCorpora(t *testing.T) {
	for _, c := range benchCorpora {
		urls := readCorpus(t, c.file)
		covered := 0
		var u URL
		for i, s := range urls {
			host := rawHostOf(s)
			if strings.ContainsAny(s, "%[") || hasNonASCII(s) || hasXNLabel(host) {
				continue
			}
			covered++
			if n := testing.AllocsPerRun(allocRuns, func() { sinkErr = Lenient.ParseInto(&u, s) }); n != 0 || sinkErr != nil {
				t.Errorf("%s:%d: ParseInto(%q): %v allocations, error %v; want none", c.file, i+1, s, n, sinkErr)
			}
		}
		if covered < len(urls)/3 {
			t.Errorf("%s: only %d of %d URLs covered", c.file, covered, len(urls))
		}
	}
}

// What ParseInto may allocate: the first array for u.Dirs and the first
// Userinfo, a decoded escape, a lowered host new to *u; never more.
func TestParseIntoAllocatesOnlyWhatItMust(t *testing.T) {
	for _, tt := range []struct {
		why   string
		url   string
		fresh bool // a new URL value each run
		max   float64
	}{
		{"the first directories and userinfo of a fresh URL", "ftp://u:p@h.example/a/b/f", true, 2},
		{"a fresh URL without directories or userinfo", "ftp://h.example/f", true, 0},
		{"an ftps URL in any case: Scheme is the rules' name", "FtPs://h.example:990/a/b/f", false, 0},
		{"an escaped segment is decoded", "ftp://h.example/a/My%20Documents/f", false, 1},
		{"an escaped password is decoded", "ftp://u:p%40ss@h.example/f", false, 1},
		{"more directories than u.Dirs holds grow it once", "ftp://h.example/" + strings.Repeat("d/", 40) + "f", false, 0},
	} {
		var u URL
		n := testing.AllocsPerRun(allocRuns, func() {
			if tt.fresh {
				u = URL{}
			}
			sinkErr = Lenient.ParseInto(&u, tt.url)
		})
		if sinkErr != nil || n > tt.max {
			t.Errorf("%s: ParseInto(%q): %v allocations, error %v; want at most %v", tt.why, tt.url, n, sinkErr, tt.max)
		}
	}
}

// TestParseAllocationsBeyondBudget holds what each thing outside the
// budget costs: one more allocation, never more.
func TestParseAllocationsBeyondBudget(t *testing.T) {
	for _, tt := range []struct {
		why  string
		url  string
		max  float64
		host string
	}{
		{"upper-case host is lowered", "ftp://FTP.FreeBSD.org/pub/", 2, "ftp.freebsd.org"},
		{"nine directories outgrow the eight in the URL's allocation", "ftp://h.example/a/b/c/d/e/f/g/h/i/f", 2, "h.example"},
		{"an escaped segment is decoded", "ftp://h.example/a/My%20Documents/f", 2, "h.example"},
		{"an escaped name is decoded", "ftp://h.example/a/%E9t%E9.txt", 2, "h.example"},
	} {
		u, err := Parse(tt.url)
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", tt.why, tt.url, err)
			continue
		}
		if u.Host != tt.host {
			t.Errorf("%s: Parse(%q).Host = %q, want %q", tt.why, tt.url, u.Host, tt.host)
		}
		if n := testing.AllocsPerRun(allocRuns, func() { sinkURL, _ = Parse(tt.url) }); n > tt.max {
			t.Errorf("%s: Parse(%q): %v allocations, want at most %v", tt.why, tt.url, n, tt.max)
		}
	}
}

// TestStringAllocatesOnce holds the budget for String: one
// allocation (the result), whatever the parsed URL holds, IPv6 hosts,
// escapes and IRIs included. Redacted is String with the password
// replaced, and is held to the same budget.
func TestStringAllocatesOnce(t *testing.T) {
	for _, c := range benchCorpora {
		for i, u := range parseCorpus(t, readCorpus(t, c.file)) {
			if n := testing.AllocsPerRun(allocRuns, func() { sinkString = u.String() }); n > 1 {
				t.Errorf("%s:%d: String() of %q: %v allocations, want at most 1", c.file, i+1, u.String(), n)
			}
			if n := testing.AllocsPerRun(allocRuns, func() { sinkString = u.Redacted() }); n > 1 {
				t.Errorf("%s:%d: Redacted() of %q: %v allocations, want at most 1", c.file, i+1, u.Redacted(), n)
			}
		}
	}
}

// countIDNA replaces lookupToASCII, the core's one way into idna, with
// a counting wrapper until the test ends. Tests that use it must not
// call t.Parallel: the variable is global.
func countIDNA(t *testing.T) *int {
	t.Helper()
	calls := new(int)
	orig := lookupToASCII
	lookupToASCII = func(s string) (string, error) {
		*calls++
		return orig(s)
	}
	idnaCacheOn = false // a cached name would not reach idna
	t.Cleanup(func() { lookupToASCII, idnaCacheOn = orig, true })
	return calls
}

// TestASCIIHostsNeverReachIDNA proves checkHostName's doc: an
// ASCII name with no label beginning "xn--" (any case) is lower-cased
// and never reaches idna, in every grammar, whether it was written raw
// or percent-encoded, and also when String normalizes a host set by
// hand.
func TestASCIIHostsNeverReachIDNA(t *testing.T) {
	calls := countIDNA(t)
	for _, tt := range []struct {
		g    Grammar
		url  string
		host string
	}{
		{Lenient, "ftp://ftp.example.org/", "ftp.example.org"},
		{Lenient, "ftp://FTP.Example.ORG/pub/", "ftp.example.org"},
		{Lenient, "ftp://a_b.example/", "a_b.example"},
		{Lenient, "ftp://ab--cd.example/", "ab--cd.example"}, // "--" but not "xn--" at a label's start
		{Lenient, "ftp://axn--b.example/", "axn--b.example"}, // "xn--" inside a label
		{Lenient, "ftp://xn-b.example./", "xn-b.example."},   // not the ACE prefix
		{Lenient, "ftp://ex%61mple.org/", "example.org"},     // percent-encoded ASCII (RFC 3986 §3.2.2)
		{Lenient, "ftp://a%5Fb.example/", "a_b.example"},     // the same name as "a_b.example"
		{RFC3986, "ftp://EX%41MPLE.org/", "example.org"},     // reg-name may be percent-encoded
		{Lenient, "ftp://192.0.2.1/", "192.0.2.1"},           // dotted quad
		{Lenient, "ftp://[2001:DB8::1]/", "2001:db8::1"},     // IPv6 literal
		{RFC1738, "ftp://ftp.Example.org/pub;type=d", "ftp.example.org"},
		{RFC2396, "ftp://ftp.example.org/pub/", "ftp.example.org"},
		{RFC3986, "ftp://user@ftp.example.org:2121/", "ftp.example.org"},
	} {
		*calls = 0
		u, err := tt.g.Parse(tt.url)
		if err != nil {
			t.Errorf("%v.Parse(%q): %v", tt.g, tt.url, err)
		} else if u.Host != tt.host {
			t.Errorf("%v.Parse(%q).Host = %q, want %q", tt.g, tt.url, u.Host, tt.host)
		}
		if *calls != 0 {
			t.Errorf("%v.Parse(%q) called idna %d times, want 0", tt.g, tt.url, *calls)
		}
	}

	// Every host of the FreeBSD corpus is an ASCII name or a dotted quad.
	*calls = 0
	us := parseCorpus(t, readCorpus(t, "testdata/freebsd-mirrors.txt"))
	if *calls != 0 {
		t.Errorf("parsing testdata/freebsd-mirrors.txt called idna %d times, want 0", *calls)
	}
	*calls = 0
	for _, u := range us {
		sinkString = u.String()
	}
	if *calls != 0 {
		t.Errorf("String of the FreeBSD corpus called idna %d times, want 0", *calls)
	}

	// A host set by hand is normalized by String (URL.String's doc):
	// lower-casing an ASCII name needs no idna either.
	for _, tt := range []struct{ host, want string }{
		{"FTP.Example.ORG", "ftp://ftp.example.org/"},
		{"ftp.example.org", "ftp://ftp.example.org/"},
	} {
		*calls = 0
		if got := (URL{Host: tt.host}).String(); got != tt.want {
			t.Errorf("URL{Host: %q}.String() = %q, want %q", tt.host, got, tt.want)
		}
		if *calls != 0 {
			t.Errorf("URL{Host: %q}.String() called idna %d times, want 0", tt.host, *calls)
		}
	}
}

// TestIDNHostsReachIDNA is the other half of the proof: the counting
// wrapper does see the names that must go through idna (UTS #46
// §4 through idna.Lookup.ToASCII: any other name), Unicode
// (2011 draft §6), percent-encoded UTF-8 (RFC 3986 §3.2.2) and "xn--"
// in any case (RFC 5890 §2.3.2.1).
func TestIDNHostsReachIDNA(t *testing.T) {
	calls := countIDNA(t)
	for _, tt := range []struct {
		g    Grammar
		url  string
		host string
	}{
		{Lenient, "ftp://bücher.example/", "xn--bcher-kva.example"},
		{Lenient, "ftp://FTP.Bücher.example/", "ftp.xn--bcher-kva.example"},
		{Lenient, "ftp://b%C3%BCcher.example/", "xn--bcher-kva.example"},
		{RFC3986, "ftp://b%C3%BCcher.example/", "xn--bcher-kva.example"},
		{Lenient, "ftp://xn--bcher-kva.example/", "xn--bcher-kva.example"},
		{Lenient, "ftp://ftp.XN--bcher-kva.example/", "ftp.xn--bcher-kva.example"},
		{RFC1738, "ftp://xn--bcher-kva.example/", "xn--bcher-kva.example"},
		{RFC2396, "ftp://ftp.xn--bcher-kva.example/", "ftp.xn--bcher-kva.example"},
	} {
		*calls = 0
		u, err := tt.g.Parse(tt.url)
		if err != nil {
			t.Errorf("%v.Parse(%q): %v", tt.g, tt.url, err)
		} else if u.Host != tt.host {
			t.Errorf("%v.Parse(%q).Host = %q, want %q", tt.g, tt.url, u.Host, tt.host)
		}
		if *calls == 0 {
			t.Errorf("%v.Parse(%q) never called idna, want at least once", tt.g, tt.url)
		}
	}
	// An invalid A-label is refused by idna, so it must have been asked.
	*calls = 0
	if _, err := Parse("ftp://xn--a.example/"); err == nil {
		t.Errorf(`Parse("ftp://xn--a.example/") succeeded, want ErrHost from idna`)
	}
	if *calls == 0 {
		t.Errorf(`Parse("ftp://xn--a.example/") never called idna, want at least once`)
	}
}

// ParseInto's doc: a URL with fewer directories than the last one keeps
// no segment of the earlier input alive in the reused array.
func TestParseIntoKeepsNoStaleSegments(t *testing.T) {
	var u URL
	if err := Lenient.ParseInto(&u, "ftp://h/a/b/c/d/e/f/g/f.txt"); err != nil {
		t.Fatal(err)
	}
	if err := Lenient.ParseInto(&u, "ftp://h/x/f.txt"); err != nil {
		t.Fatal(err)
	}
	if len(u.Dirs) != 1 || u.Dirs[0] != "x" {
		t.Fatalf("Dirs %q, want [x]", u.Dirs)
	}
	for i, d := range u.Dirs[1:cap(u.Dirs)] {
		if d != "" {
			t.Errorf("Dirs array slot %d still holds %q", i+1, d)
		}
	}
}

// ParseInto's doc and Userinfo's: ParseInto never writes into a
// Userinfo, so one that a caller kept from an earlier call, or that
// another URL shares, keeps its user and password; the same userinfo
// again keeps the same Userinfo, which is what makes a reused URL value
// allocate nothing.
func TestParseIntoNeverChangesASharedUserinfo(t *testing.T) {
	parsed := MustParse("ftp://alice:secret@h.example/f")
	u := URL{User: parsed.User}
	if err := Lenient.ParseInto(&u, "ftp://bob:other@h.example/f"); err != nil {
		t.Fatal(err)
	}
	if got, _ := parsed.User.Password(); parsed.User.Username() != "alice" || got != "secret" {
		t.Errorf("the Parse result's Userinfo became %q, %q", parsed.User.Username(), got)
	}
	kept := u.User
	if err := Lenient.ParseInto(&u, "ftp://carol@h.example/f"); err != nil {
		t.Fatal(err)
	}
	if got, _ := kept.Password(); kept.Username() != "bob" || got != "other" {
		t.Errorf("a Userinfo kept from the last call became %q, %q", kept.Username(), got)
	}
	if u.User.Username() != "carol" {
		t.Errorf("User %q, want carol", u.User.Username())
	}
	same := u.User
	if err := Lenient.ParseInto(&u, "ftp://carol@other.example/g"); err != nil {
		t.Fatal(err)
	}
	if u.User != same {
		t.Errorf("the same userinfo got a new Userinfo")
	}
}
