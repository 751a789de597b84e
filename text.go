package ftpurl

// A URL is text in JSON, YAML, flags (flag.TextVar) and configuration
// files: its String. MarshalText and AppendText have value receivers, so
// a URL field marshals whether it is a value or a pointer (a nil *URL
// field is JSON null: encoding/json does not call them on nil).

// AppendText appends u's String to b ([encoding.TextAppender]); it never
// fails. The text holds the password: log [URL.Redacted] instead.
func (u URL) AppendText(b []byte) ([]byte, error) {
	return append(b, u.String()...), nil
}

// MarshalText returns u's String, "" for the zero URL
// ([encoding.TextMarshaler]); it never fails. The text holds the password.
func (u URL) MarshalText() ([]byte, error) {
	return u.AppendText(nil)
}

// UnmarshalText sets u to [Parse] of text, and to the zero URL for an empty
// text ([encoding.TextUnmarshaler]). On failure it returns Parse's *[Error]
// and leaves u unchanged. u must not be nil.
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
