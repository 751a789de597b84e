package ftpurl

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The sentinel errors. Every fault of a URL that [Parse] and [URL.Plan]
// report is an *[Error] whose Err is exactly one of these ([errors.Is]).
// Of several faults, Parse reports the first in this order: ErrEscape,
// ErrControl, ErrTypecode, ErrScheme, ErrHost, ErrPort, then ErrUserinfo
// or ErrPath, the part holding it.
var (
	// ErrScheme: the scheme is not one that the grammar reads ("ftp";
	// "ftps" too in Lenient and RFC3986), or "//" does not follow it.
	ErrScheme = errors.New("not an ftp URL")
	// ErrUserinfo: a character the grammar does not allow in the userinfo.
	ErrUserinfo = errors.New("invalid userinfo")
	// ErrHost: an empty, malformed or refused host.
	ErrHost = errors.New("invalid host")
	// ErrPort: a port that is not a decimal number 1..65535.
	ErrPort = errors.New("invalid port")
	// ErrEscape: a "%" not followed by two hexadecimal digits.
	ErrEscape = errors.New("invalid percent-escape")
	// ErrPath: a character the grammar does not allow in the path, query or
	// fragment; from Plan, a LIST or NLST argument that starts with "-".
	ErrPath = errors.New("invalid path")
	// ErrTypecode: a final ";type=" not followed by exactly one letter
	// that the grammar allows.
	ErrTypecode = errors.New("invalid typecode")
	// ErrControl: a control character (0x00-0x1F, 0x7F), raw or
	// percent-encoded, that would reach a command (RFC 959 §4.1.3).
	ErrControl = errors.New("control character")
)

// An Error describes why a URL was refused and where. URL hides the
// password as [Redact] does (for [URL.Plan], it is u.Redacted()), and the
// message never quotes the hidden text. Err is none of the sentinels for a
// programming error: a [Grammar] that is not one of the four, FromURL(nil).
type Error struct {
	Op     string // "parse" for every entry point that parses; "plan" for Plan
	URL    string // the input, redacted, cut to 256 bytes with "…"
	Offset int    // byte offset in the input where the fault begins; -1 if none
	Err    error  // one of the sentinels, exactly; another error for a programming error

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

// errUsage is the Err of an *Error for a programming error, a call
// that no URL could make valid: a Grammar that is not one of the four,
// FromURL(nil), Plan of a nil *URL or with a Method that is not one of
// the three. It is none of the sentinels.
var errUsage = errors.New("invalid argument")

// A fault is a refusal on its way to becoming an *Error: the sentinel,
// where the fault is, what is wrong, and which text the detail quotes.
// Its method asError is the one place that makes an *Error, and so the
// one redaction gate that every entry point goes through (Parse,
// ResolveReference, FromURL, UnmarshalText and Plan): it hides the
// password in Error.URL and drops a detail that would quote from the
// hidden range.
type fault struct {
	err    error  // a sentinel, or errUsage; nil: no fault
	off    int    // byte offset in the input; -1 for none
	detail string // what is wrong, in plain words
	// [qlo, qhi) is the text of the input that detail quotes; empty
	// when it quotes none.
	qlo, qhi int
	// secret is a text that detail must not hold: Plan, which has no
	// input range to point at, sets it to the URL's password.
	secret string
}

// record keeps the fault that ranks first (see the sentinel errors):
// the new one unless the recorded one ranks before it, or the same but
// not later in the input.
func (f *fault) record(off int, err error, detail string, qlo, qhi int) {
	if f.err != nil {
		if r, q := rank(err), rank(f.err); r > q || r == q && off >= f.off {
			return
		}
	}
	*f = fault{err: err, off: off, detail: detail, qlo: qlo, qhi: qhi}
}

// asError returns the *Error of operation op for the fault in input: URL
// is the input with its password hidden (see Error), and the detail is
// dropped when it quotes text that overlaps the hidden range or holds
// f.secret.
func (f *fault) asError(op, input string) *Error {
	detail := f.detail
	lo, hi, ok := passwordSpan(input)
	if ok && f.qlo < f.qhi && f.qlo < hi && lo < f.qhi {
		detail = "" // it would quote the text that Error.URL hides
	}
	if f.secret != "" && strings.Contains(detail, f.secret) {
		detail = ""
	}
	return &Error{Op: op, URL: redactInput(input), Offset: f.off, Err: f.err, detail: detail}
}

// redactInput returns s as Error.URL shows it: the password span
// (passwordSpan) replaced by "xxxxx", cut to maxErrorURL bytes with "…".
func redactInput(s string) string {
	return cutURL(Redact(s))
}

// Redact returns rawURL, parsed or not, with the text that may hold a
// password replaced by "xxxxx" (RFC 3986 §3.2.1 deprecates passwords in
// URLs): when rawURL has an "@", from the first ":" of the authority to
// the last "@" (§3.2). The authority starts after the "//"
// that follows the scheme; where that "//" is missing or comes after the
// first "@", after the scheme's ":", or at the start when there is no
// scheme (one other than ftp and ftps counts as none). So
// "ftp:/alice:secret@h//x" and "alice:secret@host" are hidden too.
// [Error].URL is Redact's result cut to 256 bytes.
func Redact(rawURL string) string {
	if lo, hi, ok := passwordSpan(rawURL); ok {
		return rawURL[:lo] + "xxxxx" + rawURL[hi:]
	}
	return rawURL
}

// newError returns the *Error for a fault at offset off of input s
// whose detail quotes none of the input.
func newError(op, s string, off int, err error, detail string) *Error {
	f := fault{err: err, off: off, detail: detail}
	return f.asError(op, s)
}

// newPlanError returns the *Error of Plan for URL u and the fault f
// of its value (valueFault): Error.URL is u.Redacted(), and Offset is
// -1. It goes through the same gate as Parse; a detail that holds u's
// password is dropped.
func newPlanError(u *URL, f *fault) *Error {
	if u != nil && u.User != nil {
		f.secret = u.User.password
	}
	var input string
	if u != nil {
		input = u.Redacted()
	}
	return f.asError("plan", input)
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

// passwordSpan returns the span [lo, hi) of s that Error.URL hides:
// when s has an "@", from after the first ":" of the authority to the
// last "@". The authority starts after the "//" that follows the
// scheme; where that "//" is missing or comes after the first "@" that
// follows the scheme, it starts after the scheme's ":", or at 0 when s
// has no scheme (RFC 3986 §3.1), so that "ftp:/alice:secret@h//x" and
// " alice:secret@host" do not leak either.
func passwordSpan(s string) (lo, hi int, ok bool) {
	last := strings.LastIndexByte(s, '@')
	if last < 0 {
		return 0, 0, false
	}
	from := schemeEnd(s)
	if at := from + strings.IndexByte(s[from:], '@'); at >= from {
		if i := strings.Index(s[from:at], "//"); i >= 0 {
			from += i + 2
		} else if from > 0 && schemeNamed(s[:from-1]) == nil {
			// "alice:secret@host": RFC 3986 would read "alice" as a
			// scheme, but that reading would show the password; a
			// scheme other than ftp and ftps counts as none.
			from = 0
		}
	}
	c := strings.IndexByte(s[from:last], ':')
	if c < 0 {
		return 0, 0, false
	}
	return from + c + 1, last, true
}

// schemeEnd returns the offset after the ":" that ends the scheme of s
// (RFC 3986 §3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"), and
// 0 when s does not start with one.
func schemeEnd(s string) int {
	for k := 0; k < len(s); k++ {
		c := s[k]
		switch {
		case chars[c]&cAlpha != 0:
		case k > 0 && (chars[c]&cDigit != 0 || c == '+' || c == '-' || c == '.'):
		case k > 0 && c == ':':
			return k + 1
		default:
			return 0
		}
	}
	return 0
}
