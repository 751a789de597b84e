package ftpurl

import "strings"

// DefaultPort is the port of an ftp URL without one (RFC 1738 §3.2, 2011
// draft §3.2.1).
const DefaultPort = 21

// DefaultFTPSPort is the port of an ftps URL without one: implicit TLS, the
// port IANA registered as ftps (2011 draft §5, §7.2; RFC 4217).
const DefaultFTPSPort = 990

// A scheme is a URL scheme that ftpurl reads: its name, in lower case,
// and the port that a URL of it without one refers to. The rest of an
// ftps URL reads exactly as an ftp URL.
type scheme struct {
	name string
	port uint16
}

// schemes are every scheme that ftpurl reads, ftp first: the one that
// an empty URL.Scheme means. Every entry point that reads or writes a
// scheme (Parse, String, Address, Equal, FindAll, Pattern, FromURL,
// URL, ResolveReference, the password span) reads it here.
var schemes = [...]scheme{
	{name: "ftp", port: DefaultPort},      // RFC 1738 §3.2, 2011 draft §3.2.1
	{name: "ftps", port: DefaultFTPSPort}, // 2011 draft §5, §7.2
}

// schemeNamed returns the scheme named name, in any ASCII case, and
// the ftp scheme for "" (a URL built by hand); nil for a scheme that
// ftpurl does not read.
func schemeNamed(name string) *scheme {
	if name == "" {
		return &schemes[0]
	}
	return lookupScheme(schemes[:], name)
}

// lookupScheme returns the scheme of list named name, in any ASCII
// case (RFC 3986 §3.1), or nil.
func lookupScheme(list []scheme, name string) *scheme {
	for i := range list {
		if equalFoldASCII(name, list[i].name) {
			return &list[i]
		}
	}
	return nil
}

// What the grammars change, in one place: one rules value per Grammar,
// as x/net/idna's Profile presets, read by the parser, Pattern and
// FindAll. A grammar is its document's syntax; the semantic checks
// (port range, numeric hosts, label characters, control characters) are
// the same in all four and are not here.
type rules struct {
	// The schemes the grammar reads; schemeRule says why it reads no
	// other of ftpurl's, for messages ("" when it reads them all).
	schemes    []scheme
	schemeRule string

	// Raw bytes allowed in the user name and the password, as classes
	// of the chars table; allowUCS adds RFC 3987 ucschar.
	user, password uint32
	// Raw bytes allowed in a path segment.
	seg uint32
	// Raw bytes allowed in the query and the fragment; 0 when the
	// grammar has none, which makes a "?" (where it ends the path) or a
	// "#" a fault of the path.
	query, fragment uint32

	// questionIsData: "?" neither ends the authority nor starts a query;
	// it is a character of the userinfo and the path (RFC 1738 §5).
	questionIsData bool
	// needUser: the user name may not be empty (2011 draft §3.1: user =
	// 1*usp-char).
	needUser bool
	// hostLabel: the bytes of a host name's labels, as a class of the
	// chars table. Every grammar's semantic check allows letters,
	// digits, "-" and "_" (cLabel); a hostname of RFC 1738 §5 and
	// RFC 2396 §3.2.2 has no "_" (cLabel1738). The parser, Pattern and
	// FindAll all read it here.
	hostLabel uint32
	// strictHost: RFC 1738 §5 / RFC 2396 §3.2.2 hostname syntax: no
	// percent-encoding, no IP literal, no label that begins or ends
	// with "-", a top label that begins with a letter.
	strictHost bool
	// finalDot: a name may end with "." (RFC 2396 §3.2.2, RFC 3986);
	// RFC 1738 §5's hostname may not.
	finalDot bool
	// rawUnicodeHost: a host may hold raw non-ASCII (an IRI's ihost,
	// RFC 3987 §2.2; 2011 draft §6).
	rawUnicodeHost bool
	// emptyPort: "host:" is a host without a port (RFC 3986 §3.2.3);
	// otherwise port = 1*digit (RFC 1738 §5).
	emptyPort bool
	// semicolonIsData: a ";" in a segment that is not the final
	// ";type=" is data; otherwise it is a fault of the path (RFC 1738
	// §3.2.2).
	semicolonIsData bool
	// trimProse: FindAll leaves out the sentence punctuation and the
	// unbalanced brackets that prose puts after a URL.
	trimProse bool

	// types are the typecode letters allowed, lower case; typeRule says
	// which document allows them, for messages.
	types    string
	typeRule string
}

var grammarRules = [...]rules{
	Lenient: {
		schemes: schemes[:], // 2011 draft §5, §7.2: ftps
		user:    cPrint | allowUCS, password: cPrint | allowUCS,
		seg:   cPathLenient | allowUCS,
		query: cPrint | allowUCS, fragment: cPrint | allowUCS,
		hostLabel: cLabel,
		finalDot:  true, rawUnicodeHost: true, emptyPort: true,
		semicolonIsData: true, trimProse: true,
		types:    "abcdefghijklmnopqrstuvwxyz",
		typeRule: "the 2011 draft §3.1 allows a letter",
	},
	RFC1738: {
		schemes: schemes[:1], schemeRule: "RFC 1738 (1994) predates ftps (2011 draft §5)",
		user: cUser1738, password: cUser1738,
		seg:            cSeg1738,
		fragment:       cQuery3986,
		questionIsData: true,
		hostLabel:      cLabel1738, strictHost: true,
		types:    "aid",
		typeRule: "RFC 1738 §5 allows a, i and d",
	},
	RFC2396: {
		schemes: schemes[:1], schemeRule: "the 1997 draft predates ftps (2011 draft §5)",
		// userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" |
		// "+" | "$" | "," ): the first ":" splits, more may follow.
		user: cUser2396, password: cUser2396,
		seg:       cSeg2396,
		hostLabel: cLabel1738, strictHost: true, finalDot: true, emptyPort: true,
		types:    "ai",
		typeRule: "the 1997 draft §2.3 allows a and i",
	},
	RFC3986: {
		schemes: schemes[:], // 2011 draft §5, §7.2: ftps
		user:    cUser3986, password: cUser3986,
		seg:   cSeg3986,
		query: cQuery3986, fragment: cQuery3986,
		hostLabel: cLabel,
		needUser:  true, finalDot: true, emptyPort: true,
		types:    "abcdefghijklmnopqrstuvwxyz",
		typeRule: "the 2011 draft §3.1 allows a letter",
	},
}

// ipLiteral reports whether a host may be an IP literal in brackets
// (RFC 3986 §3.2.2); RFC 1738 and RFC 2396 hosts may not.
func (r *rules) ipLiteral() bool { return !r.strictHost }

// ucs reports whether the grammar takes RFC 3987 ucschar raw outside
// the host (an IRI, 2011 draft §6: Lenient).
func (r *rules) ucs() bool { return r.seg&allowUCS != 0 }

// rules returns the rules of a valid grammar g.
func (g Grammar) rules() *rules { return &grammarRules[g] }

// scheme returns the scheme of r named name, in any ASCII case, or nil.
func (r *rules) scheme(name string) *scheme {
	return lookupScheme(r.schemes, name)
}

// schemeNames lists the names of r's schemes for messages: "ftp", or
// "ftp or ftps".
func (r *rules) schemeNames() string {
	names := make([]string, len(r.schemes))
	for i, sc := range r.schemes {
		names[i] = sc.name
	}
	return strings.Join(names, " or ")
}
