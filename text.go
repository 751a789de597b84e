package ftpurl

// STUB: owned by the interop work (issue 6); replace entirely.

// AppendText appends String to b.
func (u URL) AppendText(b []byte) ([]byte, error) { return append(b, u.String()...), nil }

// MarshalText returns String.
func (u URL) MarshalText() ([]byte, error) { return []byte(u.String()), nil }

// UnmarshalText parses text.
func (u *URL) UnmarshalText(text []byte) error { return nil }
