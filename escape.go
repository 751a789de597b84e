package ftpurl

import "strings"

// Percent-encoding, RFC 3986 §2.1. Parse checks every escape before it
// decodes, so unescape never sees a bad one.

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

// escapedLen returns the length of s once every byte not in class m is
// percent-encoded. With keep, a valid escape "%XX" in s stays as it is
// (its hex digits upper-cased), as in a query, which is kept escaped.
func escapedLen(s string, m uint32, keep bool) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if chars[c]&m != 0 {
			continue
		}
		if keep && c == '%' && validEscape(s, i) {
			i += 2
			continue
		}
		n += 2
	}
	return n
}

// writeEscaped writes s to b with every byte not in class m
// percent-encoded in upper-case hex; with keep, as escapedLen says.
func writeEscaped(b *strings.Builder, s string, m uint32, keep bool) {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if chars[c]&m != 0 {
			continue
		}
		b.WriteString(s[start:i])
		if keep && c == '%' && validEscape(s, i) {
			b.WriteByte('%')
			b.WriteByte(upper(s[i+1]))
			b.WriteByte(upper(s[i+2]))
			i += 2
		} else {
			b.WriteByte('%')
			b.WriteByte(upperhex[c>>4])
			b.WriteByte(upperhex[c&15])
		}
		start = i + 1
	}
	b.WriteString(s[start:])
}

// needsEscaping reports whether writeEscaped would change s.
func needsEscaping(s string, m uint32, keep bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if chars[c]&m != 0 {
			continue
		}
		if keep && c == '%' && validEscape(s, i) &&
			upper(s[i+1]) == s[i+1] && upper(s[i+2]) == s[i+2] {
			i += 2
			continue
		}
		return true
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
