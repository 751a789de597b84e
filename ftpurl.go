// Package ftpurl parses ftp URLs into what an FTP client sends, and writes
// them back in one normalized form.
//
// [Parse] splits a URL into user, password, host, port, the directories to
// CWD into ([URL].Dirs, where "%2F" stays inside its segment: RFC 1738
// §3.2.2), the file name and the typecode, and refuses a control character,
// raw or percent-encoded, wherever it could reach a command ([ErrControl]).
// [URL.String] writes the normal form; [URL.Login] and [URL.Plan] give the
// commands a client sends (2011 draft §3.2); [Grammar.FindAll] finds URLs
// in text; [Grammar.ParseInto] parses without allocating; [FromURL] and
// [URL.URL] convert to and from [net/url]. The module
// github.com/ftpurl/ftpurl/fetch runs a [Plan] on a server.
//
// Each [Grammar] follows one document: RFC 1738 §3.1, §3.2 and §5
// ([RFC1738]); draft-casey-url-ftp-00, the "1997 draft" ([RFC2396]);
// draft-yevstifeyev-ftp-uri-scheme-06 §3.1, the "2011 draft" ([RFC3986]).
// [Lenient], the default, reads what any of them accepts, the RFC 3986
// way, and IRIs (2011 draft §6). Lenient and RFC3986 also read ftps, FTP
// over TLS (RFC 4217).
//
//	u, err := ftpurl.Parse("ftp://ftp.example.com/pub/a%2Fb/f.txt;type=i")
//	fmt.Println(u.Dirs, u.Name, u.Type, err) // [pub a/b] f.txt i <nil>
//
// Why each rule is what it is, and how curl, servers and browsers read the
// same URLs: docs/rules.md and docs/grammars.md in the repository.
package ftpurl

import (
	"fmt"
	"net"
	"strconv"
)

// A URL is an ftp URL split into the parts an FTP client uses. Strings hold
// decoded octets (a Dirs element may hold "/" from "%2F", RFC 1738 §3.2.2);
// RawQuery and Fragment stay escaped (2011 draft §3.2.4). The zero URL's
// String is "". A nil *URL is not the zero URL: the pointer methods accept
// it (Address gives "", Plan refuses it), the value methods panic.
type URL struct {
	Scheme   string    // "ftp" or "ftps", lower case; "" in a hand-built URL means "ftp"
	User     *Userinfo // nil: no userinfo in the URL
	Host     string    // lower-case ASCII name in A-labels, IPv4 dotted quad, or IPv6 (RFC 5952, no brackets)
	Port     uint16    // 0: no port in the URL (the scheme's default applies: DefaultPort, or DefaultFTPSPort for ftps)
	Dirs     []string  // decoded <cwd> segments in order; "" is a null segment
	Name     string    // decoded <last-segment>; "" names a directory listing
	Type     Typecode  // lower-case letter; 0: no ";type="
	RawQuery string    // escaped and normalized, without "?"; ignored by FTP
	Fragment string    // escaped and normalized, without "#" (unlike net/url's decoded Fragment)
}

// Parse parses rawURL with the [Lenient] grammar: it is Lenient.Parse. On
// failure it returns a nil URL and an *[Error] that wraps one sentinel
// ([ErrScheme], [ErrHost], [ErrPort], ...).
func Parse(rawURL string) (*URL, error) {
	return Lenient.Parse(rawURL)
}

// MustParse is like [Parse] but panics if rawURL cannot be parsed; for
// tests and package-level variables with hard-coded URLs.
func MustParse(rawURL string) *URL {
	u, err := Parse(rawURL)
	if err != nil {
		panic(err)
	}
	return u
}

// Address returns the "host:port" that [net.Dial] takes: the host as String
// writes it, an IPv6 address in brackets, and [URL.PortOrDefault]. It
// returns "", never ":21", for a nil u, a URL without a host, or a Scheme,
// set by hand, that is neither ftp nor ftps.
func (u *URL) Address() string {
	if u == nil || u.Host == "" || schemeNamed(u.Scheme) == nil {
		return ""
	}
	host, _ := hostForm(u.Host)
	return net.JoinHostPort(host, strconv.Itoa(int(u.PortOrDefault())))
}

// PortOrDefault returns u.Port, or when it is 0 the default of u's scheme:
// [DefaultPort] for ftp and "" (RFC 1738 §3.2), [DefaultFTPSPort] for ftps.
// It returns 0 for a nil u, and for an unknown Scheme without a Port.
func (u *URL) PortOrDefault() uint16 {
	if u == nil {
		return 0
	}
	if u.Port != 0 {
		return u.Port
	}
	if sc := schemeNamed(u.Scheme); sc != nil {
		return sc.port
	}
	return 0
}

// A Grammar selects the standard that [Parse] follows. Every grammar adds
// checks that the documents leave out: a port is 1..65535; a host whose
// last label is all digits or starts with "0x" must be a dotted quad of
// 0..255 without leading zeros; a host name is labels of letters, digits,
// "-" and "_" (not UTS #46's STD3 rules, which refuse "_"; and "--" in
// the third and fourth places, RFC 5891 §4.2.3.1, is refused only in an
// "xn--" label, so "r3---sn.example" is a host); IPvFuture and IPv6 zones are refused;
// a Unicode host goes through IDNA (UTS #46 Lookup, non-transitional);
// and no user, password,
// host or path segment holds a control character, raw or percent-encoded.
type Grammar int

const (
	// Lenient, the default, accepts what any strict grammar accepts, read the
	// RFC 3986 way, plus raw printable ASCII and Unicode (RFC 3987 ucschar, no
	// bidi formatting) outside the host, Unicode hosts (2011 draft §6), and ";"
	// as data, which String re-encodes. "\" is data, a bare "%" is [ErrEscape],
	// invalid UTF-8 is refused. "?" starts a query (RFC 3986 §3.4), even where
	// RFC 1738 §5 has it as data, so "ftp://u:p?q@h/" is [ErrPort].
	Lenient Grammar = iota

	// RFC1738 is RFC 1738 §3.1, §3.2 and the §5 BNF: typecodes a, i and d, "?"
	// as data, a host name whose top label starts with a letter, and "#" to
	// start a fragment. It also accepts a raw "~" (unsafe in §2.2, unreserved
	// in RFC 2396 §2.3), so that String's output parses again.
	RFC1738

	// RFC2396 is draft-casey-url-ftp-00 (1997) on RFC 2396, the language of
	// Perl's Regexp::Common $RE{URI}{FTP}{-i}: the userinfo may be empty and
	// hold several ":", the port may be empty, segments hold no ";", typecodes
	// are a and i, and there is no query and no fragment.
	RFC2396

	// RFC3986 is draft-yevstifeyev-ftp-uri-scheme-06 (2011) §3.1 on RFC 3986,
	// URIs only: a non-empty user and one ":" at most, an RFC 3986 host (IPv6
	// literal, IPv4, or a reg-name of percent-encoded UTF-8), ";" only in the
	// final ";type=X" with X any letter, a query and a fragment (§3.4, §3.5).
	RFC3986
)

var grammarNames = names[Grammar]{
	Lenient: "lenient",
	RFC1738: "rfc1738",
	RFC2396: "rfc2396",
	RFC3986: "rfc3986",
}

// String returns "lenient", "rfc1738", "rfc2396" or "rfc3986", and
// "Grammar(n)" for any other value.
func (g Grammar) String() string {
	return grammarNames.str(g, "Grammar")
}

func (g Grammar) valid() bool { return grammarNames.valid(g) }

// MarshalText returns the name that String returns, so that a [Grammar] can
// be a flag ([flag.TextVar]); an unknown Grammar is an error.
func (g Grammar) MarshalText() ([]byte, error) {
	return grammarNames.marshal(g, "Grammar")
}

// UnmarshalText sets g to the grammar that String names, in any ASCII case.
// Other text is an error that lists the names, and leaves g unchanged.
func (g *Grammar) UnmarshalText(text []byte) error {
	v, err := grammarNames.unmarshal(text, "Grammar")
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// Parse parses rawURL as an ftp URL of grammar g; the scheme and ";type="
// may be in any case. On failure it returns a nil URL and an *[Error]; for a
// Grammar that is not one of the four, the Error wraps no sentinel.
func (g Grammar) Parse(rawURL string) (*URL, error) {
	if !g.valid() {
		f := fault{err: errUsage, off: -1,
			detail: fmt.Sprintf("%v is not a Grammar (Lenient, RFC1738, RFC2396 or RFC3986)", g)}
		return nil, f.asError("parse", rawURL)
	}
	return parse(g, rawURL)
}

// ParseInto is [Grammar.Parse] into *u, for programs that parse millions of
// URLs. It reuses the array of u.Dirs, so keep no u.Dirs across calls; it
// never writes into a [Userinfo], and replaces u.User when the userinfo
// differs. It allocates nothing when the userinfo and segments hold no
// escape and the host, query and fragment are in normal form (IPv6 as RFC
// 5952 §4); the parts are then substrings of rawURL. On error *u holds no
// part of either URL and the error is Parse's; a nil u wraps no sentinel.
func (g Grammar) ParseInto(u *URL, rawURL string) error {
	if u == nil || !g.valid() {
		detail := "ParseInto into a nil *URL"
		if !g.valid() {
			detail = fmt.Sprintf("%v is not a Grammar (Lenient, RFC1738, RFC2396 or RFC3986)", g)
		}
		if u != nil {
			*u = URL{}
		}
		f := fault{err: errUsage, off: -1, detail: detail}
		return f.asError("parse", rawURL)
	}
	return parseInto(g, u, rawURL)
}
