package ftpurl

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// Pattern returns an RE2 regular expression (package regexp) that, anchored
// ("^(?:" + p + ")$"), matches exactly what g.Parse accepts, but for IDNA,
// which no regular language checks. Its named groups hold raw text, as
// Regexp::Common's $RE{URI}{FTP}{-keep} does:
//
//	user      the user name (the userinfo up to its first ":")
//	password  the password, unset when there is none
//	host      the host as written, an IPv6 literal with its brackets
//	port      the port digits, "" after a bare ":", unset when there is none
//	path      the path without its leading "/" and without ";type=X"
//	type      the typecode letter, unset when there is none
//
// In Lenient a last segment with ";type=" twice may leave the final
// ";type=X" in path. To find URLs in prose use [Grammar.FindAll]. For an
// invalid Grammar, the pattern matches nothing.
func (g Grammar) Pattern() string {
	if !g.valid() {
		return matchNothing
	}
	return patterns[g]()
}

// matchNothing is an RE2 pattern that matches no string.
const matchNothing = `[^\x00-\x{10FFFF}]`

var patterns = [...]func() string{
	Lenient: sync.OnceValue(func() string { return buildPattern(Lenient) }),
	RFC1738: sync.OnceValue(func() string { return buildPattern(RFC1738) }),
	RFC2396: sync.OnceValue(func() string { return buildPattern(RFC2396) }),
	RFC3986: sync.OnceValue(func() string { return buildPattern(RFC3986) }),
}

// A byteSet is a set of ASCII bytes.
type byteSet [2]uint64

// setOf returns the ASCII bytes that the core's class table puts in
// class m, so that Pattern and FindAll follow the parser's tables.
func setOf(m uint32) byteSet {
	var s byteSet
	for c := 0; c < utf8.RuneSelf; c++ {
		if chars[c]&m != 0 {
			s[c>>6] |= 1 << (c & 63)
		}
	}
	return s
}

func (s byteSet) has(c byte) bool {
	return c < utf8.RuneSelf && s[c>>6]&(1<<(c&63)) != 0
}

func (s byteSet) with(cs string) byteSet {
	for i := 0; i < len(cs); i++ {
		s[cs[i]>>6] |= 1 << (cs[i] & 63)
	}
	return s
}

func (s byteSet) and(t byteSet) byteSet {
	return byteSet{s[0] & t[0], s[1] & t[1]}
}

func (s byteSet) without(cs string) byteSet {
	for i := 0; i < len(cs); i++ {
		s[cs[i]>>6] &^= 1 << (cs[i] & 63)
	}
	return s
}

// class writes s as an RE2 character class.
func (s byteSet) class() string {
	var b strings.Builder
	b.WriteByte('[')
	for c := 0; c < utf8.RuneSelf; c++ {
		if !s.has(byte(c)) {
			continue
		}
		hi := c
		for hi+1 < utf8.RuneSelf && s.has(byte(hi+1)) {
			hi++
		}
		switch {
		case hi-c >= 2:
			b.WriteString(reByte(byte(c)))
			b.WriteByte('-')
			b.WriteString(reByte(byte(hi)))
		case hi-c == 1:
			b.WriteString(reByte(byte(c)))
			b.WriteString(reByte(byte(hi)))
		default:
			b.WriteString(reByte(byte(c)))
		}
		c = hi
	}
	b.WriteByte(']')
	return b.String()
}

// reByte writes the ASCII byte c so that RE2 reads it as itself, in or
// out of a class.
func reByte(c byte) string {
	switch {
	case chars[c]&(cAlpha|cDigit) != 0:
		return string(rune(c))
	case '!' <= c && c <= '~':
		return `\` + string(rune(c)) // RE2: "\" before punctuation is a literal
	}
	return fmt.Sprintf(`\x%02X`, c)
}

// partSets are the raw characters of each part of a URL in grammar g,
// derived from the grammar's rules and the parser's class table as
// parse.go uses them: what each part's scanner accepts, less the
// delimiters that end the part and "%", which is only ever the start of
// an escape. Pattern and FindAll share them; every other choice of the
// grammar they read from r, under the name it has there.
type partSets struct {
	r              *rules
	user, password byteSet // userinfo before and after its first ":"
	host           byteSet // the characters of a host name: r.hostLabel and "."
	lit            byteSet // inside an IP literal's brackets (syntax)
	seg            byteSet // a path segment, ";" only where it is data
	query          byteSet // empty when the grammar has no query
	fragment       byteSet // empty when the grammar has no fragment
	types          byteSet // typecode letters, both cases
	authEnd        byteSet // the delimiters that end the authority
	pathEnd        byteSet // the delimiters that end the path
}

func partSetsOf(g Grammar) partSets {
	r := g.rules()
	ps := partSets{r: r}
	ps.authEnd = byteSet{}.with("/#")
	ps.pathEnd = byteSet{}.with("#")
	if !r.questionIsData {
		ps.authEnd = ps.authEnd.with("?")
		ps.pathEnd = ps.pathEnd.with("?")
	}
	const notRaw = "%" // "%" is always the start of an escape
	ps.user = setOf(r.user).without(":" + notRaw + "/?#")
	ps.password = setOf(r.password).without(notRaw + "/?#")
	if r.questionIsData {
		// "?" does not end an RFC 1738 authority: it is user data (§5).
		ps.user, ps.password = ps.user.with("?"), ps.password.with("?")
	}
	ps.host = setOf(r.hostLabel).with(".")
	ps.lit = setOf(cUser3986).with(":")
	ps.seg = setOf(r.seg).without(notRaw + "/#")
	if !r.questionIsData {
		ps.seg = ps.seg.without("?")
	}
	if r.semicolonIsData {
		ps.seg = ps.seg.with(";")
	} else {
		ps.seg = ps.seg.without(";")
	}
	if r.query != 0 {
		ps.query = setOf(r.query).without(notRaw + "#")
	}
	if r.fragment != 0 {
		ps.fragment = setOf(r.fragment).without(notRaw)
	}
	for t := Typecode('a'); t <= 'z'; t++ {
		if r.allowsType(t) {
			ps.types = ps.types.with(string(rune(t)) + string(rune(t-'a'+'A')))
		}
	}
	return ps
}

// hostnamePattern is the RFC 1738 §5 and RFC 2396 §3.2.2 hostname of a
// strict grammar, *( domainlabel "." ) toplabel, with the labels' bytes
// from its rules (ps.host): a domainlabel neither begins nor ends with
// "-", and a toplabel also begins with a letter; RFC 2396 allows a
// final "." (rules.finalDot). The parser (checkHostName) and FindAll
// (finder.strictHost) apply the same rules to the same sets.
func hostnamePattern(ps *partSets) string {
	label := ps.host.without(".")
	edge := label.without("-")
	top := label.and(setOf(cAlpha))
	tail := `(?:` + label.class() + `*` + edge.class() + `)?`
	name := `(?:` + edge.class() + tail + `\.)*` + top.class() + tail
	if ps.r.finalDot {
		name += `\.?`
	}
	return name
}

// Pieces of the patterns.
const (
	// Any escape (RFC 3986 §2.1); and one that is not a control
	// character (0x00-0x1F, 0x7F), which Parse refuses in the userinfo,
	// host and path.
	reEscape     = `%[0-9A-Fa-f]{2}`
	reEscapeNoCC = `%(?:[2-6][0-9A-Fa-f]|7[0-9A-Ea-e]|[89A-Fa-f][0-9A-Fa-f])`
	// An escape of a byte outside ASCII: in a host, it makes the name an
	// IDN, which IDNA checks (checkHostName's doc).
	reEscapeNonASCII = `%[89A-Fa-f][0-9A-Fa-f]`
	// RFC 3986 §3.2.2 dec-octet: 0..255 without leading zeros.
	reDecOctet = `(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])`
	reIPv4     = reDecOctet + `\.` + reDecOctet + `\.` + reDecOctet + `\.` + reDecOctet
	// 1..65535 with any number of leading zeros.
	rePort = `0*(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3})`
)

var reType = caseless(typeParam)

// schemePattern matches the schemes of grammar g and "://": ftp, and
// ftps in the grammars that read it (2011 draft §5), in any case.
func schemePattern(g Grammar) string {
	var alts []string
	for _, sc := range g.rules().schemes {
		alts = append(alts, caseless(sc.name))
	}
	return `(?:` + strings.Join(alts, "|") + `)://`
}

// caseless writes the ASCII string s as an RE2 pattern that matches it
// in any case, letters as classes ("[Ff]"), never with (?i).
func caseless(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if chars[c]&cAlpha != 0 {
			b.WriteString("[" + string(rune(upper(c))) + string(rune(upper(c)+'a'-'A')) + "]")
		} else {
			b.WriteString(reByte(c))
		}
	}
	return b.String()
}

// escapesOf returns the alternatives of an RE2 pattern that matches
// the escapes "%XX" of the ASCII bytes in s, with hex digits in any case.
func escapesOf(s byteSet) string {
	var alts []string
	for hi := 0; hi < 8; hi++ {
		var lows byteSet
		for lo := 0; lo < 16; lo++ {
			if s.has(byte(hi<<4 | lo)) {
				lows = lows.with(string(upperhex[lo]) + string(rune(upperhex[lo]|0x20)))
			}
		}
		if lows != (byteSet{}) {
			alts = append(alts, "%"+string(upperhex[hi])+lows.class())
		}
	}
	return strings.Join(alts, "|")
}

// reIPv6 is RFC 3986 §3.2.2 IPv6address.
var reIPv6 = func() string {
	h16 := `[0-9A-Fa-f]{1,4}`
	ls32 := `(?:` + h16 + `:` + h16 + `|` + reIPv4 + `)`
	rep := func(n int) string { return fmt.Sprintf(`(?:%s:){%d}`, h16, n) }
	upTo := func(n int) string { // [ *n( h16 ":" ) h16 ]
		if n == 0 {
			return `(?:` + h16 + `)?`
		}
		return fmt.Sprintf(`(?:(?:%s:){0,%d}%s)?`, h16, n, h16)
	}
	forms := []string{
		rep(6) + ls32,
		`::` + rep(5) + ls32,
		upTo(0) + `::` + rep(4) + ls32,
		upTo(1) + `::` + rep(3) + ls32,
		upTo(2) + `::` + rep(2) + ls32,
		upTo(3) + `::` + h16 + `:` + ls32,
		upTo(4) + `::` + ls32,
		upTo(5) + `::` + h16,
		upTo(6) + `::`,
	}
	return `(?:` + strings.Join(forms, `|`) + `)`
}()

// ucsRanges returns the runes at or above 0x80 for which keep is true
// (or false, with negate), as the inside of an RE2 class.
func ucsRanges(keep func(rune) bool) string {
	var b strings.Builder
	for r := rune(utf8.RuneSelf); r <= utf8.MaxRune; r++ {
		if !keep(r) {
			continue
		}
		hi := r
		for hi+1 <= utf8.MaxRune && keep(hi+1) {
			hi++
		}
		if hi == r {
			fmt.Fprintf(&b, `\x{%X}`, r)
		} else {
			fmt.Fprintf(&b, `\x{%X}-\x{%X}`, r, hi)
		}
		r = hi
	}
	return b.String()
}

// reUCS is RFC 3987 ucschar without the bidi formatting characters:
// what Lenient accepts raw outside the host (isUCSChar).
var reUCS = sync.OnceValue(func() string {
	return "[" + ucsRanges(isUCSChar) + "]"
})

// reUCSHost is what Lenient takes as a non-ASCII character of a host
// name: ucschar except punctuation and spaces, and the three dots that
// IDNA maps to "." (UTS #46 §4). IDNA decides the rest.
var reUCSHost = sync.OnceValue(func() string {
	notUCS := ucsRanges(func(r rune) bool { return !isUCSChar(r) })
	return `(?:[\x{3002}\x{FF0E}\x{FF61}]|[^\x00-\x7F\p{P}\p{Z}` + notUCS + `])`
})

// isHostUCS reports whether the non-ASCII rune r may be part of a
// Lenient host name in text; it is reUCSHost.
func isHostUCS(r rune) bool {
	switch r {
	case 0x3002, 0xFF0E, 0xFF61:
		return true
	}
	return isUCSChar(r) && !isPunctOrSpace(r)
}

// buildPattern writes the pattern of grammar g: patternOf with the
// checks that Parse makes on escapes, hosts and ports.
func buildPattern(g Grammar) string {
	ps := partSetsOf(g)
	return patternOf(g, reEscapeNoCC, hostPattern(g, &ps), rePort)
}

// hostPattern returns the alternatives of a host of grammar g.
//
// RFC 1738 and RFC 2396: hostname or dotted quad, no escapes.
//
// Lenient and RFC 3986: a dotted quad, an IPv6 literal in brackets, or
// labels of letters, digits, "-" and "_" separated by dots, with an
// optional final dot. Parse decodes the host before it checks it
// (Pattern's doc), so the only escapes are those of these
// characters, read as the characters (%2E a dot, %30-%39 digits), and
// those of bytes outside ASCII, which make the name an IDN. A last
// label that is all digits or starts with "0x" makes the host numeric,
// and then it must be a dotted quad. Non-ASCII characters and escapes
// count as letters: IDNA decides the rest.
func hostPattern(g Grammar, ps *partSets) string {
	if ps.r.strictHost {
		return reIPv4 + `|` + hostnamePattern(ps)
	}
	// hostChars matches one of the ASCII bytes in set, raw or escaped,
	// and with idn, a byte or character that makes the name an IDN.
	hostChars := func(set byteSet, idn bool) string {
		alts := set.class() + "|" + escapesOf(set)
		if idn {
			alts += "|" + reEscapeNonASCII
			if ps.r.rawUnicodeHost {
				alts += "|" + reUCSHost()
			}
		}
		return "(?:" + alts + ")"
	}
	digits := func(ds string) string { return hostChars(byteSet{}.with(ds), false) }
	const all = "0123456789"
	octet := `(?:` + digits("2") + digits("5") + digits("012345") +
		`|` + digits("2") + digits("01234") + digits(all) +
		`|` + digits("1") + digits(all) + digits(all) +
		`|` + digits("123456789") + digits(all) +
		`|` + digits(all) + `)`
	dot := digits(".")
	ipv4 := octet + dot + octet + dot + octet + dot + octet

	labelSet := ps.host.without(".")
	label := hostChars(labelSet, true)
	nonDigit := hostChars(labelSet.without(all), true)
	nonDigitNoX := hostChars(labelSet.without(all+"Xx"), true)
	last := `(?:(?:` + digits("123456789") + digits(all) + `*|` + digits("0") + digits(all) + `+)?` + nonDigit +
		`|` + digits("0") + nonDigitNoX + `)` + label + `*`
	return ipv4 + `|(?:` + label + `+` + dot + `)*` + last + dot + `?|\[` + reIPv6 + `\]`
}

// patternOf writes the pattern of grammar g around the given pieces:
// esc, an escape allowed in the userinfo and path; host, the
// alternatives of a host; port, a non-empty port.
func patternOf(g Grammar, esc, host, port string) string {
	ps := partSetsOf(g)
	ucs := ""
	if ps.r.ucs() {
		ucs = reUCS()
	}
	// atom matches one character or escape of a part whose raw
	// characters are set.
	atom := func(set byteSet, esc string) string {
		alts := set.class() + "|" + esc
		if ucs != "" {
			alts += "|" + ucs
		}
		return "(?:" + alts + ")"
	}

	var b strings.Builder
	b.WriteString(schemePattern(g))

	// Userinfo (RFC 1738 §3.1, RFC 3986 §3.2.1): the first ":" splits.
	userRep := "*"
	if ps.r.needUser {
		userRep = "+"
	}
	b.WriteString(`(?:(?P<user>` + atom(ps.user, esc) + userRep + `)`)
	b.WriteString(`(?::(?P<password>` + atom(ps.password, esc) + `*))?@)?`)

	b.WriteString(`(?P<host>` + host + `)`)

	if ps.r.emptyPort {
		port = `(?:` + port + `)?`
	}
	b.WriteString(`(?::(?P<port>` + port + `))?`)

	// Path, with the typecode of its last segment.
	seg := atom(ps.seg, esc)
	types := ps.types.class()
	b.WriteString(`(?:/(?P<path>(?:` + seg + `*/)*`)
	if ps.r.semicolonIsData {
		b.WriteString(`(?:` + noTypeParam(ps.seg, esc, ucs) + `|` + seg + `*?` + reType + `[A-Za-z])`)
	} else {
		b.WriteString(seg + `*`)
	}
	b.WriteString(`)(?:` + reType + `(?P<type>` + types + `))?)?`)

	// Query and fragment (RFC 3986 §3.4, §3.5): escapes of any octet.
	if ps.r.query != 0 {
		b.WriteString(`(?:\?` + atom(ps.query, reEscape) + `*)?`)
	}
	if ps.r.fragment != 0 {
		b.WriteString(`(?:#` + atom(ps.fragment, reEscape) + `*)?`)
	}
	return b.String()
}

// noTypeParam returns a pattern for the Lenient segments that do not hold
// typeParam (";type=") in any case: an automaton that tracks how much of
// it the segment ends with, written as a regular expression.
func noTypeParam(seg byteSet, esc, ucs string) string {
	other := func(except byte) string { // a segment atom other than ";" and except
		set := seg.without(";" + string(rune(except)) + string(rune(upper(except))))
		alts := set.class() + "|" + esc
		if ucs != "" {
			alts += "|" + ucs
		}
		return "(?:" + alts + ")"
	}
	key := typeParam[1 : len(typeParam)-1] // "type", between ";" and "="
	// A prefix of key, possibly empty.
	prefix := ""
	for i := len(key) - 1; i >= 0; i-- {
		prefix = `(?:` + caseless(key[i:i+1]) + prefix + `)?`
	}
	// After ";" and a prefix of key, a character that breaks the match.
	var breaks []string
	for k := 0; k <= len(key); k++ {
		next := typeParam[len(typeParam)-1]
		if k < len(key) {
			next = key[k]
		}
		breaks = append(breaks, caseless(key[:k])+other(next))
	}
	return `(?:` + other(';') + `|;(?:` + prefix + `;)*(?:` + strings.Join(breaks, "|") + `))*(?:;(?:` + prefix + `;)*` + prefix + `)?`
}
