package ftpurl

// STUB: owned by the Pattern work (issue 5); replace entirely.

// Pattern returns an RE2 source that matches g's URLs.
func (g Grammar) Pattern() string { return "" }
