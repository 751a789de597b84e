package ftpurl

import "net/url"

// STUB: owned by the interop work (issue 6); replace entirely.

// FromURL converts a *url.URL.
func FromURL(v *url.URL) (*URL, error) { return nil, nil }

// URL converts u to a *url.URL.
func (u *URL) URL() *url.URL { return nil }
