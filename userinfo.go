package ftpurl

import "strings"

// Userinfo is the immutable user name and optional password of a URL (RFC
// 1738 §3.2.1, 2011 draft §3.2.2); URLs may share one. Its methods accept a
// nil *Userinfo: no user name, no password.
type Userinfo struct {
	username    string
	password    string
	passwordSet bool
}

// User returns a [Userinfo] with the given user name and no password.
func User(name string) *Userinfo {
	return &Userinfo{username: name}
}

// UserPassword returns a [Userinfo] with the given user name and password.
// RFC 3986 §3.2.1 deprecates passwords in URLs, so Redacted hides them.
func UserPassword(name, password string) *Userinfo {
	return &Userinfo{username: name, password: password, passwordSet: true}
}

// Username returns the decoded user name; "" for a nil [Userinfo].
func (ui *Userinfo) Username() string {
	if ui == nil {
		return ""
	}
	return ui.username
}

// Password returns the decoded password and whether one is set:
// "ftp://foo:@host/" has an empty one, "ftp://foo@host/" none (RFC 1738
// §3.2.1). A nil *Userinfo has none.
func (ui *Userinfo) Password() (string, bool) {
	if ui == nil {
		return "", false
	}
	return ui.password, ui.passwordSet
}

// userinfo parses the user name and password in s[lo:hi]; the first ":"
// splits them (RFC 1738 §3.2.1, RFC 3986 §3.2.1).
func (p *parser) userinfo(lo, hi int) {
	ui := &p.user
	s := p.s
	colon := strings.IndexByte(s[lo:hi], ':')
	userEnd := hi
	if colon >= 0 {
		userEnd = lo + colon
	}
	if p.r.needUser && userEnd == lo {
		// 2011 draft §3.1: user = 1*usp-char
		p.fail(lo, ErrUserinfo, "empty user name (2011 draft §3.1: user = 1*usp-char)")
	}
	ui.username = unescapeIfEscaped(s[lo:userEnd], p.scan(lo, userEnd, p.r.user, ErrUserinfo, "user name", true))
	if colon >= 0 {
		ui.password = unescapeIfEscaped(s[userEnd+1:hi], p.scan(userEnd+1, hi, p.r.password, ErrUserinfo, "password", true))
		ui.passwordSet = true
	}
}

// The anonymous convention (RFC 1635; 2011 draft §3.2.2; 1997 draft
// §2.1). The draft asks for "guest" or an e-mail address that is not a
// real one; "anonymous@" is the form browsers and most clients send.
const (
	anonymousUser     = "anonymous"
	anonymousPassword = "anonymous@"
)

// Login returns the arguments of USER and PASS (2011 draft §3.2.2), and ok
// true when they can be sent as they are:
//
//   - no userinfo or an empty user: "anonymous" (RFC 1635) with the URL's
//     password, even empty, or "anonymous@"; true;
//   - the user "anonymous" or "ftp", in any case, without a password: the
//     user, "anonymous@", true;
//   - a user and a password, even empty: both, true;
//   - a user without a password: the user, "", false ([URL.NeedsPassword]);
//   - a part holding CR, LF or NUL (only by hand), or a nil u: "", "", false.
func (u *URL) Login() (user, password string, ok bool) {
	user, password, st := u.login()
	return user, password, st == loginReady
}

// NeedsPassword reports whether u names a user who must give a password the
// URL lacks (RFC 1738 §3.2.1): [URL.Login]'s ok false with a user.
func (u *URL) NeedsPassword() bool {
	_, _, st := u.login()
	return st == loginNeedsPassword
}

// loginState is what Login found: the arguments can be sent, a password
// must be asked for, or the userinfo cannot be sent.
type loginState int

const (
	loginReady loginState = iota
	loginNeedsPassword
	loginUnsendable
)

// login is Login, with its two kinds of ok false apart.
func (u *URL) login() (user, password string, st loginState) {
	if u == nil {
		return "", "", loginUnsendable
	}
	if u.User == nil {
		return anonymousUser, anonymousPassword, loginReady
	}
	name := u.User.username
	pass, hasPass := u.User.Password()
	if hasLineBreak(name) || hasLineBreak(pass) {
		return "", "", loginUnsendable
	}
	switch {
	case name == "":
		if hasPass {
			return anonymousUser, pass, loginReady
		}
		return anonymousUser, anonymousPassword, loginReady
	case hasPass:
		return name, pass, loginReady
	case isAnonymous(name):
		return name, anonymousPassword, loginReady
	}
	return name, "", loginNeedsPassword
}

// isAnonymous reports whether name is "anonymous" or "ftp" in any ASCII
// case. It does not use strings.EqualFold, which would also take the
// long s (U+017F) for "s" and the Kelvin sign (U+212A) for "k".
func isAnonymous(name string) bool {
	return equalFoldASCII(name, "anonymous") || equalFoldASCII(name, "ftp")
}
