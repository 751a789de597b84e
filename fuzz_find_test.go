package ftpurl

import (
	"errors"
	"net/netip"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// Fuzz targets for FindAll and Pattern (issue 5), and the checks they
// share with find_test.go and pattern_test.go.

var findGrammars = [...]Grammar{Lenient, RFC1738, RFC2396, RFC3986}

// anchoredPatterns are "^(?:" + g.Pattern() + ")$" for each grammar.
var anchoredPatterns = sync.OnceValue(func() (re [4]*regexp.Regexp) {
	for _, g := range findGrammars {
		re[g] = regexp.MustCompile("^(?:" + g.Pattern() + ")$")
	}
	return re
})

// syntaxPatterns match, leftmost-longest from the start, the syntax that
// FindAll takes the longest prefix of (FindAll's doc comment).
var syntaxPatterns = sync.OnceValue(func() (re [4]*regexp.Regexp) {
	for _, g := range findGrammars {
		re[g] = regexp.MustCompile("^(?:" + buildPattern(g, false) + ")")
		re[g].Longest()
	}
	return re
})

// hostGoesThroughIDNA reports whether g.Parse sends the host of s
// through IDNA (DESIGN.md "Parts": a name that is not ASCII, is
// percent-encoded, or has an "xn--" label), the one check that Pattern
// documents it cannot make. It splits the authority the way Parse does.
func hostGoesThroughIDNA(g Grammar, s string) bool {
	if !hasPrefixFold(s, "ftp://") {
		return false
	}
	a := s[len("ftp://"):]
	delims := "/?#"
	if g == RFC1738 {
		delims = "/#"
	}
	if i := strings.IndexAny(a, delims); i >= 0 {
		a = a[:i]
	}
	if i := strings.LastIndexByte(a, '@'); i >= 0 {
		a = a[i+1:]
	}
	if c := strings.LastIndexByte(a, ':'); c >= 0 && c > strings.LastIndexByte(a, ']') {
		a = a[:c]
	}
	if strings.HasPrefix(a, "[") {
		return false
	}
	for _, label := range strings.Split(a, ".") {
		if hasPrefixFold(label, "xn--") {
			return true
		}
	}
	switch g {
	case Lenient:
		return strings.ContainsRune(a, '%') || strings.IndexFunc(a, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0
	case RFC3986:
		return strings.ContainsRune(a, '%')
	}
	return false
}

// checkPattern checks, for every grammar, that the anchored Pattern
// matches s exactly when Parse accepts it (DESIGN.md "Finding ftp URLs
// in text"), except for hosts that go through IDNA, and that the named
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
	host, _ := group("host")
	if strings.HasPrefix(host, "[") {
		if a, err := netip.ParseAddr(host[1 : len(host)-1]); err != nil || a.String() != u.Host {
			t.Errorf("%v: %q: host group %q, URL host %q", g, s, host, u.Host)
		}
	} else if strings.ToLower(host) != u.Host {
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
		if len(last) < len(typeParam)+1 || !strings.Contains(strings.ToLower(last[:len(last)-len(typeParam)-1]), typeParam) {
			t.Errorf("%v: %q: path group %q has no type group, URL type %q", g, s, path, u.Type)
		}
		path = path[:len(path)-len(typeParam)-1]
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

// isTextTerminator reports whether r ends a URL in text (DESIGN.md
// "Finding ftp URLs in text"; RFC 3986 Appendix C).
func isTextTerminator(r rune) bool {
	return unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`<>"`+"`", r)
}

// referenceFindAll is FindAll written the slow, obvious way from its
// documentation: every candidate, the region up to a terminator, the
// longest prefix that the syntax pattern matches, Lenient's trimming,
// then Parse.
func referenceFindAll(g Grammar, text string) []Match {
	var out []Match
	for s := 0; s+4 <= len(text); s++ {
		if !strings.EqualFold(text[s:s+4], "ftp:") {
			continue
		}
		if s > 0 && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.", rune(text[s-1])) {
			continue
		}
		r := s
		for r < len(text) {
			c, n := utf8.DecodeRuneInString(text[r:])
			if isTextTerminator(c) {
				break
			}
			r += n
		}
		loc := syntaxPatterns()[g].FindStringIndex(text[s:r])
		if loc == nil {
			continue
		}
		e := s + loc[1]
		if g == Lenient {
			e = referenceTrim(text[s:e]) + s
		}
		u, err := g.Parse(text[s:e])
		if err != nil {
			continue
		}
		out = append(out, Match{Start: s, End: e, URL: u})
		s = e - 1
	}
	return out
}

// referenceTrim drops Lenient's trailing punctuation and unmatched
// closing brackets from m, one at a time, until none is left.
func referenceTrim(m string) int {
	for {
		r, n := utf8.DecodeLastRuneInString(m)
		switch r {
		case '.', ',', ':', ';', '!', '?', '\'', '*', '_', '。':
			m = m[:len(m)-n]
			continue
		case ')', ']', '}':
			open := map[rune]rune{')': '(', ']': '[', '}': '{'}[r]
			depth := 0
			for _, c := range m[:len(m)-1] {
				switch {
				case c == open:
					depth++
				case c == r && depth > 0:
					depth--
				}
			}
			if depth == 0 {
				m = m[:len(m)-1]
				continue
			}
		}
		return len(m)
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
	"ftp://bücher.example/", "ftp://host/é", "ftp://host/\u200e", "ftp://host/\xff", "ftp://h/~abigail/",
	"ftp:/host/", "ftp:host", "http://host/", "ftp://",
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
}
