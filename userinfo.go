package ftpurl

import "strings"

// Userinfo is the immutable user name and optional password of a URL
// (RFC 1738 §3.2.1, 2011 draft §3.2.2). Its methods accept a nil
// *Userinfo, which has an empty user name and no password. The one
// exception to immutable: [Grammar.ParseInto] overwrites the Userinfo
// of the URL value it is given.
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
// RFC 3986 §3.2.1 deprecates passwords in URLs; FTP still uses them
// (2011 draft §3.2.2), so Redacted and [Error] hide them.
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

// Password returns the decoded password and whether one is set.
// "ftp://foo:@host/" has an empty password that is set; "ftp://foo@host/"
// has none (RFC 1738 §3.2.1). A nil *Userinfo has none: "", false.
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
	ui.username = unescapeIf(s[lo:userEnd], p.scan(lo, userEnd, p.r.user, ErrUserinfo, "user name", true))
	if colon >= 0 {
		ui.password = unescapeIf(s[userEnd+1:hi], p.scan(userEnd+1, hi, p.r.password, ErrUserinfo, "password", true))
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

// Login returns the arguments of the USER and PASS commands (2011 draft
// §3.2.2, 1997 draft §2.1), and ok false when the caller must ask the
// user for a password, or the URL cannot log in at all:
//
//   - no userinfo ("ftp://host/"): "anonymous", "anonymous@", true, the
//     anonymous convention of RFC 1635;
//   - a user and a password ("ftp://u:p@host/", also "ftp://u:@host/"
//     with an empty password): both, true;
//   - a user without a password ("ftp://u@host/"): the user, "", false;
//     the draft says to ask the user for one if the server wants it (331);
//   - except the anonymous user names "anonymous" and "ftp" without a
//     password, which get "anonymous@" and ok true. They are compared
//     in any ASCII case, as servers do (vsftpd upper-cases USER before it
//     compares); the user name is returned as the URL has it;
//   - an empty user name ("ftp://@host/", "ftp://:secret@host/") means
//     "anonymous", with the URL's password when it has one (even an
//     empty one) and "anonymous@" otherwise;
//   - a user or password holding CR, LF or NUL, which only a URL value
//     built by hand can have ([Parse] refuses every control character):
//     "", "", false. Such a URL cannot log in safely (RFC 959 §4.1.3).
//
// Login of a nil *URL is "", "", false.
func (u *URL) Login() (user, password string, ok bool) {
	if u == nil {
		return "", "", false
	}
	if u.User == nil {
		return anonymousUser, anonymousPassword, true
	}
	name := u.User.username
	pass, hasPass := u.User.Password()
	if hasLineBreak(name) || hasLineBreak(pass) {
		return "", "", false
	}
	switch {
	case name == "":
		if hasPass {
			return anonymousUser, pass, true
		}
		return anonymousUser, anonymousPassword, true
	case hasPass:
		return name, pass, true
	case isAnonymous(name):
		return name, anonymousPassword, true
	}
	return name, "", false
}

// isAnonymous reports whether name is "anonymous" or "ftp" in any ASCII
// case. It does not use strings.EqualFold, which would also take the
// long s (U+017F) for "s" and the Kelvin sign (U+212A) for "k".
func isAnonymous(name string) bool {
	return equalFoldASCII(name, "anonymous") || equalFoldASCII(name, "ftp")
}
