package ftpurl

import (
	"fmt"
	"net/netip"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
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
	// Most hosts are ASCII names: the fast path. Any fault or other
	// byte takes the path below, which says what is wrong and where.
	if p.plainHost {
		if name, detail := normalizeName(p.r, s[lo:hi], false, p.prevHost); detail == "" {
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
	name, detail := normalizeName(p.r, h, nonASCII || pct && !asciiOnly(h), "")
	if detail != "" {
		p.failQuoting(lo, ErrHost, detail, lo, hi)
	}
	return name
}

// normalizeName checks a decoded host name h and returns it in lower
// case with every label an A-label (through hostProfile). idn says that
// h may hold non-ASCII; an ASCII name with no label that starts with the
// ACE prefix "xn--" (RFC 5890 §2.3.2.1, any case) never reaches idna.
// On failure it returns a detail for ErrHost.
//
// Every grammar: labels of letters, digits, "-" and "_", and an optional
// final dot; a name whose last label is all digits or starts with "0x"
// must be an IPv4 dotted quad, since resolvers read it as a number.
// RFC 1738 §5 and RFC 2396 §3.2.2 hostname also want no label to begin
// or end with "-", no "_", a top label that starts with a letter, and
// (RFC 1738 only) no final dot.
func normalizeName(r *rules, h string, idn bool, prev string) (string, string) {
	if idn {
		if !utf8.ValidString(h) {
			return "", "host is not valid UTF-8 once percent-decoded"
		}
		a, err := toASCII(h)
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
			return normalizeName(r, h, true, "") // an A-label must be valid
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
		case and&cHostName == 0 || strict && or&cUnderscore != 0:
			for k := 0; k < len(label); k++ {
				if c := label[k]; chars[c]&cHostName == 0 || strict && c == '_' {
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

// toASCII converts a Unicode or ACE host name to A-labels with
// hostProfile and checks that the name is valid both ways (UTS #46 §4,
// RFC 5891 §5.4): no label may come out empty, and where the way back
// can change the answer, ToUnicode must succeed and converting its
// result again must give the same labels.
func toASCII(h string) (string, error) {
	a, err := toASCIIOneWay(h)
	if err != nil || !needsRoundTrip(h, a) {
		return a, err
	}
	if err := checkWayBack(h, a); err != nil {
		return "", err
	}
	return a, nil
}

// toASCIIOneWay is the way there: hostProfile's ToASCII, and no label
// emptied by it (UTS #46 §4).
func toASCIIOneWay(h string) (string, error) {
	a, err := lookupToASCII(h)
	if err != nil {
		return "", idnaError(err)
	}
	if label, ok := emptiedLabel(h, a); ok {
		if hasPrefixFold(label, "xn--") {
			return "", fmt.Errorf("IDNA: label %q has nothing after the ACE prefix (UTS #46 §4: no label may be empty)", label)
		}
		return "", fmt.Errorf("IDNA: label %q maps to nothing (UTS #46 §4: no label may be empty)", label)
	}
	return a, nil
}

// checkWayBack checks that a, which ToASCII made of h, converts back
// (RFC 5891 §5.4): ToUnicode succeeds, and converting its result again
// gives a.
func checkWayBack(h, a string) error {
	u, err := hostProfile.ToUnicode(a)
	if err != nil {
		return idnaError(err)
	}
	// When the way back gives h itself, converting it again gives a:
	// the third call is needed only for a name that idna mapped.
	if u == h {
		return nil
	}
	if b, err := hostProfile.ToASCII(u); err != nil || b != a {
		return fmt.Errorf("IDNA: %q does not convert back to itself", a)
	}
	return nil
}

// needsRoundTrip reports whether the way back through ToUnicode (UTS #46
// §4.2, RFC 5891 §5.4) can refuse a name h that ToASCII turned into a.
// It cannot when no label of h is an A-label after the UTS #46 mapping:
// every label of a that begins "xn--" is then the Punycode of a mapped
// label that ToASCII validated already (UTS #46 §4.1), and ToUnicode
// decodes it to the same code points, checks them with the same rules,
// and the third conversion gives a again.
//
// Nor can it when h is all ASCII, A-labels or not: the mapping only
// lowers its letters, and ToASCII decodes each A-label (RFC 3492 §6.2),
// checks the code points with the rules the way back applies to them
// (NFC, UTS #46 §4.1 validity, RFC 5892's joiners) and encodes them
// again, so a holds the one Punycode (RFC 3492 §6.3) of labels that the
// way back decodes and checks alike. The Bidi Rule (RFC 5893 §2) applies
// when a label holds a rune of bidi class R, AL or AN: ToASCII tells
// from the decoded labels, the third conversion from idna's table, and
// both come from the same classes (a test tries every rune's A-label).
// All but one: a label that decodes to one beginning "xn--" again, which
// UTS #46 §4.1 (criterion 4) refuses; x/net/idna has no such check, and
// only the third conversion, which decodes it once more, refuses it or
// gives other labels. Punycode inserts no ASCII (RFC 3492 §6.2), so such
// a label begins "xn--xn--" in h. A long name takes the way back all the
// same (below), though an ASCII one cannot fail there.
//
// Otherwise three things break that:
//
//   - a label that maps to one beginning with the ACE prefix "xn--"
//     (RFC 5890 §2.3.2.1): ToASCII decodes it, so it is an A-label
//     whose round trip must be checked. Such a label holds two runes
//     that map to "-": "-", U+FE63 or U+FF0D (fullwidth "ｘｎ－－" and
//     "x\u00adn--" are A-labels too), so a label with fewer is none;
//   - U+2135..U+2138 (ALEF SYMBOL..DALET SYMBOL): left-to-right runes
//     that map to Hebrew letters, so ToASCII, which decides whether the
//     Bidi Rule (RFC 5893 §2) applies from the runes before mapping,
//     skips a check that ToUnicode makes;
//   - a long name: x/net/idna's Punycode decoder (RFC 3492 §6.2)
//     refuses a label of more than 1024 code points, which its encoder
//     makes. An A-label "xn--" + Punycode is at least 4 bytes longer
//     than the code points it holds, so a name of at most 1024 bytes
//     decodes.
//
// The runes above are all the runes of the linked UTS #46 tables with
// those mappings; a test enumerates every rune to keep it so.
func needsRoundTrip(h, a string) bool {
	if len(a) > 1024 {
		return true
	}
	if asciiOnly(h) {
		for label := range strings.SplitSeq(h, ".") {
			if hasPrefixFold(label, "xn--xn--") {
				return true
			}
		}
		return false
	}
	hyphens := 0
	for _, r := range h {
		switch {
		case r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61':
			hyphens = 0 // the label separators of UTS #46 §2.3
		case r == '-' || r == '\ufe63' || r == '\uff0d':
			if hyphens++; hyphens == 2 {
				return true
			}
		case '\u2135' <= r && r <= '\u2138':
			return true
		}
	}
	return false
}

// idnaDots are the label separators of UTS #46 §2.3: the full stop and
// the three that map to it.
var idnaDots = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// emptiedLabel returns a label of h that IDNA turned into an empty label
// of a, and whether there is one. x/net/idna maps a bare "xn--" (the
// ACE prefix of RFC 5890 §2.3.2.1 with no Punycode after it) and a label
// of ignored characters (U+00AD) to "" without an error, so "h.xn--"
// would come out as "h.", a different name. An empty label that was
// empty in h too is left to normalizeName.
func emptiedLabel(h, a string) (string, bool) {
	if !strings.Contains(a, "..") && !strings.HasPrefix(a, ".") && !strings.HasSuffix(a, ".") {
		return "", false
	}
	in := strings.Split(idnaDots.Replace(h), ".")
	out := strings.Split(a, ".")
	if len(in) != len(out) {
		// A mapping made or removed a separator; no label of h can be
		// paired with one of a, so any new empty label is refused.
		if strings.HasSuffix(a, ".") && !strings.HasSuffix(idnaDots.Replace(h), ".") {
			return in[len(in)-1], true
		}
		return "", false
	}
	for i, l := range out {
		if l == "" && in[i] != "" {
			return in[i], true
		}
	}
	return "", false
}

// idnaError words an error of idna for ErrHost's detail.
func idnaError(err error) error {
	return fmt.Errorf("IDNA: %s", strings.TrimPrefix(err.Error(), "idna: "))
}

// hostProfile is idna.Lookup (UTS #46 non-transitional processing with
// the mapping, label validation, joiner and bidi rules of RFC 5891 §5,
// as browsers and net/http use it) but for two checks that ftpurl makes
// itself, the same way for ASCII and Unicode names: the STD3 rules,
// which would refuse "_" in a label that normalizeName allows, and the
// check for "--" in the third and fourth places of a label, which
// browsers leave out too ("r3---sn-apo3qvuoxuxbt-j5pe" is a real host).
// A-labels are still checked (RFC 5891 §5.4).
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

// lookupToASCII is hostProfile.ToASCII; tests count its calls to prove
// that ASCII names never reach idna.
var lookupToASCII = hostProfile.ToASCII

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
	host, detail = normalizeName(Lenient.rules(), h, !asciiOnly(h), "")
	return host, false, detail
}
