package ftpurl

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Match is an ftp URL that [Grammar.FindAll] found in a text.
type Match struct {
	Start, End int  // byte offsets of the URL in the text: text[Start:End]
	URL        *URL // the URL that the grammar's Parse returns for text[Start:End]
}

// FindAll returns the ftp URLs of grammar g in text, left to right, at most
// n, or all when n < 0, as in package regexp; nil when there is none.
// A URL starts at "ftp:" or "ftps:" in any case, not after an ASCII letter,
// digit, "+", "-" or ".", and white space, controls, "<", ">", '"' and "`"
// end it (RFC 3986 Appendix C). FindAll takes the longest prefix that g's
// syntax accepts ("ftp://anonymous@ ftp.example.com" finds
// "ftp://anonymous"), and skips it, never cutting it shorter, when it fails
// a semantic check (port, dotted quad, escaped octet, IDNA). Lenient first
// drops trailing ". , : ; ! ? ' * _" and U+3002, and an unmatched ")", "]"
// or "}". Its time is linear in len(text).
func (g Grammar) FindAll(text string, n int) []Match {
	if n == 0 || !g.valid() {
		return nil
	}
	f := newFinder(g, text)
	return f.all(n)
}

// newFinder returns a finder of g's URLs in text.
func newFinder(g Grammar, text string) *finder {
	f := &finder{g: g, text: text, t: &findTables[g]}
	if f.t.ps.r.ucs() {
		f.textUCS, f.hostUCS = inText, isHostUCS
	}
	return f
}

// all returns the first n matches (all for n < 0) in f.text.
func (f *finder) all(n int) []Match {
	text := f.text
	var out []Match
	next := 0 // matches do not overlap
	for i := 0; i < len(text); {
		j := strings.IndexByte(text[i:], ':')
		if j < 0 {
			break
		}
		c := i + j
		i = c + 1
		// Most ":" in text follow no scheme name: a table look-up, no call.
		if c == 0 || !f.t.schemeLast[text[c-1]] {
			continue
		}
		s := f.schemeStart(c)
		if s < next || s > 0 && isSchemeByte(text[s-1]) {
			continue
		}
		m, ok := f.match(s, c+1)
		if !ok {
			continue
		}
		out = append(out, m)
		if len(out) == n {
			break
		}
		i, next = m.End, m.End
	}
	return out
}

// schemeStart returns where the longest name of a scheme of f's grammar
// that ends at the ":" at text[c] starts, in any case; -1 if none does.
func (f *finder) schemeStart(c int) int {
	start := -1
	for _, sc := range f.g.rules().schemes {
		if k := c - len(sc.name); k >= 0 && (start < 0 || k < start) && equalFoldASCII(f.text[k:c], sc.name) {
			start = k
		}
	}
	return start
}

// isSchemeByte reports whether c may be part of a URI scheme
// (RFC 3986 §3.1), so that "ftp:" after it is not a scheme of its own.
func isSchemeByte(c byte) bool {
	return chars[c]&(cAlpha|cDigit) != 0 || c == '+' || c == '-' || c == '.'
}

// isTerminator reports whether the ASCII byte c ends a URL in text
// (RFC 3986 Appendix C): controls, space, "<", ">", '"', "`".
func isTerminator(c byte) bool {
	return c <= ' ' || c == 0x7F || c == '<' || c == '>' || c == '"' || c == '`'
}

// isPunctOrSpace reports whether r is Unicode punctuation (P) or a
// separator (Z).
func isPunctOrSpace(r rune) bool {
	return unicode.IsPunct(r) || unicode.Is(unicode.Z, r)
}

// inText reports whether the non-ASCII rune r may be part of a Lenient
// URL in text: RFC 3987 ucschar that is not white space.
func inText(r rune) bool {
	return isUCSChar(r) && !unicode.IsSpace(r)
}

// Bits of findTable: the bytes allowed raw in each part of a URL in
// text, from partSets less the terminators.
const (
	fUser  uint8 = 1 << iota // userinfo, before the first ":"
	fPass                    // userinfo, after the first ":"
	fHost                    // host name
	fLit                     // inside an IP literal's brackets
	fSeg                     // path segment
	fQuery                   // query
	fFrag                    // fragment
	fAuth                    // anywhere in an authority
)

type findTable struct {
	schemeLast [256]bool // the last letter of a scheme name, in either case
	bits       [256]uint8
	authEnd    [256]bool // ends the authority
	pathEnd    [256]bool // ends the path
	ps         partSets
}

var findTables = func() (t [4]findTable) {
	for g := range t {
		ps := partSetsOf(Grammar(g))
		ft := &t[g]
		ft.ps = ps
		for _, sc := range Grammar(g).rules().schemes {
			last := sc.name[len(sc.name)-1]
			ft.schemeLast[last], ft.schemeLast[upper(last)] = true, true
		}
		for c := 0; c < utf8.RuneSelf; c++ {
			b := byte(c)
			if ps.authEnd.has(b) {
				ft.authEnd[c] = true
			}
			if ps.pathEnd.has(b) {
				ft.pathEnd[c] = true
			}
			if isTerminator(b) {
				continue
			}
			var bits uint8
			for _, p := range [...]struct {
				set byteSet
				bit uint8
			}{{ps.user, fUser}, {ps.password, fPass}, {ps.host, fHost}, {ps.seg, fSeg}, {ps.query, fQuery}, {ps.fragment, fFrag}} {
				if p.set.has(b) {
					bits |= p.bit
				}
			}
			if ps.r.ipLiteral() && ps.lit.has(b) {
				bits |= fLit
			}
			if bits&(fUser|fPass|fHost|fLit) != 0 || b == ':' || b == '@' || chars[b]&cDigit != 0 ||
				ps.r.ipLiteral() && (b == '[' || b == ']') {
				bits |= fAuth
			}
			ft.bits[c] = bits
		}
	}
	return t
}()

// A finder finds the URL of one candidate at a time. It remembers the
// last scan of a path, a query and a fragment: a candidate that starts
// inside another's path shares the rest of that path, so that nested
// candidates cost nothing more and FindAll stays linear.
type finder struct {
	g    Grammar
	text string
	t    *findTable

	// The non-ASCII characters allowed raw in text and in a host name;
	// nil in the grammars that allow none.
	textUCS, hostUCS func(rune) bool

	// read counts the bytes that the scans and the parses of candidates
	// read, some more than once; a test holds it to a small multiple of
	// len(text), the proof that FindAll is linear.
	read int

	path     pathRun
	pathOK   bool
	qFrom    int // query scan from qFrom ended at qEnd
	qEnd     int
	qToFrag  bool
	qOK      bool
	fragFrom int // fragment scan from fragFrom ended at fragEnd
	fragEnd  int
	fragOK   bool
}

// match returns the URL of the candidate at offset s, where a scheme
// name is, whose ":" ends before offset h.
func (f *finder) match(s, h int) (Match, bool) {
	text, g := f.text, f.g
	x := h + len("//")
	if x > len(text) || text[h] != '/' || text[h+1] != '/' {
		return Match{}, false
	}
	lim := f.authorityEnd(x)
	e := f.authority(x, lim)
	if e < 0 {
		return Match{}, false
	}
	end, ctl := e, -1
	if e == lim && lim < len(text) && f.t.authEnd[text[lim]] {
		end, ctl = f.tail(lim)
	}
	// One parse. The authority comes first, so that a candidate that
	// fails there (or whose path the shared scan found an escaped
	// control character in) costs only its authority, not the path it
	// may share with nested candidates.
	var c candidate
	authOK := c.authority(g, text[s:end])
	f.read += 2 * c.end // the scan of the authority, and its host again
	if end > lim {
		switch {
		case !authOK && (!g.rules().trimProse || !f.allTrailing(lim, end)):
			return Match{}, false // only trimming the whole tail could save it
		case authOK && ctl >= lim:
			return Match{}, false
		}
	}
	if g.rules().trimProse {
		end = f.trimTrailing(s, end)
	}
	f.read += 2 * (end - s) // at most the authority again, and the rest
	u := c.rest(g, text[s:end], authOK)
	if u == nil {
		return Match{}, false
	}
	return Match{Start: s, End: end, URL: u}, true
}

// atom returns the length of the character at text[i], i < lim, if a
// part whose raw bytes have bit may hold it: 1 for such a byte, 3 for
// a valid escape (of any octet: what it encodes is a semantic check),
// the UTF-8 length of a non-ASCII rune that ucs accepts (nil: none);
// and 0 if the part cannot hold it. Every scan of FindAll steps with it.
func (f *finder) atom(i, lim int, bit uint8, ucs func(rune) bool) int {
	text := f.text
	c := text[i]
	switch {
	case f.t.bits[c]&bit != 0:
		return 1
	case c == '%':
		if validEscape(text[:lim], i) {
			return 3
		}
	case c >= utf8.RuneSelf && ucs != nil:
		if r, n := utf8.DecodeRuneInString(text[i:lim]); ucs(r) {
			return n
		}
	}
	return 0
}

// run returns the end of the run of atoms (above) from i up to lim.
func (f *finder) run(i, lim int, bit uint8, ucs func(rune) bool) int {
	start := i
	for i < lim {
		n := f.atom(i, lim, bit, ucs)
		if n == 0 {
			break
		}
		i += n
	}
	f.read += i - start + 1
	return i
}

// authorityEnd returns where the longest run of characters that may
// appear in an authority, starting at x, ends.
func (f *finder) authorityEnd(x int) int {
	return f.run(x, len(f.text), fAuth, f.textUCS)
}

// authority returns the largest e <= lim such that text[x:e] is a
// syntactically valid authority, or -1 if there is none. The userinfo
// ends at an "@" (the last one, as no host holds "@"), the first ":" of
// the userinfo splits user from password (RFC 3986 §3.2.1).
func (f *finder) authority(x, lim int) int {
	text := f.text
	ui := f.userinfoEnd(x, lim) // text[x:t] is a valid userinfo for every t <= ui
	hi := min(ui+1, lim)
	for hi > x {
		t := strings.LastIndexByte(text[x:hi], '@')
		if t < 0 {
			f.read += hi - x
			break
		}
		t += x
		f.read += hi - t
		hi = t
		if f.t.ps.r.needUser && (t == x || text[x] == ':') {
			continue // 2011 draft §3.1: user = 1*usp-char
		}
		// The host after the last usable "@" ends before any later one,
		// so the first split that gives a host gives the longest prefix.
		if e := f.hostport(t+1, lim); e >= 0 {
			return e
		}
	}
	return f.hostport(x, lim)
}

// userinfoEnd returns the end of the longest valid userinfo that starts
// at x and ends at or before lim: a user name, and after its first ":"
// a password.
func (f *finder) userinfoEnd(x, lim int) int {
	i := f.run(x, lim, fUser, f.textUCS)
	if i < lim && f.text[i] == ':' {
		i = f.run(i+1, lim, fPass, f.textUCS)
	}
	return i
}

// hostport returns the largest e <= lim such that text[h:e] is a host
// and optional port, or -1.
func (f *finder) hostport(h, lim int) int {
	text, t := f.text, f.t
	if h >= lim {
		return -1
	}
	var e int
	switch {
	case text[h] == '[' && t.ps.r.ipLiteral():
		i := h + 1
		for i < lim && t.bits[text[i]]&fLit != 0 {
			i++
		}
		f.read += i - h
		if i == h+1 || i >= lim || text[i] != ']' {
			return -1
		}
		e = i + 1
	case t.ps.r.strictHost:
		if e = f.strictHost(h, lim); e < 0 {
			return -1
		}
	default:
		i := f.run(h, lim, fHost, f.hostUCS)
		if i == h {
			return -1
		}
		e = i
	}
	if e < lim && text[e] == ':' {
		d := e + 1
		for d < lim && chars[text[d]]&cDigit != 0 {
			d++
		}
		f.read += d - e
		if d > e+1 || t.ps.r.emptyPort {
			return d
		}
	}
	return e
}

// strictHost returns the end of the longest prefix of text[h:lim] that
// is an RFC 1738 §5 host (hostname or hostnumber) or an RFC 2396
// §3.2.2 host (hostname, which may end with ".", or IPv4address), or -1.
func (f *finder) strictHost(h, lim int) int {
	text := f.text
	hr := h // the run of letters, digits, "-" and "."
	for hr < lim && f.t.bits[text[hr]]&fHost != 0 {
		hr++
	}
	f.read += 3 * (hr - h + 1) // this run, the dotted quad, the labels
	best := -1
	// digits "." digits "." digits "." digits
	i := h
	for k := 0; k < 4; k++ {
		start := i
		for i < hr && chars[text[i]]&cDigit != 0 {
			i++
		}
		if i == start {
			break
		}
		if k == 3 {
			best = i
		} else if i < hr && text[i] == '.' {
			i++
		} else {
			break
		}
	}
	// *( domainlabel "." ) toplabel, where a prefix of the last label
	// that ends with a letter or digit is a toplabel if it starts with a
	// letter.
	for pos := h; pos < hr; {
		le := pos + strings.IndexByte(text[pos:hr], '.')
		if le < pos {
			le = hr
		}
		label := text[pos:le]
		if label == "" {
			break
		}
		if chars[label[0]]&cAlpha != 0 {
			k := len(label)
			for label[k-1] == '-' {
				k--
			}
			best = max(best, pos+k)
			if k == len(label) && f.g.rules().finalDot && le < hr {
				best = max(best, le+1) // RFC 2396 §3.2.2: hostname may end with "."
			}
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			break // not a domainlabel: no label can follow
		}
		pos = le + 1
	}
	return best
}

// tail returns the end of the longest valid path, query and fragment
// that follow an authority ending at the delimiter at lim, and the
// offset of the last escape of a control character in the path before
// that end (or -1).
func (f *finder) tail(lim int) (end, ctl int) {
	text, ps := f.text, &f.t.ps
	end, ctl = lim, -1
	i := lim
	if text[i] == '/' {
		r := f.pathFrom(i)
		end, ctl = r.acc, r.ctl
		if !r.alive {
			return end, ctl
		}
		i = r.stop
	}
	if text[i] == '?' {
		if ps.r.query == 0 {
			return end, ctl
		}
		e, toFrag := f.queryFrom(i + 1)
		end = e
		if !toFrag {
			return end, ctl
		}
		i = e
	}
	if text[i] == '#' && ps.r.fragment != 0 {
		end = f.fragmentFrom(i + 1)
	}
	return end, ctl
}

// A pathRun is the scan of a path from the "/" at q.
type pathRun struct {
	q     int
	stop  int  // where the path ends: "?", "#", or a character it cannot hold
	alive bool // the path is valid up to stop, which is "?" or "#"
	acc   int  // the end of the longest valid path
	ctl   int  // the last escape of a control character before acc, or -1
}

// pathFrom scans the path that starts with the "/" at q. After any "/"
// of a path the rest reads the same, so a scan serves every candidate
// whose path starts at a "/" it went through.
func (f *finder) pathFrom(q int) pathRun {
	if f.pathOK && f.path.q <= q && q < f.path.stop && f.text[q] == '/' {
		return f.path
	}
	f.path, f.pathOK = f.scanPath(q), true
	f.read += f.path.stop - q + len(typeParam)
	return f.path
}

// scanPath scans the path from the "/" at q. A path is valid up to a
// point when the last segment so far holds no typeParam (";type=", any
// case), or ends with the one that splitTypecode takes followed by one
// letter that the grammar allows (Grammar.allowsType); in a strict
// grammar, whose segments hold no other ";", that ends the path.
func (f *finder) scanPath(q int) pathRun {
	text, t := f.text, f.t
	lenient := t.ps.r.semicolonIsData
	r := pathRun{q: q, acc: q + 1, ctl: -1}
	lastCtl := -1
	// In the current segment, a prefix that ends at e is valid when
	// e <= untyped (before a ";type=" is complete) or e == typed (just
	// after ";type=X").
	untyped, typed := len(text), -1
	i := q + 1
	for i < len(text) {
		c := text[i]
		n := 1
		switch {
		case c == '/':
			untyped, typed = len(text), -1
			r.acc, r.ctl = i+1, lastCtl
			i++
			continue
		case t.pathEnd[c]:
			r.stop, r.alive = i, i <= untyped || i == typed
			return r
		case typeParamAt(text, i):
			k := i + len(typeParam) // the typecode letter
			letter := false
			if k < len(text) {
				_, letter = t.ps.r.typeLetter(text[k : k+1])
			}
			if !lenient {
				r.stop = i
				if letter {
					r.acc, r.ctl, r.stop = k+1, lastCtl, k+1
					r.alive = k+1 < len(text) && t.pathEnd[text[k+1]]
				}
				return r
			}
			untyped = min(untyped, k-1)
			if letter {
				typed = k + 1
			}
		default:
			if n = f.atom(i, len(text), fSeg, f.textUCS); n == 0 {
				r.stop = i
				return r
			}
			if c == '%' && isControl(escapedByte(text, i)) {
				lastCtl = i
			}
		}
		i += n
		if i <= untyped || i == typed {
			r.acc, r.ctl = i, lastCtl
		}
	}
	r.stop = i
	return r
}

// queryFrom returns where the query that starts at x ends, and whether
// a "#" ends it.
func (f *finder) queryFrom(x int) (int, bool) {
	if !f.qOK || x < f.qFrom || x > f.qEnd {
		f.qFrom, f.qOK = x, true
		f.qEnd, f.qToFrag = f.scanRun(x, fQuery)
	}
	return f.qEnd, f.qToFrag
}

// fragmentFrom returns where the fragment that starts at x ends.
func (f *finder) fragmentFrom(x int) int {
	if !f.fragOK || x < f.fragFrom || x > f.fragEnd {
		f.fragFrom, f.fragOK = x, true
		f.fragEnd, _ = f.scanRun(x, fFrag)
	}
	return f.fragEnd
}

// scanRun returns the end of the run of characters of class bit from x,
// escapes of any octet included, and whether a "#" ends it.
func (f *finder) scanRun(x int, bit uint8) (int, bool) {
	i := f.run(x, len(f.text), bit, f.textUCS)
	return i, i < len(f.text) && f.text[i] == '#'
}

// isTrailing reports whether r is a character that Lenient may drop
// from the end of a URL in text: sentence punctuation, or a closing
// bracket.
func isTrailing(r rune) bool {
	switch r {
	case '.', ',', ':', ';', '!', '?', '\'', '*', '_', '\u3002', ')', ']', '}':
		return true
	}
	return false
}

// allTrailing reports whether every character of text[i:end] is one
// that Lenient may drop.
func (f *finder) allTrailing(i, end int) bool {
	for j, r := range f.text[i:end] {
		if !isTrailing(r) {
			f.read += j + 1
			return false
		}
	}
	f.read += end - i
	return true
}

// trimTrailing returns the end of text[s:end] once Lenient has dropped
// its trailing punctuation and the closing brackets that have no opener
// in the match (the last character goes as long as it may).
func (f *finder) trimTrailing(s, end int) int {
	text := f.text
	k := end // the trailing run of characters that may go
	for k > s {
		r, n := utf8.DecodeLastRuneInString(text[s:k])
		if !isTrailing(r) {
			break
		}
		k -= n
	}
	f.read += end - k + 1
	if k == end {
		return end
	}
	f.read += end - s
	// A closing bracket in the run stays if it closes an opener before
	// it, and then so does everything before it.
	var depth [3]int // "()", "[]", "{}"
	keep := k
	for i := s; i < end; i++ {
		j := 0
		switch text[i] {
		case '(':
			depth[0]++
			continue
		case '[':
			depth[1]++
			continue
		case '{':
			depth[2]++
			continue
		case ')':
		case ']':
			j = 1
		case '}':
			j = 2
		default:
			continue
		}
		if depth[j] > 0 {
			depth[j]--
			if i >= k {
				keep = i + 1
			}
		}
	}
	return keep
}
