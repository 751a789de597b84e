package ftpurl

import (
	"slices"
	"strconv"
	"strings"
)

// Equal reports whether u and v have the same [URL.String]: a default port
// equals none and "%41" equals "A" in a path, but "%2F" is not "/" (RFC
// 1738 §3.2.2) and an empty user or password is not an absent one. A nil
// *URL equals only nil.
func (u *URL) Equal(v *URL) bool {
	if u == nil || v == nil {
		return u == v
	}
	if u == v {
		return true
	}
	if uz, vz := u.isZero(), v.isZero(); uz || vz {
		return uz == vz // String gives "" only for the zero URL
	}
	// The parts as String writes them, cheapest comparisons first; each
	// normalization runs only when the raw values differ.
	us, vs := schemeNamed(u.Scheme), schemeNamed(v.Scheme)
	if us != vs || us == nil && schemeForm(u.Scheme) != schemeForm(v.Scheme) {
		return false
	}
	return normalPort(us, u.Port) == normalPort(vs, v.Port) &&
		normalType(u.Type) == normalType(v.Type) &&
		u.Name == v.Name &&
		slices.Equal(u.Dirs, v.Dirs) &&
		sameUser(u.User, v.User) &&
		(u.Host == v.Host || sameHost(u.Host, v.Host)) &&
		(u.RawQuery == v.RawQuery || normalizeEscaped(u.RawQuery) == normalizeEscaped(v.RawQuery)) &&
		(u.Fragment == v.Fragment || normalizeEscaped(u.Fragment) == normalizeEscaped(v.Fragment))
}

// normalPort returns 0 for the default port of sc, which String
// leaves out; a scheme that ftpurl does not read (nil) has none.
func normalPort(sc *scheme, p uint16) uint16 {
	if sc != nil && p == sc.port {
		return 0
	}
	return p
}

// normalType returns t in lower case, and TypeNone for a byte that is
// not an ASCII letter, which String leaves out.
func normalType(t Typecode) Typecode {
	if l, ok := t.lower(); ok {
		return l
	}
	return TypeNone
}

// sameUser reports whether a and b give the same userinfo in String.
func sameUser(a, b *Userinfo) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.username == b.username && a.passwordSet == b.passwordSet &&
		(!a.passwordSet || a.password == b.password)
}

// Percent-encoding, RFC 3986 §2.1. Parse does not stop at a bad escape:
// it decodes every part before it reports, so unescape keeps a "%" that
// is not followed by two hex digits. escape counts first and returns its
// input unchanged when nothing needs encoding.

// unescape decodes the %XX escapes of s. Parse refuses a bad escape,
// but it decodes every part before it reports, so a "%" that is not
// followed by two hex digits is kept as it is.
func unescape(s string) string {
	n := strings.Count(s, "%")
	if n == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(max(len(s)-2*n, 0))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && validEscape(s, i) {
			b.WriteByte(escapedByte(s, i))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// validEscape reports whether the "%" at s[i] is followed by two hex
// digits (RFC 3986 §2.1).
func validEscape(s string, i int) bool {
	return i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2])
}

// escapedByte returns the byte that the valid escape at s[i] encodes.
func escapedByte(s string, i int) byte {
	return unhex(s[i+1])<<4 | unhex(s[i+2])
}

const upperhex = "0123456789ABCDEF"

// escapeStep is the one rule of escaping, which escapedLen,
// writeEscaped and needsEscaping apply: the byte at s[i] is written raw
// when it is in class m; with keep (a query or fragment, which is kept
// escaped) a valid escape "%XX" stays, its hex digits upper-cased, and
// takes 3 bytes; any other byte is percent-encoded in upper-case hex.
// It returns how many bytes of s the step takes, and whether it encodes
// the byte.
func escapeStep(s string, i int, m uint32, keep bool) (n int, encode bool) {
	c := s[i]
	switch {
	case chars[c]&m != 0:
		return 1, false
	case keep && c == '%' && validEscape(s, i):
		return 3, false
	}
	return 1, true
}

// escapedLen returns the length of s once written by writeEscaped.
func escapedLen(s string, m uint32, keep bool) int {
	n := len(s)
	for i := 0; i < len(s); {
		if chars[s[i]]&m != 0 { // escapeStep's first case, without the call
			i++
			continue
		}
		k, encode := escapeStep(s, i, m, keep)
		if encode {
			n += 2
		}
		i += k
	}
	return n
}

// writeEscaped writes s to b as escapeStep says.
func writeEscaped(b *strings.Builder, s string, m uint32, keep bool) {
	start := 0
	for i := 0; i < len(s); {
		if chars[s[i]]&m != 0 { // escapeStep's first case, without the call
			i++
			continue
		}
		k, encode := escapeStep(s, i, m, keep)
		switch {
		case encode:
			b.WriteString(s[start:i])
			c := s[i]
			b.WriteByte('%')
			b.WriteByte(upperhex[c>>4])
			b.WriteByte(upperhex[c&15])
		default: // a kept escape
			b.WriteString(s[start:i])
			b.WriteByte('%')
			b.WriteByte(upper(s[i+1]))
			b.WriteByte(upper(s[i+2]))
		}
		i += k
		start = i
	}
	b.WriteString(s[start:])
}

// needsEscaping reports whether writeEscaped would change s: a byte to
// encode, or a kept escape with lower-case hex.
func needsEscaping(s string, m uint32, keep bool) bool {
	for i := 0; i < len(s); {
		if chars[s[i]]&m != 0 { // escapeStep's first case, without the call
			i++
			continue
		}
		k, encode := escapeStep(s, i, m, keep)
		if encode || k == 3 && (upper(s[i+1]) != s[i+1] || upper(s[i+2]) != s[i+2]) {
			return true
		}
		i += k
	}
	return false
}

// escape returns s as writeEscaped writes it, and s itself when nothing
// changes.
func escape(s string, m uint32, keep bool) string {
	if !needsEscaping(s, m, keep) {
		return s
	}
	var b strings.Builder
	b.Grow(escapedLen(s, m, keep))
	writeEscaped(&b, s, m, keep)
	return b.String()
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// String returns the normalized URI, ASCII only, "" for the zero URL:
//
//	scheme://[user[:password]@]host[:port]/dir/.../name[;type=x][?query][#fragment]
//
// Scheme, host (A-labels; IPv6 as RFC 5952) and typecode are lower case,
// a default port is left out, and user, password and segments are
// percent-encoded where the 2011 draft §3.1 needs it, and only there ("/"
// in a segment is "%2F"); dot segments stay (RFC 1738 §3.2.2). A Type that
// is not a letter is left out, and an unknown Scheme is escaped, with its
// port, so that Parse refuses it ([ErrScheme]).
func (u URL) String() string { return u.format(false) }

// Redacted is String with the password, if any, replaced by "xxxxx", as
// [net/url.URL.Redacted] does. It panics on a nil *URL.
func (u URL) Redacted() string { return u.format(true) }

// Classes of the bytes that String writes raw: the 2011 draft §3.1
// usp-char for user and password (so ":" is encoded), pchar-nsc for a
// segment, and RFC 3986 §3.4 for query and fragment.
const (
	userRaw  = cUser3986
	segRaw   = cSeg3986
	queryRaw = cQuery3986
)

func (u *URL) format(redact bool) string {
	if u.isZero() {
		return ""
	}
	host, ipv6 := hostForm(u.Host)
	typ, hasType := u.Type.lower()
	query := u.RawQuery
	frag := u.Fragment
	name, port := "", u.Port
	if sc := schemeNamed(u.Scheme); sc != nil {
		name = sc.name
		if port == sc.port {
			port = 0
		}
	} else {
		name = schemeForm(u.Scheme)
	}

	n := len(name) + len("://") + len(host)
	if ipv6 {
		n += len("[]")
	}
	if u.User != nil {
		n += escapedLen(u.User.username, userRaw, false) + 1
		if u.User.passwordSet {
			if redact {
				n += 1 + len("xxxxx")
			} else {
				n += 1 + escapedLen(u.User.password, userRaw, false)
			}
		}
	}
	if port != 0 {
		n += 6
	}
	n++ // "/"
	for _, d := range u.Dirs {
		n += escapedLen(d, segRaw, false) + 1
	}
	n += escapedLen(u.Name, segRaw, false)
	if hasType {
		n += len(typeParam) + 1
	}
	if query != "" {
		n += 1 + escapedLen(query, queryRaw, true)
	}
	if frag != "" {
		n += 1 + escapedLen(frag, queryRaw, true)
	}

	var b strings.Builder
	b.Grow(n)
	b.WriteString(name)
	b.WriteString("://")
	if u.User != nil {
		writeEscaped(&b, u.User.username, userRaw, false)
		if u.User.passwordSet {
			b.WriteByte(':')
			if redact {
				b.WriteString("xxxxx")
			} else {
				writeEscaped(&b, u.User.password, userRaw, false)
			}
		}
		b.WriteByte('@')
	}
	if ipv6 {
		b.WriteByte('[')
		b.WriteString(host)
		b.WriteByte(']')
	} else {
		b.WriteString(host)
	}
	if port != 0 {
		b.WriteByte(':')
		var buf [5]byte
		b.Write(strconv.AppendUint(buf[:0], uint64(port), 10))
	}
	b.WriteByte('/')
	for _, d := range u.Dirs {
		writeEscaped(&b, d, segRaw, false)
		b.WriteByte('/')
	}
	writeEscaped(&b, u.Name, segRaw, false)
	if hasType {
		b.WriteString(typeParam)
		b.WriteByte(byte(typ))
	}
	if query != "" {
		b.WriteByte('?')
		writeEscaped(&b, query, queryRaw, true)
	}
	if frag != "" {
		b.WriteByte('#')
		writeEscaped(&b, frag, queryRaw, true)
	}
	return b.String()
}

// schemeForm returns the scheme as String writes it: the name of one
// that ftpurl reads, or another lower-cased with every byte but letters
// and digits percent-encoded.
func schemeForm(s string) string {
	if sc := schemeNamed(s); sc != nil {
		return sc.name
	}
	return escape(strings.ToLower(s), cAlpha|cDigit, false)
}

func (u *URL) isZero() bool {
	return u.Scheme == "" && u.User == nil && u.Host == "" && u.Port == 0 && len(u.Dirs) == 0 &&
		u.Name == "" && u.Type == 0 && u.RawQuery == "" && u.Fragment == ""
}
