package ftpurl

// Slow, obviously correct reference implementations, written from the
// doc comments and the documents rather than from the code, used only
// to check the fast ones (as net/netip's slow_test.go does): the
// redaction rule of Error.URL, the path split of Plan, the syntax that
// FindAll takes the longest prefix of, which hosts go through IDNA,
// FindAll itself, and the authority scan, a byte a step.

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// reScheme3986 is RFC 3986 §3.1 scheme and its ":", at the start.
var reScheme3986 = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)

// redactedByRule is the rule of Error.URL, written from its words
// (RFC 3986 §3.2.1 deprecates the password; §3.1, §3.2 place the
// authority): when s has an "@", the text from the first ":" of the
// authority to the last "@" becomes "xxxxx". The authority starts
// after the "//" that follows the scheme; where that "//" is missing or
// comes after the (first) "@", after the scheme's ":", or at the start
// of an input with no scheme.
func redactedByRule(s string) string {
	last := strings.LastIndex(s, "@")
	if last < 0 {
		return s
	}
	scheme := reScheme3986.FindString(s)
	start := len(scheme)
	rest := s[start:]
	if sl := strings.Index(rest, "//"); sl >= 0 && sl < strings.Index(rest, "@") {
		start += sl + 2
	} else if !strings.EqualFold(scheme, "ftp:") && !strings.EqualFold(scheme, "ftps:") {
		start = 0 // a scheme other than ftp and ftps counts as none
	}
	c := strings.Index(s[start:last], ":")
	if c < 0 {
		return s
	}
	return s[:start+c+1] + "xxxxx" + s[last:]
}

// planReferenceSplit is a slow, obviously correct reading of an input that
// g.Parse accepted: the path runs from the first "/", "?" or "#" after
// "//" (RFC 3986 §3.2; "?" is path data in RFC 1738) to the first "#"
// or "?"; it is split on raw "/" only, each segment decoded on its own
// (RFC 1738 §3.2.2), and a final ";type=X" (any case) is taken off the
// last one (2011 draft §3.1).
func planReferenceSplit(g Grammar, raw string) (dirs []string, name string, err error) {
	ends := "/?#"
	pathEnds := "?#"
	if g == RFC1738 {
		ends, pathEnds = "/#", "#"
	}
	_, rest, _ := strings.Cut(raw, "://") // after "ftp://" or "ftps://"
	i := strings.IndexAny(rest, ends)
	if i < 0 {
		return nil, "", nil
	}
	path := rest[i:]
	if j := strings.IndexAny(path, pathEnds); j >= 0 {
		path = path[:j]
	}
	if path == "" {
		return nil, "", nil
	}
	segs := strings.Split(path[1:], "/")
	last := segs[len(segs)-1]
	for k := len(last) - len(";type="); k >= 0; k-- {
		if strings.EqualFold(last[k:k+len(";type=")], ";type=") {
			last = last[:k]
			break
		}
	}
	for _, s := range segs[:len(segs)-1] {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, "", err
		}
		dirs = append(dirs, d)
	}
	name, err = url.PathUnescape(last)
	return dirs, name, err
}

// syntaxPatterns match, leftmost-longest from the start, the syntax that
// FindAll takes the longest prefix of (FindAll's doc comment): Pattern
// with any escape, any run of digits as a port, and syntaxHost.
var syntaxPatterns = sync.OnceValue(func() (re [4]*regexp.Regexp) {
	for _, g := range findGrammars {
		re[g] = regexp.MustCompile("^(?:" + patternOf(g, reEscape, syntaxHost(g), `[0-9]+`) + ")")
		re[g].Longest()
	}
	return re
})

// syntaxHost is the host syntax of FindAll's doc comment: RFC 1738 §5
// and RFC 2396 §3.2.2 hostname or four runs of digits; in Lenient and
// RFC 3986 any run of host name characters and escapes (and in Lenient
// non-ASCII characters), or an IP literal's characters in brackets.
func syntaxHost(g Grammar) string {
	ps := partSetsOf(g)
	if g.rules().strictHost {
		return `[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+|` + hostnamePattern(&ps)
	}
	hc := ps.host.class() + "|" + reEscape
	if g.rules().rawUnicodeHost {
		hc += "|" + reUCSHost()
	}
	return `(?:` + hc + `)+|\[` + ps.lit.class() + `+\]`
}

// hostGoesThroughIDNA reports whether g.Parse sends the host of s
// through IDNA, the one check that Pattern documents it cannot make.
// Parse decodes the host (Lenient and RFC 3986 only) and sends it to
// IDNA only when the decoded name is not ASCII (Lenient: raw or
// escaped; RFC 3986: escaped) or has a label beginning "xn--", in any
// case (checkHostName's doc). It splits the authority the way Parse does.
func hostGoesThroughIDNA(g Grammar, s string) bool {
	if !hasPrefixFold(s, "ftp://") && !hasPrefixFold(s, "ftps://") {
		return false
	}
	a := s[strings.Index(s, "://")+len("://"):]
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
	switch g {
	case RFC3986:
		if !asciiOnly(a) {
			return false // refused raw, before any decoding
		}
		fallthrough
	case Lenient:
		a = unescape(a)
		if !asciiOnly(a) {
			return true
		}
	}
	for _, label := range strings.Split(a, ".") {
		if hasPrefixFold(label, "xn--") {
			return true
		}
	}
	return false
}

// isTextTerminator reports whether r ends a URL in text (FindAll's
// doc; RFC 3986 Appendix C).
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
		// "ftp:", and "ftps:" in the grammars that read it (2011 draft §5).
		ftps := (g == Lenient || g == RFC3986) && s+5 <= len(text) && strings.EqualFold(text[s:s+5], "ftps:")
		if !strings.EqualFold(text[s:s+4], "ftp:") && !ftps {
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

// authorityScan is what parser.authority learns in its one scan of an
// authority that starts at s[i]: where it ends, and whether the host
// (the bytes after the last "@", but for the port's ":") is a plain
// name, may hold an upper-case letter, and may hold ".." or "--".
type authorityScan struct {
	end                  int
	plain, upper, paired bool
}

// referenceAuthorityScan is that scan written from RFC 3986 §3.2 a
// byte a step, with the string functions: the authority ends at the
// first "/", "#" or "?" (but "?" where it is data); the last "@" ends
// the userinfo; the host is plain when its bytes are all in cHostName,
// with at most one ":" and no "]" after the last "@".
func referenceAuthorityScan(r *rules, s string, i int) authorityScan {
	end := i
	for end < len(s) && s[end] != '/' && s[end] != '#' && (s[end] != '?' || r.questionIsData) {
		end++
	}
	host := s[i:end]
	if at := strings.LastIndexByte(host, '@'); at >= 0 {
		host = host[at+1:]
	}
	rest := strings.NewReplacer(":", "", "]", "").Replace(host)
	plain := strings.Count(host, ":") <= 1 && !strings.Contains(host, "]") &&
		!strings.ContainsFunc(rest, func(c rune) bool { return c >= utf8.RuneSelf || chars[c]&cHostName == 0 })
	paired := false
	for _, pair := range []string{"..", "--", ".-", "-."} {
		paired = paired || strings.Contains(host, pair)
	}
	return authorityScan{
		end:    end,
		plain:  plain,
		upper:  strings.ContainsFunc(host, unicode.IsUpper),
		paired: paired,
	}
}
