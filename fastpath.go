package ftpurl

import (
	"math"
	"math/bits"
)

// The fast way of ParseInto for the URL that crawls, logs and mirror
// lists hold most: "ftp://", a host name of letters, digits, "-", "_"
// and ".", an optional port, and a path of plain segments, with no
// userinfo, escape, ";", query or fragment. parseInto tries it first.
// Where the scheme and the authority are of that shape but the path is
// not (an escape, a typecode, a query...), the parser goes on from the
// segment where the fast way stopped; for any other authority it reads
// the whole input, and says what is wrong and where. The results are
// the parser's: the same checks (plainName for the host, parser.port's
// arithmetic, the grammar's segment class), the same fields, the same
// use of the Dirs array. FuzzParseIntoFastMatchesParser holds the two
// together.

// fastRest is where parseIntoFast hands a URL to the parser: ok when it
// read the scheme "ftp", a plain host (host, normalized by plainName)
// and the port (0 for none), all without a fault; then lo is the offset
// from which parser.path reads on (the "/" before the segment it
// stopped in, or the "?" or "#" after the host), and dirs the
// directories before it, in the array of dst.Dirs (empty when dst.Dirs
// is nil).
type fastRest struct {
	ok   bool
	host string
	port uint16
	lo   int
	dirs []string
}

// maxFastDirs is the most "/" that parseIntoFast splits a path at, a
// power of two less one: more are rare (no URL of the FreeBSD corpus
// has more than seven directories), and the parser splits them.
const maxFastDirs = 15

// parseIntoFast is parseInto for a URL of the common shape: it fills
// *dst and returns true. For any other URL it returns false, having
// changed no field of *dst and only the elements of its Dirs array
// that the parser overwrites or clears (those below len(dst.Dirs)), and
// says in *rest how far it read. It reads nothing of a grammar whose
// hosts are stricter than plainName (RFC 1738, RFC 2396).
//
// A loop a part, with few branches: one table look-up a byte for the
// host, eight bytes a step for a Lenient path (splitPathLenient), and
// no call but plainName. The parser's generality (its 300-byte state,
// the fault ranking, the escapes, the parts it gathers for Parse's one
// allocation, a call a part) costs more than the bytes of a short URL.
func parseIntoFast(r *rules, dst *URL, s string, rest *fastRest) bool {
	if r.strictHost || len(s) < len(ftpPrefix) || len(s) > math.MaxInt32 || s[:len(ftpPrefix)] != ftpPrefix {
		return false
	}
	// The host: RFC 3986 §3.2.2 reg-name, here only cHostName bytes,
	// up to the ":" of a port, the "/" of the path, or the end.
	i, or, pair := scanHostName(s, len(ftpPrefix))
	hostEnd := i
	// The port: RFC 3986 §3.2.3, 1..65535, leading zeros allowed (as
	// parser.port); an empty one is left to the parser.
	port := 0
	if i < len(s) && s[i] == ':' {
		i++
		lo := i
		for i < len(s) && chars[s[i]]&cDigit != 0 {
			if port <= 65535 {
				port = port*10 + int(s[i]-'0')
			}
			i++
		}
		if i == lo || port == 0 || port > 65535 {
			return false
		}
	}
	// The authority ends at "/", "?" or "#" (RFC 3986 §3.2); any other
	// byte ("@", "[", "%", a second ":", a byte no host holds) is the
	// parser's.
	atPath := i == len(s) || s[i] == '/'
	if !atPath && (s[i] != '#' && s[i] != '?' || r.questionIsData) {
		return false
	}
	host, ok := plainName(r, s[len(ftpPrefix):hostEnd], or&cUpper != 0, pair&cDotOrHyphen != 0, dst.Host)
	if !ok {
		return false
	}
	rest.ok, rest.host, rest.port, rest.lo, rest.dirs = true, host, uint16(port), i, dst.Dirs[:0]
	if !atPath {
		return false // a query or a fragment after the host
	}
	// The path (RFC 1738 §3.2.2): bytes of the grammar's segment class
	// and "/", split on "/" only; the offsets of the "/" are found
	// first (splitPath, splitPathLenient), then the directories are cut
	// and appended to the array of dst.Dirs as parseInto does.
	var slash [maxFastDirs + 1]int32 // where the "/" of the path are
	var n int
	if r.seg == lenientSeg {
		i, n = splitPathLenient(s, i, &slash)
	} else {
		i, n = splitPath(s, i, r.seg, &slash, 0)
	}
	if n > maxFastDirs {
		return false // the parser splits a path of so many directories
	}
	dirs := dst.Dirs
	out := dirs[:0]
	if n > 1 {
		if dirs == nil {
			if i < len(s) {
				return false // the parser sizes the array of a first URL with directories
			}
			out = make([]string, 0, max(n-1, len(parser{}.dirs))) // as parseInto sizes it
		}
		for k := 0; k < n-1; k++ {
			out = append(out, s[slash[k]+1:slash[k+1]])
		}
	}
	start := len(s) // no path: the same as "/" (2011 draft §3.2.3)
	if n > 0 {
		start = int(slash[n-1]) + 1
	}
	if i < len(s) {
		// An escape, ";", "?", "#", or a byte the grammar does not
		// take raw: the parser reads on from the last segment.
		rest.lo, rest.dirs = start-1, out
		return false
	}
	if len(out) < len(dirs) {
		clear(dirs[len(out):]) // keep no segment of an earlier input alive
	}
	// Field by field: a composite literal would be built aside and
	// copied whole.
	dst.Scheme, dst.User, dst.Host, dst.Port = r.schemes[0].name, nil, host, uint16(port)
	dst.Dirs, dst.Name, dst.Type, dst.RawQuery, dst.Fragment = out, s[start:], 0, "", ""
	return true
}

// scanHostName returns the offset of the first byte at or after i that
// is not in cHostName, and the classes of the bytes before it, or-ed,
// and those that two bytes in a row share, or-ed (as parser.authority
// gathers them for plainName). A leaf, so that its loop keeps its
// variables in registers.
//
//go:noinline
func scanHostName(s string, i int) (end int, or, pair uint32) {
	last := uint32(0)
	for ; i < len(s); i++ {
		f := chars[s[i]]
		if f&cHostName == 0 {
			break
		}
		or |= f
		pair |= f & last
		last = f
	}
	return i, or, pair
}

// splitPath returns the offset of the first byte at or after i that is
// neither in class m nor "/", and n plus how many "/" are before it; it
// writes the offsets of those into slash from slash[n] (while they fit). Its loop has
// one branch, its end: a "/" is a store, not a branch, so that a
// mispredicted branch a segment does not cost more than the segment.
// A leaf, so that its loop keeps its variables in registers.
//
//go:noinline
func splitPath(s string, i int, m uint32, slash *[maxFastDirs + 1]int32, n int) (end, slashes int) {
	for ; i < len(s); i++ {
		c := s[i]
		f := chars[c] & m
		d := 0
		if c == '/' {
			f, d = 1, 1
		}
		if f == 0 {
			break
		}
		slash[n&maxFastDirs] = int32(i)
		n += d
	}
	return i, n
}

// lenientSeg is the class of Lenient's path segments, which
// splitPathLenient knows by heart.
var lenientSeg = grammarRules[Lenient].seg

// splitPathLenient is splitPath for Lenient's segment class
// (cPathLenient: printable ASCII but "%", "/", "?", "#" and ";", with
// allowUCS, whose bytes splitPath stops at too), eight bytes a step:
// one load and a few word operations find the bytes it stops at and
// the "/" among the eight, where splitPath takes a load, a table
// look-up and a branch a byte.
func splitPathLenient(s string, i int, slash *[maxFastDirs + 1]int32) (end, n int) {
	for i+8 <= len(s) {
		x := load64(s, i)
		stop, sl := lenientStops(x), bytesEqual(x, '/')
		if stop != 0 {
			sl &= stop&-stop - 1 // the "/" before the first byte it stops at
		}
		for ; sl != 0; sl &= sl - 1 {
			slash[n&maxFastDirs] = int32(i + bits.TrailingZeros64(sl)/8)
			n++
		}
		if stop != 0 {
			return i + bits.TrailingZeros64(stop)/8, n
		}
		i += 8
	}
	// The last bytes, fewer than eight, one at a time.
	return splitPath(s, i, lenientSeg, slash, n)
}

// load64 returns the eight bytes of s at i as a little-endian word (the
// compiler makes it one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Word operations on eight bytes at once: each result has the high bit
// of a byte set where that byte is what it looks for, and no other bit.
// Exact, with no carry from one byte into the next: each byte's low
// seven bits plus at most 0x7F stay within the byte.
const (
	low7  = 0x7F7F7F7F7F7F7F7F
	high1 = 0x8080808080808080
	ones  = 0x0101010101010101
)

// bytesEqual marks the bytes of x equal to b.
func bytesEqual(x uint64, b byte) uint64 {
	y := x ^ ones*uint64(b)
	return ^((y&low7 + low7) | y | low7)
}

// lenientStops marks the bytes of x that a Lenient segment does not take
// raw and that are not "/": controls (below 0x20), DEL and non-ASCII
// (0x7F and up), "%", "?", "#" and ";".
func lenientStops(x uint64) uint64 {
	v := x & low7
	control := ^(v + ones*0x60) &^ x & high1 // v below 0x20 and no high bit
	high := (v + ones | x) & high1           // v is 0x7F, or the high bit
	return control | high | bytesEqual(x, '%') | bytesEqual(x, '?') | bytesEqual(x, '#') | bytesEqual(x, ';')
}
