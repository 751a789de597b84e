package fetch

import (
	"net/http"
	"net/url"
	"testing"
)

func TestRequestURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ftp://h/a%2Fb/c;type=i", "ftp://h/a%2Fb/c;type=i"},
		{"FTP://u:p@H:21/x", "ftp://u:p@h/x"},
		{"ftps://h/a%2Fb/c;type=d", "ftps://h/a%2Fb/c;type=d"},
		{"ftps://u:p@h:21/x", "ftps://u:p@h:21/x"},
		{"ftps://[::1]:21/x", "ftps://[::1]:21/x"},
		{"ftps://h:990/x", "ftps://h/x"}, // 990 is ftps's default port (DefaultFTPSPort)
		{"ftps://h:21", "ftps://h:21/"},
	} {
		v, err := url.Parse(c.in)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := requestURL(v)
		if err != nil || got != c.want {
			t.Errorf("requestURL(%s) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"http://h/x", "ftps://h/a%0Db"} {
		v, _ := url.Parse(in)
		if _, got, err := requestURL(v); err == nil {
			t.Errorf("requestURL(%s) = %q, want an error", in, got)
		}
	}
}

// rangeStart reads the one range RoundTrip serves, "bytes=N-" (RFC 9110
// §14.1.2; the unit in any case, §14.1), and refuses any other, and any
// Range under an If-Range (§13.1.5), which RoundTrip cannot check
// against an FTP file: the whole file is sent then.
func TestRangeStart(t *testing.T) {
	for _, c := range []struct {
		rng, ifRange string
		n            int64
		ok           bool
	}{
		{"bytes=0-", "", 0, true},
		{"bytes=100-", "", 100, true},
		{"Bytes=7-", "", 7, true},
		{" bytes = 7- ", "", 0, false},
		{"bytes=7 -", "", 0, false},
		{"bytes= 7-", "", 7, true},
		{"bytes=7-", "\"etag\"", 0, false},
		{"bytes=7-9", "", 0, false},
		{"bytes=-9", "", 0, false},
		{"bytes=1-,5-", "", 0, false},
		{"bytes=+1-", "", 0, false},
		{"bytes=99999999999999999999-", "", 0, false},
		{"items=1-", "", 0, false},
		{"", "", 0, false},
	} {
		h := http.Header{}
		if c.rng != "" {
			h.Set("Range", c.rng)
		}
		if c.ifRange != "" {
			h.Set("If-Range", c.ifRange)
		}
		n, ok := rangeStart(h)
		if n != c.n || ok != c.ok {
			t.Errorf("rangeStart(Range: %q, If-Range: %q) = %d, %v; want %d, %v", c.rng, c.ifRange, n, ok, c.n, c.ok)
		}
	}
}
