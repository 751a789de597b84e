package ftpurl

// What the grammars change, in one place: one rules value per Grammar,
// as x/net/idna's Profile presets, read by the parser, Pattern and
// FindAll. A grammar is its document's syntax; the semantic checks
// (port range, numeric hosts, label characters, control characters) are
// the same in all four and are not here.
type rules struct {
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
	// strictHost: RFC 1738 §5 / RFC 2396 §3.2.2 hostname syntax: no
	// percent-encoding, no IP literal, no "_", no label that begins or
	// ends with "-", a top label that begins with a letter.
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
		user: cPrint | allowUCS, password: cPrint | allowUCS,
		seg:   cPathLenient | allowUCS,
		query: cPrint | allowUCS, fragment: cPrint | allowUCS,
		finalDot: true, rawUnicodeHost: true, emptyPort: true,
		semicolonIsData: true, trimProse: true,
		types:    "abcdefghijklmnopqrstuvwxyz",
		typeRule: "the 2011 draft §3.1 allows a letter",
	},
	RFC1738: {
		user: cUser1738, password: cUser1738,
		seg:            cSeg1738,
		fragment:       cQuery3986,
		questionIsData: true,
		strictHost:     true,
		types:          "aid",
		typeRule:       "RFC 1738 §5 allows a, i and d",
	},
	RFC2396: {
		// userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" |
		// "+" | "$" | "," ): the first ":" splits, more may follow.
		user: cUser2396, password: cUser2396,
		seg:        cSeg2396,
		strictHost: true, finalDot: true, emptyPort: true,
		types:    "ai",
		typeRule: "the 1997 draft §2.3 allows a and i",
	},
	RFC3986: {
		user: cUser3986, password: cUser3986,
		seg:   cSeg3986,
		query: cQuery3986, fragment: cQuery3986,
		needUser: true, finalDot: true, emptyPort: true,
		types:    "abcdefghijklmnopqrstuvwxyz",
		typeRule: "the 2011 draft §3.1 allows a letter",
	},
}

// rules returns the rules of a valid grammar g.
func (g Grammar) rules() *rules { return &grammarRules[g] }
