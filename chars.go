package ftpurl

import "strings"

// Character classes, one bit per component and grammar, in one [256]
// table (the way net/url's encoding table works). A byte is allowed raw
// in a component when its entry has the component's bit. "%" is in no
// class: the scanners check escapes themselves.
const (
	cAlpha       uint32 = 1 << iota // ALPHA
	cDigit                          // DIGIT
	cHex                            // HEXDIG
	cUser1738                       // RFC 1738 §5 user, password: uchar | ";" | "?" | "&" | "=", and "~"
	cSeg1738                        // RFC 1738 §5 fsegment: uchar | "?" | ":" | "@" | "&" | "=", and "~"
	cUser2396                       // RFC 2396 §3.2.2 userinfo: unreserved | ";" | ":" | "&" | "=" | "+" | "$" | ","
	cSeg2396                        // RFC 2396 §3.3 pchar: unreserved | ":" | "@" | "&" | "=" | "+" | "$" | ","
	cUser3986                       // 2011 draft §3.1 usp-char: unreserved | sub-delims
	cSeg3986                        // 2011 draft §3.1 pchar-nsc: unreserved | sub-delims but ";" | ":" | "@"
	cQuery3986                      // RFC 3986 §3.4, §3.5 query, fragment: pchar | "/" | "?"
	cPrint                          // printable ASCII, space included (Lenient)
	cPathLenient                    // cPrint but "/" "?" "#" ";": a Lenient path segment
	cHostName                       // ALPHA | DIGIT | "-" | "." | "_": what a host name may hold
	cAuthority                      // "/" "?" "#" "@" ":" "]": the bytes that split an authority (RFC 3986 §3.2)
	cUpper                          // "A".."Z"
	cLabel                          // ALPHA | DIGIT | "-" | "_": a host name label (every grammar's semantic check)
	cLabel1738                      // ALPHA | DIGIT | "-": RFC 1738 §5 domainlabel, RFC 2396 §3.2.2 (alphanum | "-")
	cDotOrHyphen                    // "." "-": two in a row end a label early or may start an A-label's "--"

	// allowUCS is never in the table: a scanner given it accepts RFC 3987
	// ucschar (Lenient).
	allowUCS uint32 = 1 << 31
)

var chars = func() (t [256]uint32) {
	set := func(bits uint32, s string) {
		for i := 0; i < len(s); i++ {
			t[s[i]] |= bits
		}
	}
	const (
		alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		digit = "0123456789"
		// RFC 1738 §5 unreserved = alpha | digit | safe | extra
		unreserved1738 = alpha + digit + "$-_.+" + "!*'(),"
		// RFC 2396 §2.3 unreserved = alphanum | mark
		unreserved2396 = alpha + digit + "-_.!~*'()"
		// RFC 3986 §2.3 unreserved, §2.2 sub-delims
		unreserved = alpha + digit + "-._~"
		subDelims  = "!$&'()*+,;="
	)
	set(cAlpha, alpha)
	set(cDigit, digit)
	set(cHex, digit+"ABCDEFabcdef")
	// RFC 1738 §2.2 calls "~" unsafe, but RFC 2396 §2.3 made it
	// unreserved and String never encodes it: RFC1738 accepts it raw,
	// so that String always re-parses (see RFC1738).
	set(cUser1738, unreserved1738+";?&="+"~")
	set(cSeg1738, unreserved1738+"?:@&="+"~")
	set(cUser2396, unreserved2396+";:&=+$,")
	set(cSeg2396, unreserved2396+":@&=+$,")
	set(cUser3986, unreserved+subDelims)
	set(cSeg3986, unreserved+"!$&'()*+,="+":@")
	set(cQuery3986, unreserved+subDelims+":@"+"/?")
	for c := 0x20; c < 0x7F; c++ {
		if c != '%' {
			t[c] |= cPrint
		}
	}
	for c := 0x20; c < 0x7F; c++ {
		if c != '%' && c != '/' && c != '?' && c != '#' && c != ';' {
			t[c] |= cPathLenient
		}
	}
	set(cHostName, alpha+digit+"-._")
	set(cAuthority, "/?#@:]")
	set(cUpper, alpha[:26])
	set(cLabel, alpha+digit+"-_")
	set(cLabel1738, alpha+digit+"-")
	set(cDotOrHyphen, ".-")
	return t
}()

// isControl reports whether c is an ASCII control character, which no
// FTP command argument may hold (RFC 959 §4.1.3).
func isControl(c byte) bool { return c < 0x20 || c == 0x7F }

// ishex reports whether c is a hexadecimal digit.
func ishex(c byte) bool { return chars[c]&cHex != 0 }

// unhex returns the value of the hexadecimal digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// isUCSChar reports whether r may appear raw in a Lenient URL: RFC 3987
// §2.2 ucschar, except the bidi formatting characters that §4.1 forbids.
func isUCSChar(r rune) bool {
	switch {
	case r == 0x200E || r == 0x200F || 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069:
		return false
	case 0xA0 <= r && r <= 0xD7FF, 0xF900 <= r && r <= 0xFDCF, 0xFDF0 <= r && r <= 0xFFEF:
		return true
	case 0xE0000 <= r && r < 0xE1000: // language tags and variation selectors
		return false
	case 0x10000 <= r && r <= 0xEFFFD:
		return r&0xFFFF <= 0xFFFD // 1FFFD, 2FFFD, ... EFFFD
	}
	return false
}

// hasPrefixFold reports whether s begins with prefix, an ASCII string,
// ignoring ASCII case only: strings.EqualFold on a slice of the same byte
// length cannot match the long s (U+017F) or the Kelvin sign (U+212A),
// which are longer than the letters they fold to.
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// equalFoldASCII reports whether s equals the ASCII string t, ignoring
// ASCII case only.
func equalFoldASCII(s, t string) bool {
	return len(s) == len(t) && hasPrefixFold(s, t)
}
