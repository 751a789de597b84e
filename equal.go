package ftpurl

import "slices"

// Equal reports whether u and v are the same URL after normalization,
// that is, whether their String forms are the same. Port 21 and no port
// are equal (RFC 1738 §3.2); the case of the host, of the typecode and
// of escapes in the query and fragment does not matter, nor does how a
// path character was written ("%41" and "A" in a path are the same
// octet once decoded). A "%2F" inside a segment is not a "/" between
// two segments (RFC 1738 §3.2.2), an empty password is not an absent
// one, "ftp://@host/" (an empty user) is not "ftp://host/" (no
// userinfo), and query and fragment are compared as escaped text, so
// "%41" and "A" there differ, as they do in String.
//
// A nil *URL is equal only to nil: it is not the zero URL, as a JSON
// null is not "" (see URL).
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
	return normalPort(u.Port) == normalPort(v.Port) &&
		normalType(u.Type) == normalType(v.Type) &&
		u.Name == v.Name &&
		slices.Equal(u.Dirs, v.Dirs) &&
		sameUser(u.User, v.User) &&
		(u.Host == v.Host || sameHost(u.Host, v.Host)) &&
		(u.RawQuery == v.RawQuery || normalizeEscaped(u.RawQuery) == normalizeEscaped(v.RawQuery)) &&
		(u.Fragment == v.Fragment || normalizeEscaped(u.Fragment) == normalizeEscaped(v.Fragment))
}

// normalPort returns 0 for DefaultPort, which String leaves out.
func normalPort(p uint16) uint16 {
	if p == DefaultPort {
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

// sameHost reports whether String writes hosts a and b the same.
func sameHost(a, b string) bool {
	ha, ia := hostForm(a)
	hb, ib := hostForm(b)
	return ha == hb && ia == ib
}
