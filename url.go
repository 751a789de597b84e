package ftpurl

import (
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
// it with ErrHost, URL returns nil, Equal reports it equal only to nil,
// and ResolveReference takes it as a base without a host. UnmarshalText
// stores into *u, so it needs a non-nil u, as every decoder does. The
// methods with a value receiver (String, Redacted, AppendText,
// MarshalText), so that a URL value marshals too, need a non-nil
// pointer like any Go value method: calling one through a nil *URL
// panics, as it does for time.Time or netip.Addr.
type URL struct {
	User     *Userinfo // nil: no userinfo in the URL
	Host     string    // lower-case ASCII name in A-labels, IPv4 dotted quad, or IPv6 (RFC 5952, no brackets)
	Port     uint16    // 0: no port in the URL (21 applies)
	Dirs     []string  // decoded <cwd> segments in order; "" is a null segment
	Name     string    // decoded <last-segment>; "" names a directory listing
	Type     Typecode  // lower-case letter; 0: no ";type="
	RawQuery string    // escaped and normalized, without "?"; ignored by FTP
	Fragment string    // escaped and normalized, without "#" (unlike net/url's decoded Fragment)
}

// DefaultPort is the port an ftp URL without one refers to
// (RFC 1738 §3.2, 2011 draft §3.2.1).
const DefaultPort = 21

// Parse parses rawURL with the Lenient grammar. It is Lenient.Parse.
//
// On failure the error is an *Error whose Err is one of the sentinels
// ErrScheme, ErrUserinfo, ErrHost, ErrPort, ErrEscape, ErrPath,
// ErrTypecode or ErrControl.
func Parse(rawURL string) (*URL, error) {
	return Lenient.Parse(rawURL)
}

// MustParse is like Parse but panics if rawURL cannot be parsed. It is
// meant for tests and for package-level variables with hard-coded URLs.
func MustParse(rawURL string) *URL {
	u, err := Parse(rawURL)
	if err != nil {
		panic(err)
	}
	return u
}

// Address returns the "host:port" that net.Dial takes: the port is 21
// when u has none (RFC 1738 §3.2, 2011 draft §3.2.1), and an IPv6 host
// is put in brackets. A host set by hand is written as String writes it
// (lower-case A-labels; IPv6 with or without brackets). A nil u, or one
// without a host (the zero URL), has nothing to dial: Address returns
// "", never ":21", which net.Dial would read as the local host.
func (u *URL) Address() string {
	if u == nil || u.Host == "" {
		return ""
	}
	port := int(u.Port)
	if port == 0 {
		port = DefaultPort
	}
	host, _ := hostForm(u.Host)
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// Userinfo is the immutable user name and optional password of a URL
// (RFC 1738 §3.2.1, 2011 draft §3.2.2). Its methods accept a nil
// *Userinfo, which has an empty user name and no password.
type Userinfo struct {
	username    string
	password    string
	passwordSet bool
}

// User returns a Userinfo with the given user name and no password.
func User(name string) *Userinfo {
	return &Userinfo{username: name}
}

// UserPassword returns a Userinfo with the given user name and password.
// RFC 3986 §3.2.1 deprecates passwords in URLs; FTP still uses them
// (2011 draft §3.2.2), so Redacted and Error hide them.
func UserPassword(name, password string) *Userinfo {
	return &Userinfo{username: name, password: password, passwordSet: true}
}

// Username returns the decoded user name; "" for a nil Userinfo.
func (ui *Userinfo) Username() string {
	if ui == nil {
		return ""
	}
	return ui.username
}

// Password returns the decoded password and whether one is set.
// "ftp://foo:@host/" has an empty password that is set; "ftp://foo@host/"
// has none (RFC 1738 §3.2.1).
func (ui *Userinfo) Password() (string, bool) {
	if ui == nil {
		return "", false
	}
	return ui.password, ui.passwordSet
}
