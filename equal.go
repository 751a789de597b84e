package ftpurl

// STUB: owned by the interop work (issue 6); replace entirely.

// Equal reports whether u and v are the same URL after normalization.
func (u *URL) Equal(v *URL) bool { return false }
