package main

import "strings"

// redactInput returns an input as -json's "input" shows it: the text
// that ftpurl.Error's URL hides replaced by "xxxxx", by the rule that
// Error's doc states, so that "input" and the error message hide the
// same text. Unlike Error.URL it is not cut to 256 bytes: "input" is
// there to match output to input.
//
// The rule: when the input has an "@", the text from the first ":" of
// the authority to the last "@" becomes "xxxxx". The authority starts
// after the "//" that follows the scheme; where that "//" is missing,
// or comes after the first "@", it starts after the scheme's ":", or
// at the start of an input with no scheme (RFC 3986 §3.1). A scheme
// other than ftp and ftps counts as none.
//
// The package keeps this rule unexported; TestRedactInputAgreesWithError
// checks that this copy hides what Error.URL hides.
func redactInput(s string) string {
	if lo, hi, ok := passwordSpan(s); ok {
		return s[:lo] + redacted + s[hi:]
	}
	return s
}

// passwordSpan returns the span [lo, hi) of s that redactInput hides.
func passwordSpan(s string) (lo, hi int, ok bool) {
	last := strings.LastIndexByte(s, '@')
	if last < 0 {
		return 0, 0, false
	}
	from := schemeEnd(s)
	if at := from + strings.IndexByte(s[from:], '@'); at >= from {
		if i := strings.Index(s[from:at], "//"); i >= 0 {
			from += i + 2
		} else if from > 0 && !isFTPScheme(s[:from-1]) {
			// "alice:secret@host": RFC 3986 would read "alice" as a
			// scheme, but that reading would show the password.
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
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case k > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case k > 0 && c == ':':
			return k + 1
		default:
			return 0
		}
	}
	return 0
}

// isFTPScheme reports whether name, a scheme that schemeEnd found and so
// ASCII, is ftp or ftps in any case.
func isFTPScheme(name string) bool {
	return strings.EqualFold(name, "ftp") || strings.EqualFold(name, "ftps")
}
