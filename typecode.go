package ftpurl

import (
	"fmt"
	"strings"
)

// A Typecode is the letter of a URL's final ";type=" (RFC 1738 §3.2.2,
// 2011 draft §3.2.3.1), lower case in a parsed URL.
type Typecode byte

// The typecodes the standards name: RFC 1738 a, i and d; the 1997 draft
// §2.3 a and i; the 2011 draft §3.1 a, e, i, u, d and any other letter.
const (
	TypeNone      Typecode = 0   // no ";type=" in the URL
	TypeASCII     Typecode = 'a' // TYPE A
	TypeEBCDIC    Typecode = 'e' // TYPE E
	TypeImage     Typecode = 'i' // TYPE I, binary
	TypeUnicode   Typecode = 'u' // TYPE U, draft-ietf-ftpext2-typeu
	TypeDirectory Typecode = 'd' // a directory listing: NLST (RFC 1738 §3.2.2)
)

// String returns the letter in lower case, "" for [TypeNone], and
// "Typecode(0x0a)" for a value that is not an ASCII letter.
func (t Typecode) String() string {
	if t == TypeNone {
		return ""
	}
	if l, ok := t.lower(); ok {
		return string(rune(l))
	}
	return fmt.Sprintf("Typecode(%#02x)", byte(t))
}

// AppendText appends the letter in lower case, nothing for [TypeNone]
// ([encoding.TextAppender]); a value that is not an ASCII letter is an error.
func (t Typecode) AppendText(b []byte) ([]byte, error) {
	if t == TypeNone {
		return b, nil
	}
	l, ok := t.lower()
	if !ok {
		return b, fmt.Errorf("ftpurl: %v is not a typecode letter", t)
	}
	return append(b, byte(l)), nil
}

// MarshalText returns what AppendText appends: in JSON a [Typecode] is "i",
// not 105 ([encoding.TextMarshaler]).
func (t Typecode) MarshalText() ([]byte, error) {
	return t.AppendText(nil)
}

// UnmarshalText sets t from one ASCII letter in any case, stored in lower
// case (RFC 1738 §3.2.2), or to [TypeNone] for an empty text. Other text is
// an error and leaves t unchanged.
func (t *Typecode) UnmarshalText(text []byte) error {
	switch len(text) {
	case 0:
		*t = TypeNone
		return nil
	case 1:
		if l, ok := Typecode(text[0]).lower(); ok {
			*t = l
			return nil
		}
	}
	return fmt.Errorf("ftpurl: typecode %q is not one ASCII letter", text)
}

// isLetter reports whether t is an ASCII letter.
func (t Typecode) isLetter() bool {
	_, ok := t.lower()
	return ok
}

// lower returns t in lower case, and whether t is an ASCII letter.
func (t Typecode) lower() (Typecode, bool) {
	switch {
	case 'a' <= t && t <= 'z':
		return t, true
	case 'A' <= t && t <= 'Z':
		return t + 'a' - 'A', true
	}
	return t, false
}

// typeParam is the key of the typecode part, matched case-insensitively.
// The one reader of a typecode is typeParamAt, then rules.typeLetter:
// the parser (splitTypecode, typecode) and FindAll (scanPath) call
// them, and Pattern writes them as a regular expression (reType,
// noTypeParam, partSets.types).
const typeParam = ";type="

// typeParamAt reports whether s holds typeParam, in any case, at
// offset i.
func typeParamAt(s string, i int) bool {
	return s[i] == ';' && hasPrefixFold(s[i:], typeParam)
}

// typeLetter returns the typecode that code, the text after a final
// ";type=", names in the grammar: code is one ASCII letter, in any case
// (RFC 1738 §3.2.2), that the grammar allows (allowsType). It returns
// the letter in lower case, and false for any other code.
func (r *rules) typeLetter(code string) (Typecode, bool) {
	if len(code) != 1 {
		return 0, false
	}
	t, ok := Typecode(code[0]).lower()
	return t, ok && r.allowsType(t)
}

// splitTypecode splits the raw last path segment into the name and the
// text after a final ";type=" (any case). It returns at = -1 when the
// segment has no ";type=". Only the last ";type=" counts (2011 draft
// §3.1: "typecode-part" ends the path).
func splitTypecode(seg string) (name, code string, at int) {
	for i := len(seg) - len(typeParam); i >= 0; i-- {
		if typeParamAt(seg, i) {
			return seg[:i], seg[i+len(typeParam):], i
		}
	}
	return seg, "", -1
}

// typecode checks the text after a final ";type=", which starts at
// offset semi with the ";": exactly one letter that the grammar allows.
// Path already checked its bytes for escapes and control characters.
func (p *parser) typecode(semi int, code string) Typecode {
	if t, ok := p.r.typeLetter(code); ok {
		return t
	}
	if len(code) == 1 && Typecode(code[0]).isLetter() {
		p.failQuoting(semi, ErrTypecode, fmt.Sprintf("typecode %q is not allowed: %s", code, p.r.typeRule), semi, semi+len(typeParam)+1)
		return 0
	}
	if code == "" {
		p.fail(semi, ErrTypecode, `";type=" without a letter`)
	} else {
		p.failQuoting(semi, ErrTypecode, fmt.Sprintf("typecode must be one letter, not %q", code), semi, semi+len(typeParam)+len(code))
	}
	return 0
}

// allowsType reports whether the grammar accepts the lower-case letter
// t as a typecode: RFC 1738 §5 "ftptype" is A, I or D; Regexp::Common's
// default type for the 1997 draft is [AIai]; the 2011 draft §3.1
// "typecode" is any ALPHA.
func (r *rules) allowsType(t Typecode) bool {
	return t != 0 && strings.IndexByte(r.types, byte(t)) >= 0
}
