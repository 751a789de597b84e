package ftpurl

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Tests of Grammar.Pattern (Pattern's doc).
// The fuzz target FuzzPattern is in fuzz_test.go.

// The examples of Regexp::Common's own tests for $RE{URI}{FTP}
// (Abigail/Regexp--Common, t/URI/ftp.t), which the seed
// regexp-common-uri-ftp.txt documents. RFC2396 is that regex under
// {-i}, so its one difference is that FTP:// passes.
var regexpCommonFTPTests = []struct {
	url  string
	pass bool
}{
	{"ftp://ftp.example.com", true},
	{"ftp://ftp.example.com/", true},
	{"ftp://ftp.example.com/some/file/some/where", true},
	{"ftp://ftp.example.com/some/directory/some/where/", true},
	{"ftp://ftp.example.com:21/some/file", true},
	{"ftp://127.0.0.1", true},
	{"ftp://127.0.0.1/", true},
	{"ftp://127.0.0.1:12345/some/file", true},
	{"ftp://ftp.example.com/%7Eabigail/", true},
	{"ftp://ftp.example.com:21/some/path?query", false},
	{"ftp://ftp.example.com/--_$.+++", true}, // "safe" characters
	{"ftp://ftp.example.com/.", true},
	{"ftp://ftp.example.com/**!(),,''", true}, // "extra" characters
	{"ftp://www.example.com/:@=&=", true},     // RFC 2396 pchar additions
	{"ftp://www.example.com//////////////", true},
	{"ftp://www.example.com/some/path;here", false}, // no ";" in a segment
	{"ftp://abigail@ftp.example.com", true},
	{"ftp://abigail@ftp.example.com:21/some/file", true},
	{"ftp://abigail:secret@ftp.example.com:21/some/file", true},
	{"ftp://abigail:secret@127.0.0.1:21/some/file", true},
	{"ftp://abigail:secret:here@127.0.0.1:21/some/file", true}, // userinfo may hold several ":"
	{"ftp://ftp.example.com/~abigail/", true},                  // "~" is RFC 2396 unreserved
	{"ftp://ftp.example.com/nope|nope", false},                 // "national" characters
	{"ftp://ftp.example.com/`", false},
	{"ftp://www.example.com/some/file#target", false}, // no fragment
	{"ftp://ftp.example.com/some/path?query1?query2", false},
	{"ftp://ftp.example.com/some/??", false},
	{"ftp://ftp.example.com/some/path?query/path", false},
	{"ftp://ftp.example.com/some/path;type=A", true},
	{"ftp://ftp.example.com/some/path;type=i", true},
	{"ftp://abigail@ftp.example.com/some/path/somewhere;type=a", true},
	{"ftp://ftp.example.com/some/path;type=Q", false},
	{"ftp://ftp.example.com/some/path;type=AI", false},
	{"ftp://ftp.example.com/;type=I", true},
	{"HTTP://ftp.example.com/", false},
	{"FTP://ftp.example.com/", true}, // fails in t/URI/ftp.t, which does not use {-i}
	{"http://ftp.example.com/", false},
}

func TestRFC2396PatternPassesRegexpCommonExamples(t *testing.T) {
	re := anchoredPatterns()[RFC2396]
	for _, tt := range regexpCommonFTPTests {
		if got := re.MatchString(tt.url); got != tt.pass {
			t.Errorf("RFC2396 pattern on %q: %v, Regexp::Common t/URI/ftp.t: %v", tt.url, got, tt.pass)
		}
		if _, err := RFC2396.Parse(tt.url); (err == nil) != tt.pass {
			t.Errorf("RFC2396.Parse(%q): %v, Regexp::Common t/URI/ftp.t: %v", tt.url, err, tt.pass)
		}
	}
}

// Regexp::Common's {-type => "[AIDaid]"} is RFC 1738 §5's typecode set.
func TestRFC1738PatternAllowsTypecodeD(t *testing.T) {
	re := anchoredPatterns()[RFC1738]
	for _, tt := range []struct {
		url  string
		pass bool
	}{
		{"ftp://ftp.example.com/some/path;type=D", true},
		{"ftp://ftp.example.com/some/path;type=d", true},
		{"ftp://ftp.example.com/some/path;type=a", true},
		{"ftp://ftp.example.com/some/path;type=e", false},
		{"ftp://ftp.example.com/~abigail/", true},  // RFC 1738 §2.2 unsafe, accepted raw as RFC 2396 §2.3 unreserved
		{"ftp://ftp.example.com/|abigail/", false}, // "|" is not RFC 1738 §5 uchar
	} {
		if got := re.MatchString(tt.url); got != tt.pass {
			t.Errorf("RFC1738 pattern on %q: %v, want %v", tt.url, got, tt.pass)
		}
	}
}

// regexpCommonFTPOracle is $RE{URI}{FTP}{-i} transcribed, for this test
// only, from the RFC 2396 grammar it is built on (§3.2.1 userinfo,
// §3.2.2 hostname and IPv4address, §3.2.2 port, §3.3 pchar) with the
// module's two choices: no ";" in a segment, and type [AIai]. Letters
// are listed in both cases instead of (?i).
var regexpCommonFTPOracle = func() *regexp.Regexp {
	const (
		escaped     = `%[0-9A-Fa-f]{2}`
		unreserved  = `A-Za-z0-9\-_.!~*'()`
		userinfo    = `(?:[` + unreserved + `;:&=+$,]|` + escaped + `)*`
		alphanum    = `[A-Za-z0-9]`
		domainlabel = `(?:` + alphanum + `(?:[A-Za-z0-9\-]*` + alphanum + `)?)`
		toplabel    = `(?:[A-Za-z](?:[A-Za-z0-9\-]*` + alphanum + `)?)`
		hostname    = `(?:(?:` + domainlabel + `\.)*` + toplabel + `\.?)`
		ipv4address = `(?:[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+)`
		param       = `(?:[` + unreserved + `:@&=+$,]|` + escaped + `)*`
	)
	return regexp.MustCompile(`^[Ff][Tt][Pp]://(?:` + userinfo + `@)?(?:` + hostname + `|` + ipv4address + `)(?::[0-9]*)?` +
		`(?:/` + param + `(?:/` + param + `)*(?:;[Tt][Yy][Pp][Ee]=[AIai])?)?$`)
}()

// RFC2396.Pattern() accepts the language of $RE{URI}{FTP}{-i} apart from
// the semantic checks that every grammar adds (Grammar's doc):
// whatever the pattern matches, the Perl regex matches; whatever the
// Perl regex matches and the pattern does not, Parse refuses for a port,
// a host or a control character.
func TestRFC2396PatternIsRegexpCommonLanguageWithSemanticChecks(t *testing.T) {
	re := anchoredPatterns()[RFC2396]
	r := rand.New(rand.NewPCG(2396, 1))
	semantic := 0
	for range 8000 {
		s := randomURL(r)
		ours, perl := re.MatchString(s), regexpCommonFTPOracle.MatchString(s)
		if ours && !perl {
			t.Errorf("%q: RFC2396 pattern matches, $RE{URI}{FTP}{-i} does not", s)
		}
		if perl && !ours && !hostGoesThroughIDNA(RFC2396, s) {
			_, err := RFC2396.Parse(s)
			if err == nil || !slices.Contains([]error{ErrPort, ErrHost, ErrControl}, err.(*Error).Err) {
				t.Errorf("%q: $RE{URI}{FTP}{-i} matches, RFC2396 pattern does not, Parse: %v", s, err)
			}
			semantic++
		}
	}
	if semantic == 0 {
		t.Error("no input was refused for a semantic check: the generator is too narrow")
	}
}

// Each grammar's anchored pattern accepts exactly what its Parse accepts
// (Pattern's doc), with the named groups holding
// the parts, on generated URLs around every edge of the grammars.
func TestPatternAcceptsExactlyWhatParseAccepts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	n := 8000
	if testing.Short() {
		n = 1000
	}
	accepted := map[Grammar]int{}
	for range n {
		s := randomURL(r)
		checkPattern(t, s)
		for _, g := range findGrammars {
			if _, err := g.Parse(s); err == nil {
				accepted[g]++
			}
		}
	}
	for _, g := range findGrammars { // the check must see both answers
		if accepted[g] < n/20 || accepted[g] > n-n/20 {
			t.Errorf("%v accepts %d of %d generated URLs: the generator misses one side", g, accepted[g], n)
		}
	}
	for _, s := range patternSeeds {
		checkPattern(t, s)
	}
}

// Pattern's doc: the port is 1..65535, leading zeros allowed; RFC 1738 §5
// port = digits (not empty).
func TestPatternChecksPortRange(t *testing.T) {
	for _, tt := range []struct {
		port string
		ok   []Grammar
	}{
		{"1", findGrammars[:]},
		{"21", findGrammars[:]},
		{"00021", findGrammars[:]},
		{"65535", findGrammars[:]},
		{"065535", findGrammars[:]},
		{"65536", nil},
		{"99999", nil},
		{"0", nil},
		{"000", nil},
		{"", []Grammar{Lenient, RFC2396, RFC3986}},
	} {
		s := "ftp://host:" + tt.port + "/"
		for _, g := range findGrammars {
			if got := anchoredPatterns()[g].MatchString(s); got != slices.Contains(tt.ok, g) {
				t.Errorf("%v pattern on %q: %v", g, s, got)
			}
		}
		checkPattern(t, s)
	}
}

// Grammar's doc: a numeric host is a dotted quad of 0..255
// without leading zeros; a last label of digits or "0x" makes a host
// numeric.
func TestPatternChecksNumericHosts(t *testing.T) {
	for _, tt := range []struct {
		host string
		ok   bool
	}{
		{"0.0.0.0", true}, {"255.255.255.255", true}, {"192.0.2.1", true},
		{"256.1.1.1", false}, {"1.2.3.256", false}, {"010.1.1.1", false}, {"1.2.3.04", false},
		{"1.2.3", false}, {"1.2.3.4.5", false}, {"1.2.3.4.", false}, {"host.123", false},
		{"0x7f.1", false}, {"a.0x1", false}, {"a.0X", false}, {"123", false},
		{"host.123a", true}, {"a.0y", true}, {"a.00x", true}, {"1.2.3.a4", true},
	} {
		s := "ftp://" + tt.host + "/"
		for _, g := range []Grammar{Lenient, RFC3986} {
			if got := anchoredPatterns()[g].MatchString(s); got != tt.ok {
				t.Errorf("%v pattern on %q: %v, want %v", g, s, got, tt.ok)
			}
		}
		checkPattern(t, s)
	}
}

// Parse decodes a host before it checks it, and sends it to IDNA only
// when the decoded name is not ASCII or has an "xn--" label (Pattern's
// doc), so for every other host the pattern must read an escape as
// the byte it encodes: %2E is a dot, %30-%39 digits of a numeric host,
// and an escape of anything a label cannot hold is refused.
func TestPatternReadsHostEscapesAsParseDoes(t *testing.T) {
	for _, tt := range []struct {
		host string
		ok   bool
	}{
		{"%31.2.3.4", true},       // 1.2.3.4
		{"1.2.3.%32%35%35", true}, // 1.2.3.255
		{"a.%31", false},          // numeric last label, not a dotted quad
		{"a.0%78", false},         // last label "0x"
		{"a.0%58", false},         // "0X"
		{"a.0%79", true},          // "0y"
		{"1.2.3.%32%35%36", false},
		{"%30%31.2.3.4", false}, // leading zero
		{"%2E", false},          // one empty label
		{"a%2E%2Eb", false},     // empty label
		{"a%2Eb", true},         // a.b
		{"a%2eb%2E", true},      // a.b. (final dot)
		{"a%2Fb", false},        // "/" in a label
		{"%5Bx%5D", false},      // "[x]" is no IP literal once decoded
		{"a%2Cb", false},        // ","
		{"a%25b", false},        // "%"
		{"%41%5f%2d.b", true},   // "A_-": letters, "_" and "-" escaped
		{"%61%7A%30", true},     // "az0"
	} {
		s := "ftp://" + tt.host + "/"
		for _, g := range []Grammar{Lenient, RFC3986} {
			if hostGoesThroughIDNA(g, s) {
				t.Errorf("%v: %q: the decoded host is ASCII without xn--, yet the test exempts it", g, s)
			}
			if got := anchoredPatterns()[g].MatchString(s); got != tt.ok {
				t.Errorf("%v pattern on %q: %v, want %v", g, s, got, tt.ok)
			}
			if _, err := g.Parse(s); (err == nil) != tt.ok {
				t.Errorf("%v.Parse(%q): %v, want ok %v", g, s, err, tt.ok)
			}
		}
		checkPattern(t, s)
	}
}

// Only a host that Parse sends through IDNA is exempt from the check
// that Pattern accepts exactly what Parse accepts (Pattern's
// doc, which also says which hosts go through IDNA).
func TestOnlyIDNHostsAreExemptFromThePatternCheck(t *testing.T) {
	for _, tt := range []struct {
		g    Grammar
		url  string
		idna bool
	}{
		{Lenient, "ftp://b%C3%BCcher.example/", true},
		{RFC3986, "ftp://b%C3%BCcher.example/", true},
		{Lenient, "ftp://bücher.example/", true},
		{RFC3986, "ftp://bücher.example/", false}, // refused raw, before decoding
		{Lenient, "ftp://%78n--bcher-kva.example/", true},
		{RFC1738, "ftp://XN--bcher-kva.example/", true},
		{Lenient, "ftp://a%2Eb/", false},
		{Lenient, "ftp://a.%31/", false},
		{RFC3986, "ftp://u@%5Bx%5D:21/", false},
		{RFC2396, "ftp://a%41/", false},
	} {
		if got := hostGoesThroughIDNA(tt.g, tt.url); got != tt.idna {
			t.Errorf("%v: hostGoesThroughIDNA(%q) = %v, want %v", tt.g, tt.url, got, tt.idna)
		}
	}
}

// Letters are classes, never (?i), which in Go also matches U+212A
// (Kelvin sign) and U+017F (long s) (Pattern's doc).
func TestPatternIsCaseInsensitiveWithoutFoldingUnicode(t *testing.T) {
	flag := regexp.MustCompile(`\(\?[imsU-]+[:)]`)
	for _, g := range findGrammars {
		p := g.Pattern()
		if flag.MatchString(p) {
			t.Errorf("%v pattern sets a flag: %q", g, flag.FindString(p))
		}
		re := anchoredPatterns()[g]
		for _, s := range []string{"FTP://HOST/A;TYPE=I", "fTp://host/a;tYpE=i"} {
			if m := re.FindStringSubmatch(s); m == nil || strings.ToLower(m[re.SubexpIndex("type")]) != "i" {
				t.Errorf("%v pattern on %q: %q, want type i", g, s, m)
			}
		}
		if s := "\u017Ftp://host/"; re.MatchString(s) {
			t.Errorf("%v pattern matches %q", g, s)
		}
		// In Lenient these are a path with ";" as data, and no typecode.
		for _, s := range []string{"ftp://host/a;\u017Fype=i", "ftp://host/a;type=\u212A"} {
			m := re.FindStringSubmatch(s)
			if m != nil && (g != Lenient || m[re.SubexpIndex("type")] != "") {
				t.Errorf("%v pattern on %q: %q", g, s, m)
			}
			checkPattern(t, s)
		}
	}
}

// The scheme: ftp in every grammar, ftps in Lenient and RFC3986 (2011
// draft §5), in any case, written as letter classes.
func TestPatternSchemes(t *testing.T) {
	for _, g := range findGrammars {
		re := anchoredPatterns()[g]
		ftps := g == Lenient || g == RFC3986
		for _, tt := range []struct {
			s    string
			want bool
		}{
			{"ftp://h/", true},
			{"ftps://h/", ftps},
			{"FtPs://h:990/a;type=i", ftps},
			{"sftp://h/", false},
			{"ftpss://h/", false},
			{"ftpſ://h/", false}, // U+017F folds to "s" under (?i)
		} {
			if got := re.MatchString(tt.s); got != tt.want {
				t.Errorf("%v pattern on %q: %v, want %v", g, tt.s, got, tt.want)
			}
			checkPattern(t, tt.s)
		}
	}
}

// The groups are Regexp::Common's -keep parts, each named once.
func TestPatternHasTheSixNamedGroupsOnce(t *testing.T) {
	want := []string{"host", "password", "path", "port", "type", "user"}
	for _, g := range findGrammars {
		var names []string
		for _, n := range regexp.MustCompile(g.Pattern()).SubexpNames() {
			if n != "" {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Errorf("%v pattern groups %q, want %q", g, names, want)
		}
	}
}

func TestPatternGroupsHoldRawParts(t *testing.T) {
	type groups struct{ user, password, host, port, path, typ string }
	for _, tt := range []struct {
		g    Grammar
		url  string
		want groups
	}{
		{RFC2396, "ftp://abigail:secret:here@127.0.0.1:21/some/file", groups{"abigail", "secret:here", "127.0.0.1", "21", "some/file", ""}},
		{RFC2396, "ftp://ftp.example.com/;type=I", groups{"", "", "ftp.example.com", "", "", "I"}},
		{RFC1738, "FTP://u%40x@Host.Example:0021/a%2Fb/c;type=d", groups{"u%40x", "", "Host.Example", "0021", "a%2Fb/c", "d"}},
		{RFC3986, "ftp://u@[2001:DB8::1]:/p?q#f", groups{"u", "", "[2001:DB8::1]", "", "p", ""}},
		{Lenient, "ftp://a b:c@d@h/x;y/z;type=e", groups{"a b", "c@d", "h", "", "x;y/z", "e"}},
		// Lenient, where ";" is data: the path keeps everything before
		// the last ";type=", but only while RE2 can tell (doc comment).
		{Lenient, "ftp://h/x;type=a;type=b", groups{"", "", "h", "", "x;type=a", "b"}},
		{Lenient, "ftp://h/x;type=ab;type=c", groups{"", "", "h", "", "x;type=ab;type=c", ""}},
	} {
		re := regexp.MustCompile("^(?:" + tt.g.Pattern() + ")$")
		m := re.FindStringSubmatch(tt.url)
		if m == nil {
			t.Errorf("%v pattern does not match %q", tt.g, tt.url)
			continue
		}
		got := groups{m[re.SubexpIndex("user")], m[re.SubexpIndex("password")], m[re.SubexpIndex("host")],
			m[re.SubexpIndex("port")], m[re.SubexpIndex("path")], m[re.SubexpIndex("type")]}
		if got != tt.want {
			t.Errorf("%v pattern on %q: groups %+v, want %+v", tt.g, tt.url, got, tt.want)
		}
		checkPattern(t, tt.url)
	}
}

// Without a host that IDNA would read, the pattern is exact; with one,
// the doc comment says it is not: "xn--" labels are not checked.
func TestPatternDoesNotCheckIDNA(t *testing.T) {
	const s = "ftp://xn--a.example/" // not a valid A-label
	if _, err := Lenient.Parse(s); err == nil {
		t.Fatalf("Parse(%q) accepts an invalid A-label", s)
	}
	if !anchoredPatterns()[Lenient].MatchString(s) {
		t.Errorf("pattern refuses %q, which only IDNA can refuse", s)
	}
}

func TestPatternOfUnknownGrammarMatchesNothing(t *testing.T) {
	re := regexp.MustCompile(Grammar(7).Pattern())
	for _, s := range []string{"", "ftp://host/", "x"} {
		if re.MatchString(s) {
			t.Errorf("Grammar(7).Pattern() matches %q", s)
		}
	}
}

// randomURL returns an ftp URL assembled from pieces chosen to sit on
// the edges of the four grammars, or a string of such pieces.
func randomURL(r *rand.Rand) string {
	// Half the URLs take only pieces that every grammar accepts, so that
	// both answers are common.
	clean := r.IntN(2) == 0
	pick := func(xs ...string) string {
		if clean {
			return xs[r.IntN(min(len(xs), 3))] // the first three pieces are valid everywhere
		}
		return xs[r.IntN(len(xs))]
	}
	var b strings.Builder
	b.WriteString(pick("ftp://", "FTP://", "fTp://", "ftp:/", "ftp:", "sftp://", ""))
	if !clean && r.IntN(4) == 0 { // noise
		for range r.IntN(10) {
			b.WriteString(pick(randomPieces...))
		}
		return b.String()
	}
	if r.IntN(3) == 0 {
		b.WriteString(pick("user", "u%40x", "", "a b", "anonymous", "u;x", "u?x", "u~", "é", "%00", "%0", "[", "x:y", "u@v"))
		if r.IntN(2) == 0 {
			b.WriteString(":" + pick("pass", "", "p%3Aq", "p:q", "p@q", "%7F", "p w", "$&+,", "!*'()"))
		}
		b.WriteString("@")
	}
	b.WriteString(pick("ftp.example.com", "h", "1.2.3.4", "Host.Example.", "255.255.255.255", "1.2.3.256",
		"01.2.3.4", "host.123", "0x7f.1", "a.0x", "a_b.c", "-a.b", "a-.b", "a..b", "[::1]", "[2001:db8::7]",
		"[::ffff:1.2.3.4]", "[1:2:3:4:5:6:7::]", "[1:2:3:4:5:6:7:8:9]", "[v1.x]", "[::1%25e]", "[::1", "bücher.example",
		"xn--bcher-kva.example", "%41", "ex%2Eample", "a.%31", "%31.2.3.4", "a.0%78", "%2E", "a%2E%2Eb", "a%2Fb",
		"%5Bx%5D", "b%C3%BCcher", "%78n--a", "a%5f-b", "1.2.3.%32%35%36", "a,b", "a!b", "", "127.0.0.1.", "1.2.3", "9a.b", "a.9b", "_a.b"))
	if r.IntN(3) == 0 {
		b.WriteString(":" + pick("21", "65535", "0021", "0", "65536", "", "x", "99999", "1"))
	}
	for range r.IntN(4) {
		b.WriteString("/" + pick("pub", "", "%2F", "a;b", "~x", "a b", "x|y", "é", "%00", "%7f", "%zz", "?x", ":@&=+$,",
			"!*'()", "..", "a%2Fb", "\u200e", ";type=a", "t;type", "\xff"))
	}
	if r.IntN(2) == 0 {
		b.WriteString(pick(";type=a", ";TYPE=I", ";type=i", ";type=d", ";type=e", ";type=", ";type=ab", ";type=%41",
			";type=i;type=a", ";ty", ";", ";type=a/b", ";type=1"))
	}
	if !clean && r.IntN(4) == 0 {
		b.WriteString("?" + pick("q", "", "a=b&c", "%00", "?/", "#", "é", "a b", "%g", "[]"))
	}
	if !clean && r.IntN(4) == 0 {
		b.WriteString("#" + pick("f", "", "#", "%00", "é", "a b", "{}", "%"))
	}
	return b.String()
}

var randomPieces = []string{
	"user", "@", ":", "/", "//", "?", "#", ";", ";type=", ";TYPE=", "a", "I", "d", "x", "1", "0", "255", "256",
	"65535", "65536", "0x", "xn--", ".", "-", "_", "%41", "%00", "%7f", "%2F", "%g0", "%", "[", "]", "::1",
	"1.2.3.4", "v1.x", "~", "!", "$", "&", "'", "(", ")", "*", "+", ",", "=", " ", "|", "\\", "\"", "<", "é",
	"\u200e", "\xff", "例", "。", "\u00a0", "\t", "ſ", "K", "host", "example.com",
}

// RFC 3986 §3.2.2 IPv6address, which the pattern spells out, is the
// language that Parse's netip.ParseAddr accepts without a zone.
func TestPatternIPv6IsWhatParseAccepts(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 4291))
	pieces := []string{"::", ":", ":", "1", "ffff", "0", "DB8", "00001", "1.2.3.4", "255.0.0.01", "1.2.3", ".", "g"}
	accepted := 0
	for range 8000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		s := "ftp://[" + b.String() + "]/"
		checkPattern(t, s)
		if _, err := RFC3986.Parse(s); err == nil {
			accepted++
		}
	}
	if accepted < 80 {
		t.Errorf("only %d generated IPv6 literals are valid", accepted)
	}
}

// IDN hosts follow the same label rule as ASCII names: "_" and "--" in
// any place are allowed (Grammar's doc: labels of letters,
// digits, "-" and "_"; "Parts": IDNA processing as idna.Lookup), so the
// pattern and FindAll accept the valid IDN hosts that Parse accepts.
func TestPatternAndFindAllAcceptIDNHostsWithUnderscoreAndHyphens(t *testing.T) {
	for _, s := range []string{
		"ftp://bücher_x.example/",
		"ftp://r3---sn-x.bücher.example/",
		"ftp://b%C3%BCcher--x.example/",
	} {
		for _, g := range []Grammar{Lenient, RFC3986} {
			if g == RFC3986 && !asciiOnly(s) {
				continue // raw non-ASCII is Lenient's (Grammar's doc)
			}
			u, err := g.Parse(s)
			if err != nil {
				t.Errorf("%v.Parse(%q): %v", g, s, err)
				continue
			}
			if !anchoredPatterns()[g].MatchString(s) {
				t.Errorf("%v pattern refuses %q, which Parse accepts as %q", g, s, u.Host)
			}
			if m := g.FindAll("see "+s+" now", -1); len(m) != 1 || m[0].URL.Host != u.Host {
				t.Errorf("%v.FindAll finds %v in text around %q", g, m, s)
			}
		}
	}
}
