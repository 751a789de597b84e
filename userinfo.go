package ftpurl

import "strings"

// Userinfo is the immutable user name and optional password of a URL
// (RFC 1738 §3.2.1, 2011 draft §3.2.2). Its methods accept a nil
// *Userinfo, which has an empty user name and no password. Nothing in
// ftpurl changes a Userinfo once made, [Grammar.ParseInto] included, so
// URLs may share one.
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

// Login returns the arguments of the USER and PASS commands (2011 draft
// §3.2.2, 1997 draft §2.1), and ok true when the client can send them
// as they are:
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
// So ok false means one of two things, and user tells them apart:
//
//   - user is not "": a password is needed. The caller asks for one and
//     sends it with user ([URL.NeedsPassword] reports this case alone);
//   - user is "": the userinfo cannot be sent at all, and no password
//     helps ([URL.Plan] refuses such a URL with [ErrControl]).
//
// Login of a nil *URL is "", "", false: nothing to send.
func (u *URL) Login() (user, password string, ok bool) {
	user, password, st := u.login()
	return user, password, st == loginReady
}

// NeedsPassword reports whether u names a user who must give a password
// that the URL does not hold: a non-empty user name that is not
// anonymous, without a password (RFC 1738 §3.2.1: "the program
// interpreting the FTP URL should request one from the user"). It is
// exactly the case of [URL.Login]'s ok false with a user; it is false
// when Login's ok is true, and for a URL whose userinfo cannot be sent
// at all (CR, LF or NUL) or a nil *URL, where asking for a password
// would not help.
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
