package main

import (
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestCRLFReader: a TYPE A transfer's CRLF is LF here (RFC 959
// §3.1.1.1; curl writes ;type=a files so), a lone CR kept, whatever
// the reads' sizes (a CRLF split between two reads).
func TestCRLFReader(t *testing.T) {
	for in, want := range map[string]string{
		"a\r\nb\r\n":   "a\nb\n",
		"a\rb\r\n\r\r": "a\rb\n\r\r",
		"\r":           "\r",
		"":             "",
		"x\r\n\r\ny":   "x\n\ny",
	} {
		for name, r := range map[string]io.Reader{
			"whole":    strings.NewReader(in),
			"one byte": iotest.OneByteReader(strings.NewReader(in)),
		} {
			b, err := io.ReadAll(iotest.OneByteReader(&crlfReader{r: r}))
			if err != nil || string(b) != want {
				t.Errorf("%q (%s): %q, %v; want %q", in, name, b, err, want)
			}
		}
	}
}
