package ftpurl

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Tests of Grammar.FindAll (FindAll's doc).
// The fuzz target FuzzFindAll is in fuzz_test.go, the reference
// implementation in slow_test.go.

type findCase struct {
	name string
	text string
	want []string // the URLs found, in order, as they appear in text
}

// checkFindCases checks that g.FindAll finds exactly want in each text,
// at the offsets where they appear, and agrees with the reference.
func checkFindCases(t *testing.T, g Grammar, cases []findCase) {
	t.Helper()
	for _, tt := range cases {
		got := g.FindAll(tt.text, -1)
		var gotText []string
		for _, m := range got {
			gotText = append(gotText, tt.text[m.Start:m.End])
		}
		if strings.Join(gotText, "\n") != strings.Join(tt.want, "\n") || len(got) != len(tt.want) {
			t.Errorf("%s: %v.FindAll(%q) = %q, want %q", tt.name, g, tt.text, gotText, tt.want)
			continue
		}
		pos := 0
		for i, m := range got {
			start := pos + strings.Index(tt.text[pos:], tt.want[i])
			if m.Start != start || m.End != start+len(tt.want[i]) {
				t.Errorf("%s: match %d at [%d:%d], want [%d:%d]", tt.name, i, m.Start, m.End, start, start+len(tt.want[i]))
			}
			pos = m.End
		}
		checkFindAll(t, tt.text)
	}
}

// Lenient is the grammar for prose: what people write around URLs stays
// out of the match (FindAll's doc).
func TestFindAllLenientInProse(t *testing.T) {
	checkFindCases(t, Lenient, []findCase{
		{"prose",
			"The files are at ftp://ftp.example.com/pub/ and mirrored weekly.",
			[]string{"ftp://ftp.example.com/pub/"}},
		{"sentence ends with a period",
			"Get it from ftp://ftp.example.com/pub/file.txt.",
			[]string{"ftp://ftp.example.com/pub/file.txt"}},
		{"commas, semicolons, colons, question and exclamation marks",
			"Try ftp://a.example/x, ftp://b.example/y; ftp://c.example/z: or ftp://d.example/w? Yes, ftp://e.example/v!",
			[]string{"ftp://a.example/x", "ftp://b.example/y", "ftp://c.example/z", "ftp://d.example/w", "ftp://e.example/v"}},
		{"several punctuation marks in a row",
			"(see ftp://host/file.txt).'",
			[]string{"ftp://host/file.txt"}},
		{"parentheses around the URL",
			"The archive (ftp://ftp.example.com/pub/archive.zip) is large.",
			[]string{"ftp://ftp.example.com/pub/archive.zip"}},
		{"balanced parentheses inside the URL stay",
			"Wikipedia style: ftp://host/Foo_(bar) and (ftp://host/Foo_(baz)).",
			[]string{"ftp://host/Foo_(bar)", "ftp://host/Foo_(baz)"}},
		{"square and curly brackets",
			"[ftp://host/a] {ftp://host/b} ftp://host/c[1] ftp://host/d{x}",
			[]string{"ftp://host/a", "ftp://host/b", "ftp://host/c[1]", "ftp://host/d{x}"}},
		{"an unbalanced closer after the host",
			"(mirror: ftp://mirror.example)",
			[]string{"ftp://mirror.example"}},
		{"a dotted quad at the end of a sentence",
			"Connect to ftp://192.0.2.1.",
			[]string{"ftp://192.0.2.1"}},
		{"a host with a final dot stays a host",
			"ftp://example.com./pub",
			[]string{"ftp://example.com./pub"}},
		{"a trailing colon of an empty port",
			"ftp://host: is the server",
			[]string{"ftp://host"}},
		{"emphasis with asterisks and underscores",
			"**ftp://host/a** _ftp://host/b_",
			[]string{"ftp://host/a", "ftp://host/b"}},
		{"ideographic full stop",
			"ファイルは ftp://example.jp/pub。",
			[]string{"ftp://example.jp/pub"}},
		{"IRI with a Unicode host and path",
			"Katalog: ftp://bücher.example/katalog/übersicht.txt.",
			[]string{"ftp://bücher.example/katalog/übersicht.txt"}},
		{"scheme right after CJK text",
			"詳細はftp://例え.jp/ を参照",
			[]string{"ftp://例え.jp/"}},
		{"a query and a fragment",
			"ftp://host/dir/?listing#top, then",
			[]string{"ftp://host/dir/?listing#top"}},
		{"a typecode before a period",
			"Use ftp://host/file;type=i.",
			[]string{"ftp://host/file;type=i"}},
	})
}

// RFC 3986 Appendix C: white space, controls, "<", ">", '"' and "`"
// delimit URLs in text, in every grammar.
func TestFindAllDelimitedURLs(t *testing.T) {
	cases := []findCase{
		{"angle brackets",
			"Mirror <ftp://ftp.example.com/pub/> now.",
			[]string{"ftp://ftp.example.com/pub/"}},
		{"<URL:...> of RFC 1738 Appendix",
			"<URL:ftp://ftp.example.com/pub/file>",
			[]string{"ftp://ftp.example.com/pub/file"}},
		{"double quotes and backquotes",
			"\"ftp://host/a\" `ftp://host/b`",
			[]string{"ftp://host/a", "ftp://host/b"}},
		{"HTML attribute and link text",
			`<a href="ftp://ftp.example.com/pub/x.tar.gz">ftp://ftp.example.com/pub/</a>`,
			[]string{"ftp://ftp.example.com/pub/x.tar.gz", "ftp://ftp.example.com/pub/"}},
		{"mail quoting",
			"> > ftp://host/quoted\n> ftp://host/again\n>ftp://host/tight",
			[]string{"ftp://host/quoted", "ftp://host/again", "ftp://host/tight"}},
		{"several on a line, tabs and newlines",
			"ftp://a/1 ftp://b/2\tftp://c/3\r\nftp://d/4",
			[]string{"ftp://a/1", "ftp://b/2", "ftp://c/3", "ftp://d/4"}},
		{"at the very start and end",
			"ftp://start/x middle ftp://end/y",
			[]string{"ftp://start/x", "ftp://end/y"}},
		{"the whole text",
			"ftp://host",
			[]string{"ftp://host"}},
		{"upper-case scheme",
			"FTP://HOST.EXAMPLE/Pub Ftp://h/x",
			[]string{"FTP://HOST.EXAMPLE/Pub", "Ftp://h/x"}},
		{"log lines with times",
			"2024-05-01T10:00:00Z GET ftp://10.0.0.1:2121/pub/x.iso 200\n10:00:01 ftp://[2001:db8::1]/y 550",
			[]string{"ftp://10.0.0.1:2121/pub/x.iso", "ftp://[2001:db8::1]/y"}},
		{"Unicode white space and control characters",
			"ftp://host/a\u00a0b ftp://host/c\u3000d ftp://host/e\x00f ftp://host/g\u2028h ftp://host/i\u0085j",
			[]string{"ftp://host/a", "ftp://host/c", "ftp://host/e", "ftp://host/g", "ftp://host/i"}},
		{"user and password",
			"login: ftp://anonymous:guest@ftp.example.com/",
			[]string{"ftp://anonymous:guest@ftp.example.com/"}},
		{"IPv6 literal in angle brackets",
			"<ftp://[2001:db8::1]:21/pub>",
			[]string{"ftp://[2001:db8::1]:21/pub"}},
	}
	for _, g := range []Grammar{Lenient, RFC3986} {
		checkFindCases(t, g, cases)
	}
}

// A candidate needs "ftp:" that is not the end of another scheme
// (FindAll's doc: not after a letter, digit, "+", "-" or ".").
func TestFindAllNeedsASchemeOfItsOwn(t *testing.T) {
	for _, g := range findGrammars {
		checkFindCases(t, g, []findCase{
			{"sftp and others", "sftp://host/a xftp://host/b a.ftp://host/c a+ftp://h/d a-ftp://h/e 9ftp://h/f", nil},
			{"not followed by //", "ftp:host ftp:/host ftp: ftp:// ftp:///x", nil},
			{"after punctuation and non-ASCII", ",ftp://h/a é:ftp://h/b", []string{"ftp://h/a", "ftp://h/b"}},
		})
	}
}

// ftps URLs (2011 draft §5, §7.2) are found in the grammars that read
// them, Lenient and RFC3986, and in no other; "sftp://" and "sftps://"
// hold no candidate (Schemes).
func TestFindAllFindsFTPSWhereTheGrammarReadsIt(t *testing.T) {
	text := "Get ftps://secure.example/pub/a.txt or ftp://plain.example/pub/a.txt, not sftp://h/x nor sftps://h/y; FTPS://H:990/z"
	for _, g := range []Grammar{Lenient, RFC3986} {
		want := []string{"ftps://secure.example/pub/a.txt", "ftp://plain.example/pub/a.txt", "FTPS://H:990/z"}
		if g == RFC3986 {
			want[1] += "," // RFC 3986: "," is a path character
		}
		checkFindCases(t, g, []findCase{
			{"ftps in prose", text, want},
			{"ftps inside a skipped candidate", "ftps://h:0/ftps://nested.example/ok", []string{"ftps://nested.example/ok"}},
			{"sftps and others", "sftps://h/ xftps://h/ a.ftps://h/ ftpsftp://h/", nil},
		})
		ms := g.FindAll(text, -1)
		if len(ms) != 3 || ms[0].URL.Scheme != "ftps" || ms[1].URL.Scheme != "ftp" || ms[2].URL.Address() != "h:990" {
			t.Errorf("%v: FindAll(%q) = %+v: want schemes ftps, ftp, ftps", g, text, ms)
		}
	}
	for _, g := range []Grammar{RFC1738, RFC2396} {
		checkFindCases(t, g, []findCase{
			{"RFC 1738 and the 1997 draft predate ftps", "ftps://secure.example/a FTPS://h/ ftp://plain.example/a", []string{"ftp://plain.example/a"}},
		})
	}
}

// A candidate whose longest syntactic prefix fails a semantic check is
// skipped, never cut shorter, and a valid URL after it, or inside it,
// is still found (FindAll's doc).
func TestFindAllSkipsInvalidCandidatesAndFindsTheNext(t *testing.T) {
	checkFindCases(t, Lenient, []findCase{
		{"port out of range", "ftp://host:99999/x ftp://ok.example/1", []string{"ftp://ok.example/1"}},
		{"port 0", "ftp://host:0/ and ftp://ok.example/2", []string{"ftp://ok.example/2"}},
		{"numeric hosts", "ftp://host.123/ ftp://010.1.1.1/ ftp://1.2.3.256/ ftp://0x7f.1/ ftp://ok.example/3",
			[]string{"ftp://ok.example/3"}},
		{"escaped control character in the path", "ftp://host/a%0Db ftp://ok.example/4", []string{"ftp://ok.example/4"}},
		{"escaped control character in the host", "ftp://bad%0D/,ftp://ok.example/5", []string{"ftp://ok.example/5"}},
		{"invalid A-label", "ftp://xn--a.example/ ftp://ok.example/6", []string{"ftp://ok.example/6"}},
		{"empty label", "ftp://a..b/ ftp://ok.example/7", []string{"ftp://ok.example/7"}},
		{"IPvFuture and zones", "ftp://[v1.x]/ ftp://[::1%25eth0]/ ftp://ok.example/8", []string{"ftp://ok.example/8"}},
		{"a valid URL inside a skipped one", "ftp://h:0/ftp://nested.example/ok", []string{"ftp://nested.example/ok"}},
		{"a valid URL in the query of a skipped one", "ftp://h:0?ftp://nested.example/q", []string{"ftp://nested.example/q"}},
		{"nothing left of the host", "ftp://@ ftp://@/ ftp://:21/", nil},
		{"everything trimmed", "ftp://_. ftp://a@.", nil},
	})
	// A syntax fault ends the URL where the syntax stops accepting.
	checkFindCases(t, Lenient, []findCase{
		{"bad escape", "ftp://host/a%zz", []string{"ftp://host/a"}},
		{"bad typecode", "ftp://host/a;type=ab", []string{"ftp://host/a;type=a"}},
		{"a host and garbage", "ftp://host|x", []string{"ftp://host"}},
		{"an IP literal and garbage", "ftp://[::1]x/", []string{"ftp://[::1]"}},
	})
}

// The strict grammars keep what their syntax accepts, trailing
// punctuation included, as a regular expression would.
func TestFindAllStrictGrammarsKeepTheirSyntax(t *testing.T) {
	checkFindCases(t, RFC3986, []findCase{
		{"a sentence's period is a path character", "See ftp://host/file.txt.", []string{"ftp://host/file.txt."}},
		{"a comma after a host is not a host character", "ftp://host, ftp://other/", []string{"ftp://host", "ftp://other/"}},
		{"a dotted quad with a final dot is a numeric host", "ftp://192.0.2.1.", nil},
		{"a second ':' in the userinfo", "ftp://a:b:c@host/", []string{"ftp://a:"}},
	})
	checkFindCases(t, RFC2396, []findCase{
		// Regexp::Common's language: no query, no fragment.
		{"query", "ftp://host/some/path?query", []string{"ftp://host/some/path"}},
		{"fragment", "ftp://host/some/file#target", []string{"ftp://host/some/file"}},
		{"semicolon", "ftp://host/some/path;here", []string{"ftp://host/some/path"}},
		{"typecode", "ftp://host/a;type=I. ftp://host/b;type=d", []string{"ftp://host/a;type=I", "ftp://host/b"}},
		{"dotted quad", "ftp://192.0.2.1. ftp://1.2.3.4.5/", []string{"ftp://192.0.2.1", "ftp://1.2.3.4"}},
		{"host name ends with a dot", "ftp://example.com./x ftp://example.com-", []string{"ftp://example.com./x", "ftp://example.com"}},
	})
	checkFindCases(t, RFC1738, []findCase{
		// RFC 1738 §5: "?" is path data, a host name has no final dot.
		{"question mark", "ftp://host/a?b", []string{"ftp://host/a?b"}},
		{"fragment", "ftp://host/a#b", []string{"ftp://host/a#b"}},
		{"final dot", "ftp://example.com.", []string{"ftp://example.com"}},
		{"underscore", "ftp://my_host/", []string{"ftp://my"}},
		{"empty port", "ftp://host:/x", []string{"ftp://host"}},
		{"typecode d", "ftp://host/dir;type=d", []string{"ftp://host/dir;type=d"}},
	})
}

func TestFindAllOffsetsAreByteOffsets(t *testing.T) {
	text := "é ftp://h/ü 日本 ftp://h/x"
	got := Lenient.FindAll(text, -1)
	if len(got) != 2 || got[0].Start != 3 || got[0].End != 13 || got[1].Start != 21 || got[1].End != len(text) {
		t.Errorf("FindAll(%q) = %v", text, spans(text, got))
	}
	if len(got) == 2 && got[0].URL.String() != "ftp://h/%C3%BC" {
		t.Errorf("FindAll(%q)[0].URL = %v", text, got[0].URL)
	}
}

// n is the limit of package regexp's FindAll: n < 0 all, n == 0 none.
func TestFindAllLimit(t *testing.T) {
	text := "ftp://a/ ftp://b/ ftp://c/"
	for n, want := range map[int]int{-1: 3, -7: 3, 0: 0, 1: 1, 2: 2, 3: 3, 10: 3} {
		got := Lenient.FindAll(text, n)
		if len(got) != want {
			t.Errorf("FindAll(%q, %d) found %d, want %d", text, n, len(got), want)
		}
		if want == 0 && got != nil {
			t.Errorf("FindAll(%q, %d) = %v, want nil", text, n, got)
		}
	}
	if got := Lenient.FindAll("no URL here: http://example.com/", -1); got != nil {
		t.Errorf("FindAll without a URL = %v, want nil", got)
	}
	if got := Grammar(9).FindAll("ftp://host/", -1); got != nil {
		t.Errorf("Grammar(9).FindAll = %v, want nil", got)
	}
}

// FindAll agrees with the reference on generated texts: prose, URLs
// from the Pattern tests' generator, and the punctuation around them.
func TestFindAllAgreesWithReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3986, 5))
	n := 3000
	if testing.Short() {
		n = 300
	}
	found := 0
	for range n {
		text := randomText(r)
		checkFindAll(t, text)
		found += len(Lenient.FindAll(text, -1))
	}
	if found < n/4 {
		t.Errorf("only %d URLs found in %d texts: the generator misses URLs", found, n)
	}
	for _, s := range findSeeds {
		checkFindAll(t, s)
	}
}

// randomText returns a short text of words, separators and URLs.
func randomText(r *rand.Rand) string {
	seps := []string{" ", " ", "\n", "(", ")", ", ", ".", ". ", "<", ">", "\"", "'", "> ", "<URL:", "[", "]", "*",
		"_", "。", "\u00a0", ":", "ftp:", "sftp:", "x", "-", "/", "?", "#", "%", "é", "\t", ";", "!"}
	var b strings.Builder
	for range r.IntN(6) {
		switch r.IntN(3) {
		case 0:
			b.WriteString(seps[r.IntN(len(seps))])
		case 1:
			b.WriteString([]string{"see", "the", "file", "at", "mirror", "Note:", "10:30"}[r.IntN(7)])
		default:
			b.WriteString(randomURL(r))
		}
		if r.IntN(2) == 0 {
			b.WriteString(seps[r.IntN(len(seps))])
		}
	}
	return b.String()
}

// FindAll's time is linear in the text, also when candidates nest
// inside each other and are all refused: for each shape here it reads
// at most a dozen bytes per byte of text (finder.read counts what its
// scans and its parses of candidates read), where rescanning the rest of
// the text for every candidate would read thousands. The count is
// deterministic, so the test does not depend on the machine's speed.
func TestFindAllIsLinearOnNestedCandidates(t *testing.T) {
	const size = 1 << 16
	repeat := func(unit, end string) string { return strings.Repeat(unit, size/len(unit)) + end }
	for _, tt := range []struct {
		name string
		g    Grammar
		text string
		want int // matches
	}{
		{"paths of refused ports", Lenient, repeat("ftp://h:0/", ""), 0},
		{"a control escape at the end of a shared path", Lenient, repeat("ftp://h/", "%00"), 0},
		{"a control escape in a strict path", RFC3986, repeat("ftp://h/", "%00"), 0},
		{"queries of refused ports", Lenient, repeat("ftp://h:0?", ""), 0},
		{"fragments of refused ports", RFC3986, repeat("ftp://h:0#", ""), 0},
		{"trailing brackets", Lenient, repeat("ftp://h:0/(", strings.Repeat(")", size/4)), 0},
		{"closing brackets", Lenient, "ftp://h/" + strings.Repeat(")", size), 1},
		{"userinfo of many @", Lenient, "ftp://" + strings.Repeat("@", size), 0},
		{"userinfo of many @ and a host", Lenient, "ftp://" + strings.Repeat("a@", size/2) + "h/", 1},
		{"many colons", Lenient, "ftp://" + strings.Repeat("a:", size/2), 1},
		{"schemes without //", Lenient, repeat("ftp:", ""), 0},
		{"long strict host", RFC2396, "ftp://" + strings.Repeat("a.", size/2) + "-", 1},
		{"invalid hosts in a query", Lenient, repeat("ftp://a..b?", ""), 0},
		{"everything valid", Lenient, repeat("ftp://h/", ""), 1},
		{"many URLs", Lenient, repeat("ftp://h/a ", ""), size / 10},
		{"many typed URLs", RFC1738, repeat("ftp://h.example/a;type=i ", ""), size / 25},
	} {
		f := newFinder(tt.g, tt.text)
		if got := f.all(-1); len(got) != tt.want {
			t.Errorf("%s: %d matches, want %d", tt.name, len(got), tt.want)
		}
		if f.read > 12*len(tt.text) {
			t.Errorf("%s: FindAll read %d bytes of a %d-byte text, %.1f per byte", tt.name, f.read, len(tt.text), float64(f.read)/float64(len(tt.text)))
		}
	}

	// The count sees a rescan: without the shared scan of a path
	// (finder.pathFrom), each nested candidate reads the rest of it.
	text := strings.Repeat("ftp://h/", 1<<10) + "%00"
	f := newFinder(Lenient, text)
	for s := 0; s < len(text); s += len("ftp://h/") {
		f.pathOK = false
		if _, ok := f.match(s, s+len("ftp:")); ok {
			t.Fatalf("a candidate at %d matched", s)
		}
	}
	if f.read < 100*len(text) {
		t.Errorf("rescanning every path read %d bytes of a %d-byte text; the count misses rescans", f.read, len(text))
	}
}

// benchText is 1 MB of prose with an ftp URL every few KB, in which
// FindAll and the regexp find the same URLs.
var benchText = sync.OnceValue(func() string {
	r := rand.New(rand.NewPCG(1, 2))
	words := strings.Fields(`the a of to and in is for on that with as by this are be from at or an it not
		mirror archive release files download server directory package source binary checksum Note: see
		http://www.example.org/about https://example.net/docs 10:30 12:45:07 (details) [1] e-mail: user@example.com`)
	var b strings.Builder
	next := 0
	for b.Len() < 1<<20 {
		if b.Len() >= next {
			fmt.Fprintf(&b, "ftp://ftp%d.example.org/pub/release-%d/file-%d.tar.gz ", r.IntN(50), r.IntN(100), r.IntN(10000))
			next = b.Len() + 1024 + r.IntN(4096)
		}
		b.WriteString(words[r.IntN(len(words))])
		switch r.IntN(12) {
		case 0:
			b.WriteString(". ")
		case 1:
			b.WriteString(",\n")
		default:
			b.WriteByte(' ')
		}
	}
	return b.String()
})

var benchRegexp = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(RFC3986.Pattern()) })

// The benchmarks compare like with like: on benchText, FindAll and the
// regexp find the same URLs.
func TestBenchTextFindsTheSameURLsAsTheRegexp(t *testing.T) {
	text := benchText()
	got := RFC3986.FindAll(text, -1)
	want := benchRegexp().FindAllStringIndex(text, -1)
	if len(got) != len(want) || len(got) < 200 {
		t.Fatalf("FindAll found %d URLs, the regexp %d", len(got), len(want))
	}
	for i, m := range got {
		if m.Start != want[i][0] || m.End != want[i][1] {
			t.Fatalf("match %d: FindAll [%d:%d], regexp [%d:%d]", i, m.Start, m.End, want[i][0], want[i][1])
		}
	}
}

func BenchmarkFindAll(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		RFC3986.FindAll(text, -1)
	}
}

func BenchmarkFindAllRegexp(b *testing.B) {
	text := benchText()
	re := benchRegexp()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		re.FindAllStringIndex(text, -1)
	}
}

func BenchmarkFindAllLenient(b *testing.B) {
	text := benchText()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Lenient.FindAll(text, -1)
	}
}

// Only a final ";type=X" with a letter the grammar allows is a typecode
// (URL's doc; 2011 draft §3.1 typecode-part ends the path;
// RFC 1738 §5 ftptype [AIDaid]). FindAll takes the longest prefix that
// has one or none: in the strict grammars any other ";" ends the URL;
// in Lenient ";" is data, but a last segment holding ";type=" must end
// with ";type=X".
func TestFindAllEndsThePathAtTheTypecode(t *testing.T) {
	checkFindCases(t, RFC3986, []findCase{
		{"typecode then a segment", "ftp://h/a;type=i/b", []string{"ftp://h/a;type=i"}},
		{"typecode then more", "ftp://h/a;type=ix", []string{"ftp://h/a;type=i"}},
		{"typecode then a query", "ftp://h/a;TYPE=I?q", []string{"ftp://h/a;TYPE=I?q"}},
		{"not a typecode", "ftp://h/a;typo", []string{"ftp://h/a"}},
		{"no letter", "ftp://h/a;type=%41", []string{"ftp://h/a"}},
	})
	checkFindCases(t, RFC1738, []findCase{
		{"d is RFC 1738", "ftp://h/a;type=d", []string{"ftp://h/a;type=d"}},
		{"e is not", "ftp://h/a;type=e", []string{"ftp://h/a"}},
	})
	checkFindCases(t, Lenient, []findCase{
		{"second typecode without a letter", "ftp://h/a;type=i;type= x", []string{"ftp://h/a;type=i"}},
		{"two typecodes", "ftp://h/a;type=i;type=d x", []string{"ftp://h/a;type=i;type=d"}},
		{"a typecode that is not one letter", "ftp://h/x;type=ab x", []string{"ftp://h/x;type=a"}},
		{"no letter after the last", "ftp://h/x;type=1 x", []string{"ftp://h/x;type"}},
		{"data semicolons, then a segment", "ftp://h/a;type=ab/c;d x", []string{"ftp://h/a;type=ab/c;d"}},
	})
}

// FindAll parses each candidate once: a text with one URL in it costs
// the URL's one allocation (Parse's) and the result slice's, where an
// extra parse of the authority alone would allocate a URL more.
func TestFindAllParsesEachCandidateOnce(t *testing.T) {
	for _, text := range []string{
		"see ftp://ftp.example.org/pub/file.txt for it",
		"see (ftp://ftp.example.org/pub/file.txt).",
		"ftp://h:0/x and ftp://ftp.example.org/pub/",
	} {
		if n := testing.AllocsPerRun(100, func() { Lenient.FindAll(text, -1) }); n != 2 {
			t.Errorf("FindAll(%q): %v allocations, want 2 (the URL and the slice)", text, n)
		}
	}
}
