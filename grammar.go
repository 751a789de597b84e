package ftpurl

import "fmt"

// A Grammar selects the standard that Parse follows. Every grammar adds
// the same semantic checks to its document's syntax: a port is 1..65535,
// a numeric host is a dotted quad of 0..255 without leading zeros, a
// host name is dot-separated labels of letters, digits, "-" and "_", and
// no user, password, host or path segment holds a control character,
// raw or percent-encoded.
type Grammar int

const (
	// Lenient, the default, accepts what any strict grammar accepts, read
	// the RFC 3986 way ("?" starts a query), and also what people paste:
	// raw printable ASCII and Unicode (RFC 3987 ucschar, no bidi
	// formatting characters) in userinfo, path, query and fragment,
	// Unicode host names (IRIs, 2011 draft §6), and ";" as data in a path
	// segment. Parse re-encodes all of it, so String is a URI. It never
	// guesses across a delimiter: "\" is data, not "/"; a bare "%" is
	// ErrEscape; invalid UTF-8 is refused; white space is not trimmed.
	//
	// The one exception to "accepts what any strict grammar accepts": an
	// RFC 1738 URL that uses "?" as data, which RFC 1738 §5 allows in the
	// user, password and path, reads differently, and may be refused.
	// Lenient ends the authority at "?" (RFC 3986 §3.2), as every
	// browser and net/url do, so "ftp://u:p?q@h/", which RFC1738 reads as
	// user "u", password "p?q" and host "h", is in Lenient the host "u"
	// with the port "p", which is ErrPort; "ftp://h/a?b" has the name "a"
	// and the query "b" where RFC1738 has the name "a?b".
	Lenient Grammar = iota

	// RFC1738 is RFC 1738 §3.1, §3.2 and the §5 BNF:
	// ftp://[user[:password]@]host[:port][/fpath[;type=X]] where X is
	// one of A, I, D (any case), "?" is path data, the host is a host
	// name whose top label starts with a letter or a dotted quad, and
	// "#" starts a fragment.
	//
	// One departure: a raw "~" is accepted in user, password and path.
	// RFC 1738 §2.2 calls it unsafe, but every "~user" URL of the time
	// wrote it raw, and RFC 2396 §2.3 made it unreserved; String, which
	// never encodes an unreserved character, writes "%7E" as "~", and
	// its result must parse again in every grammar.
	RFC1738

	// RFC2396 is draft-casey-url-ftp-00 (1997) on RFC 2396, the language
	// of Perl's Regexp::Common $RE{URI}{FTP}{-i}: userinfo may be empty
	// and hold several ":" (the first splits user from password), the
	// host is a host name or dotted quad, the port may be empty, path
	// segments are RFC 2396 pchar without ";", X is A or I, and there is
	// no query and no fragment.
	RFC2396

	// RFC3986 is draft-yevstifeyev-ftp-uri-scheme-06 (2011) §3.1 on
	// RFC 3986, URIs only: the user is not empty and the userinfo holds
	// one ":" at most; the host is an RFC 3986 host (IPv6 literal, IPv4,
	// or a reg-name that may be percent-encoded UTF-8); ";" appears only
	// in the final ";type=X", X any letter; "?" starts a query and "#" a
	// fragment (RFC 3986 §3.4, §3.5).
	RFC3986
)

var grammarNames = [...]string{
	Lenient: "lenient",
	RFC1738: "rfc1738",
	RFC2396: "rfc2396",
	RFC3986: "rfc3986",
}

// String returns "lenient", "rfc1738", "rfc2396" or "rfc3986".
func (g Grammar) String() string {
	if g.valid() {
		return grammarNames[g]
	}
	return fmt.Sprintf("Grammar(%d)", int(g))
}

func (g Grammar) valid() bool { return 0 <= g && int(g) < len(grammarNames) }

// MarshalText returns the name that String returns, so that a Grammar
// can be a flag (flag.TextVar) or a configuration value.
func (g Grammar) MarshalText() ([]byte, error) {
	if !g.valid() {
		return nil, fmt.Errorf("ftpurl: unknown grammar %d", int(g))
	}
	return []byte(grammarNames[g]), nil
}

// UnmarshalText sets g to the grammar named by text, one of the names
// that String returns, in any case.
func (g *Grammar) UnmarshalText(text []byte) error {
	for i, name := range grammarNames {
		if equalFoldASCII(string(text), name) {
			*g = Grammar(i)
			return nil
		}
	}
	return fmt.Errorf("ftpurl: unknown grammar %q (want lenient, rfc1738, rfc2396 or rfc3986)", text)
}

// Parse parses rawURL as an ftp URL of grammar g. The scheme, the
// ";type=" key and its letter may be in any case. On failure it returns
// an *Error (see Error and the sentinel errors) and a nil URL. A
// Grammar that is not one of the four is a programming error, not a
// fault of rawURL: its *Error has Offset -1 and wraps no sentinel.
func (g Grammar) Parse(rawURL string) (*URL, error) {
	if !g.valid() {
		f := fault{err: errUsage, off: -1,
			detail: fmt.Sprintf("%v is not a Grammar (Lenient, RFC1738, RFC2396 or RFC3986)", g)}
		return nil, f.error("parse", rawURL)
	}
	return parse(g, rawURL)
}
