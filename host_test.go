package ftpurl

import (
	"errors"
	"strings"
	"testing"
)

// UTS #46 §4 (Processing, step 4): a label that starts with "xn--" must
// decode, and no label may come out of the conversion empty. x/net/idna
// maps a bare "xn--", and a label of ignored characters such as U+00AD,
// to "" without an error, which would turn "h.xn--" into the different
// name "h.": every grammar refuses it with ErrHost and says why.
func TestIDNALabelMayNotComeOutEmpty(t *testing.T) {
	tests := []struct {
		in       string
		grammars []Grammar
		says     string
	}{
		{"ftp://h.xn--/f", allGrammars, `"xn--"`},
		{"ftp://h.XN--/f", allGrammars, `"XN--"`},
		{"ftp://xn--bcher-kva.xn--/f", allGrammars, `"xn--"`},
		{"ftp://xn--.example/", allGrammars, `"xn--"`},
		{"ftp://h.xn--./f", []Grammar{Lenient, RFC2396, RFC3986}, `"xn--"`},
		{"ftp://bücher.xn--/f", []Grammar{Lenient}, `"xn--"`},
		{"ftp://h.%78n--/f", []Grammar{Lenient, RFC3986}, `"xn--"`},
		{"ftp://h.\u00ad/f", []Grammar{Lenient}, `maps to nothing`},
	}
	for _, tt := range tests {
		for _, g := range tt.grammars {
			u, err, ok := tryParse(t, g, tt.in)
			if !ok {
				continue
			}
			var e *Error
			if !errors.As(err, &e) || e.Err != ErrHost {
				t.Errorf("%v.Parse(%q) = %v, %v; want ErrHost", g, tt.in, u, err)
				continue
			}
			if !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "UTS #46") {
				t.Errorf("%v.Parse(%q): message %q does not name the empty label (%s)", g, tt.in, err, tt.says)
			}
		}
		// FindAll skips the candidate rather than shortening it to a
		// valid prefix; Pattern leaves xn-- validity to Parse. (In
		// RFC1738 and RFC2396 a label cannot end with "-", so the
		// longest prefix that their syntax accepts ends before "--".)
		for _, g := range tt.grammars {
			if g == RFC1738 || g == RFC2396 {
				continue
			}
			if ms := g.FindAll("see "+tt.in+" now", -1); len(ms) != 0 {
				t.Errorf("%v.FindAll finds %q in %q", g, ms[0].URL, tt.in)
			}
			if !hostGoesThroughIDNA(g, tt.in) {
				t.Errorf("%v: FuzzPattern's IDNA exemption does not cover %q", g, tt.in)
			}
		}
	}
	// A host set by hand is checked the same way.
	if _, _, detail := normalizeHost("h.xn--"); detail == "" {
		t.Errorf(`normalizeHost("h.xn--") accepts it`)
	}
}
