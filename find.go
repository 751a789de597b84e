package ftpurl

// STUB: owned by the FindAll work (issue 5); replace entirely.

// A Match is an ftp URL found in a text.
type Match struct {
	Start, End int // byte offsets of the URL in the text
	URL        *URL
}

// FindAll returns the ftp URLs in text.
func (g Grammar) FindAll(text string, n int) []Match { return nil }
