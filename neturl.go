package ftpurl

import (
	"fmt"
	"net/url"
	"strings"
)

// FromURL converts a *[url.URL] from net/url into a URL. It refuses with
// [ErrScheme] a v whose scheme is not ftp or ftps (in any case), the
// schemes that [Lenient] reads. A nil v is a
// programming error, not a fault of a URL: its *[Error] has Offset -1
// and wraps no sentinel.
//
// It parses v.String() with [Lenient], so it is lossless: net/url keeps a
// path's escapes in RawPath (so "%2F" stays inside its segment and
// ";type=" stays the typecode, RFC 1738 §3.2.2) and a fragment's in
// RawFragment, and String writes them back. FromURL(u.URL()) is equal to
// u, part by part, for every URL that [Parse] returns. A url.URL that
// net/url parsed but ftpurl refuses (a control character, an IPv6 zone,
// a bad port, no host) gives the *Error of Parse, which quotes
// v.String() with the password hidden.
func FromURL(v *url.URL) (*URL, error) {
	if v == nil {
		return nil, newError("parse", "", -1, errUsage, "FromURL of a nil *url.URL")
	}
	if r := Lenient.rules(); r.scheme(v.Scheme) == nil {
		return nil, newError("parse", v.Redacted(), 0, ErrScheme, fmt.Sprintf("scheme %q is not %s", v.Scheme, r.schemeNames()))
	}
	return Lenient.Parse(v.String())
}

// URL returns u as a *[url.URL] from net/url: for a URL that [Parse]
// returns, the same value that url.Parse(u.String()) returns. Scheme
// is "ftp" or "ftps"; User is set with url.User or url.UserPassword;
// Host holds the host (an IPv6 address in brackets) and the port unless
// it is 0 or the scheme's default (21 for ftp, 990 for ftps); Path is
// the decoded path, and RawPath the escaped one when net/url would not
// write it the same way (as with "%2F" in a segment); RawQuery is u.RawQuery; Fragment is the
// decoded fragment and RawFragment u.Fragment when it differs from
// net/url's own escaping. So v.String() parses back to u, and [FromURL]
// returns a URL equal to u.
//
// URL returns nil for a nil u (see URL), and an empty url.URL for the
// zero URL, whose String is "" too.
func (u *URL) URL() *url.URL {
	if u == nil {
		return nil
	}
	s := u.String()
	if s == "" {
		return new(url.URL)
	}
	// s is scheme "://" authority path ["?" query] ["#" fragment], and
	// String writes "/" after the authority, "?" and "#" nowhere else.
	scheme, s, _ := strings.Cut(s, "://")
	slash := strings.IndexByte(s, '/')
	authority, rest := s[:slash], s[slash:]
	path, fragment, hasFragment := strings.Cut(rest, "#")
	path, query, _ := strings.Cut(path, "?")

	v := &url.URL{Scheme: scheme, RawQuery: query}
	if u.User != nil {
		if pw, ok := u.User.Password(); ok {
			v.User = url.UserPassword(u.User.Username(), pw)
		} else {
			v.User = url.User(u.User.Username())
		}
		authority = authority[strings.LastIndexByte(authority, '@')+1:]
	}
	v.Host = authority
	// RawPath and RawFragment hold the escaped text only where net/url's
	// own escaping of the decoded text differs, as url.Parse sets them.
	v.Path = unescape(path)
	if v.EscapedPath() != path {
		v.RawPath = path
	}
	if hasFragment {
		v.Fragment = unescape(fragment)
		if v.EscapedFragment() != fragment {
			v.RawFragment = fragment
		}
	}
	return v
}
