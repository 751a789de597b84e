package ftpurl

// Benchmarks: Parse against net/url, against the
// decomposition Go programs write today with net/url, and against a
// floor that only looks every byte up in a class table; String and
// Plan().Commands(); and Parse on paths from 1 KB to 1 MB, whose
// ns/byte must stay flat.
//
// Reproduce the README's table (2-core machine, medians of ten runs):
//
//	go test -run='^$' -bench=. -count=10 -benchmem | tee bench.txt
//	benchstat -col /op -row /corpus -filter '.name:Corpus' bench.txt
//
// Sub-benchmarks are named key=value (corpus=freebsd/op=Parse) so that
// benchstat can put the ops side by side.

import (
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// benchCorpora are the benchmark corpora: 500 real FreeBSD mirror URLs
// (all ASCII, no escape, 10 upper-case hosts, 66 with more than four
// directories), and 400 URLs that testdata/genmixed.go generates with
// every part of the syntax.
var benchCorpora = []struct{ name, file string }{
	{"freebsd", "testdata/freebsd-mirrors.txt"},
	{"mixed", "testdata/mixed.txt"},
}

// readCorpus returns the lines of a corpus file, without empty lines.
func readCorpus(tb testing.TB, file string) []string {
	tb.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		tb.Fatal(err)
	}
	var urls []string
	for line := range strings.Lines(string(data)) {
		if line = strings.TrimSuffix(line, "\n"); line != "" {
			urls = append(urls, line)
		}
	}
	if len(urls) == 0 {
		tb.Fatalf("%s: no URLs", file)
	}
	return urls
}

// parseCorpus parses every URL with Lenient and fails on any error.
func parseCorpus(tb testing.TB, urls []string) []*URL {
	tb.Helper()
	us := make([]*URL, len(urls))
	for i, s := range urls {
		u, err := Parse(s)
		if err != nil {
			tb.Fatalf("corpus URL %d: %v", i+1, err)
		}
		us[i] = u
	}
	return us
}

// TestBenchCorporaParse checks that every URL of both corpora parses
// with Lenient (Lenient's doc accepts them all), and that the
// mixed corpus covers each part of the syntax in a realistic share:
// userinfo, ports, typecodes, escapes, "%2F" (RFC 1738 §3.2.2), IPv6
// literals and IDN hosts (2011 draft §6).
func TestBenchCorporaParse(t *testing.T) {
	for _, c := range benchCorpora {
		urls := readCorpus(t, c.file)
		us := parseCorpus(t, urls)
		if c.name != "mixed" {
			continue
		}
		var user, port, typ, pct, slash2F, ipv6, idn, dirs5 int
		for i, u := range us {
			raw := urls[i]
			rawHost := rawHostOf(raw)
			if u.User != nil {
				user++
			}
			if u.Port != 0 {
				port++
			}
			if u.Type != 0 {
				typ++
			}
			if strings.Contains(raw, "%") {
				pct++
			}
			for _, d := range append(u.Dirs[:len(u.Dirs):len(u.Dirs)], u.Name) {
				if strings.Contains(d, "/") {
					slash2F++
					break
				}
			}
			if strings.Contains(u.Host, ":") {
				ipv6++
			}
			if hasNonASCII(rawHost) || strings.Contains(rawHost, "%") || hasXNLabel(rawHost) {
				idn++
			}
			if len(u.Dirs) > 4 {
				dirs5++
			}
		}
		n := len(us)
		for _, f := range []struct {
			what     string
			got      int
			min, max int // in percent of the corpus
		}{
			{"userinfo", user, 10, 25},
			{"port", port, 5, 20},
			{"typecode", typ, 5, 20},
			{"escape", pct, 15, 50},
			{`"%2F" decoded into a segment`, slash2F, 2, 10},
			{"IPv6 host", ipv6, 2, 10},
			{"IDN or xn-- host", idn, 5, 20},
			{"more than 4 directories", dirs5, 5, 25},
		} {
			t.Logf("%s: %s: %d of %d URLs", c.file, f.what, f.got, n)
			if share := 100 * f.got / n; share < f.min || share > f.max {
				t.Errorf("%s: %s: %d URLs (%d%%), want %d%% to %d%%", c.file, f.what, f.got, share, f.min, f.max)
			}
		}
	}
}

// rawHostOf returns the host text of a raw ftp URL, brackets included.
func rawHostOf(s string) string {
	_, rest, _ := strings.Cut(s, "//")
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if i := strings.IndexByte(rest, ']'); i >= 0 {
			return rest[:i+1]
		}
	}
	if i := strings.LastIndexByte(rest, ':'); i >= 0 {
		rest = rest[:i]
	}
	return rest
}

// hasXNLabel reports whether host name h has a label that begins with
// the ACE prefix "xn--", in any case (RFC 5890 §2.3.2.1).
func hasXNLabel(h string) bool {
	for label := range strings.SplitSeq(h, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			return true
		}
	}
	return false
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// Sinks keep the compiler from dropping the work.
var (
	sinkURL     *URL
	sinkNetURL  *url.URL
	sinkString  string
	sinkStrings []string
	sinkParts   ftpParts
	sinkClass   = chars[0] // of the class table's type
)

// ftpParts is what an FTP client needs from a URL.
type ftpParts struct {
	user, password string
	host           string
	port           uint16
	dirs           []string
	name, typ      string
}

// netURLDecompose is the decomposition Go programs write today to get
// an FTP client's parts with net/url: parse, lower-case the host, read
// the port, split the escaped path on "/", unescape each segment (so
// that "%2F" stays inside its segment, RFC 1738 §3.2.2) and strip a
// final ";type=".
func netURLDecompose(s string) (ftpParts, error) {
	v, err := url.Parse(s)
	if err != nil {
		return ftpParts{}, err
	}
	var p ftpParts
	if v.User != nil {
		p.user = v.User.Username()
		p.password, _ = v.User.Password()
	}
	p.host = strings.ToLower(v.Hostname())
	if port := v.Port(); port != "" {
		n, err := strconv.ParseUint(port, 10, 16)
		if err != nil {
			return ftpParts{}, err
		}
		p.port = uint16(n)
	}
	path := v.EscapedPath()
	if i := strings.LastIndex(path, ";type="); i >= 0 && i > strings.LastIndexByte(path, '/') {
		p.typ = path[i+len(";type="):]
		path = path[:i]
	}
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for i, seg := range segs {
		if segs[i], err = url.PathUnescape(seg); err != nil {
			return ftpParts{}, err
		}
	}
	p.dirs, p.name = segs[:len(segs)-1], segs[len(segs)-1]
	return p, nil
}

// classFloor is the floor: it looks every byte of the URLs up in the
// 256-entry class table and does nothing else. No parser that reads
// every byte once can be faster.
func classFloor(urls []string) {
	acc := chars[0]
	for _, s := range urls {
		for i := 0; i < len(s); i++ {
			acc |= chars[s[i]]
		}
	}
	sinkClass = acc
}

// perURL runs f, which handles all n URLs (bytes bytes in all) once, as
// the benchmark loop, and reports ns/url and allocs/url beside the
// per-corpus ns/op, and MB/s through SetBytes.
func perURL(b *testing.B, n, bytes int, f func()) {
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		f()
	}
	runtime.ReadMemStats(&after)
	if b.N > 0 && n > 0 {
		urls := float64(b.N) * float64(n)
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/urls, "ns/url")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/urls, "allocs/url")
	}
}

// BenchmarkCorpus runs, on each corpus, one pass over all its URLs:
// op=Parse (this package), op=NetURLParse (net/url.Parse),
// op=NetURLDecompose (netURLDecompose), op=Floor (classFloor),
// op=Alloc (the one allocation of Parse, alone), op=String (String of
// the parsed URLs) and op=PlanCommands
// (Plan().Commands(), skipped while Plan returns nil).
var sinkErr error

func BenchmarkCorpus(b *testing.B) {
	for _, c := range benchCorpora {
		urls := readCorpus(b, c.file)
		parsed := parseCorpus(b, urls)
		bytes := 0
		for _, s := range urls {
			bytes += len(s)
		}
		prefix := "corpus=" + c.name + "/op="

		b.Run(prefix+"Parse", func(b *testing.B) {
			perURL(b, len(urls), bytes, func() {
				for _, s := range urls {
					sinkURL, _ = Parse(s)
				}
			})
		})
		b.Run(prefix+"ParseInto", func(b *testing.B) {
			var u URL
			perURL(b, len(urls), bytes, func() {
				for _, s := range urls {
					sinkErr = Lenient.ParseInto(&u, s)
				}
			})
		})
		b.Run(prefix+"NetURLParse", func(b *testing.B) {
			perURL(b, len(urls), bytes, func() {
				for _, s := range urls {
					sinkNetURL, _ = url.Parse(s)
				}
			})
		})
		b.Run(prefix+"NetURLDecompose", func(b *testing.B) {
			perURL(b, len(urls), bytes, func() {
				for _, s := range urls {
					sinkParts, _ = netURLDecompose(s)
				}
			})
		})
		b.Run(prefix+"Floor", func(b *testing.B) {
			perURL(b, len(urls), bytes, func() {
				classFloor(urls)
			})
		})
		b.Run(prefix+"Alloc", func(b *testing.B) {
			// What Parse does for each URL once it has parsed it:
			// the one allocation sized to the URL's directories and
			// userinfo, and the copy into it (parser.result), and
			// nothing else. No parser that returns a new *URL can go
			// below it.
			shapes := make([]parser, len(parsed))
			for i, u := range parsed {
				p := &shapes[i]
				p.ndirs, p.hasUser = len(u.Dirs), u.User != nil
				if len(u.Dirs) > len(p.dirs) {
					p.moreDirs = u.Dirs
				}
			}
			var u URL
			perURL(b, len(urls), bytes, func() {
				for i := range shapes {
					sinkURL = shapes[i].result(&u)
				}
			})
		})
		b.Run(prefix+"String", func(b *testing.B) {
			out := 0
			for _, u := range parsed {
				out += len(u.String())
			}
			perURL(b, len(parsed), out, func() {
				for _, u := range parsed {
					sinkString = u.String()
				}
			})
		})
		b.Run(prefix+"PlanCommands", func(b *testing.B) {
			// Only the URLs that Plan accepts: it refuses, for
			// instance, a LIST argument that begins with "-".
			var plannable []*URL
			for _, u := range parsed {
				if p, err := u.Plan(); err == nil && p != nil {
					plannable = append(plannable, u)
				}
			}
			if len(plannable) == 0 {
				b.Skip("Plan returns nil for every URL: the plan is not written yet")
			}
			perURL(b, len(plannable), 0, func() {
				for _, u := range plannable {
					p, _ := u.Plan()
					sinkStrings = p.Commands()
				}
			})
		})
	}
}

// longPathShapes are the paths of BenchmarkParseLongPath, each a unit
// repeated: plain letters (one long name), "%XX" escapes (decoded, and
// "%2F" kept inside the segment), "/" alone (null directories), short
// directories, raw UTF-8 (Lenient IRIs), and ";" that is data but makes
// the typecode search look (2011 draft §3.1 typecode-part).
var longPathShapes = []struct{ name, unit string }{
	{"letters", "abcdefghijklmnopqrstuvwxyz"},
	{"pct", "%2F%41%e9"},
	{"slashes", "/"},
	{"dirs", "pub/"},
	{"utf8", "é文"},
	{"semicolons", ";t"},
}

var longPathSizes = []struct {
	name string
	n    int
}{
	{"1KB", 1 << 10},
	{"10KB", 10 << 10},
	{"100KB", 100 << 10},
	{"1MB", 1 << 20},
}

// longPathURL returns an ftp URL whose path is "/" and whole units,
// size bytes long at most and within one unit of it.
func longPathURL(unit string, size int) string {
	return "ftp://ftp.example.org/" + strings.Repeat(unit, (size-1)/len(unit))
}

// BenchmarkParseLongPath parses URLs whose path is 1 KB to 1 MB long,
// in several shapes, and reports ns/byte: it must be the same at every
// size (no quadratic work anywhere).
func BenchmarkParseLongPath(b *testing.B) {
	for _, shape := range longPathShapes {
		for _, size := range longPathSizes {
			s := longPathURL(shape.unit, size.n)
			if _, err := Parse(s); err != nil {
				b.Fatalf("shape %s: %v", shape.name, err)
			}
			b.Run("shape="+shape.name+"/size="+size.name, func(b *testing.B) {
				b.SetBytes(int64(len(s)))
				b.ReportAllocs()
				for b.Loop() {
					sinkURL, _ = Parse(s)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(s)), "ns/byte")
			})
		}
	}
}
