package ftpurl

// curl's FTP test dialogs (testdata/curl-ftp-url-tests.json,
// from curl's tests/data/test*) run through Parse, Login and Plan. Each
// of the 68 cases is compared, or listed with the reason it cannot be
// or differs on purpose (the README's curl column).

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A curlTest is one case of curl-ftp-url-tests.json: the URL a curl test
// fetches, curl's exit code, and every command curl sent.
type curlTest struct {
	Test      string   `json:"test"`
	Name      string   `json:"name"`
	URL       string   `json:"url"`
	Server    string   `json:"server"`
	Errorcode int      `json:"errorcode"`
	Commands  []string `json:"commands"`
}

// How a case is compared.
type curlReading int

const (
	// curlSame: curl's CWD, RETR, LIST and NLST lines (and TYPE lines
	// when the URL has a typecode) are ours. The default when curl's
	// exit code is 0.
	curlSame curlReading = iota
	// curlPrefix: curl failed (exit code not 0) after sending a prefix
	// of our lines. The default when curl's exit code is not 0.
	curlPrefix
	// curlRefused: curl refused the URL (exit code 3, URL malformed)
	// and sent nothing; Parse refuses it with ErrControl.
	curlRefused
	// curlRepeated: the test program fetches the URL several times on
	// one connection: curl's lines are ours, then our action line again.
	curlRepeated
	// curlDiffers: a known difference (the README's curl
	// column): the lines differ on purpose.
	curlDiffers
	// curlNotFromURL: curl's dialog depends on more than the URL (an
	// upload, a proxy, a wildcard download, options of a libcurl test
	// program); the URL must still parse and plan.
	curlNotFromURL
)

func (r curlReading) String() string {
	return [...]string{"same", "prefix", "refused", "repeated", "differs", "not from the URL"}[r]
}

// curlCase says how one curl test is read when the default (same, or
// prefix when curl failed) does not apply.
type curlCase struct {
	reading curlReading
	reason  string
	// curlDiffers: our lines, and the options (if any) with which
	// ftpurl sends curl's lines.
	ours     []string
	sameWith []PlanOption
	// curlRefused: where Parse finds the control character.
	offset int
}

// The cases that are not read by default, each with its reason.
var curlCases = map[string]curlCase{
	// Known differences (the README's curl column).
	"test106": {
		reading: curlDiffers,
		reason: `a leading "//" is a null first segment, which sends no CWD (2011 draft §3.2.3 (1), Note); ` +
			`curl sends "CWD /" for it. WithAbsolutePaths sends curl's lines`,
		ours:     []string{"CWD path with  spaces", "CWD and things2", "TYPE A", "RETR 106"},
		sameWith: []PlanOption{WithAbsolutePaths()},
	},
	"test1224": {
		reading: curlDiffers,
		reason: `a leading "//" is a null first segment, which sends no CWD (2011 draft §3.2.3 (1), Note); ` +
			`curl sends "CWD /" for it. WithAbsolutePaths sends curl's lines`,
		ours:     []string{"TYPE I", "RETR 1224"},
		sameWith: []PlanOption{WithAbsolutePaths()},
	},
	"test143": {
		reading: curlDiffers,
		reason: `"%2f" is a "/" inside one segment (RFC 1738 §3.2.2; 2011 draft §3.3): "CWD /tmp"; ` +
			`curl decodes the whole path before it splits it, so "%2f" splits: "CWD /", "CWD tmp". ` +
			`Both reach /tmp/moo`,
		ours: []string{"CWD /tmp", "CWD moo", "TYPE A", "RETR 143"},
	},

	// Both refuse the URL: curl's CURLE_URL_MALFORMAT, our ErrControl.
	"test225": {reading: curlRefused, offset: len("ftp://bad"),
		reason: `"%0a" in the user name (and the path): ErrControl`},
	"test226": {reading: curlRefused, offset: len("ftp://127.0.0.1:8992/226"),
		reason: `"%0d" in the name: ErrControl`},

	// The same URL fetched again on the connection that is already in
	// the directory.
	"test526": {reading: curlRepeated, reason: "the test program fetches the URL four times, with four handles on one connection"},
	"test527": {reading: curlRepeated, reason: "the test program fetches the URL four times, with four handles"},
	"test532": {reading: curlRepeated, reason: "the test program fetches the URL four times, resetting the handle"},

	// Not derivable from the URL alone.
	"test524":  {reading: curlNotFromURL, reason: "an upload (CURLOPT_UPLOAD): ftp URLs name resources to retrieve (2011 draft §3.2)"},
	"test574":  {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH): LIST, then RETR of each match"},
	"test575":  {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH), performed three times"},
	"test576":  {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH); the test records no commands"},
	"test1113": {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH): LIST, then RETR of each match"},
	"test1114": {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH); the test records no commands"},
	"test1162": {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH) with a bad pattern: curl lists, then fails"},
	"test1163": {reading: curlNotFromURL, reason: "a wildcard download (CURLOPT_WILDCARDMATCH) with a bad pattern: curl lists, then fails"},
	"test661": {reading: curlNotFromURL, reason: "the test program (lib661.c) fetches URLs of its own, the corpus URL + " +
		"\"/folderA/661\" and \"/folderB/661\", with CURLOPT_FTP_FILEMETHOD singlecwd and nocwd, and sends SYST with CURLOPT_QUOTE"},
	"test711":  {reading: curlNotFromURL, reason: "a fetch through a SOCKS5 proxy (the commands are those of a direct fetch)"},
	"test1106": {reading: curlNotFromURL, reason: "ftp_proxy is an HTTP proxy: curl sends GET ftp://... HTTP/1.1, no FTP command"},
	"test597":  {reading: curlNotFromURL, reason: "CURLOPT_CONNECT_ONLY: curl logs in and transfers nothing"},
	"test542":  {reading: curlNotFromURL, reason: "CURLOPT_NOBODY: curl asks SIZE and REST 0, and retrieves nothing"},
	"test753":  {reading: curlNotFromURL, reason: "the test program cleans up the handle before the transfer starts"},
	"test2083": {reading: curlNotFromURL, reason: "the test checks a pre-request callback and records no commands"},
}

// curlMethod is the Method a curl test uses: MultiCWD, curl's default,
// unless its name mentions --ftp-method singlecwd or nocwd.
func curlMethod(name string) Method {
	name = strings.ToLower(name)
	switch {
	case strings.Contains(name, "nocwd"):
		return NoCWD
	case strings.Contains(name, "singlecwd"):
		return SingleCWD
	}
	return MultiCWD
}

// curlCompared keeps the lines that a URL decides: CWD, TYPE, RETR,
// LIST and NLST. Without a typecode curl guesses TYPE I before RETR and
// TYPE A before LIST and NLST, as Plan does (RFC 1738 §3.2.2 leaves the
// guess to the client), so TYPE is compared too.
func curlCompared(lines []string) []string {
	out := []string{}
	for _, l := range lines {
		verb, _, _ := strings.Cut(l, " ")
		switch verb {
		case "CWD", "TYPE", "RETR", "LIST", "NLST":
			out = append(out, l)
		}
	}
	return out
}

// curlFirstArg returns the argument of the first line with verb, and
// whether there is one.
func curlFirstArg(lines []string, verb string) (string, bool) {
	for _, l := range lines {
		if v, arg, _ := strings.Cut(l, " "); v == verb {
			return arg, true
		}
	}
	return "", false
}

func TestPlanMatchesCurlDialogsButForKnownDifferences(t *testing.T) {
	curlFTPTests := readCurlTests(t)
	if len(curlFTPTests) != 68 {
		t.Fatalf("%d curl cases, want 68", len(curlFTPTests))
	}
	counts := map[curlReading]int{}
	seen := map[string]bool{}
	for _, ct := range curlFTPTests {
		id := ct.Test[strings.LastIndexByte(ct.Test, '/')+1:]
		seen[id] = true
		c, listed := curlCases[id]
		if !listed {
			c.reading = curlSame
			if ct.Errorcode != 0 {
				c.reading = curlPrefix
			}
		}
		counts[c.reading]++

		u, err := Parse(ct.URL)
		if c.reading == curlRefused {
			var e *Error
			if !errors.As(err, &e) || e.Err != ErrControl || e.Offset != c.offset || ct.Errorcode != 3 || len(ct.Commands) != 0 {
				t.Errorf("%s %s: Parse = %v; want ErrControl at %d, as curl refuses it (exit %d, %d commands)",
					id, ct.URL, err, c.offset, ct.Errorcode, len(ct.Commands))
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: Parse(%q): %v", id, ct.URL, err)
			continue
		}
		p, err := u.Plan(WithMethod(curlMethod(ct.Name)))
		if err != nil {
			t.Errorf("%s: Plan(%q): %v", id, ct.URL, err)
			continue
		}
		ours := curlCompared(p.Commands())
		theirs := curlCompared(ct.Commands)

		switch c.reading {
		case curlSame:
			if diff := cmp.Diff(theirs, ours); diff != "" {
				t.Errorf("%s %s (%s): (-curl +ours):\n%s", id, ct.URL, ct.Name, diff)
			}
		case curlPrefix:
			if ct.Errorcode == 0 || len(theirs) > len(ours) || !slices.Equal(theirs, ours[:len(theirs)]) {
				t.Errorf("%s %s (exit %d): curl's %q is not a prefix of our %q", id, ct.URL, ct.Errorcode, theirs, ours)
			}
		case curlRepeated:
			action := ours[len(ours)-1]
			ok := len(theirs) > len(ours) && slices.Equal(theirs[:len(ours)], ours)
			for _, l := range theirs[min(len(ours), len(theirs)):] {
				ok = ok && l == action
			}
			if !ok {
				t.Errorf("%s: curl's %q is not our %q and %q again", id, theirs, ours, action)
			}
		case curlDiffers:
			if diff := cmp.Diff(c.ours, ours); diff != "" {
				t.Errorf("%s %s: our lines (-want +got):\n%s", id, ct.URL, diff)
			}
			if slices.Equal(theirs, ours) {
				t.Errorf("%s: listed as a difference (%s), but curl's lines are ours: %q", id, c.reason, ours)
			}
			if c.sameWith != nil {
				q, err := u.Plan(append([]PlanOption{WithMethod(curlMethod(ct.Name))}, c.sameWith...)...)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(theirs, curlCompared(q.Commands())); diff != "" {
					t.Errorf("%s: with the listed options (-curl +ours):\n%s", id, diff)
				}
			}
		case curlNotFromURL:
			// The URL parses and plans (checked above); curl's dialog is
			// not a function of it.
		}

		// Login (2011 draft §3.2.2): curl's USER is ours, and its PASS
		// too, but for the anonymous password, a named difference.
		user, pass, _ := u.Login()
		if arg, ok := curlFirstArg(ct.Commands, "USER"); ok && arg != user {
			t.Errorf("%s: USER %q, Login user %q", id, arg, user)
		}
		if arg, ok := curlFirstArg(ct.Commands, "PASS"); ok {
			if u.User == nil {
				if arg != "ftp@example.com" || pass != "anonymous@" {
					t.Errorf("%s: anonymous PASS %q, Login %q: want curl's ftp@example.com and our anonymous@", id, arg, pass)
				}
			} else if arg != pass {
				t.Errorf("%s: PASS %q, Login password %q", id, arg, pass)
			}
		}
	}
	for id := range curlCases {
		if !seen[id] {
			t.Errorf("curlCases lists %s, which is not in the corpus", id)
		}
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != 68 {
		t.Errorf("%d cases accounted for, want 68", total)
	}
	// The corpus as read today; a change here is a change to review.
	want := map[curlReading]int{curlSame: 25, curlPrefix: 20, curlRefused: 2, curlRepeated: 3, curlDiffers: 3, curlNotFromURL: 15}
	if diff := cmp.Diff(want, counts); diff != "" {
		t.Errorf("cases per reading (-want +got):\n%s", diff)
	}
}

// readCurlTests reads testdata/curl-ftp-url-tests.json, a copy of the
// project's corpus of curl's tests/data/test* FTP dialogs.
func readCurlTests(t *testing.T) []curlTest {
	t.Helper()
	b, err := os.ReadFile("testdata/curl-ftp-url-tests.json")
	if err != nil {
		t.Fatal(err)
	}
	var tests []curlTest
	if err := json.Unmarshal(b, &tests); err != nil {
		t.Fatal(err)
	}
	return tests
}

// test661's first two transfers (lib661.c appends "/folderA/661" to
// ftp://127.0.0.1:8992/, with CURLOPT_FTP_FILEMETHOD singlecwd) are
// curl's lines with SingleCWD and WithAbsolutePaths; without the
// option, the leading "//" is a null segment, the known difference.
func TestCurl661SingleCWDTransfers(t *testing.T) {
	for dir, want := range map[string][]string{
		"folderA": {"CWD /folderA", "TYPE I", "RETR 661"},
		"folderB": {"CWD /folderB", "TYPE I", "RETR 661"},
	} {
		raw := "ftp://127.0.0.1:8992/" + "/" + dir + "/661"
		u := MustParse(raw)
		p, err := u.Plan(WithMethod(SingleCWD), WithAbsolutePaths())
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, p.Commands()); diff != "" {
			t.Errorf("%s: (-curl +ours):\n%s", raw, diff)
		}
		p, err = u.Plan(WithMethod(SingleCWD))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"CWD " + dir, "TYPE I", "RETR 661"}, p.Commands()); diff != "" {
			t.Errorf("%s relative: (-want +got):\n%s", raw, diff)
		}
	}
	// The corpus holds these lines in this order.
	for _, ct := range readCurlTests(t) {
		if strings.HasSuffix(ct.Test, "/test661") {
			// curl sends TYPE once a connection: the second
			// transfer's type is already I.
			got := curlCompared(ct.Commands)
			if want := []string{"CWD /folderA", "TYPE I", "RETR 661", "CWD /folderB", "RETR 661"}; !slices.Equal(got[:5], want) {
				t.Errorf("test661 begins %q, want %q", got[:5], want)
			}
		}
	}
}

// curlMethod reads curl's --ftp-method from a test name.
func TestCurlMethodFromTestName(t *testing.T) {
	for name, want := range map[string]Method{
		"FTP dir list PASV":                    MultiCWD,
		"FTP RETR --ftp-method singlecwd":      SingleCWD,
		"FTP with --ftp-method nocwd and LIST": NoCWD,
		"FTP SingleCWD with slashes":           SingleCWD,
	} {
		if got := curlMethod(name); got != want {
			t.Errorf("curlMethod(%q) = %v, want %v", name, got, want)
		}
	}
}

// Two differences from curl that curl's corpus has no case for, in the
// README's curl column: curl sends each path part as it is (lib/ftp.c,
// ftp_parse_url_path), where Plan sends a "~" after the first segment
// as "./~" (URL.Plan's doc); and curl takes an empty listing as it
// comes, where a Plan whose LIST or NLST has an argument carries Verify,
// CWD of that argument, to tell a missing name from an empty directory
// (Plan's doc). Neither rule touches a corpus case, so the readings
// counted above are the same with and without them.
func TestCurlDifferencesWithoutACorpusCase(t *testing.T) {
	for _, tt := range []struct {
		raw           string
		opts          []PlanOption
		lines, verify []string
	}{
		{"ftp://h/odd/~", nil, []string{"CWD odd", "TYPE I", "RETR ./~"}, nil},
		{"ftp://h/odd/~", []PlanOption{WithMethod(NoCWD)}, []string{"TYPE I", "RETR odd/~"}, nil},
		{"ftp://h/pub;type=d", nil, []string{"TYPE A", "NLST pub"}, []string{"CWD pub"}},
		{"ftp://h/vault/absent/", []PlanOption{WithMethod(NoCWD)}, []string{"TYPE A", "LIST vault/absent"}, []string{"CWD vault/absent"}},
	} {
		p, err := MustParse(tt.raw).Plan(tt.opts...)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tt.lines, p.Commands()); diff != "" {
			t.Errorf("%s: Commands (-want +got):\n%s", tt.raw, diff)
		}
		if diff := cmp.Diff(tt.verify, p.Verify.Commands()); diff != "" {
			t.Errorf("%s: Verify.Commands (-want +got):\n%s", tt.raw, diff)
		}
	}
	for _, ct := range readCurlTests(t) {
		u, err := Parse(ct.URL)
		if err != nil {
			continue // curlRefused, checked above
		}
		p, err := u.Plan(WithMethod(curlMethod(ct.Name)))
		if err != nil {
			t.Fatalf("%s: Plan(%q): %v", ct.Test, ct.URL, err)
		}
		for _, l := range slices.Concat(p.Commands(), p.Fallback.Commands()) {
			if strings.Contains(l, "./~") {
				t.Errorf("%s %s: %q: the \"./~\" rule meets a corpus case; compare it with curl's lines", ct.Test, ct.URL, l)
			}
		}
		if p.Verify != nil {
			t.Errorf("%s %s: a Verify (%q) meets a corpus case; compare it with curl's lines", ct.Test, ct.URL, p.Verify.Commands())
		}
	}
}
