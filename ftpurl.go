// Package ftpurl parses ftp URLs into exactly what an FTP client needs,
// and writes them back in one normalized form.
//
// Go's [net/url] reads an ftp URL as if it were http: it merges "%2F" (a
// "/" inside one directory name, RFC 1738 §3.2.2) with "/", leaves
// ";type=i" in the file name, forgets port 21, never converts an IDN
// host, and decodes "%0D%0A" into a path that a client then writes raw
// onto the FTP control connection: the command injection that Python,
// Java and curl each had to fix. ftpurl splits a URL into userinfo,
// host, port, CWD segments, last segment and typecode, and refuses a
// control character, raw or percent-encoded, wherever it could reach a
// command.
//
// # Standards
//
// Each [Grammar] follows one document:
//
//   - [RFC1738]: RFC 1738 §3.1, §3.2 and the §5 BNF (1994).
//   - [RFC2396]: draft-casey-url-ftp-00 (1997) on RFC 2396, the language
//     of Perl's Regexp::Common $RE{URI}{FTP}{-i}.
//   - [RFC3986]: draft-yevstifeyev-ftp-uri-scheme-06 (2011) §3.1 on
//     RFC 3986, URIs only.
//   - [Lenient], the default: what any of them accepts, read the RFC 3986
//     way, plus IRIs (the 2011 draft §6) and what people paste.
//
// The scheme is ftp in every grammar. Lenient and RFC3986 also read
// ftps, FTP over TLS (RFC 4217), which the 2011 draft (§5, §7.2) names
// and leaves out of scope: an ftps URL reads exactly as an ftp URL, and
// means what curl, FileZilla and WinSCP take it to mean, TLS from the
// first byte, on port [DefaultFTPSPort] (990) by default. RFC1738 and
// RFC2396 predate it and refuse it with [ErrScheme]. TLS on an ftp URL
// (AUTH TLS on port 21) is the client's choice, not the URL's.
//
// # Entry points
//
// [Parse] (or [Grammar.Parse]) gives a URL, and [Grammar.ParseInto]
// writes one into a URL value it reuses, without allocating, for
// programs that parse millions; [URL.String] writes it back
// normalized and [URL.Redacted] hides its password. [URL.Login] and [URL.Plan]
// give what a client sends, following the 2011 draft §3.2: USER and PASS,
// then CWD, TYPE and RETR, LIST or NLST ([Plan.Commands]). [Grammar.FindAll]
// finds ftp URLs in text and [Grammar.Pattern] is an RE2 pattern for them.
// [URL.ResolveReference] resolves a relative reference (RFC 3986 §5.2),
// [FromURL] and [URL.URL] convert to and from net/url, and a URL is a
// string in JSON and flags (MarshalText, UnmarshalText). The nested
// module github.com/ftpurl/ftpurl/fetch runs a plan on a server.
//
// # Where ftpurl departs from the documents
//
// Every grammar adds checks that the documents leave out, because a
// resolver or a server would otherwise read the URL another way: a port
// is 1..65535 (so ":0" is refused); a host whose last label is all
// digits or starts with "0x" must be a dotted quad 0..255 without
// leading zeros ("host.123", "0x7f.1" and "010.1.1.1" are refused); a
// host name is labels of letters, digits, "-" and "_" (RFC 3986 allows
// sub-delims in a reg-name, but no DNS name holds them); IPvFuture and
// IPv6 zones are refused. Unicode hosts go through idna's Lookup
// processing (UTS #46, non-transitional), except that "_" and "--" are
// left to that label rule, so that they read the same in ASCII and IDN
// names. RFC1738 accepts a raw "~", which RFC 1738 §2.2 calls unsafe
// and RFC 2396 §2.3 made unreserved, so that String, which never
// encodes it, re-parses. Lenient accepts what every strict grammar
// accepts, with one exception: it reads RFC 1738's "?", which is data
// there, as the end of the authority and the start of a query (RFC 3986
// §3.2, §3.4), as browsers do, so "ftp://u:p?q@h/" (user "u", password
// "p?q" in RFC1738) is the port "p" of host "u" in Lenient, and is
// refused. A null path segment ("//") sends no CWD, as the 2011 draft §3.2.3 (1) says,
// where the 1997 draft sent "CWD " with no argument. curl's readings
// differ in places (it decodes the whole path before splitting it, so
// "%2F" splits; it removes dot segments); the README lists them.
//
// Errors are *[Error] values that carry a byte offset and one sentinel
// ([errors.Is](err, ErrPort)); they never quote a password.
//
// A nil *URL is no URL, not the zero URL: the methods with a pointer
// receiver accept it (Address gives "", Plan refuses it), and the value
// methods String, Redacted, AppendText and MarshalText need a non-nil
// pointer, as any Go value method does. The URL type says each.
package ftpurl

import (
	"fmt"
	"net"
	"strconv"
)

// A URL is an ftp URL split into the parts an FTP client uses.
//
// Strings hold decoded octets: a Dirs element may contain "/" (from
// "%2F", RFC 1738 §3.2.2) and need not be UTF-8. RawQuery and Fragment
// stay escaped, because FTP never uses them (2011 draft §3.2.4).
//
// The zero URL is valid as a value and its String is "". A URL built by
// hand is normalized by String; Plan refuses one whose parts could
// inject a command.
//
// A nil *URL is no URL at all, as a JSON null is not "": it is not the
// zero URL. The methods with a pointer receiver accept it and never
// panic: Address returns "", Login returns "", "", false, Plan refuses
// it with an error that wraps no sentinel (a programming error), URL
// returns nil, Equal reports it equal only to nil,
// and ResolveReference takes it as a base without a host. UnmarshalText
// stores into *u, so it needs a non-nil u, as every decoder does. The
// methods with a value receiver (String, Redacted, AppendText,
// MarshalText), so that a URL value marshals too, need a non-nil
// pointer like any Go value method: calling one through a nil *URL
// panics, as it does for time.Time or netip.Addr.
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

// Parse parses rawURL with the [Lenient] grammar. It is Lenient.Parse.
//
// On failure the error is an *[Error] whose Err is one of the sentinels
// [ErrScheme], [ErrUserinfo], [ErrHost], [ErrPort], [ErrEscape], [ErrPath],
// [ErrTypecode] or [ErrControl].
func Parse(rawURL string) (*URL, error) {
	return Lenient.Parse(rawURL)
}

// MustParse is like [Parse] but panics if rawURL cannot be parsed. It is
// meant for tests and for package-level variables with hard-coded URLs.
func MustParse(rawURL string) *URL {
	u, err := Parse(rawURL)
	if err != nil {
		panic(err)
	}
	return u
}

// Address returns the "host:port" that net.Dial takes: the port is the
// scheme's default when u has none ([DefaultPort] for ftp, RFC 1738
// §3.2 and 2011 draft §3.2.1; [DefaultFTPSPort] for ftps), and an IPv6
// host is put in brackets. A host set by hand is written as String
// writes it (lower-case A-labels; IPv6 with or without brackets). A nil
// u, one without a host (the zero URL), or one whose Scheme, set by
// hand, is neither ftp nor ftps, has nothing to dial: Address returns
// "", never ":21", which net.Dial would read as the local host.
func (u *URL) Address() string {
	if u == nil || u.Host == "" || schemeNamed(u.Scheme) == nil {
		return ""
	}
	host, _ := hostForm(u.Host)
	return net.JoinHostPort(host, strconv.Itoa(int(u.PortOrDefault())))
}

// PortOrDefault returns the port that a client connects to: u.Port, or
// when that is 0 the default port of u's scheme ([DefaultPort] for ftp
// and for an empty Scheme, [DefaultFTPSPort] for ftps). It returns 0
// for a nil u, and for a Scheme, set by hand, that is neither ftp nor
// ftps and a Port of 0: ftpurl knows no default port for it.
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
	// segment. [Parse] re-encodes all of it, so String is a URI. It never
	// guesses across a delimiter: "\" is data, not "/"; a bare "%" is
	// [ErrEscape]; invalid UTF-8 is refused; white space is not trimmed.
	//
	// The one exception to "accepts what any strict grammar accepts": an
	// RFC 1738 URL that uses "?" as data, which RFC 1738 §5 allows in the
	// user, password and path, reads differently, and may be refused.
	// Lenient ends the authority at "?" (RFC 3986 §3.2), as every
	// browser and net/url do, so "ftp://u:p?q@h/", which [RFC1738] reads as
	// user "u", password "p?q" and host "h", is in Lenient the host "u"
	// with the port "p", which is [ErrPort]; "ftp://h/a?b" has the name "a"
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

// MarshalText returns the name that String returns, so that a [Grammar]
// can be a flag ([flag.TextVar]) or a configuration value. An unknown
// Grammar is an error.
func (g Grammar) MarshalText() ([]byte, error) {
	return grammarNames.marshal(g, "Grammar")
}

// UnmarshalText sets g to the grammar named by text, one of the names
// that String returns, in any ASCII case. Any other text is an error
// that lists the names, and leaves g unchanged.
func (g *Grammar) UnmarshalText(text []byte) error {
	v, err := grammarNames.unmarshal(text, "Grammar")
	if err != nil {
		return err
	}
	*g = v
	return nil
}

// Parse parses rawURL as an ftp URL of grammar g. The scheme, the
// ";type=" key and its letter may be in any case. On failure it returns
// an *[Error] (see Error and the sentinel errors) and a nil URL. A
// [Grammar] that is not one of the four is a programming error, not a
// fault of rawURL: its *Error has Offset -1 and wraps no sentinel.
func (g Grammar) Parse(rawURL string) (*URL, error) {
	if !g.valid() {
		f := fault{err: errUsage, off: -1,
			detail: fmt.Sprintf("%v is not a Grammar (Lenient, RFC1738, RFC2396 or RFC3986)", g)}
		return nil, f.asError("parse", rawURL)
	}
	return parse(g, rawURL)
}

// ParseInto is [Grammar.Parse] without allocating, for programs that
// parse millions of URLs (crawls, logs, mirror lists): it writes the URL
// into *u, reusing the array of u.Dirs.
//
// ParseInto overwrites that array, whoever made it: give it a URL value
// that only it fills (start from the zero URL and pass the same one each
// time), never a copy of a URL that Parse returned, and do not keep
// u.Dirs from an earlier call. Copy a URL that must outlive the next
// call with [URL.String] and Parse, or by copying Dirs. It never writes
// into a [Userinfo], which stays immutable: u.User is kept when the new
// URL's userinfo is the same, and otherwise points to a new Userinfo, so
// a u.User kept from an earlier call, or shared with another URL, is
// never changed.
//
// It allocates nothing for a URL whose segments and userinfo hold no
// escape, whose query and fragment are already in normal form, and whose
// host is too: a name that needs no IDNA, in lower case (or the host
// already in *u, in another case), a dotted quad, or an IPv6 address as
// RFC 5952 §4 writes it. The parts are then substrings of rawURL. It allocates
// an array for u.Dirs when the one it has is too small, and a Userinfo
// for a URL whose userinfo differs from that of u.User. u.Dirs may be empty
// rather than nil for a URL without directories; the two mean the same.
//
// On error *u holds no part of the old or the new URL (its String is
// ""), and the error is the one that Parse returns. A nil u, like a
// Grammar that is not one of the four, is a programming error: its
// *Error wraps no sentinel.
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
