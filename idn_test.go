package ftpurl

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// toASCIIFull is toASCII without its fast path: every name takes the
// full round trip of UTS #46 §4 and RFC 5891 §5.4, ToASCII, then
// ToUnicode, then ToASCII again where the way back did not give the
// name itself. Tests hold toASCII to it.
func toASCIIFull(h string) (string, error) {
	a, err := toASCIIOneWay(h)
	if err != nil {
		return "", err
	}
	if err := checkWayBack(h, a); err != nil {
		return "", err
	}
	return a, nil
}

// idnSeeds are hosts for FuzzIDNAFastPathMatchesRoundTrip and
// TestToASCIIFastPath: U-labels and A-labels, mapped and ignored runes,
// the UTS #46 dots, joiners (RFC 5892 Appendix A) and the Bidi Rule
// (RFC 5893 §2).
var idnSeeds = []string{
	"bücher.example",
	"xn--bcher-kva.example",
	"XN--BCHER-KVA.example",
	"Xn--Bcher-Kva.Example",
	"h.xn--",
	"xn--",
	"xn--.example",
	"ĉat.example.com",
	"xn--bcher-kva.ĉat.example",
	"bücher.xn--at-0la.example",
	"BÜCHER.EXAMPLE",
	"ΠΑΡΆΔΕΙΓΜΑ.δοκιμή",
	"例え。テスト",
	"bücher．example｡com",
	"bücher\u3002xn--bcher-kva",
	"ｘｎ－－bcher-kva.example",
	"x\u00adn--bcher-kva.example",
	"ⓧⓝ--bcher-kva.example",
	"a\u00adb.example",
	"\u00ad.example",
	"h.\u00ad",
	"a\u200db.example",
	"a\u200cb.example",
	"क\u094d\u200dष.example",
	"\u05d0\u05d1123.example",
	"\u05d0.1a",
	"123\u05d0.example",
	"a\u2135.example",
	"\u2135\u05d0.example",
	"xn--4db.1a",
	"xn--zz",
	"xn--zz.example",
	"xn--a.example",
	"xn--abc-.example",
	"xn--xn---tda",
	"Xn--Xn---80A",
	"a.xn--xn--bcher-kva-6tb.b",
	"xn--tdaa",
	"xn--bcher-kvaa",
	"xn--BCHER-KVA",
	"xn--bcher-kva-.example",
	"e\u0301.example",
	"faß.de",
	"xn--fa-hia.de",
	"r3---sn-ü.example",
	"a-ü-b.example",
	strings.Repeat("ü", 1024),
	strings.Repeat("ü", 1025),
	strings.Repeat("ü.", 300),
}

// TestToASCIIFastPath holds toASCII to the full round trip of UTS #46
// §4 (Processing) and RFC 5891 §5.4 (an A-label must decode and encode
// back to itself) on hosts that either side of the fast path, and
// checks the answers themselves for a few.
func TestToASCIIFastPath(t *testing.T) {
	for _, tt := range []struct {
		host, want string // want "" for a refused host
	}{
		// A U-label: ToASCII alone decides (UTS #46 §4.1 steps 1-4).
		{"bücher.example", "xn--bcher-kva.example"},
		{"BÜCHER.Example", "xn--bcher-kva.example"},
		{"bücher．example｡com", "xn--bcher-kva.example.com"},
		{"例え。テスト", "xn--r8jz45g.xn--zckzah"},
		{"faß.de", "xn--fa-hia.de"}, // non-transitional (UTS #46 §4)
		// An A-label, in any ASCII case, is decoded and checked by
		// ToASCII itself (UTS #46 §4.1 step 4.1, RFC 5891 §5.4).
		{"xn--bcher-kva.example", "xn--bcher-kva.example"},
		{"XN--BCHER-KVA.example", "xn--bcher-kva.example"},
		{"xn--bcher-kva.ĉat.example", "xn--bcher-kva.xn--at-0la.example"},
		{"xn--zz", ""},       // invalid Punycode (RFC 3492 §6.2)
		{"xn--abc-", ""},     // an A-label of ASCII only
		{"h.xn--", ""},       // UTS #46 §4: no label may be empty
		{"xn--xn---tda", ""}, // decodes to a label that is not valid
		{"Xn--Xn---80A", ""}, // decodes to "xn--" and more (UTS #46 §4.1, criterion 4)
		// Runes that map to an A-label make one too (UTS #46 §4.1).
		{"ｘｎ－－bcher-kva.example", "xn--bcher-kva.example"},
		{"x\u00adn--bcher-kva.example", "xn--bcher-kva.example"},
		// Ignored runes (UTS #46 §5, U+00AD) may not empty a label.
		{"a\u00adb.example", "ab.example"},
		{"\u00ad.example", ""},
		// Joiners (RFC 5892 Appendix A.2) and the Bidi Rule (RFC 5893 §2).
		{"a\u200db.example", ""},
		{"\u05d0\u05d1123.example", "xn--123-ppef.example"},
		{"\u05d0.1a", ""},
		// U+2135 maps to Hebrew alef: the Bidi Rule applies on the way
		// back, which refuses a left-to-right label holding it.
		{"a\u2135.example", ""},
		// x/net/idna decodes no label of more than 1024 code points.
		{strings.Repeat("ü", 1024), "xn--tda" + strings.Repeat("a", 1023)},
		{strings.Repeat("ü", 1025), ""},
	} {
		got, err := toASCII(tt.host)
		if (err == nil) != (tt.want != "") || err == nil && got != tt.want {
			t.Errorf("toASCII(%+q) = %.80q, %v; want %.80q", tt.host, got, err, tt.want)
		}
	}
	for _, h := range idnSeeds {
		checkToASCIIFastPath(t, h)
	}
}

// checkToASCIIFastPath fails t when toASCII and toASCIIFull disagree on
// h: accepting, refusing, or the A-labels.
func checkToASCIIFastPath(t *testing.T, h string) {
	t.Helper()
	got, err := toASCII(h)
	want, wantErr := toASCIIFull(h)
	if got != want || (err == nil) != (wantErr == nil) {
		t.Errorf("toASCII(%+.80q) = %.80q, %v; the full round trip gives %.80q, %v", h, got, err, want, wantErr)
	}
}

// TestToASCIIFastPathASCII holds toASCII to the full round trip on
// ASCII names, which take no way back unless a label begins "xn--xn--"
// or the name is long (needsRoundTrip): A-labels
// made by Punycode-encoding (RFC 3492 §6.3, without IDNA's checks) runs
// of runes that UTS #46 maps, refuses, or accepts only under the joiner
// (RFC 5892 Appendix A) and Bidi (RFC 5893 §2) rules, in both cases and
// between plain labels.
func TestToASCIIFastPathASCII(t *testing.T) {
	for _, h := range []string{"xn--bcher-kva.example", "XN--BCHER-KVA", "a.xn--ls8h.b"} {
		if a, _ := toASCII(h); needsRoundTrip(h, a) {
			t.Errorf("needsRoundTrip(%q) = true for an ASCII name", h)
		}
	}
	pools := [...]string{
		"abcxyz09-_ABCZ",
		"üéßÜÉẞſ",
		"\u0301\u0308\u200c\u200d\u00ad",
		"אבג١٢٣ابت\u05b0",
		"日本語テストｘｎ－．。",
		"ΠΑΡΆΔΕΙΓΜΑδοκιμή",
		"ℵℶ⅓①ⓧ",
		"ǅǄǆ\u0345\u00b7\u0375\u05f3\u30fb",
	}
	r := rand.New(rand.NewPCG(3, 4))
	accepted := 0
	for range 20000 {
		var b strings.Builder
		for k := range 1 + r.IntN(3) {
			if k > 0 {
				b.WriteByte('.')
			}
			var label []rune
			for range 1 + r.IntN(6) {
				p := []rune(pools[r.IntN(len(pools))])
				label = append(label, p[r.IntN(len(p))])
			}
			l := string(label)
			if r.IntN(8) == 0 {
				l = "xn--" + l // an A-label that decodes to one
			}
			if a, err := idna.Punycode.ToASCII(l); err == nil && r.IntN(4) > 0 {
				l = a
				if r.IntN(3) == 0 {
					l = strings.ToUpper(l)
				}
			}
			b.WriteString(l)
		}
		h := b.String()
		if !asciiOnly(h) {
			continue
		}
		if _, err := toASCIIFull(h); err == nil && strings.Contains(h, "-") {
			accepted++
		}
		checkToASCIIFastPath(t, h)
	}
	if accepted < 100 {
		t.Errorf("only %d of the generated ASCII names are accepted: the test checks too few A-labels", accepted)
	}
}

// TestToASCIIFastPathRunes checks the premises of needsRoundTrip
// against every rune of the linked UTS #46 tables: the runes that map
// to something holding "-" are "-", U+FE63 and U+FF0D, each to "-"
// alone; the runes that are not right-to-left (RFC 5893 §1.4: bidi
// classes R, AL and AN) but map to such a rune are U+2135..U+2138. It
// also holds toASCII to the full round trip on every rune alone and
// after an ASCII letter, where the Bidi Rule and the joiner rules tell,
// and on its A-label alone and before a label that the Bidi Rule
// refuses.
func TestToASCIIFastPathRunes(t *testing.T) {
	// The scripts written right to left (bidi classes R and AL, and
	// the Arabic digits of class AN): the standard library has the
	// scripts, not the bidi classes, and the module keeps its two
	// dependencies.
	rtlScripts := []*unicode.RangeTable{
		unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko,
		unicode.Samaritan, unicode.Mandaic, unicode.Adlam, unicode.Hanifi_Rohingya,
		unicode.Mende_Kikakui, unicode.Old_Hungarian, unicode.Old_Turkic, unicode.Kharoshthi,
		unicode.Phoenician, unicode.Cypriot, unicode.Imperial_Aramaic, unicode.Lydian,
		unicode.Meroitic_Cursive, unicode.Meroitic_Hieroglyphs, unicode.Old_South_Arabian,
		unicode.Old_North_Arabian, unicode.Avestan, unicode.Inscriptional_Parthian,
		unicode.Inscriptional_Pahlavi, unicode.Psalter_Pahlavi, unicode.Manichaean,
		unicode.Nabataean, unicode.Palmyrene, unicode.Hatran, unicode.Elymaic,
		unicode.Sogdian, unicode.Old_Sogdian, unicode.Chorasmian, unicode.Yezidi,
	}
	rtl := func(r rune) bool { return unicode.In(r, rtlScripts...) }
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		s := string(r)
		m, _ := hostProfile.ToUnicode(s) // the mapping, even of a refused rune
		if m != s && strings.Contains(m, "-") {
			if m != "-" || r != '\ufe63' && r != '\uff0d' {
				t.Errorf("%U maps to %+q; needsRoundTrip counts it as no hyphen", r, m)
			}
		}
		if m != s && !rtl(r) && strings.ContainsFunc(m, rtl) && !('\u2135' <= r && r <= '\u2138') {
			t.Errorf("%U maps to right-to-left %+q; needsRoundTrip does not look for it", r, m)
		}
		if testing.Short() {
			continue
		}
		checkToASCIIFastPath(t, s)
		checkToASCIIFastPath(t, "a"+s+".example")
		// The A-label of a rune that a label may hold, an ASCII name
		// that takes no way back: the Bidi Rule is decided from the
		// decoded label there, and from idna's table on the way back
		// (RFC 5893 §2: "1a" is refused beside a right-to-left label).
		if _, err := toASCII("a" + s); err == nil {
			a, _ := idna.Punycode.ToASCII(s)
			checkToASCIIFastPath(t, a)
			checkToASCIIFastPath(t, a+".1a")
		}
	}
}

// BenchmarkToASCII compares toASCII, which skips the way back where it
// cannot change the answer, with the full round trip.
func BenchmarkToASCII(b *testing.B) {
	for _, bb := range []struct{ name, host string }{
		{"ulabel", "bücher.example"},
		{"alabel", "xn--bcher-kva.example"},
	} {
		for _, f := range []struct {
			name string
			fn   func(string) (string, error)
		}{{"fast", toASCII}, {"full", toASCIIFull}} {
			b.Run(bb.name+"/"+f.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := f.fn(bb.host); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestIDNACacheGivesToASCIIsAnswer holds cachedToASCII to toASCII, on
// the first call (a miss) and the next ones (hits), for names that
// convert and names that are refused, from goroutines at once: the cache
// changes no answer.
func TestIDNACacheGivesToASCIIsAnswer(t *testing.T) {
	if !idnaCacheOn {
		t.Fatal("the IDNA cache is off: cachedToASCII would be toASCII itself")
	}
	hosts := []string{
		"bücher.example", "FTP.Bücher.example", "xn--bcher-kva.example",
		"ftp.XN--Mller-kva.de", "例え.jp", "ftp.παράδειγμα.gr",
		"xn--a.example", "h.xn--", "a\u2135.example", "ab\u00ad.example",
		strings.Repeat("ü", maxCachedHost) + ".example", // too long to keep
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 3 {
				for _, h := range hosts {
					want, wantErr := toASCII(h)
					got, err := cachedToASCII(h)
					if got != want || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
						t.Errorf("cachedToASCII(%+.40q) = %.40q, %v; toASCII gives %.40q, %v", h, got, err, want, wantErr)
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestIDNACacheKeepsTwoNamesOfOneSlot: two names whose hashes choose the
// same first slot both stay in idnaCache (the second in its second
// slot), so that naming them in turn converts each once, not on every
// call, whatever seed the process drew.
func TestIDNACacheKeepsTwoNamesOfOneSlot(t *testing.T) {
	const first, secondA, secondB = 5, 7, 9
	saved := make(map[int]*idnaCacheEntry)
	for _, i := range []int{first, secondA, secondB} {
		saved[i] = idnaCache[i].Swap(nil)
	}
	calls := 0
	orig := lookupToASCII
	lookupToASCII = func(s string) (string, error) {
		calls++
		return orig(s)
	}
	t.Cleanup(func() {
		lookupToASCII = orig
		for i, e := range saved {
			idnaCache[i].Store(e)
		}
	})
	names := []struct {
		host, want string
		sum        uint64
	}{
		{"bücher.example", "xn--bcher-kva.example", first | secondA<<32},
		{"müller.example", "xn--mller-kva.example", first | secondB<<32},
	}
	for round := range 3 {
		for _, n := range names {
			got, err := cachedToASCIIHashed(n.host, n.sum)
			if err != nil || got != n.want {
				t.Fatalf("round %d: cachedToASCIIHashed(%q) = %q, %v; want %q", round, n.host, got, err, n.want)
			}
		}
	}
	if calls != len(names) {
		t.Errorf("idna converted %d times for 2 names named 3 times each; want 2 (each once)", calls)
	}
	if e := idnaCache[secondA].Load(); e != nil {
		t.Errorf("slot %d holds %q: the first name's second slot should stay empty", secondA, e.host)
	}
	if e := idnaCache[secondB].Load(); e == nil || e.host != names[1].host {
		t.Errorf("slot %d holds %v; want the second name, whose first slot was taken", secondB, e)
	}
}
