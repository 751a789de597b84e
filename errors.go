package ftpurl

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The sentinel errors. Every error that Parse and Plan return is an
// *Error whose Err is exactly one of these, so errors.Is works:
//
//	if errors.Is(err, ftpurl.ErrPort) { ... }
//
// When an input has several faults, Parse reports the one that comes
// first in this order: ErrEscape, ErrControl, ErrTypecode, ErrScheme,
// ErrHost, ErrPort, then the sentinel of the part holding the fault
// (ErrUserinfo, or ErrPath for the path, query and fragment).
var (
	// ErrScheme: the scheme is not "ftp", or "//" does not follow it;
	// also FromURL of nil, and Parse with a Grammar that is not one of
	// the four.
	ErrScheme = errors.New("not an ftp URL")
	// ErrUserinfo: a character the grammar does not allow in the user
	// name or password.
	ErrUserinfo = errors.New("invalid userinfo")
	// ErrHost: an empty, malformed or refused host; also Plan of a nil
	// URL.
	ErrHost = errors.New("invalid host")
	// ErrPort: a port that is not a decimal number 1..65535.
	ErrPort = errors.New("invalid port")
	// ErrEscape: a "%" not followed by two hexadecimal digits.
	ErrEscape = errors.New("invalid percent-escape")
	// ErrPath: a character the grammar does not allow in the path,
	// query or fragment; from Plan, a LIST or NLST argument that starts
	// with "-", or a Method that is not one of the three.
	ErrPath = errors.New("invalid path")
	// ErrTypecode: a final ";type=" not followed by exactly one letter
	// that the grammar allows.
	ErrTypecode = errors.New("invalid typecode")
	// ErrControl: a control character (0x00-0x1F or 0x7F), raw or
	// percent-encoded, where it would reach the FTP control connection
	// (RFC 959 §4.1.3 ends commands with CRLF).
	ErrControl = errors.New("control character")
)

// An Error describes why a URL was refused and where.
//
// URL is the input with its password hidden: when the input has an "@"
// after "//", the text between the first ":" after "//" and the last
// "@" becomes "xxxxx" (DESIGN.md; without "//" the search starts at the
// beginning, so "alice:secret@host" is hidden too). It is cut to 256
// bytes with "…". The message never quotes text from the hidden range.
//
// Parse, MustParse, FromURL, UnmarshalText and ResolveReference return
// Op "parse" and an Offset into their input. Plan returns Op "plan", the
// URL's Redacted form, and Offset -1, since a URL value has no input to
// point into.
type Error struct {
	Op     string // "parse" for every entry point that parses; "plan" for Plan
	URL    string // the input, redacted, cut to 256 bytes with "…"
	Offset int    // byte offset in the input where the fault begins; -1 if none
	Err    error  // one of the sentinels, exactly

	detail string // what is wrong, in plain words; never quotes a password
}

// Error returns a message such as
//
//	ftpurl: parse "ftp://host:70000/": invalid port at offset 11: port is greater than 65535
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("ftpurl: ")
	b.WriteString(e.Op)
	b.WriteByte(' ')
	b.WriteString(strconv.Quote(e.URL))
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("invalid URL")
	}
	if e.Offset >= 0 {
		b.WriteString(" at offset ")
		b.WriteString(strconv.Itoa(e.Offset))
	}
	if e.detail != "" {
		b.WriteString(": ")
		b.WriteString(e.detail)
	}
	return b.String()
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// maxErrorURL is the longest input an Error quotes.
const maxErrorURL = 256

// newError returns the *Error for a fault at offset off of input s.
func newError(op, s string, off int, err error, detail string) *Error {
	return &Error{Op: op, URL: redactInput(s), Offset: off, Err: err, detail: detail}
}

// newPlanError returns the *Error of Plan for URL u, which has no input
// to point into: Error.URL is u.Redacted(), and Offset is -1.
func newPlanError(u *URL, err error, detail string) *Error {
	return &Error{Op: "plan", URL: cutURL(u.Redacted()), Offset: -1, Err: err, detail: detail}
}

// redactInput hides the password of a raw input: when s has an "@"
// after "//", the text between the first ":" after "//" and the last "@"
// becomes "xxxxx". The result is cut to maxErrorURL bytes with "…".
func redactInput(s string) string {
	if lo, hi, ok := passwordSpan(s); ok {
		s = s[:lo] + "xxxxx" + s[hi:]
	}
	return cutURL(s)
}

// cutURL cuts s to maxErrorURL bytes with "…".
func cutURL(s string) string {
	if len(s) > maxErrorURL {
		n := maxErrorURL
		// Do not split a valid UTF-8 sequence that crosses the cut.
		for k := n - 1; k >= 0 && k > n-utf8.UTFMax; k-- {
			if utf8.RuneStart(s[k]) {
				if r, size := utf8.DecodeRuneInString(s[k:]); r != utf8.RuneError && k+size > n {
					n = k
				}
				break
			}
		}
		s = s[:n] + "…"
	}
	return s
}

// passwordSpan returns the span [lo, hi) of s that redactInput hides.
// DESIGN.md starts the search after "//"; without "//" (a mistyped
// scheme, or none) it starts at the beginning, so that
// "alice:secret@host" does not leak either.
func passwordSpan(s string) (lo, hi int, ok bool) {
	from := 0
	if i := strings.Index(s, "//"); i >= 0 {
		from = i + 2
	}
	rest := s[from:]
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return 0, 0, false
	}
	c := strings.IndexByte(rest[:at], ':')
	if c < 0 {
		return 0, 0, false
	}
	return from + c + 1, from + at, true
}
