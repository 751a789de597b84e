package ftpurl

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// An errorCase is an input whose error Error's doc pins down:
// the sentinel its precedence picks and the offset of the fault.
type errorCase struct {
	g      Grammar
	in     string
	err    error
	offset int
	why    string
}

// checkError parses tt.in and checks the *Error: Op "parse", Err exactly
// the sentinel, Offset exactly the fault's, and a message that says what
// and where.
func checkError(t *testing.T, tt errorCase) {
	t.Helper()
	u, err, ok := tryParse(t, tt.g, tt.in)
	if !ok {
		return
	}
	if err == nil {
		t.Errorf("%v.Parse(%q) = %q, want %v at offset %d (%s)", tt.g, tt.in, u.String(), tt.err, tt.offset, tt.why)
		return
	}
	if u != nil {
		t.Errorf("%v.Parse(%q) returned a URL with its error", tt.g, tt.in)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%v.Parse(%q) error %v is a %T, want *Error", tt.g, tt.in, err, err)
		return
	}
	if e.Err != tt.err || e.Offset != tt.offset {
		t.Errorf("%v.Parse(%q) = %v\n\twant %v at offset %d: %s", tt.g, tt.in, err, tt.err, tt.offset, tt.why)
	}
	if !errors.Is(err, tt.err) {
		t.Errorf("errors.Is(%v, %v) = false", err, tt.err)
	}
	if e.Op != "parse" {
		t.Errorf("%v.Parse(%q).Op = %q, want \"parse\"", tt.g, tt.in, e.Op)
	}
	msg := err.Error()
	if !strings.Contains(msg, tt.err.Error()) || !strings.Contains(msg, "offset "+strconv.Itoa(e.Offset)) {
		t.Errorf("message %q does not name the fault %q and its offset %d", msg, tt.err, e.Offset)
	}
}

// Each sentinel with the offset where its fault begins (Error's
// doc: Offset is the byte offset in the input where the fault begins).
func TestEachSentinelWithItsOffset(t *testing.T) {
	tests := []errorCase{
		{Lenient, "http://h/", ErrScheme, 0, "another scheme: the scheme is at 0"},
		{Lenient, "ftp:h/f", ErrScheme, 4, "no \"//\" after \"ftp:\": where \"//\" should be"},
		{RFC1738, "ftp:/h/f", ErrScheme, 4, "one \"/\" is not \"//\""},
		{Lenient, "", ErrScheme, 0, "empty input"},
		{RFC3986, "ftp://a:b:c@h/", ErrUserinfo, 9, "a second \":\" in the userinfo (2011 draft §3.1)"},
		{RFC3986, "ftp://@h/", ErrUserinfo, 6, "empty user (2011 draft §3.1: user = 1*usp-char)"},
		{RFC1738, "ftp://u|@h/", ErrUserinfo, 7, "\"|\" is not in RFC 1738 §5 user"},
		{Lenient, "ftp:///x", ErrHost, 6, "no host: where it should be"},
		{Lenient, "ftp://u@/x", ErrHost, 8, "empty host after the userinfo"},
		{Lenient, "ftp://1.2.3.256/", ErrHost, 6, "the numeric-host rule: the host starts at 6"},
		{Lenient, "ftp://h!x/", ErrHost, 7, "\"!\" in a host name"},
		{Lenient, "ftp://h:70000/", ErrPort, 8, "port > 65535: the port starts at 8"},
		{Lenient, "ftp://h:0/", ErrPort, 8, "port 0"},
		{Lenient, "ftp://h:2x/", ErrPort, 9, "a non-digit in the port"},
		{RFC1738, "ftp://h:/", ErrPort, 8, "empty port (RFC 1738 §5 port = digits)"},
		{Lenient, "ftp://h/a%zz", ErrEscape, 9, "\"%\" not followed by two hex digits"},
		{Lenient, "ftp://h/%", ErrEscape, 8, "\"%\" at the end of the input"},
		{Lenient, "ftp://h/%4", ErrEscape, 8, "\"%\" with one hex digit at the end"},
		{Lenient, "ftp://u:p%@h/", ErrEscape, 9, "a bare \"%\" in the password: Offset still indexes the input"},
		{Lenient, "ftp://%zz/", ErrEscape, 6, "a bad escape in the host"},
		{RFC3986, "ftp://h/a;b", ErrPath, 9, "\";\" outside the final typecode (2011 draft §3.1 sub-delims-nsc)"},
		{RFC3986, "ftp://h/a b", ErrPath, 9, "a raw space"},
		{RFC2396, "ftp://h/x?q", ErrPath, 9, "no query in the 1997 draft"},
		{Lenient, "ftp://h/\xff", ErrPath, 8, "invalid UTF-8 in the path"},
		{Lenient, "ftp://b\xfccher.example/", ErrHost, 7, "Latin-1, not UTF-8, in an IRI host (RFC 3987 §2.2)"},
		{Lenient, "ftp://%C7\x84/", ErrHost, 9, "a raw UTF-8 continuation byte after an escape: UTF-8 once decoded, but no character as written (RFC 3987 §2.2)"},
		{Lenient, "ftp://h/f;type=ab", ErrTypecode, 9, "two letters: the fault is at the \";\" (ErrTypecode's doc)"},
		{RFC1738, "ftp://h/dir/f;TYPE=e", ErrTypecode, 13, "e is not an RFC 1738 ftptype: at the \";\""},
		{Lenient, "ftp://h/f;type=", ErrTypecode, 9, "no letter: at the \";\""},
		{Lenient, "ftp://h/a%0Ab", ErrControl, 9, "decoded LF: at its \"%\""},
		{Lenient, "ftp://h/a\nb", ErrControl, 9, "raw LF"},
		{Lenient, "ftp://h%0D/", ErrControl, 7, "decoded CR in the host"},
		{Lenient, "ftp://u%00@h/", ErrControl, 7, "decoded NUL in the user"},
		{Lenient, "\tftp://h/", ErrControl, 0, "a raw tab before the scheme is a control character first"},
	}
	for _, tt := range tests {
		checkError(t, tt)
	}
}

// Error's doc: with several faults, the sentinel is the one that
// ranks first: ErrEscape, ErrControl, ErrTypecode, ErrScheme, ErrHost,
// ErrPort, then the part's own. Each input below has two faults, and the
// one that ranks first is not the first in the input.
func TestErrorPrecedence(t *testing.T) {
	tests := []errorCase{
		{Lenient, "ftp://h/%0A/%zz", ErrEscape, 12, "ErrEscape before ErrControl"},
		{Lenient, "http://u:p@:0/a%0D;type=ab/%", ErrEscape, 27, "ErrEscape before everything"},
		{Lenient, "ftp://h/a;type=ab/%0D", ErrControl, 18, "ErrControl before ErrTypecode"},
		{Lenient, "ftp://h/a%0D;type=ab", ErrControl, 9, "ErrControl before ErrTypecode"},
		{Lenient, "http://h/a%0D", ErrControl, 10, "ErrControl before ErrScheme"},
		{Lenient, "http://h/f;type=ab", ErrTypecode, 10, "ErrTypecode before ErrScheme"},
		{RFC3986, "ftp://h/a b;type=ab", ErrTypecode, 11, "ErrTypecode before ErrPath"},
		{Lenient, "http:///x", ErrScheme, 0, "ErrScheme before ErrHost"},
		{Lenient, "http://h:0/", ErrScheme, 0, "ErrScheme before ErrPort"},
		{Lenient, "ftp://:70000/", ErrHost, 6, "ErrHost before ErrPort"},
		{Lenient, "ftp://1.2.3.256:0/", ErrHost, 6, "ErrHost before ErrPort"},
		{RFC3986, "ftp://a b@/", ErrHost, 10, "ErrHost before ErrUserinfo"},
		{RFC3986, "ftp://a b@h:0/", ErrPort, 12, "ErrPort before ErrUserinfo"},
		{RFC3986, "ftp://h:0/a b", ErrPort, 8, "ErrPort before ErrPath"},
	}
	for _, tt := range tests {
		checkError(t, tt)
	}
}

// Error's doc: Offset is where the reported fault is; of two
// faults that rank the same, the one earlier in the input is reported,
// whatever part or check finds it first.
func TestOfTwoFaultsOfOneRankTheEarlierIsReported(t *testing.T) {
	tests := []errorCase{
		// RFC 3986 §3.3 with the 2011 draft §3.1: ";" in a segment other
		// than the final ";type=" is not a pchar-nsc, nor is " ".
		{RFC3986, "ftp://h/a;b c/d", ErrPath, 9, `the ";" before the " "`},
		{RFC3986, "ftp://h/a b;c/d", ErrPath, 9, `the " " before the ";"`},
		{RFC3986, "ftp://h/a b/c d", ErrPath, 9, "the first of two spaces"},
		{Lenient, "ftp://h/a%zz/b%qq", ErrEscape, 9, "the first of two bad escapes"},
		{Lenient, "ftp://h/%0A/%0D", ErrControl, 8, "the first of two control escapes"},
	}
	for _, tt := range tests {
		checkError(t, tt)
	}
}

// errors.Is and errors.As see through *Error to exactly one sentinel.
func TestErrorsIsAndAs(t *testing.T) {
	sentinels := []error{ErrScheme, ErrUserinfo, ErrHost, ErrPort, ErrEscape, ErrPath, ErrTypecode, ErrControl}
	_, err := Parse("ftp://h:70000/")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Parse error %v is a %T, want *Error", err, err)
	}
	if e.Unwrap() != ErrPort {
		t.Errorf("Unwrap() = %v, want ErrPort", e.Unwrap())
	}
	for _, s := range sentinels {
		if got, want := errors.Is(err, s), s == ErrPort; got != want {
			t.Errorf("errors.Is(%v, %v) = %v, want %v", err, s, got, want)
		}
	}
	for i, a := range sentinels {
		for _, b := range sentinels[i+1:] {
			if a.Error() == b.Error() {
				t.Errorf("two sentinels say %q", a.Error())
			}
		}
	}
}

// Error's doc: in Error.URL, when the input has an "@" after
// "//", the text from the first ":" after "//" to the last "@" becomes
// "xxxxx"; the result is cut to 256 bytes with "…".
func TestErrorURLIsRedacted(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ftp://user:s3cr3t@h:0/", "ftp://user:xxxxx@h:0/"},
		{"ftp://u:p@ss@h:0/", "ftp://u:xxxxx@h:0/"},                             // to the last "@"
		{"ftp://u:p:q@h:0/", "ftp://u:xxxxx@h:0/"},                              // from the first ":"
		{"ftp://u:@h:0/", "ftp://u:xxxxx@h:0/"},                                 // an empty password is hidden too
		{"ftp://u@h:0/", "ftp://u@h:0/"},                                        // no ":" before the "@"
		{"ftp://h:0/", "ftp://h:0/"},                                            // no "@"
		{"ftp://h:0/a@b", "ftp://h:xxxxx@b"},                                    // Error's rule as written: from the port's ":" to the path's "@"
		{"FTP://U:S3CR3T@H:0/", "FTP://U:xxxxx@H:0/"},                           // the input as typed, not normalized
		{"ftp://u:pw@h/%zz", "ftp://u:xxxxx@h/%zz"},                             // an ErrEscape
		{"http://u:pw@h/", "http://u:xxxxx@h/"},                                 // an ErrScheme
		{"ftp://u:p/w@h/x%", "ftp://u:xxxxx@h/x%"},                              // a "/" in the password ends the authority, not the redaction
		{"ftp://u:pw@h:0/\xff@x", "ftp://u:xxxxx@x"},                            // the last "@" is in the path
		{"ftp://u:" + strings.Repeat("p", 300) + "@h:0/", "ftp://u:xxxxx@h:0/"}, // redacted before it is cut
	}
	for _, tt := range tests {
		for _, err := range errorURLs(t, tt.in, tt.want) {
			if !strings.Contains(err.Error(), strconv.Quote(tt.want)) {
				t.Errorf("message %q does not quote the redacted URL %q", err, tt.want)
			}
		}
	}
}

// errorURLs parses in with every grammar that refuses it and checks
// that each error is an *Error whose URL is want; it returns the errors.
func errorURLs(t *testing.T, in, want string) []error {
	t.Helper()
	var errs []error
	for _, g := range allGrammars {
		_, err, ok := tryParse(t, g, in)
		if !ok {
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%v.Parse(%q) = %v, want an *Error", g, in, err)
			continue
		}
		if e.URL != want {
			t.Errorf("%v.Parse(%q).URL = %q, want %q", g, in, e.URL, want)
		}
		errs = append(errs, err)
	}
	return errs
}

func TestErrorURLIsCutTo256Bytes(t *testing.T) {
	long := "ftp://h/" + strings.Repeat("a", 300) + "%"
	_, err, ok := tryParse(t, Lenient, long)
	if !ok {
		return
	}
	var e *Error
	if !errors.As(err, &e) || e.Err != ErrEscape || e.Offset != len(long)-1 {
		t.Fatalf("Parse(long) = %v, want ErrEscape at %d", err, len(long)-1)
	}
	if want := long[:256] + "…"; e.URL != want {
		t.Errorf("URL = %q (%d bytes), want the first 256 bytes and \"…\"", e.URL, len(e.URL))
	}

	// Exactly 256 bytes are not cut.
	exact := "ftp://h:0/" + strings.Repeat("b", 246)
	if _, err := Parse(exact); !errors.As(err, &e) || e.URL != exact {
		t.Errorf("a 256-byte input became %q", e.URL)
	}

	// A cut never splits a UTF-8 sequence: "☃" starts at byte 255.
	snow := "ftp://h/" + strings.Repeat("a", 247) + "☃☃%"
	if _, err := Parse(snow); !errors.As(err, &e) {
		t.Fatalf("Parse(snow) = %v", err)
	}
	// The cut steps back to the start of that "☃": the 255 bytes
	// before it, then "…".
	if want := snow[:255] + "…"; e.URL != want || !utf8.ValidString(e.URL) {
		t.Errorf("URL = %q (%d bytes), want the first 255 bytes and \"…\" (%d bytes)", e.URL, len(e.URL), len(want))
	}
}

// Error's doc: the message never quotes text from the redacted
// range, whatever the fault and wherever it is, even a faulty character
// inside the password; Offset still indexes the input.
func TestErrorMessageNeverHoldsThePassword(t *testing.T) {
	// Each password starts with "S3cr3t" and ends with "PW"; the middle
	// is a character that some grammar refuses.
	passwords := []string{
		"S3cr3tPW", "S3cr3t PW", "S3cr3t%zzPW", "S3cr3t%PW", "S3cr3t%0APW", "S3cr3t\nPW",
		"S3cr3t\xffPW", "S3cr3t\u202ePW", "S3cr3t~PW", "S3cr3t:PW", "S3cr3t/PW",
		"S3cr3t?PW", "S3cr3t#PW", "S3cr3t[PW", "S3cr3t@PW", "S3cr3t|PW", "S3cr3t☃PW",
		"S3cr3t;type=xyPW", "S3cr3t%C3PW",
	}
	// Each template makes some fault, so that every input fails.
	templates := []string{
		"ftp://user:%s@h:0/",
		"ftp://user:%s@h/%%zz",
		"ftp://user:%s@/x",
		"http://user:%s@h/",
		"ftp://user:%s@h/a%%0Ab",
		"ftp://user:%s@h/f;type=ab",
		"ftp://user:%s@1.2.3.256/",
	}
	for _, tmpl := range templates {
		for _, pw := range passwords {
			in := strings.Replace(tmpl, "%s", pw, 1)
			in = strings.ReplaceAll(in, "%%", "%")
			for _, g := range allGrammars {
				_, err, ok := tryParse(t, g, in)
				if !ok {
					continue
				}
				var e *Error
				if !errors.As(err, &e) {
					t.Errorf("%v.Parse(%q) = %v, want an *Error", g, in, err)
					continue
				}
				msg := err.Error()
				for _, secret := range []string{"S3cr3t", "cr3t", "PW", "'S'", "U+202E", "'~'", "'|'", "'['", "'#'", "'?'", "xy"} {
					if strings.Contains(msg, secret) || strings.Contains(e.URL, secret) {
						t.Errorf("%v.Parse(%q): message %q holds %q from the password", g, in, msg, secret)
					}
				}
				if e.Offset < 0 || e.Offset > len(in) {
					t.Errorf("%v.Parse(%q).Offset = %d, outside the input", g, in, e.Offset)
				}
			}
		}
	}
}

// Error's rule hides everything from the first ":" after "//" to the
// last "@", even when that range is not userinfo: no message may quote
// from it either.
func TestErrorMessageNeverQuotesTheRedactedRange(t *testing.T) {
	tests := []struct {
		g  Grammar
		in string
	}{
		{Lenient, "ftp://h:0/f;type=S3cr3tPW@x"},     // typecode text inside the range
		{Lenient, "ftp://h:1/f;type=S3cr3tPW@x"},     // the typecode is the only fault
		{RFC3986, "ftp://h:1/S3cr3t PW@x"},           // a path fault inside the range
		{Lenient, "ftp://user:S3cr3tPW/x@h/"},        // "/" ends the authority: the password is read as a port
		{Lenient, "ftp://user:1S3cr3tPW?x@h/"},       // "?" ends the authority
		{RFC1738, "ftp://user:S3cr3tPW/x@h/"},        // the same in RFC 1738
		{Lenient, "ftp://h:S3cr3tPW/@x"},             // a port that is all password
		{Lenient, "ftp://a:S3cr3tPW!b@c:S3@x:0/@y"},  // several "@"
		{Lenient, "ftp://user:S3cr3t\u202ePW@h/"},    // refused character in the password
		{Lenient, "ftp://user:S3cr3t\x01PW@h/"},      // a raw control character: not even its value ('\x01')
		{RFC3986, "ftp://h:1/S3cr3t%01PW@x"},         // an escaped one in a path inside the range
		{RFC3986, "ftp://user:S3cr3t\u00e9PW@h/"},    // non-ASCII in a strict password
		{RFC1738, "ftp://user:S3cr3t;type=PW@h:0/x"}, // ";type=" inside the password is not a typecode
	}
	for _, tt := range tests {
		_, err, ok := tryParse(t, tt.g, tt.in)
		if !ok {
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%v.Parse(%q) = %v, want an *Error", tt.g, tt.in, err)
			continue
		}
		msg := err.Error()
		for _, secret := range []string{"S3cr3t", "cr3t", "PW", "'S'", "'1'", "U+202E", "U+00E9", "0x01", "%01"} {
			if strings.Contains(msg, secret) {
				t.Errorf("%v.Parse(%q): message %q quotes %q from the redacted range", tt.g, tt.in, msg, secret)
			}
		}
	}
}

// The same rule as a property over every input of the grammar and
// error tables: inserting ":ZQZQ@" anywhere after "//" puts "ZQZQ"
// inside the redacted range (between the first ":" and the last "@"),
// so no message may quote it, whatever fault the new input has.
func TestErrorMessageNeverQuotesAnInsertedPassword(t *testing.T) {
	const marker = "ZQZQ"
	var inputs []string
	for _, cases := range [][]grammarCase{everyGrammar, rfc1738Cases, rfc2396Cases, rfc3986Cases, lenientCases} {
		for _, tt := range cases {
			inputs = append(inputs, tt.in)
		}
	}
	inputs = append(inputs,
		"ftp://h/f;type=a", "ftp://h/f;type=", "ftp://[::1]:0/", "ftp://[::g]/", "ftp://-h-/", "ftp://xn--a.example/",
		"ftp://h:99/", "ftp://ab--cd.bücher.example/", "ftps://h/", "ftp://1.2.3.256/", "ftp://h/%zz")
	for _, base := range inputs {
		i := strings.Index(base, "//")
		if i < 0 {
			continue
		}
		for p := i + 2; p <= len(base); p++ {
			in := base[:p] + ":" + marker + "@" + base[p:]
			for _, g := range allGrammars {
				_, err, ok := tryParse(t, g, in)
				if !ok || err == nil {
					continue
				}
				msg := err.Error()
				leak := strings.Contains(msg, "ZQ") || strings.Contains(msg, "QZ")
				for _, r := range "ZQ" {
					if !strings.ContainsRune(base, r) {
						leak = leak || strings.Contains(msg, strconv.QuoteRune(r))
					}
				}
				if leak {
					t.Errorf("%v.Parse(%q): message %q quotes the redacted range", g, in, msg)
				}
			}
		}
	}
}

// RFC 3986 §3.2.1: a password in a URL is not to be shown. Error.URL
// hides it where the authority's "//" is missing or comes after the
// "@": the authority then starts after the scheme's ":" (RFC 3986
// §3.1), or at the start of an input with no scheme or a scheme other
// than ftp and ftps (so "alice:secret@host" hides "secret" although RFC 3986
// reads "alice" as a scheme); and the message never quotes from the
// hidden range.
func TestErrorURLHidesThePasswordWhereTheAuthoritySlashesAreMissingOrLate(t *testing.T) {
	tests := []struct{ in, want string }{
		{"ftp:/alice:secret@h.example//x", "ftp:/alice:xxxxx@h.example//x"},
		{"ftp:alice:secret@h.example/x", "ftp:alice:xxxxx@h.example/x"},
		{"ftp:/alice:secret@h//x@y", "ftp:/alice:xxxxx@y"},
		{"http:/u:secret@h/", "http:xxxxx@h/"}, // another scheme counts as none
		{"alice:secret@host", "alice:xxxxx@host"},
		{"FTP:alice:secret@host", "FTP:alice:xxxxx@host"},
		{" alice:secret@host", " alice:xxxxx@host"}, // no scheme: from the start
		{"ftp//alice:secret@host", "ftp//alice:xxxxx@host"},
		{"ftp://u:secret@h:0/", "ftp://u:xxxxx@h:0/"},
		{"x//u:secret@h:0/", "x//u:xxxxx@h:0/"}, // no scheme: the "//" still starts the authority
		// ftps is a scheme of its own in every grammar's errors, those
		// that refuse it included (2011 draft §5).
		{"ftps:/alice:secret@h.example//x", "ftps:/alice:xxxxx@h.example//x"},
		{"FTPS:alice:secret@host", "FTPS:alice:xxxxx@host"},
		{"ftps://u:secret@h:0/", "ftps://u:xxxxx@h:0/"},
		{"sftp:/u:secret@h/", "sftp:xxxxx@h/"}, // another scheme counts as none
	}
	for _, tt := range tests {
		for _, err := range errorURLs(t, tt.in, tt.want) {
			if strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), "'s'") {
				t.Errorf("Parse(%q): message %q shows the password", tt.in, err)
			}
		}
	}
}

// The message names the part where the fault is, and the sentinel
// follows the ranking of the sentinel errors: a control character (RFC
// 959 §4.1.3) where the scheme should be (RFC 3986 §3.1) is not in the
// path; one escaped in an IPv6 zone is ErrControl before the zone is
// ErrHost (RFC 6874 zones are refused); and a dotted quad with a final
// dot is refused for that dot (RFC 3986 §3.2.2 IPv4address), not for
// its numbers.
func TestErrorMessageNamesThePartOfTheFault(t *testing.T) {
	tests := []struct {
		g      Grammar
		in     string
		err    error
		offset int
		says   string
	}{
		{Lenient, "\nftp://h.example/", ErrControl, 0, "before the scheme"},
		{RFC3986, " \tftp://h.example/", ErrControl, 1, "before the scheme"},
		{Lenient, "f\ntp://h/", ErrControl, 1, "in the scheme"},
		{RFC1738, "ftp\x7f://h/", ErrControl, 3, "in the scheme"},
		{Lenient, "ftp://h/\n", ErrControl, 8, "in the path"},
		{Lenient, "ftp://[::1%0A]/", ErrControl, 10, "in the host"},
		{RFC1738, "ftp://[::1%0A]/", ErrControl, 10, "in the host"},
		{Lenient, "ftp://[::1%25eth\n]/", ErrControl, 16, "in the host"},
		{Lenient, "ftp://[::1%25%zz]/", ErrEscape, 13, "hexadecimal"},
		{Lenient, "ftp://1.2.3.4./", ErrHost, 6, `may not end with "."`},
		{RFC3986, "ftp://1.2.3.4./", ErrHost, 6, `may not end with "."`},
		{Lenient, "ftp://1.2.3.04./", ErrHost, 6, "four decimal numbers"},
		{RFC1738, "ftp://1.2.3.4./", ErrHost, 6, `does not end with "."`},
	}
	for _, tt := range tests {
		_, err, ok := tryParse(t, tt.g, tt.in)
		if !ok {
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Err != tt.err || e.Offset != tt.offset || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%v.Parse(%q) = %v\n\twant %v at offset %d saying %q", tt.g, tt.in, err, tt.err, tt.offset, tt.says)
		}
	}
}
