package ftpurl

// STUB: owned by the interop work (issue 6); replace entirely.

// ResolveReference resolves ref against u (RFC 3986 §5.2).
func (u *URL) ResolveReference(ref string) (*URL, error) { return nil, nil }
