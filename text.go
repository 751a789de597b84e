package ftpurl

// A URL is text in JSON, YAML, flags (flag.TextVar) and configuration
// files: its String. MarshalText and AppendText have value receivers, so
// a URL field marshals whether it is a value or a pointer (a nil *URL
// field is JSON null: encoding/json does not call them on nil).

// AppendText appends the normalized form of u, as String writes it, to
// b and returns the extended buffer; the zero URL appends nothing. It
// implements [encoding.TextAppender] and never fails. The text holds the
// password, if u has one; log Redacted instead.
func (u URL) AppendText(b []byte) ([]byte, error) {
	return append(b, u.String()...), nil
}

// MarshalText returns the normalized form of u, as String writes it:
// "" for the zero URL. It implements [encoding.TextMarshaler] and never
// fails. The text holds the password, if u has one.
func (u URL) MarshalText() ([]byte, error) {
	return u.AppendText(nil)
}

// UnmarshalText sets u to the URL that [Parse] (the [Lenient] grammar)
// reads from text, and an empty text to the zero URL, so that an unset
// configuration value is not an error. It implements
// [encoding.TextUnmarshaler], and like every decoder it stores into *u,
// so u must not be nil. On failure it returns the *[Error] of Parse and
// leaves u unchanged.
func (u *URL) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*u = URL{}
		return nil
	}
	v, err := Parse(string(text))
	if err != nil {
		return err
	}
	*u = *v
	return nil
}
