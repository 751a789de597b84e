package ftpurl

import (
	"fmt"
	"net/url"
	"strings"
)

// FromURL converts a *[url.URL] into a URL without loss, parsing v.String()
// with [Lenient] (net/url keeps "%2F" and ";type=" in RawPath). A scheme
// other than ftp or ftps is [ErrScheme]; a nil v wraps no sentinel.
func FromURL(v *url.URL) (*URL, error) {
	if v == nil {
		return nil, newError("parse", "", -1, errUsage, "FromURL of a nil *url.URL")
	}
	if r := Lenient.rules(); r.scheme(v.Scheme) == nil {
		return nil, newError("parse", v.Redacted(), 0, ErrScheme, fmt.Sprintf("scheme %q is not %s", v.Scheme, r.schemeNames()))
	}
	return Lenient.Parse(v.String())
}

// URL returns u as a *[url.URL], the value of url.Parse(u.String()) for a
// URL that [Parse] returns, so that [FromURL] gives back u. It returns nil
// for a nil u, and an empty url.URL for the zero URL.
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
