package ftpurl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The parser reads the input left to right, part by part: scheme,
// authority (one scan finds its end and its last "@", ":" and "]", then
// userinfo, host and port are read within those bounds), path, query
// and fragment. It keeps the escaped text as the source of truth and
// decodes each part once, right after checking it, and only when it
// holds a "%"; the URL is copied to the heap once, at the end. It does
// not stop at the first fault: it keeps the fault that ranks first (see
// the sentinel errors), the earliest one among equals, so that the
// sentinel does not depend on where in the input the faults are.

// Ranks of the sentinels, most specific first.
func rank(err error) int {
	switch err {
	case ErrEscape:
		return 1
	case ErrControl:
		return 2
	case ErrTypecode:
		return 3
	case ErrScheme:
		return 4
	case ErrHost:
		return 5
	case ErrPort:
		return 6
	}
	return 7
}

type parser struct {
	r *rules // what the grammar allows
	s string

	// The parts that a URL points to, gathered here so that the URL is
	// copied to the heap once (see parse).
	user       Userinfo
	hasUser    bool
	dirs       [8]string
	ndirs      int
	plainHost  bool     // the host bytes are all in cHostName (see authority)
	upperHost  bool     // and one of them may be an upper-case letter
	pairedHost bool     // and it may hold ".." or "--"
	moreDirs   []string // all the directories, once there are more than len(dirs) (ParseInto: from the start)
	prevHost   string   // ParseInto: the host already in *u, reused when it is this one

	// The fault that ranks first so far; fault.err is nil while there
	// is none.
	fault fault
}

// fail records a fault at offset off, whose detail quotes none of the
// input, unless one that ranks before it, or the same but earlier in
// the input, is already recorded.
func (p *parser) fail(off int, err error, detail string) {
	p.fault.record(off, err, detail, 0, 0)
}

// failQuoting is fail for a detail that quotes the input text
// s[qlo:qhi], which the *Error drops if that text overlaps the range
// that Error.URL hides.
func (p *parser) failQuoting(off int, err error, detail string, qlo, qhi int) {
	p.fault.record(off, err, detail, qlo, qhi)
}

func parse(g Grammar, s string) (*URL, error) {
	// The parts are gathered on the stack (in p and u) and copied to
	// the heap once, at the end: one allocation, only for a valid URL,
	// and no write barrier a part.
	var p parser // not a composite literal, which Go builds aside and copies
	p.r, p.s = g.rules(), s
	var u URL
	p.pathQueryFragment(&u, p.schemeAuthority(&u))
	return p.finish(&u)
}

// The parse driver, in net/url's shape: one step reads the scheme and
// the authority (schemeAuthority), the next the path, query and
// fragment (pathQueryFragment). Parse and ParseInto run one after the
// other; FindAll's candidates run them apart, so that a candidate whose
// authority fails costs no more than that.

// schemeAuthority reads the scheme, "//" and the authority, and returns
// where the path starts. Where "//" is missing after the scheme, the
// fault is recorded and the path starts after the ":".
func (p *parser) schemeAuthority(u *URL) int {
	i, authority := len(ftpPrefix), true
	if strings.HasPrefix(p.s, ftpPrefix) { // the common case, without a call
		u.Scheme = p.r.schemes[0].name
	} else {
		i, authority = p.scheme(u)
	}
	if authority {
		i = p.authority(u, i)
	}
	return i
}

// pathQueryFragment parses what follows the authority, from offset i:
// the path, then a query after "?" and a fragment after "#" (RFC 3986
// §3). It returns where the path ends. Parse and ResolveReference share
// it.
func (p *parser) pathQueryFragment(u *URL, i int) (pathEnd int) {
	s := p.s
	pathEnd = p.path(u, i)
	end := pathEnd
	if end < len(s) && s[end] == '?' {
		end = p.query(u, end)
	}
	if end < len(s) {
		p.fragment(u, end)
	}
	return pathEnd
}

// finish ends a parse: the *Error of the fault that ranks first, made
// by the one redaction gate (fault.asError), or the URL, u with the parts
// gathered in p, on the heap.
func (p *parser) finish(u *URL) (*URL, error) {
	if p.fault.err != nil {
		return nil, p.fault.asError("parse", p.s)
	}
	return p.result(u), nil
}

// A candidate is FindAll's parse of one candidate URL, in two steps, so
// that it can stop after a faulty authority and trim the tail before it
// reads the path; it builds no *Error, since FindAll only skips.
type candidate struct {
	p   parser
	u   URL
	end int // where the authority ended in the text given to authority
}

// authority parses the scheme and the authority of s and reports
// whether they hold no fault.
func (c *candidate) authority(g Grammar, s string) bool {
	c.p, c.u = parser{r: g.rules(), s: s}, URL{}
	c.end = c.p.schemeAuthority(&c.u)
	return c.p.fault.err == nil
}

// rest parses the rest of s, a prefix of what authority was given, and
// returns the URL, or nil for a fault. When s no longer holds the whole
// authority, or that had a fault, it parses s anew.
func (c *candidate) rest(g Grammar, s string, authOK bool) *URL {
	if !authOK || len(s) < c.end {
		if !c.authority(g, s) {
			return nil
		}
	}
	c.p.s = s
	c.p.pathQueryFragment(&c.u, c.end)
	if c.p.fault.err != nil {
		return nil
	}
	return c.p.result(&c.u)
}

// parseInto is ParseInto for a valid grammar g: the parse of parse,
// with the result written into *dst, whose Dirs array it reuses. It
// never writes into a Userinfo: it keeps dst.User when the new userinfo
// is the same, and otherwise points dst.User at a new one, so that a
// Userinfo stays immutable whoever shares it. The common URL takes
// parseIntoFast; any other, the parser (parseIntoParser).
func parseInto(g Grammar, dst *URL, s string) error {
	var rest fastRest
	if parseIntoFast(g.rules(), dst, s, &rest) {
		return nil
	}
	return parseIntoParser(g, dst, s, &rest)
}

// parseIntoParser is parseInto through the parser, for every input:
// from the start, or, where parseIntoFast read the scheme and the
// authority (rest.ok), from the path segment it stopped at.
func parseIntoParser(g Grammar, dst *URL, s string, rest *fastRest) error {
	var p parser // not a composite literal, which Go builds aside and copies
	p.r, p.s, p.prevHost = g.rules(), s, dst.Host
	dirs, ui := dst.Dirs, dst.User
	if dirs != nil {
		p.moreDirs = dirs[:0]
	}
	*dst = URL{}
	var pathLo int
	if rest.ok {
		dst.Scheme, dst.Host, dst.Port = p.r.schemes[0].name, rest.host, rest.port
		if dirs != nil {
			p.moreDirs = rest.dirs
		}
		p.ndirs, pathLo = len(rest.dirs), rest.lo
	} else {
		pathLo = p.schemeAuthority(dst)
	}
	p.pathQueryFragment(dst, pathLo)
	if p.fault.err != nil {
		if p.moreDirs != nil {
			dirs = p.moreDirs
		}
		clear(dirs[:cap(dirs)])
		*dst = URL{Dirs: dirs[:0]}
		return p.fault.asError("parse", s)
	}
	switch {
	case p.moreDirs != nil:
		dst.Dirs = p.moreDirs
		if n := len(p.moreDirs); n < len(dirs) {
			clear(dirs[n:]) // keep no segment of an earlier input alive
		}
	case p.ndirs > 0:
		// The first URL with directories: an array for the next ones.
		dst.Dirs = append(make([]string, 0, max(p.ndirs, 8)), p.dirs[:p.ndirs]...)
	}
	if p.hasUser {
		if ui == nil || *ui != p.user {
			ui = new(Userinfo)
			*ui = p.user
		}
		dst.User = ui
	}
	return nil
}

// result returns a copy of u on the heap, with the directories and the
// userinfo gathered in p, in one allocation sized to what it holds: a
// smaller object is cheaper to allocate and for the GC to scan. Each
// part is written into the new object on its own (not a copy of *u),
// so that the compiler stores into fresh memory and no copy of a whole
// struct goes through the GC's write barrier (runtime.wbMove) while it
// marks.
func (p *parser) result(u *URL) *URL {
	if p.moreDirs != nil {
		v := newURL(p, u, func(*[0]string) []string { return nil })
		v.Dirs = p.moreDirs
		return v
	}
	switch p.ndirs {
	case 0:
		return newURL(p, u, func(*[0]string) []string { return nil })
	case 1:
		return newURL(p, u, func(a *[1]string) []string { return a[:] })
	case 2:
		return newURL(p, u, func(a *[2]string) []string { return a[:] })
	case 3:
		return newURL(p, u, func(a *[3]string) []string { return a[:] })
	case 4:
		return newURL(p, u, func(a *[4]string) []string { return a[:] })
	case 5:
		return newURL(p, u, func(a *[5]string) []string { return a[:] })
	case 6:
		return newURL(p, u, func(a *[6]string) []string { return a[:] })
	case 7:
		return newURL(p, u, func(a *[7]string) []string { return a[:] })
	}
	return newURL(p, u, func(a *[8]string) []string { return a[:] })
}

// urlWith is what Parse allocates for a URL: the URL and an array of
// exactly its directories, and urlUserWith its Userinfo too.
type urlWith[A any] struct {
	url  URL
	dirs A
}

type urlUserWith[A any] struct {
	url  URL
	user Userinfo
	dirs A
}

// newURL is result for an array type A: it allocates the URL, its
// Userinfo if p has one, and an A, whose slice dirs gives (nil for
// none), in one object, and copies the directories of p.dirs into it.
func newURL[A any](p *parser, u *URL, dirs func(*A) []string) *URL {
	var v *URL
	var d []string
	if p.hasUser {
		a := new(urlUserWith[A])
		a.user.username, a.user.password, a.user.passwordSet = p.user.username, p.user.password, p.user.passwordSet
		v, d = &a.url, dirs(&a.dirs)
		v.User = &a.user
	} else {
		a := new(urlWith[A])
		v, d = &a.url, dirs(&a.dirs)
	}
	copy(d, p.dirs[:])
	if len(d) > 0 {
		v.Dirs = d[:len(d):len(d)]
	}
	v.Scheme, v.Host, v.Port, v.Name = u.Scheme, u.Host, u.Port, u.Name
	v.Type, v.RawQuery, v.Fragment = u.Type, u.RawQuery, u.Fragment
	return v
}

// scheme reads a scheme of the grammar and "://" (the scheme in any
// case), sets u.Scheme to its name and returns the offset after it, and
// whether an authority follows. A missing or other scheme is ErrScheme,
// but the parser goes on so that a fault that ranks first is found.
func (p *parser) scheme(u *URL) (int, bool) {
	s := p.s
	// RFC 3986 §3.1: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
	k := 0
	for k < len(s) && (chars[s[k]]&cAlpha != 0 || k > 0 && (chars[s[k]]&cDigit != 0 || s[k] == '+' || s[k] == '-' || s[k] == '.')) {
		k++
	}
	if k > 0 && k < len(s) && s[k] == ':' {
		switch sc := p.r.scheme(s[:k]); {
		case sc != nil && strings.HasPrefix(s[k+1:], "//"):
			u.Scheme = sc.name
			return k + 3, true
		case sc != nil:
			u.Scheme = sc.name
			p.fail(k+1, ErrScheme, fmt.Sprintf(`"//" must follow "%s:" (RFC 1738 §3.1)`, sc.name))
		case p.r.schemeRule != "" && schemeNamed(s[:k]) != nil:
			// A scheme that a later document added: ftps.
			p.failQuoting(0, ErrScheme, fmt.Sprintf("scheme %q is not %s: %s", s[:k], p.r.schemeNames(), p.r.schemeRule), 0, k)
		default:
			p.failQuoting(0, ErrScheme, fmt.Sprintf("scheme %q is not %s", s[:k], p.r.schemeNames()), 0, k)
		}
		k++
		if strings.HasPrefix(s[k:], "//") {
			return k + 2, true
		}
		return k, false
	}
	// A control character where the scheme should be, before the ":"
	// that ends it: the path reads from here too, and must not claim it.
	if c := strings.IndexAny(s, ":/?#"); c > 0 && s[c] == ':' {
		before := true // only white space and control characters so far
		for j := 0; j < c; j++ {
			b := s[j]
			if isControl(b) {
				where := "in the scheme"
				if before {
					where = "before the scheme"
				}
				p.failQuoting(j, ErrControl, fmt.Sprintf("control character %#02x %s", b, where), j, j+1)
				break
			}
			before = before && b == ' '
		}
	}
	switch {
	case s == "":
		p.fail(0, ErrScheme, "empty URL")
	case s[0] == ' ' || s[0] == '\t':
		p.fail(0, ErrScheme, "white space before the scheme")
	default:
		p.fail(0, ErrScheme, fmt.Sprintf("missing %q", p.r.schemes[0].name+"://"))
	}
	if strings.HasPrefix(s, "//") {
		return 2, true
	}
	return 0, false
}

// ftpPrefix begins most URLs: the scheme of every grammar's schemes[0].
const ftpPrefix = "ftp://"

// authority parses userinfo, host and port from offset i, and returns
// the offset where the authority ends: at the first "/", "#", or "?"
// (RFC 3986 §3.2), but not at "?" in RFC 1738.
func (p *parser) authority(u *URL, i int) int {
	s := p.s
	end := i
	at, colon, close := -1, -1, -1     // the last "@", ":" and "]"
	colons := 0                        // the ":" after the last "@"
	and := ^uint32(0)                  // the classes of the bytes after the last "@", and-ed
	or := uint32(0)                    // and or-ed
	pair, last := uint32(0), uint32(0) // the classes two bytes in a row share, or-ed; the last byte's
loop:
	for ; end < len(s); end++ {
		// Four bytes a step while none of them splits the authority.
		for end+4 <= len(s) {
			f0, f1, f2, f3 := chars[s[end]], chars[s[end+1]], chars[s[end+2]], chars[s[end+3]]
			if (f0|f1|f2|f3)&cAuthority != 0 {
				break
			}
			and &= f0 & f1 & f2 & f3
			or |= f0 | f1 | f2 | f3
			pair |= f0&last | f1&f0 | f2&f1 | f3&f2
			last = f3
			end += 4
		}
		if end == len(s) {
			break
		}
		c := s[end]
		f := chars[c]
		if f&cAuthority == 0 {
			and &= f
			or |= f
			pair |= f & last
			last = f
			continue
		}
		last = 0
		switch c {
		case '@':
			at = end // the last "@" ends the userinfo
			and, or, colons, pair = ^uint32(0), 0, 0, 0
		case ':':
			colon = end
			colons++
		case ']':
			close = end
		case '?':
			if !p.r.questionIsData {
				break loop
			}
			and = 0 // data (RFC 1738), but no host name byte
		default: // "/", "#"
			break loop
		}
	}
	// The host is plain when its bytes, those after the last "@" but
	// the port's ":", are all in cHostName.
	p.plainHost = and&cHostName != 0 && colons <= 1 && close <= at
	p.upperHost = or&cUpper != 0
	p.pairedHost = pair&cDotOrHyphen != 0
	h := i
	if at >= 0 {
		p.userinfo(i, at)
		p.hasUser = true
		h = at + 1
	}
	// The port follows the last ":" of the host, unless that ":" is
	// inside an IP literal's brackets.
	hostEnd := end
	if colon > at && colon > close {
		hostEnd = colon
	}
	name, plain := "", false
	if p.plainHost { // the common host, a plain name, without host's call
		name, plain = plainName(p.r, s[h:hostEnd], p.upperHost, p.pairedHost, p.prevHost)
	}
	if !plain {
		name = p.host(h, hostEnd)
	}
	u.Host = name
	if hostEnd != end {
		u.Port = p.port(colon+1, end)
	}
	return end
}

func unescapeIfEscaped(s string, pct bool) string {
	if pct {
		return unescape(s)
	}
	return s
}

// port parses the decimal port in s[lo:hi]: 1..65535, leading zeros
// allowed. An empty port is no port (RFC 3986 §3.2.3), but RFC 1738 §5
// has port = digits, which is not empty.
func (p *parser) port(lo, hi int) uint16 {
	s := p.s
	if lo == hi {
		if !p.r.emptyPort {
			p.fail(lo, ErrPort, `empty port after ":" (RFC 1738 §5: port = digits)`)
		}
		return 0
	}
	v := 0
	for i := lo; i < hi; i++ {
		c := s[i]
		if chars[c]&cDigit == 0 {
			p.failByte(i, ErrPort, "port", c)
			return 0
		}
		if v <= 65535 {
			v = v*10 + int(c-'0')
		}
	}
	switch {
	case v == 0:
		p.fail(lo, ErrPort, "port 0 is not a port one can connect to")
		return 0
	case v > 65535:
		p.fail(lo, ErrPort, "port is greater than 65535")
		return 0
	}
	return uint16(v)
}

// failByte records the fault of a byte c at offset i that is not
// allowed in a part: a control character is ErrControl, a "%" not
// followed by two hex digits ErrEscape, anything else err.
func (p *parser) failByte(i int, err error, part string, c byte) {
	switch {
	case isControl(c) && err == ErrUserinfo:
		p.fail(i, ErrControl, "control character in the "+part) // no byte of a password
	case isControl(c):
		p.failQuoting(i, ErrControl, fmt.Sprintf("control character %#02x in the %s", c, part), i, i+1)
	case c == '%':
		p.fail(i, ErrEscape, `"%" is not followed by two hexadecimal digits`)
	case c >= utf8.RuneSelf:
		p.fail(i, err, fmt.Sprintf("non-ASCII byte in the %s", part))
	case err == ErrUserinfo:
		// The message must not quote a password.
		p.fail(i, err, fmt.Sprintf("character not allowed in the %s", part))
	default:
		p.failQuoting(i, err, fmt.Sprintf("character %q not allowed in the %s", c, part), i, i+1)
	}
}

// scan checks s[lo:hi] against class m and reports whether it holds an
// escape. Faults are ErrEscape for a bad escape, ErrControl for a
// control character (also an escaped one when ctl is set), and err
// otherwise. With allowUCS in m it accepts RFC 3987 ucschar as UTF-8.
func (p *parser) scan(lo, hi int, m uint32, err error, part string, ctl bool) (pct bool) {
	s := p.s
	for i := lo; i < hi; {
		if chars[s[i]]&m != 0 {
			i++
			continue
		}
		if s[i] == '%' {
			pct = true
		}
		i += p.atomOutside(i, hi, m, err, part, ctl)
	}
	return pct
}

// atomOutside checks the byte at s[i], which is not in class m, and returns
// how many bytes it takes: 3 for a valid escape (decoding to a control
// character is a fault when ctl is set), the UTF-8 length of a ucschar
// when m has allowUCS, and 1 for a fault.
func (p *parser) atomOutside(i, hi int, m uint32, err error, part string, ctl bool) int {
	s := p.s
	c := s[i]
	switch {
	case c == '%':
		if !validEscape(s[:hi], i) {
			p.fail(i, ErrEscape, `"%" is not followed by two hexadecimal digits`)
			return 1
		}
		if d := escapedByte(s, i); ctl && isControl(d) {
			if err == ErrUserinfo {
				p.fail(i, ErrControl, "percent-encoded control character in the "+part)
			} else {
				p.failQuoting(i, ErrControl, fmt.Sprintf("percent-encoded control character %%%02X in the %s", d, part), i, i+3)
			}
		}
		return 3
	case c >= utf8.RuneSelf && m&allowUCS != 0:
		r, size := utf8.DecodeRuneInString(s[i:hi])
		switch {
		case r == utf8.RuneError && size == 1:
			p.fail(i, err, fmt.Sprintf("invalid UTF-8 in the %s", part))
		case err == ErrUserinfo:
			if !isUCSChar(r) {
				p.fail(i, err, "character not allowed in the "+part)
			}
		case !isUCSChar(r):
			p.failQuoting(i, err, fmt.Sprintf("character %U not allowed in the %s", r, part), i, i+size)
		}
		return size
	}
	p.failByte(i, err, part, c)
	return 1
}

// query reads a query from the "?" at offset q and returns where the
// fragment starts (or len(s)). RFC 2396 ftp URLs have none.
func (p *parser) query(u *URL, q int) int {
	s := p.s
	end := q + 1 + strings.IndexByte(s[q+1:], '#')
	if end == q {
		end = len(s)
	}
	m := p.r.query // "#" ends the query before
	if m == 0 {
		p.fail(q, ErrPath, `"?" is not allowed: the 1997 draft's ftp URLs have no query`)
		m = cQuery3986 // for the faults that rank first
	}
	p.scan(q+1, end, m, ErrPath, "query", false)
	u.RawQuery = normalizeEscaped(s[q+1 : end])
	return end
}

// fragment reads a fragment from the "#" at offset f.
func (p *parser) fragment(u *URL, f int) {
	s := p.s
	m := p.r.fragment
	if m == 0 {
		p.fail(f, ErrPath, `"#" is not allowed: the 1997 draft's ftp URLs have no fragment`)
		m = cQuery3986 // for the faults that rank first
	}
	p.scan(f+1, len(s), m, ErrPath, "fragment", false)
	u.Fragment = normalizeEscaped(s[f+1:])
}

// normalizeEscaped returns query or fragment text with escape hex in
// upper case and every byte that RFC 3986 §3.4 does not allow raw
// percent-encoded.
func normalizeEscaped(s string) string {
	return escape(s, cQuery3986, true)
}

// skip returns the offset of the first byte at or after i that is not
// in class m. A loop without calls, so that its variables stay in
// registers.
func skip(s string, i int, m uint32) int {
	// Four bytes a step while there are four: m has one bit of the
	// table, so the four entries and-ed hold it only if each does.
	for i+4 <= len(s) && chars[s[i]]&chars[s[i+1]]&chars[s[i+2]]&chars[s[i+3]]&m != 0 {
		i += 4
	}
	for i < len(s) && chars[s[i]]&m != 0 {
		i++
	}
	return i
}
