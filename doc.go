// Package ftpurl parses ftp URLs into exactly what an FTP client needs,
// and writes them back in one normalized form.
//
// Go's net/url reads an ftp URL as if it were http: it merges "%2F" (a
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
// Each Grammar follows one document:
//
//   - RFC1738: RFC 1738 §3.1, §3.2 and the §5 BNF (1994).
//   - RFC2396: draft-casey-url-ftp-00 (1997) on RFC 2396, the language
//     of Perl's Regexp::Common $RE{URI}{FTP}{-i}.
//   - RFC3986: draft-yevstifeyev-ftp-uri-scheme-06 (2011) §3.1 on
//     RFC 3986, URIs only.
//   - Lenient, the default: what any of them accepts, read the RFC 3986
//     way, plus IRIs (the 2011 draft §6) and what people paste.
//
// # Entry points
//
// Parse (or Grammar.Parse) gives a URL; URL.String writes it back
// normalized and URL.Redacted hides its password. URL.Login and URL.Plan
// give what a client sends, following the 2011 draft §3.2: USER and PASS,
// then CWD, TYPE and RETR, LIST or NLST (Plan.Commands). Grammar.FindAll
// finds ftp URLs in text and Grammar.Pattern is an RE2 pattern for them.
// URL.ResolveReference resolves a relative reference (RFC 3986 §5.2),
// FromURL and URL.URL convert to and from net/url, and a URL is a
// string in JSON and flags (MarshalText, UnmarshalText).
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
// refused. A null
// path segment ("//") sends no CWD, as the 2011 draft §3.2.3 (1) says,
// where the 1997 draft sent "CWD " with no argument. curl's readings
// differ in places (it decodes the whole path before splitting it, so
// "%2F" splits; it removes dot segments); the README lists them.
//
// Errors are *Error values that carry a byte offset and one sentinel
// (errors.Is(err, ErrPort)); they never quote a password.
//
// A nil *URL is no URL, not the zero URL: the methods with a pointer
// receiver accept it (Address gives "", Plan refuses it), and the value
// methods String, Redacted, AppendText and MarshalText need a non-nil
// pointer, as any Go value method does. The URL type says each.
package ftpurl
