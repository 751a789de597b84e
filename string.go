package ftpurl

import (
	"strconv"
	"strings"
)

// String returns the normalized URI, ASCII only:
//
//	ftp://[user[:password]@]host[:port]/dir/.../name[;type=x][?query][#fragment]
//
// The host is in lower-case A-labels (IPv6 in brackets, RFC 5952); the
// port is left out when it is 0 or 21; user, password and each path
// segment are percent-encoded where, and only where, the 2011 draft's
// §3.1 grammar needs it (so "/" inside a segment is "%2F", ";" is "%3B",
// a ":" in the password is "%3A", and unreserved characters are never
// encoded), with upper-case hex; an empty path is "/"; the typecode is
// lower case. Dot segments are kept: ".." is a CWD argument (RFC 1738
// §3.2.2), not something to fold away.
//
// String also normalizes a URL value built by hand: the host is
// lower-cased and converted to A-labels, an IPv6 host is bracketed, and
// a Type in upper case is lowered; a Type that is not an ASCII letter is
// left out. The zero URL gives "". String has a value receiver, so it
// needs a non-nil *URL (see URL).
func (u URL) String() string { return u.format(false) }

// Redacted is like String but replaces a password, when the URL has
// one, with "xxxxx", as net/url's URL.Redacted does: a URL for a log.
// Like String, it needs a non-nil *URL (see URL).
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

	n := len("ftp://") + len(host)
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
	if u.Port != 0 && u.Port != DefaultPort {
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
	b.WriteString("ftp://")
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
	if u.Port != 0 && u.Port != DefaultPort {
		b.WriteByte(':')
		var buf [5]byte
		b.Write(strconv.AppendUint(buf[:0], uint64(u.Port), 10))
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

func (u *URL) isZero() bool {
	return u.User == nil && u.Host == "" && u.Port == 0 && len(u.Dirs) == 0 &&
		u.Name == "" && u.Type == 0 && u.RawQuery == "" && u.Fragment == ""
}

// hostForm returns the host as String writes it (see normalizeHost),
// and whether it is an IPv6 address, which String puts in brackets. A
// host set by hand that is not a valid host is written with its bytes
// outside RFC 3986 reg-name percent-encoded, so that String stays ASCII.
func hostForm(h string) (host string, ipv6 bool) {
	if isNormalName(h) {
		return h, false // as Parse stores it (an A-label was checked then)
	}
	host, ipv6, detail := normalizeHost(h)
	if detail != "" {
		return escape(strings.ToLower(h), cUser3986, false), false
	}
	return host, ipv6
}

// isNormalName reports whether h is already as String writes it: lower
// case letters, digits, "-", "_" and "." only.
func isNormalName(h string) bool {
	for i := 0; i < len(h); i++ {
		if c := h[i]; chars[c]&cHostName == 0 || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}
