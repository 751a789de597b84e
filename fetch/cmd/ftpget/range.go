package main

// -r, --range: a part of the file, as curl's (curl(1), "--range"): for
// an ftp URL, REST at the first byte (RFC 3659 §5), then exactly the
// range's bytes, the transfer ended there.

import (
	"fmt"
	"strconv"
	"strings"
)

// A byteRange is -r's range: bytes from through to, both counted;
// to is -1 for "to the end"; last is set for "-N", the file's last N
// bytes (from is then N).
type byteRange struct {
	from, to int64
	last     bool
}

// parseRange reads "A-B", "A-" or "-N". A list of ranges ("0-9,20-29")
// is refused: an FTP transfer gives one part of a file, and curl takes
// only the first for an ftp URL.
func parseRange(s string) (*byteRange, error) {
	if strings.Contains(s, ",") {
		return nil, fmt.Errorf("%q: one range for an ftp URL, not a list", s)
	}
	a, b, ok := strings.Cut(s, "-")
	if !ok {
		return nil, fmt.Errorf("takes A-B, A- or -N (bytes, from 0), not %q", s)
	}
	num := func(v string) (int64, bool) {
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil && n >= 0 && v[0] != '+'
	}
	switch {
	case a == "" && b != "":
		n, ok := num(b)
		if !ok || n == 0 {
			break
		}
		return &byteRange{from: n, to: -1, last: true}, nil
	case a != "" && b == "":
		n, ok := num(a)
		if !ok {
			break
		}
		return &byteRange{from: n, to: -1}, nil
	case a != "":
		from, ok1 := num(a)
		to, ok2 := num(b)
		if !ok1 || !ok2 {
			break
		}
		if to < from {
			return nil, fmt.Errorf("%q ends before it begins", s)
		}
		return &byteRange{from: from, to: to}, nil
	}
	return nil, fmt.Errorf("takes A-B, A- or -N (bytes, from 0), not %q", s)
}

// length returns the bytes the range holds, or -1 for "to the end".
func (r *byteRange) length() int64 {
	if r.to < 0 {
		return -1
	}
	return r.to - r.from + 1
}
