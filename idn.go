package ftpurl

// IDNA for host names: ToASCII with the checks that x/net/idna leaves
// out (UTS #46 §4, RFC 5891 §5.4). The host rules around it are in
// host.go.

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync/atomic"

	"golang.org/x/net/idna"
)

// idnaCacheEntry is a host name that toASCII converted, and its result.
// It is never changed once stored.
type idnaCacheEntry struct{ host, ascii string }

// idnaCache holds the last names that cachedToASCII converted, each in
// one of two slots that its hash chooses: a crawl or a mirror list
// names the same few IDN hosts again and again, and IDNA costs more
// than the rest of a parse. Two choices, so that two names whose first
// slot is the same both stay, instead of pushing each other out on
// every call (with one slot, two of 20 names share one in about half
// the seeds). It is bounded (its slots, and names of at most
// maxCachedHost bytes) and safe for concurrent use (atomic pointers to
// immutable entries).
var (
	idnaCache     [256]atomic.Pointer[idnaCacheEntry]
	idnaCacheSeed = maphash.MakeSeed()
	idnaCacheOn   = true // tests that count idna's calls turn it off
)

const maxCachedHost = 255 // RFC 1035 §2.3.4: a name is at most 255 octets

// cachedToASCII is toASCII, whose answer depends on h alone, through
// idnaCache: a name converted before is not converted again. Only
// names that convert are kept; a refused one is converted each time, so
// that its error is toASCII's.
func cachedToASCII(h string) (string, error) {
	if !idnaCacheOn || len(h) > maxCachedHost {
		return toASCII(h)
	}
	return cachedToASCIIHashed(h, maphash.String(idnaCacheSeed, h))
}

// cachedToASCIIHashed is cachedToASCII for a name whose hash is sum: its
// two slots are chosen by the low and the high half of sum. A new name
// goes to its first slot, or to its second where only the first is
// taken.
func cachedToASCIIHashed(h string, sum uint64) (string, error) {
	first := &idnaCache[uint32(sum)%uint32(len(idnaCache))]
	second := &idnaCache[uint32(sum>>32)%uint32(len(idnaCache))]
	e1 := first.Load()
	if e1 != nil && e1.host == h {
		return e1.ascii, nil
	}
	e2 := second.Load()
	if e2 != nil && e2.host == h {
		return e2.ascii, nil
	}
	a, err := toASCII(h)
	if err == nil {
		slot := first
		if e1 != nil && e2 == nil {
			slot = second
		}
		// A copy of h, so that the cache keeps no input alive.
		slot.Store(&idnaCacheEntry{host: strings.Clone(h), ascii: a})
	}
	return a, err
}

// toASCII converts a Unicode or ACE host name to A-labels with
// hostProfile and checks that the name is valid both ways (UTS #46 §4,
// RFC 5891 §5.4): no label may come out empty, and where the way back
// can change the answer, ToUnicode must succeed and converting its
// result again must give the same labels.
func toASCII(h string) (string, error) {
	a, err := toASCIIOneWay(h)
	if err != nil || !needsRoundTrip(h, a) {
		return a, err
	}
	if err := checkWayBack(h, a); err != nil {
		return "", err
	}
	return a, nil
}

// toASCIIOneWay is the way there: hostProfile's ToASCII, and no label
// emptied by it (UTS #46 §4).
func toASCIIOneWay(h string) (string, error) {
	a, err := lookupToASCII(h)
	if err != nil {
		return "", idnaError(err)
	}
	if label, ok := emptiedLabel(h, a); ok {
		if hasPrefixFold(label, "xn--") {
			return "", fmt.Errorf("IDNA: label %q has nothing after the ACE prefix (UTS #46 §4: no label may be empty)", label)
		}
		return "", fmt.Errorf("IDNA: label %q maps to nothing (UTS #46 §4: no label may be empty)", label)
	}
	return a, nil
}

// checkWayBack checks that a, which ToASCII made of h, converts back
// (RFC 5891 §5.4): ToUnicode succeeds, and converting its result again
// gives a.
func checkWayBack(h, a string) error {
	u, err := hostProfile.ToUnicode(a)
	if err != nil {
		return idnaError(err)
	}
	// When the way back gives h itself, converting it again gives a:
	// the third call is needed only for a name that idna mapped.
	if u == h {
		return nil
	}
	if b, err := hostProfile.ToASCII(u); err != nil || b != a {
		return fmt.Errorf("IDNA: %q does not convert back to itself", a)
	}
	return nil
}

// needsRoundTrip reports whether the way back through ToUnicode (UTS #46
// §4.2, RFC 5891 §5.4) can refuse a name h that ToASCII turned into a.
// It cannot when no label of h is an A-label after the UTS #46 mapping:
// every label of a that begins "xn--" is then the Punycode of a mapped
// label that ToASCII validated already (UTS #46 §4.1), and ToUnicode
// decodes it to the same code points, checks them with the same rules,
// and the third conversion gives a again.
//
// Nor can it when h is all ASCII, A-labels or not: the mapping only
// lowers its letters, and ToASCII decodes each A-label (RFC 3492 §6.2),
// checks the code points with the rules the way back applies to them
// (NFC, UTS #46 §4.1 validity, RFC 5892's joiners) and encodes them
// again, so a holds the one Punycode (RFC 3492 §6.3) of labels that the
// way back decodes and checks alike. The Bidi Rule (RFC 5893 §2) applies
// when a label holds a rune of bidi class R, AL or AN: ToASCII tells
// from the decoded labels, the third conversion from idna's table, and
// both come from the same classes (a test tries every rune's A-label).
// All but one: a label that decodes to one beginning "xn--" again, which
// UTS #46 §4.1 (criterion 4) refuses; x/net/idna has no such check, and
// only the third conversion, which decodes it once more, refuses it or
// gives other labels. Punycode inserts no ASCII (RFC 3492 §6.2), so such
// a label begins "xn--xn--" in h. A long name takes the way back all the
// same (below), though an ASCII one cannot fail there.
//
// Otherwise three things break that:
//
//   - a label that maps to one beginning with the ACE prefix "xn--"
//     (RFC 5890 §2.3.2.1): ToASCII decodes it, so it is an A-label
//     whose round trip must be checked. Such a label holds two runes
//     that map to "-": "-", U+FE63 or U+FF0D (fullwidth "ｘｎ－－" and
//     "x\u00adn--" are A-labels too), so a label with fewer is none;
//   - U+2135..U+2138 (ALEF SYMBOL..DALET SYMBOL): left-to-right runes
//     that map to Hebrew letters, so ToASCII, which decides whether the
//     Bidi Rule (RFC 5893 §2) applies from the runes before mapping,
//     skips a check that ToUnicode makes;
//   - a long name: x/net/idna's Punycode decoder (RFC 3492 §6.2)
//     refuses a label of more than 1024 code points, which its encoder
//     makes. An A-label "xn--" + Punycode is at least 4 bytes longer
//     than the code points it holds, so a name of at most 1024 bytes
//     decodes.
//
// The runes above are all the runes of the linked UTS #46 tables with
// those mappings; a test enumerates every rune to keep it so.
func needsRoundTrip(h, a string) bool {
	if len(a) > 1024 {
		return true
	}
	if asciiOnly(h) {
		for label := range strings.SplitSeq(h, ".") {
			if hasPrefixFold(label, "xn--xn--") {
				return true
			}
		}
		return false
	}
	hyphens := 0
	for _, r := range h {
		switch {
		case r == '.' || r == '\u3002' || r == '\uff0e' || r == '\uff61':
			hyphens = 0 // the label separators of UTS #46 §2.3
		case r == '-' || r == '\ufe63' || r == '\uff0d':
			if hyphens++; hyphens == 2 {
				return true
			}
		case '\u2135' <= r && r <= '\u2138':
			return true
		}
	}
	return false
}

// idnaDots are the label separators of UTS #46 §2.3: the full stop and
// the three that map to it.
var idnaDots = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// emptiedLabel returns a label of h that IDNA turned into an empty label
// of a, and whether there is one. x/net/idna maps a bare "xn--" (the
// ACE prefix of RFC 5890 §2.3.2.1 with no Punycode after it) and a label
// of ignored characters (U+00AD) to "" without an error, so "h.xn--"
// would come out as "h.", a different name. An empty label that was
// empty in h too is left to checkHostName.
func emptiedLabel(h, a string) (string, bool) {
	if !strings.Contains(a, "..") && !strings.HasPrefix(a, ".") && !strings.HasSuffix(a, ".") {
		return "", false
	}
	in := strings.Split(idnaDots.Replace(h), ".")
	out := strings.Split(a, ".")
	if len(in) != len(out) {
		// A mapping made or removed a separator; no label of h can be
		// paired with one of a, so any new empty label is refused.
		if strings.HasSuffix(a, ".") && !strings.HasSuffix(idnaDots.Replace(h), ".") {
			return in[len(in)-1], true
		}
		return "", false
	}
	for i, l := range out {
		if l == "" && in[i] != "" {
			return in[i], true
		}
	}
	return "", false
}

// idnaError words an error of idna for ErrHost's detail.
func idnaError(err error) error {
	return fmt.Errorf("IDNA: %s", strings.TrimPrefix(err.Error(), "idna: "))
}

// hostProfile is idna.Lookup (UTS #46 non-transitional processing with
// the mapping, label validation, joiner and bidi rules of RFC 5891 §5,
// as browsers and net/http use it) but for two checks that ftpurl makes
// itself, the same way for ASCII and Unicode names: the STD3 rules,
// which would refuse "_" in a label that checkHostName allows, and the
// check for "--" in the third and fourth places of a label, which
// browsers leave out too ("r3---sn-apo3qvuoxuxbt-j5pe" is a real host).
// A-labels are still checked (RFC 5891 §5.4).
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.Transitional(false),
	idna.BidiRule(),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

// lookupToASCII is hostProfile.ToASCII; tests count its calls to prove
// that ASCII names never reach idna.
var lookupToASCII = hostProfile.ToASCII
