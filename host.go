package ftpurl

// Hosts: the parser's reading of a host (a name, a dotted quad, an IPv6
// literal), the rules every grammar applies to a name, and the forms a
// URL value's host takes in String, Equal, Address and Plan. IDNA is in
// idn.go.

import (
	"fmt"
	"net/netip"
	"strings"
	"unicode/utf8"
)

// host parses the host text s[lo:hi] (RFC 3986 §3.2.2, RFC 1738 §3.1)
// and returns it normalized: a lower-case name in A-labels, a dotted
// quad, or an IPv6 address in RFC 5952 form without brackets.
func (p *parser) host(lo, hi int) string {
	s := p.s
	if lo == hi {
		p.fail(lo, ErrHost, "missing host")
		return ""
	}
	if s[lo] == '[' {
		return p.ipLiteral(lo, hi)
	}
	// A host of name bytes that plainName (tried by authority) sent
	// the full way: checkHostName without the byte loop below. Any
	// fault or other byte takes that loop, which says what is wrong
	// and where.
	if p.plainHost {
		if name, detail := checkHostName(p.r, s[lo:hi], false, p.prevHost); detail == "" {
			return name
		}
	}
	ok, pct, nonASCII := true, false, false
	for i := lo; i < hi; i++ {
		c := s[i]
		switch {
		case chars[c]&cHostName != 0:
			continue
		case c == '%':
			if !validEscape(s[:hi], i) {
				p.fail(i, ErrEscape, `"%" is not followed by two hexadecimal digits`)
			} else if d := escapedByte(s, i); isControl(d) {
				p.fail(i, ErrControl, fmt.Sprintf("percent-encoded control character %%%02X in the host", d))
			} else if p.r.strictHost {
				p.fail(i, ErrHost, "percent-encoding is not allowed in a host name (RFC 1738 §3.1)")
			}
			pct = true
			i += 2
		case c >= utf8.RuneSelf && p.r.rawUnicodeHost:
			// An IRI's ihost (RFC 3987 §2.2) holds characters, so the raw
			// bytes must be UTF-8 on their own, not only once decoded:
			// "%C7" and a raw 0x84 are no character. IDNA checks the rest.
			nonASCII = true
			if r, size := utf8.DecodeRuneInString(s[i:hi]); r == utf8.RuneError && size == 1 {
				p.fail(i, ErrHost, "invalid UTF-8 in the host")
				ok = false
			} else {
				i += size - 1
			}
		default:
			p.failByte(i, ErrHost, "host", c)
			ok = false
		}
	}
	if !ok || pct && p.r.strictHost {
		return ""
	}
	h := s[lo:hi]
	if pct {
		h = unescape(h)
	}
	name, detail := checkHostName(p.r, h, nonASCII || pct && !asciiOnly(h), "")
	if detail != "" {
		p.failQuoting(lo, ErrHost, detail, lo, hi)
	}
	return name
}

// checkHostName checks a decoded host name h and returns it in lower
// case with every label an A-label (through hostProfile). idn says that
// h may hold non-ASCII; an ASCII name with no label that starts with the
// ACE prefix "xn--" (RFC 5890 §2.3.2.1, any case) never reaches idna.
// On failure it returns a detail for ErrHost.
//
// Every grammar: labels of the bytes of r.hostLabel (letters, digits,
// "-", and "_" but in RFC 1738 and RFC 2396), and an optional final
// dot; a name whose last label is all digits or starts with "0x" must
// be an IPv4 dotted quad, since resolvers read it as a number. RFC 1738
// §5 and RFC 2396 §3.2.2 hostname (r.strictHost) also want no label to
// begin or end with "-", a top label that starts with a letter, and
// (RFC 1738 only) no final dot.
func checkHostName(r *rules, h string, idn bool, prev string) (string, string) {
	if idn {
		if !utf8.ValidString(h) {
			return "", "host is not valid UTF-8 once percent-decoded"
		}
		a, err := cachedToASCII(h)
		if err != nil {
			return "", err.Error()
		}
		h = a
	}
	strict := r.strictHost
	end := len(h)
	if end > 0 && h[end-1] == '.' {
		if !r.finalDot {
			return "", "a host does not end with \".\" (RFC 1738 §5: a hostname ends with a letter or digit, a hostnumber with a digit)"
		}
		end--
	}
	var any uint32 // the classes of every byte, or-ed
	for start := 0; start <= end; {
		if !idn && end-start >= 4 && h[start]|0x20 == 'x' && hasPrefixFold(h[start:], "xn--") {
			return checkHostName(r, h, true, "") // an A-label must be valid
		}
		// One label: or and and of its bytes' classes.
		i, or, and := start, uint32(0), ^uint32(0)
		for ; i < end && h[i] != '.'; i++ {
			f := chars[h[i]]
			or |= f
			and &= f
		}
		label := h[start:i]
		switch {
		case label == "":
			return "", "empty label in host name"
		case and&r.hostLabel == 0:
			for k := 0; k < len(label); k++ {
				if c := label[k]; chars[c]&r.hostLabel == 0 {
					return "", fmt.Sprintf("character %q not allowed in a host name", c)
				}
			}
		case strict && (label[0] == '-' || label[len(label)-1] == '-'):
			return "", fmt.Sprintf("label %q begins or ends with \"-\" (RFC 1738 §5)", label)
		}
		any |= or
		if i == end {
			// The last label: all digits, or "0x", means a number.
			if and&cDigit != 0 || len(label) >= 2 && label[0] == '0' && label[1]|0x20 == 'x' {
				if end != len(h) && isDottedQuad(h[:end]) {
					return "", "an IPv4 dotted quad may not end with \".\" (RFC 3986 §3.2.2 IPv4address)"
				}
				if end != len(h) || !isDottedQuad(h) {
					return "", "a numeric host must be an IPv4 address: four decimal numbers 0-255 without leading zeros"
				}
				return h, ""
			}
			if strict && chars[label[0]]&cAlpha == 0 {
				return "", fmt.Sprintf("top label %q must start with a letter (RFC 1738 §5)", label)
			}
		}
		start = i + 1
	}
	if any&cUpper != 0 {
		if len(prev) == len(h) && equalFoldASCII(prev, h) && strings.ToLower(prev) == prev {
			return prev, "" // ParseInto: the host in *u already; ToLower allocates nothing here
		}
		h = strings.ToLower(h)
	}
	return h, ""
}

// plainName is the fast way of checkHostName for the most common host:
// h holds only letters, digits, "-", "_" and "." (cHostName), which the
// authority's scan found, and upper says whether one of them may be an
// upper-case letter, and paired whether it may hold ".." or "--". In a
// grammar whose labels take all of those (Lenient, RFC 3986: not
// strictHost) it returns what checkHostName returns, and true, for a
// name with no empty label, no "--" (so no A-label, RFC 5890 §2.3.2.1)
// and a last label that does not begin with a digit (so not numeric);
// for any other h it returns false, and the caller takes the full way,
// which says what is wrong. No loop over the bytes of h, but for its
// last label.
func plainName(r *rules, h string, upper, paired bool, prev string) (string, bool) {
	if r.strictHost || paired || h == "" || h[0] == '.' {
		return "", false
	}
	end := len(h)
	if h[end-1] == '.' {
		if !r.finalDot {
			return "", false
		}
		end--
	}
	if last := h[strings.LastIndexByte(h[:end], '.')+1 : end]; last == "" || chars[last[0]]&cDigit != 0 {
		return "", false
	}
	if upper {
		if len(prev) == len(h) && equalFoldASCII(prev, h) && strings.ToLower(prev) == prev {
			return prev, true // ParseInto: the host in *u already; ToLower allocates nothing here
		}
		h = strings.ToLower(h)
	}
	return h, true
}

// asciiOnly reports whether s is all ASCII.
func asciiOnly(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf })
}

// isDottedQuad reports whether s is four decimal numbers 0..255 without
// leading zeros, separated by dots (RFC 3986 §3.2.2 IPv4address).
func isDottedQuad(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is4()
}

// ipLiteral parses "[" IPv6address "]" in s[lo:hi] (RFC 3986 §3.2.2).
// IPvFuture and zone identifiers (RFC 6874) are refused.
func (p *parser) ipLiteral(lo, hi int) string {
	s := p.s
	// A bad escape or a control character, raw or escaped, ranks before
	// any fault of the literal itself, also inside a zone identifier
	// that is refused whole, and in grammars without IP literals.
	for i := lo + 1; i < hi; i++ {
		switch c := s[i]; {
		case isControl(c):
			p.failQuoting(i, ErrControl, fmt.Sprintf("control character %#02x in the host", c), i, i+1)
		case c != '%':
		case !validEscape(s[:hi], i):
			p.fail(i, ErrEscape, `"%" is not followed by two hexadecimal digits`)
		case isControl(escapedByte(s, i)):
			p.failQuoting(i, ErrControl, fmt.Sprintf("percent-encoded control character %%%02X in the host", escapedByte(s, i)), i, i+3)
		}
	}
	if p.r.strictHost {
		p.fail(lo, ErrHost, "IP literals in brackets are not part of RFC 1738 or RFC 2396 hosts")
		return ""
	}
	close := strings.LastIndexByte(s[lo:hi], ']')
	if close < 0 {
		p.fail(lo, ErrHost, `missing "]" after IPv6 address`)
		return ""
	}
	close += lo
	if close != hi-1 {
		p.fail(close+1, ErrHost, `unexpected text after "]"`)
		return ""
	}
	lit := s[lo+1 : close]
	if lit != "" && (lit[0] == 'v' || lit[0] == 'V') {
		p.fail(lo+1, ErrHost, "IPvFuture address literals are not supported")
		return ""
	}
	for i := lo + 1; i < close; i++ {
		c := s[i]
		if chars[c]&cHex != 0 || c == ':' || c == '.' {
			continue
		}
		if c == '%' && validEscape(s[:close], i) {
			p.fail(i, ErrHost, "IPv6 zone identifiers are not supported")
			return ""
		}
		p.failByte(i, ErrHost, "IPv6 address", c)
		return ""
	}
	host, ok := canonicalIPv6(lit)
	if !ok {
		p.fail(lo+1, ErrHost, "invalid IPv6 address")
	}
	return host
}

// canonicalIPv6 returns the IPv6 address lit (no brackets, no zone) in
// RFC 5952 form, and lit itself, without allocating, when it is in that
// form already.
func canonicalIPv6(lit string) (string, bool) {
	a, err := netip.ParseAddr(lit)
	if err != nil || !a.Is6() || a.Zone() != "" {
		return "", false
	}
	var buf [len("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255")]byte
	if string(a.AppendTo(buf[:0])) == lit {
		return lit, true
	}
	return a.String(), true
}

// normalizeHost checks and normalizes the Host of a URL value, which
// may have been set by hand: a name becomes lower-case A-labels, as
// Parse makes it, and an IPv6 address, with or without brackets, its
// RFC 5952 form without them (ipv6 says so). A parsed host comes back
// as it is, without allocating. On failure it returns a detail for
// ErrHost. String, Equal, Address and Plan all read a host through it.
func normalizeHost(h string) (host string, ipv6 bool, detail string) {
	if h == "" {
		return "", false, "the URL has no host"
	}
	if strings.IndexByte(h, ':') >= 0 {
		lit := h
		if len(h) >= 2 && h[0] == '[' && h[len(h)-1] == ']' {
			lit = h[1 : len(h)-1]
		}
		if host, ok := canonicalIPv6(lit); ok {
			return host, true, ""
		}
		return "", false, "the host is neither a name nor an IPv6 address without a zone"
	}
	host, detail = checkHostName(Lenient.rules(), h, !asciiOnly(h), "")
	return host, false, detail
}

// sameHost reports whether String writes hosts a and b the same.
func sameHost(a, b string) bool {
	ha, ia := hostForm(a)
	hb, ib := hostForm(b)
	return ha == hb && ia == ib
}

// hostForm returns the host as String writes it (see normalizeHost),
// and whether it is an IPv6 address, which String puts in brackets. A
// host set by hand that is not a valid host is written with its bytes
// outside RFC 3986 reg-name percent-encoded, so that String stays ASCII.
func hostForm(h string) (host string, ipv6 bool) {
	if isLowerName(h) {
		return h, false // as Parse stores it (an A-label was checked then)
	}
	host, ipv6, detail := normalizeHost(h)
	if detail != "" {
		return escape(strings.ToLower(h), cUser3986, false), false
	}
	return host, ipv6
}

// isLowerName reports whether h is already as String writes a name:
// lower-case letters, digits, "-", "_" and "." only.
func isLowerName(h string) bool {
	for i := 0; i < len(h); i++ {
		if c := h[i]; chars[c]&cHostName == 0 || chars[c]&cUpper != 0 {
			return false
		}
	}
	return true
}
