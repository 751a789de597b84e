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

// The authority scan reads four bytes a step while none of them ends
// a part: every byte that splits the authority (RFC 3986 §3.2: "@",
// ":", "]", "/", "?", "#"), and every byte or pair that sends the host
// the full way ("..", "--", an upper-case letter, "_", "%", UTF-8), at
// every offset of that step, gives what a byte a step gives.
func TestAuthorityScanMatchesReference(t *testing.T) {
	for _, ins := range []string{"@", ":", "]", "/", "?", "#", "..", "--", ".-", "-.", "A", "Z", "_", "%41", "é", ":21", "u@", "[::1]", " "} {
		for k := 0; k <= 9; k++ {
			h := "abcdefghi.example"
			checkAuthorityScan(t, "ftp://"+h[:k]+ins+h[k:]+"/x")
			checkAuthorityScan(t, "ftp://u:p@"+h[:k]+ins+h[k:])
		}
	}
}

// checkAuthorityScan checks parser.authority's scan of s, an ftp URL,
// against referenceAuthorityScan in every grammar.
func checkAuthorityScan(t *testing.T, s string) {
	t.Helper()
	if !strings.HasPrefix(s, ftpPrefix) {
		return
	}
	for _, g := range allGrammars {
		p := parser{r: g.rules(), s: s}
		var u URL
		got := authorityScan{end: p.authority(&u, len(ftpPrefix))}
		got.plain, got.upper, got.paired = p.plainHost, p.upperHost, p.pairedHost
		want := referenceAuthorityScan(p.r, s, len(ftpPrefix))
		// The scan may say upper or paired where the host is not plain
		// (nothing reads them then), never the other way.
		if !want.plain && got.plain == want.plain && got.end == want.end {
			continue
		}
		if got != want {
			t.Errorf("%v: the scan of %q gives %+v; a byte a step gives %+v", g, s, got, want)
		}
	}
}

// plainName's doc: for a host of letters, digits, "-", "_" and ".", it
// gives what checkHostName gives, or sends the host the full way.
func TestPlainNameIsCheckHostName(t *testing.T) {
	for _, h := range []string{
		"ftp.example.com", "FTP.Example.COM", "ftp.example.com.", "a_b.c-d", "x", "X",
		"", ".", "a..b", ".a", "a.", "a.b.", "a.1", "a.0x1", "1.2.3.4", "r3---sn.example",
		"xn--bcher-kva.example", "XN--a.b", "a.-b", "-a.b", "a_.b", "h.123",
	} {
		checkPlainNameIsCheckHostName(t, h)
	}
	// The common hosts take the short way in Lenient, or the check
	// above would hold for no host at all.
	for _, h := range []string{"ftp.example.com", "FTP.Example.COM", "ftp.example.com.", "a_b.c-d", "x"} {
		upper := strings.ToLower(h) != h
		if _, ok := plainName(Lenient.rules(), h, upper, false, ""); !ok {
			t.Errorf("plainName(%q) sends a plain name the full way", h)
		}
	}
}

// checkPlainNameIsCheckHostName checks plainName against checkHostName
// on h in every grammar, for the part of h that plainName may be given:
// a run of cHostName bytes.
func checkPlainNameIsCheckHostName(t *testing.T, h string) {
	t.Helper()
	if strings.ContainsFunc(h, func(r rune) bool { return r >= 0x80 || chars[r]&cHostName == 0 }) {
		return
	}
	upper := strings.ToLower(h) != h
	paired := strings.Contains(h, "..") || strings.Contains(h, "--")
	for _, g := range allGrammars {
		for _, prev := range []string{"", strings.ToLower(h)} {
			r := g.rules()
			got, ok := plainName(r, h, upper, paired, prev)
			if !ok {
				continue
			}
			want, detail := checkHostName(r, h, false, prev)
			if detail != "" || got != want {
				t.Fatalf("%v: plainName(%q, prev %q) = %q; checkHostName gives %q, %q", g, h, prev, got, want, detail)
			}
		}
	}
}
