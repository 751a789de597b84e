package fetch_test

import (
	"bufio"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
	"github.com/jlaffaye/ftp"
)

// listingCorpus is the shared corpus of listing lines from FileZilla's,
// curl's, ftputil's and Apache Commons Net's test suites, each with the
// entry it stands for. It comes from other projects under their own
// licences: the tests read it where it is and the project copies none
// of it.
const listingCorpus = "../../shared/ftp-corpus/listing/cases.jsonl"

// corpusCase is one case of the corpus; raw keeps every key, since an
// absent key (not stated) differs from a null one.
type corpusCase struct {
	ID, Source, Family, Expect string
	Config                     json.RawMessage
	line                       string
	raw                        map[string]json.RawMessage
}

func (c *corpusCase) has(key string) bool { _, ok := c.raw[key]; return ok }

func (c *corpusCase) isNull(key string) bool { return string(c.raw[key]) == "null" }

func (c *corpusCase) str(key string) string {
	var s string
	json.Unmarshal(c.raw[key], &s)
	return s
}

func readListingCorpus(t *testing.T) []*corpusCase {
	t.Helper()
	f, err := os.Open(listingCorpus)
	if err != nil {
		t.Skipf("no shared listing corpus: %v", err)
	}
	defer f.Close()
	var cases []*corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		c := &corpusCase{}
		if err := json.Unmarshal(sc.Bytes(), &c.raw); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(sc.Bytes(), c); err != nil {
			t.Fatal(err)
		}
		c.line = c.str("line")
		if b := c.str("line_b64"); b != "" {
			raw, err := base64.StdEncoding.DecodeString(b)
			if err != nil {
				t.Fatal(err)
			}
			c.line = string(raw)
		}
		if c.Expect == "" {
			c.Expect = "parse"
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// corpusYear is the year the measurement puts "now" in.
const corpusYear = 2024

// corpusNow is the now a case is parsed with. A "Mon DD HH:MM" line
// has no year: the suites guess it each by its own rule (year_rule),
// from the month and day in year_rule_args. With now at noon of that
// very month and day in corpusYear, every suite's rule (FileZilla's
// calcYear, curl's last six months, ftputil's "has it passed") and
// ParseListLine's (nearest to now) give corpusYear, which then stands
// for YYYY in the expected time. Other cases get mid-June of corpusYear.
func corpusNow(c *corpusCase) time.Time {
	var md []int
	if c.has("year_rule_args") && json.Unmarshal(c.raw["year_rule_args"], &md) == nil && len(md) == 2 {
		return time.Date(corpusYear, time.Month(md[0]), md[1], 12, 0, 0, 0, time.UTC)
	}
	return time.Date(corpusYear, 6, 15, 12, 0, 0, 0, time.UTC)
}

// expectedTime reads the case's time and time_precision: the time (as
// a UTC wall clock), its precision, and whether they are stated at all
// ("unknown": the suite gave no time for a line that has one, e.g.
// ftputil before 1970 — not stated). A precision "none" states that the
// line has no time: a zero ModTime.
func expectedTime(c *corpusCase) (t time.Time, prec time.Duration, stated bool) {
	p := c.str("time_precision")
	if !c.has("time_precision") || p == "unknown" {
		return time.Time{}, 0, false
	}
	if p == "none" {
		return time.Time{}, 0, true
	}
	s := strings.Replace(c.str("time"), "YYYY", fmt.Sprint(corpusYear), 1)
	layout := map[string]string{"day": "2006-01-02", "minute": "2006-01-02T15:04", "second": "2006-01-02T15:04:05"}[p]
	prec = map[string]time.Duration{"day": 24 * time.Hour, "minute": time.Minute, "second": time.Second}[p]
	t, err := time.Parse(layout, s)
	if err != nil {
		return time.Time{}, 0, false
	}
	return t, prec, true
}

// gotEntry is what a parser made of a line, in terms both parsers
// have.
type gotEntry struct {
	ok          bool
	name        string
	size        int64 // -1: none
	dir, link   bool
	target      string
	time        time.Time
	prec        time.Duration // 0: the parser gives none (jlaffaye)
	yearUnknown bool          // compare a YYYY date without its year (jlaffaye's year is from the real clock)
}

// check compares got with every field the case states and returns the
// ones that differ.
func (c *corpusCase) check(got gotEntry) []string {
	if c.Expect == "reject" {
		if got.ok {
			return []string{"parsed a line the suite rejects"}
		}
		return nil
	}
	if !got.ok {
		return []string{"rejected"}
	}
	var bad []string
	if c.has("name") || c.has("name_b64") {
		want := c.str("name")
		if b := c.str("name_b64"); b != "" {
			raw, _ := base64.StdEncoding.DecodeString(b)
			want = string(raw)
		}
		if got.name != want {
			bad = append(bad, fmt.Sprintf("name %q, want %q", got.name, want))
		}
	}
	if c.has("size") && !c.isNull("size") {
		var want int64
		json.Unmarshal(c.raw["size"], &want)
		if got.size != want {
			bad = append(bad, fmt.Sprintf("size %d, want %d", got.size, want))
		}
	}
	var wantLink bool
	if c.has("link") {
		json.Unmarshal(c.raw["link"], &wantLink)
		if got.link != wantLink {
			bad = append(bad, fmt.Sprintf("link %v, want %v", got.link, wantLink))
		}
	}
	// FileZilla marks every link dir (it may be one): its dir of a link
	// states nothing.
	if c.has("dir") && !(wantLink && strings.HasPrefix(c.Source, "filezilla")) {
		var want bool
		json.Unmarshal(c.raw["dir"], &want)
		if got.dir != want {
			bad = append(bad, fmt.Sprintf("dir %v, want %v", got.dir, want))
		}
	}
	if c.has("target") {
		want := c.str("target")
		if got.target != want {
			bad = append(bad, fmt.Sprintf("target %q, want %q", got.target, want))
		}
	}
	if want, prec, stated := expectedTime(c); stated {
		gt := got.time
		if got.yearUnknown && strings.HasPrefix(c.str("time"), "YYYY") && !gt.IsZero() {
			gt = gt.AddDate(want.Year()-gt.Year(), 0, 0)
		}
		if !gt.Equal(want) {
			bad = append(bad, fmt.Sprintf("time %v, want %v", got.time, want))
		} else if got.prec != 0 && !want.IsZero() && got.prec != prec {
			bad = append(bad, fmt.Sprintf("precision %v, want %v", got.prec, prec))
		}
	}
	return bad
}

func fromEntry(e fetch.Entry, ok bool) gotEntry {
	return gotEntry{ok: ok, name: e.Name, size: e.Size, dir: e.Mode.IsDir(), link: e.Mode&fs.ModeSymlink != 0,
		target: e.Target, time: e.ModTime, prec: e.Precision}
}

// fullyStated: a parse case that states a name (the cases the README's
// measurement of jlaffaye counts: 170).
func (c *corpusCase) fullyStated() bool {
	return c.Expect == "parse" && (c.has("name") || c.has("name_b64"))
}

// rejectExceptions are the corpus lines a suite calls invalid that
// ParseListLine reads, each a well-formed line that another suite of
// the corpus (or the format's own definition) reads as an entry.
var rejectExceptions = map[string]string{
	// DOS/IIS with a 24-hour time: ftputil's MS parser wants AM/PM, but
	// IIS sends 24-hour times where Windows is set so, and Commons Net's
	// own good samples hold the same shape ("05-22-97  08:08  828 ...").
	"ftputil-35": "IIS with a 24-hour clock",
	// An MLSD fact list without its last ';': Commons Net rejects it,
	// FileZilla reads it (MLST drafts before mlst-07 sent it so), and
	// fetch's design asks for it.
	"cnet-038": "MLSD facts without the last ';' (pre-mlst-07 drafts)",
	// A group name with a space ("no group"): Commons Net's older bad
	// sample; its own later test (bug 38634, Cygwin) parses
	// "group with spaces in it ...", and ls prints what the group is.
	"cnet-008": "group name with a space (Cygwin, Commons Net bug 38634)",
	// "1 PEP 0  xx 422": links, owner "PEP", group "0  xx". Read by
	// position from the size backwards, as "john smith     group" of
	// Commons Net's own good sample is: nothing in ls's format tells
	// the two apart.
	"cnet-201": "owner/group words read by position, as Commons Net's own \"john smith  group\"",
	// "drwxr-xr-x    123       folder        0 Jan  4 14:49 Steak":
	// Commons Net's MacOSPeter bad sample is a plain Unix ls line
	// (links 123, owner "folder"), which its Unix parser reads.
	"cnet-095": "a plain Unix ls line (links 123, owner folder)",
	// "drwxr-sr-x ... os1 -> os2 -> os3": ftputil splits any line at
	// " -> " and finds two arrows; only a link's line is split (issue
	// 37), and a directory's name is the rest of its line.
	"ftputil-24": "a directory named \"os1 -> os2 -> os3\": only a link's name is split",
}

// fieldExceptions are fields a suite states that ParseListLine reads
// otherwise by design, each with why: the field is not counted for that
// case (the strict count of the tables counts it).
var fieldExceptions = map[string]struct{ fields, why string }{
	// A non-link line's name is the rest of its line (issue 37): only a
	// link is split at " -> ". ftputil splits any line so.
	"ftputil-01": {"name target", "a directory's name is the rest of its line, \" -> \" and all"},
	"ftputil-06": {"name target", "a directory's name is the rest of its line, \" -> \" and all"},
	// FileZilla gives every MVS data set that is no directory the size
	// 100, whatever its columns say (200 tracks, "????", "++++"): a
	// placeholder, not bytes. The line gives no bytes: Size -1.
	"fz-61": {"size", "FileZilla's placeholder size 100 of an MVS data set"},
	"fz-83": {"size", "FileZilla's placeholder size 100 of an MVS data set"},
	"fz-84": {"size", "FileZilla's placeholder size 100 of an MVS data set"},
	// ISPF's Size of a PDS member counts records, not bytes.
	"fz-67": {"size", "ISPF statistics count records, not bytes: Size -1"},
	// z/VM's V file: records × LRECL is only the most it can hold.
	"fz-71": {"size", "a variable-length z/VM file's bytes are not in the line: Size -1"},
	// OS-9's "dir -e" gives "yy/mm/dd hhmm": FileZilla drops the hhmm.
	"fz-52": {"time precision", "OS-9's HHMM column is read: 10:26, to the minute"},
}

// suiteName is got's name as the case's suite writes it, where the
// suite's convention differs from ParseListLine's: Commons Net's VMS
// parser (without versioning) drops ";VERSION" and keeps a directory's
// ".DIR"; ParseListLine keeps a file's version (each version is an
// entry, and RETR of the name fetches it) and names a directory as CWD
// takes it, as FileZilla does.
func (c *corpusCase) suiteName(got gotEntry) string {
	if c.Family != "VMS" || !strings.HasPrefix(c.Source, "commons-net") {
		return got.name
	}
	if got.dir {
		return got.name + ".DIR"
	}
	if i := strings.LastIndexByte(got.name, ';'); i > 0 {
		return got.name[:i]
	}
	return got.name
}

// judge compares got with the case: the fields wrong (strict), and
// those wrong but for fieldExceptions and the suites' conventions.
func (c *corpusCase) judge(got gotEntry) (strict, bad []string) {
	strict = c.check(got)
	ex := strings.Fields(fieldExceptions[c.ID].fields)
	for _, b := range strict {
		field, _, _ := strings.Cut(b, " ")
		if slices.Contains(ex, field) || field == "name" && c.suiteName(got) == c.str("name") {
			continue
		}
		bad = append(bad, b)
	}
	return strict, bad
}

// corpusFamily is the case's family, an "others" case's with its
// system: "others (MVS)" for FileZilla's subfamily "MVS (z/OS)" as for
// Commons Net's family "others (MVS)".
func corpusFamily(c *corpusCase) string {
	if c.Family != "others" {
		return c.Family
	}
	sub, _, _ := strings.Cut(c.str("subfamily"), " (")
	return "others (" + sub + ")"
}

// corpusParse parses a case as a program would meet its line: with
// ParseListLine, or, for a case of several lines (a VMS entry split
// over two, VMS's header and trailer), with the reader of a whole
// listing, which must make one entry of them or none.
func corpusParse(c *corpusCase) (fetch.Entry, bool) {
	if !strings.Contains(c.line, "\n") {
		return fetch.ParseListLine(c.line, corpusNow(c))
	}
	entries, _ := fetch.ParseListing(c.line, corpusNow(c))
	if len(entries) != 1 {
		return fetch.Entry{}, false
	}
	return entries[0], true
}

type tally struct{ n, right, strict, beforeRight int }

// minRight is the share of each family's parse cases that must have
// every stated field right.
const minRight = 95

// TestListingCorpus measures ParseListLine (and, for a case of several
// lines, the reader of a whole listing) against the shared corpus, per
// family, per source and per both, beside jlaffaye/ftp: at least
// minRight% of the fully stated cases of the Unix, DOS, EPLF and MLSD
// families, and of all the parse cases of each other family, must have
// every stated field right, and no line a suite rejects may give an
// entry but the rejectExceptions.
func TestListingCorpus(t *testing.T) {
	cases := readListingCorpus(t)
	var srv *listServer
	var jl *ftp.ServerConn
	if !testing.Short() {
		srv = newListServer(t)
		jl = srv.dialList(t)
	}
	byFamily := map[string]*tally{}
	bySource := map[string]*tally{}
	rejects := map[string]*tally{}
	anyParse := map[string]*tally{}
	allParse := map[string]*tally{}
	byFamilySource := map[string]*tally{}
	add := func(m map[string]*tally, k string, right, strict, before bool) {
		if m[k] == nil {
			m[k] = &tally{}
		}
		m[k].n++
		if right {
			m[k].right++
		}
		if strict {
			m[k].strict++
		}
		if before {
			m[k].beforeRight++
		}
	}
	for _, c := range cases {
		if len(c.Config) > 0 && string(c.Config) != "null" {
			continue // made with a non-default parser or configuration
		}
		family := corpusFamily(c)
		e, ok := corpusParse(c)
		strict, bad := c.judge(fromEntry(e, ok))
		if ok && strings.ContainsAny(e.Name+e.Target, "\r\n\x00") {
			t.Errorf("%s: %q: Name or Target %q holds CR, LF or NUL", c.ID, c.line, e.Name+e.Target)
		}
		if len(strict) > len(bad) {
			t.Logf("%s (%s): %q: %s: not counted (%s)", c.ID, family, c.line, strings.Join(strict, "; "), cmp.Or(fieldExceptions[c.ID].why, "the suite's naming of VMS files"))
		}
		before := false
		if jl != nil && !strings.Contains(c.line, "\n") {
			before = len(c.check(jlaffayeParse(t, srv, jl, c.line))) == 0
		}
		right, strictRight := len(bad) == 0, len(strict) == 0
		switch {
		case c.Expect == "reject":
			add(rejects, family, right, strictRight, before)
			if !right {
				if why, ok := rejectExceptions[c.ID]; ok {
					t.Logf("%s: %q parsed (%s): exception", c.ID, c.line, why)
				} else {
					t.Errorf("%s (%s): %q: an entry %+v for a line the suite rejects", c.ID, family, c.line, e)
				}
			}
			continue
		case c.fullyStated():
			add(byFamily, family, right, strictRight, before)
			add(bySource, c.Source, right, strictRight, before)
			if !right {
				t.Logf("%s (%s): %q: %s", c.ID, family, c.line, strings.Join(bad, "; "))
			}
		default:
			add(anyParse, family, right, strictRight, before)
			if !right {
				t.Logf("%s (%s, fields partly stated): %q: %s", c.ID, family, c.line, strings.Join(bad, "; "))
			}
		}
		add(allParse, family, right, strictRight, before)
		add(byFamilySource, family+" / "+c.Source, right, strictRight, before)
	}
	pct := func(a, b int) string {
		if b == 0 {
			return "-"
		}
		return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
	}
	var b strings.Builder
	table := func(title string, m map[string]*tally) {
		fmt.Fprintf(&b, "\n%s\n%-72s %5s %12s %12s %12s\n", title, "", "cases", "ParseList", "strict", "jlaffaye")
		keys := slices.Sorted(maps.Keys(m))
		var sum tally
		for _, k := range keys {
			v := m[k]
			sum.n += v.n
			sum.right += v.right
			sum.strict += v.strict
			sum.beforeRight += v.beforeRight
			fmt.Fprintf(&b, "%-72s %5d %5d %6s %5d %6s %5d %6s\n", k, v.n, v.right, pct(v.right, v.n), v.strict, pct(v.strict, v.n), v.beforeRight, pct(v.beforeRight, v.n))
		}
		fmt.Fprintf(&b, "%-72s %5d %5d %6s %5d %6s %5d %6s\n", "total", sum.n, sum.right, pct(sum.right, sum.n), sum.strict, pct(sum.strict, sum.n), sum.beforeRight, pct(sum.beforeRight, sum.n))
	}
	table("Fully stated cases (a name stated): every stated field right, per family", byFamily)
	table("The same, per source", bySource)
	table("Parse cases stating less (ok, and the fields they state)", anyParse)
	table("All parse cases, per family", allParse)
	table("All parse cases, per family and source", byFamilySource)
	table("Reject cases: no entry", rejects)
	b.WriteString("\nParseList: right but for fieldExceptions and the suites' naming conventions; strict: every stated field as stated.\n")
	if jl == nil {
		b.WriteString("(-short: jlaffaye/ftp not measured)\n")
	} else {
		b.WriteString("jlaffaye/ftp v0.2.4 through List (LIST) from a scripted server on 127.0.0.1; it has no\nprecision, and its year of a \"Mon DD HH:MM\" date comes from the real clock: those dates are compared without their year.\nA case of several lines is not sent to it (not counted right).\n")
	}
	t.Log(b.String())
	for _, fam := range []string{"unix ls", "DOS/IIS", "EPLF", "MLSD facts"} {
		v := byFamily[fam]
		if v == nil || v.n == 0 {
			t.Errorf("family %s: no fully stated case", fam)
			continue
		}
		if v.right*100 < minRight*v.n {
			t.Errorf("family %s: %d of %d fully stated cases right, want %d%%", fam, v.right, v.n, minRight)
		}
	}
	for _, fam := range []string{"VMS", "OS/400", "others (MVS)", "others (OS/2)", "others (NetWare)", "others (z/VM)",
		"others (HP NonStop)", "others (Microware OS-9)", "others (VShell)", "others (Nortel VxWorks)",
		"others (Nortel wfFtp)", "others (numerical Unix)"} {
		v := allParse[fam]
		if v == nil || v.n == 0 {
			t.Errorf("family %s: no parse case", fam)
			continue
		}
		if v.right*100 < minRight*v.n {
			t.Errorf("family %s: %d of %d parse cases right, want %d%%", fam, v.right, v.n, minRight)
		}
	}
}

// jlaffayeParse sends line as the whole listing of a LIST to jlaffaye's
// List and reads back the entry it made, if any.
func jlaffayeParse(t *testing.T, srv *listServer, c *ftp.ServerConn, line string) gotEntry {
	srv.set([]byte(line + "\r\n"))
	entries, err := c.List("")
	if err != nil {
		t.Fatalf("jlaffaye List: %v", err)
	}
	if len(entries) != 1 {
		return gotEntry{}
	}
	e := entries[0]
	g := gotEntry{ok: true, name: e.Name, size: int64(e.Size), dir: e.Type == ftp.EntryTypeFolder,
		link: e.Type == ftp.EntryTypeLink, target: e.Target, time: e.Time.UTC(), yearUnknown: true}
	return g
}
