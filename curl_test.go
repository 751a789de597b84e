package ftpurl

// curl's FTP test dialogs (testdata/curl-ftp-url-tests.json,
// from curl's tests/data/test*) run through Parse, Login and Plan. Each
// of the 68 cases is compared, or listed with the reason it cannot be
// or differs on purpose (DESIGN.md "Known differences from curl").

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
	// curlDiffers: a known difference (DESIGN.md "Known differences
	// from curl"): the lines differ on purpose.
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
	// Known differences (DESIGN.md "Known differences from curl").
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
		ours:     []string{"RETR 1224"},
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

// curlCompared keeps the lines that a URL decides: CWD, RETR, LIST and
// NLST, and TYPE when the URL has a typecode (without one, curl's TYPE
// I and TYPE A are its own guess, a known difference).
func curlCompared(lines []string, typecode bool) []string {
	out := []string{}
	for _, l := range lines {
		verb, _, _ := strings.Cut(l, " ")
		switch verb {
		case "CWD", "RETR", "LIST", "NLST":
			out = append(out, l)
		case "TYPE":
			if typecode {
				out = append(out, l)
			}
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

// curlFirstAction returns the verb of the first RETR, LIST or NLST line.
func curlFirstAction(lines []string) (string, bool) {
	for _, l := range lines {
		if v, _, _ := strings.Cut(l, " "); v == "RETR" || v == "LIST" || v == "NLST" {
			return v, true
		}
	}
	return "", false
}

func TestPlanMatchesCurlDialogsButForKnownDifferences(t *testing.T) {
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
		typecode := u.Type != TypeNone
		ours := curlCompared(p.Commands(), typecode)
		theirs := curlCompared(ct.Commands, typecode)

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
				if diff := cmp.Diff(theirs, curlCompared(q.Commands(), typecode)); diff != "" {
					t.Errorf("%s: with the listed options (-curl +ours):\n%s", id, diff)
				}
			}
		case curlNotFromURL:
			// The URL parses and plans (checked above); curl's dialog is
			// not a function of it.
		}

		// Without a typecode ftpurl sends no TYPE (2011 draft §3.2.3 (2));
		// curl guesses TYPE I before RETR and TYPE A before LIST, a known
		// difference.
		if !typecode && c.reading != curlNotFromURL {
			if p.Type != TypeNone {
				t.Errorf("%s: Type %q without a typecode", id, p.Type)
			}
			for i, l := range ct.Commands {
				if !strings.HasPrefix(l, "TYPE ") {
					continue
				}
				want := "TYPE I"
				if next, ok := curlFirstAction(ct.Commands[i:]); ok && (next == "LIST" || next == "NLST") {
					want = "TYPE A"
				}
				if l != want {
					t.Errorf("%s: curl sent %q, want %q (its guess without a typecode)", id, l, want)
				}
			}
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

// The table below is testdata/curl-ftp-url-tests.json, exactly: a copy
// of the project's corpus of curl's tests/data/test* FTP dialogs.
func TestCurlFTPTableIsTheCorpus(t *testing.T) {
	b, err := os.ReadFile("testdata/curl-ftp-url-tests.json")
	if err != nil {
		t.Fatal(err)
	}
	var corpus []curlTest
	if err := json.Unmarshal(b, &corpus); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(corpus, curlFTPTests, cmp.Comparer(func(a, b []string) bool {
		return slices.Equal(a, b) // nil and empty alike
	})); diff != "" {
		t.Errorf("the table differs from the corpus (-corpus +table):\n%s", diff)
	}
}

// test661's first two transfers (lib661.c appends "/folderA/661" to
// ftp://127.0.0.1:8992/, with CURLOPT_FTP_FILEMETHOD singlecwd) are
// curl's lines with SingleCWD and WithAbsolutePaths; without the
// option, the leading "//" is a null segment, the known difference.
func TestCurl661SingleCWDTransfers(t *testing.T) {
	for dir, want := range map[string][]string{
		"folderA": {"CWD /folderA", "RETR 661"},
		"folderB": {"CWD /folderB", "RETR 661"},
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
		if diff := cmp.Diff([]string{"CWD " + dir, "RETR 661"}, p.Commands()); diff != "" {
			t.Errorf("%s relative: (-want +got):\n%s", raw, diff)
		}
	}
	// The corpus holds these lines in this order.
	for _, ct := range curlFTPTests {
		if strings.HasSuffix(ct.Test, "/test661") {
			got := curlCompared(ct.Commands, false)
			if want := []string{"CWD /folderA", "RETR 661", "CWD /folderB", "RETR 661"}; !slices.Equal(got[:4], want) {
				t.Errorf("test661 begins %q, want %q", got[:4], want)
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

var curlFTPTests = []curlTest{
	{
		Test: "tests/data/test100", Name: "FTP dir list PASV",
		URL:    "ftp://127.0.0.1:8992/test-100/",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD test-100", "EPSV", "TYPE A", "LIST",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test102", Name: "FTP RETR PASV",
		URL:    "ftp://127.0.0.1:8992/102",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "PASV", "TYPE I", "SIZE 102",
			"RETR 102", "QUIT",
		},
	},
	{
		Test: "tests/data/test106", Name: "FTP GET with type=A style ASCII URL using %20 codes",
		URL:    "ftp://127.0.0.1:8992//path%20with%20%20spaces//and%20things2/106;type=A",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD /", "CWD path with  spaces",
			"CWD and things2", "EPSV", "TYPE A", "RETR 106", "QUIT",
		},
	},
	{
		Test: "tests/data/test113", Name: "FTP download, failed login: USER not valid",
		URL:    "ftp://127.0.0.1:8992/113",
		Server: "ftp", Errorcode: 67,
		Commands: []string{"USER anonymous"},
	},
	{
		Test: "tests/data/test114", Name: "FTP download, failed login: PASS not valid",
		URL:    "ftp://127.0.0.1:8992/114",
		Server: "ftp", Errorcode: 67,
		Commands: []string{"USER anonymous", "PASS ftp@example.com"},
	},
	{
		Test: "tests/data/test115", Name: "FTP download, failed PASV",
		URL:    "ftp://127.0.0.1:8992/115",
		Server: "ftp", Errorcode: 13,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "PASV", "QUIT"},
	},
	{
		Test: "tests/data/test117", Name: "FTP download, failed TYPE",
		URL:    "ftp://127.0.0.1:8992/117",
		Server: "ftp", Errorcode: 17,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "PASV", "TYPE I", "QUIT"},
	},
	{
		Test: "tests/data/test118", Name: "FTP download, failed RETR",
		URL:    "ftp://127.0.0.1:8992/118",
		Server: "ftp", Errorcode: 19,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "PASV", "TYPE I", "SIZE 118",
			"RETR 118", "QUIT",
		},
	},
	{
		Test: "tests/data/test124", Name: "FTP download, failed PWD",
		URL:    "ftp://127.0.0.1:8992/124",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "PASV", "TYPE I", "SIZE 124",
			"RETR 124", "QUIT",
		},
	},
	{
		Test: "tests/data/test125", Name: "FTP download, failed CWD",
		URL:    "ftp://127.0.0.1:8992/path/to/file/125",
		Server: "ftp", Errorcode: 9,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "QUIT"},
	},
	{
		Test: "tests/data/test126", Name: "FTP download with multiple replies at once in RETR",
		URL:    "ftp://127.0.0.1:8992/blalbla/lululul/126",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD blalbla", "CWD lululul", "EPSV",
			"TYPE I", "SIZE 126", "RETR 126", "QUIT",
		},
	},
	{
		Test: "tests/data/test137", Name: "FTP download without size in RETR string",
		URL:    "ftp://127.0.0.1:8992/blalbla/lululul/137",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD blalbla", "CWD lululul", "EPSV",
			"TYPE I", "SIZE 137", "RETR 137", "QUIT",
		},
	},
	{
		Test: "tests/data/test138", Name: "FTP download without size in RETR string and no SIZE command",
		URL:    "ftp://127.0.0.1:8992/blalbla/lululul/138",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD blalbla", "CWD lululul", "EPSV",
			"TYPE I", "SIZE 138", "RETR 138", "QUIT",
		},
	},
	{
		Test: "tests/data/test142", Name: "FTP URL with 150 dir levels",
		URL:    "ftp://127.0.0.1:8992/part1/part2/part3/part4/part5/part6/part7/part8/part9/part10/part11/part12/part13/part14/part15/part16/part17/part18/part19/part20/part21/part22/part23/part24/part25/part26/part27/part28/part29/part30/part31/part32/part33/part34/part35/part36/part37/part38/part39/part40/part41/part42/part43/part44/part45/part46/part47/part48/part49/part50/part51/part52/part53/part54/part55/part56/part57/part58/part59/part60/part61/part62/part63/part64/part65/part66/part67/part68/part69/part70/part71/part72/part73/part74/part75/part76/part77/part78/part79/part80/part81/part82/part83/part84/part85/part86/part87/part88/part89/part90/part91/part92/part93/part94/part95/part96/part97/part98/part99/part100/part101/part102/part103/part104/part105/part106/part107/part108/part109/part110/part111/part112/part113/part114/part115/part116/part117/part118/part119/part120/part121/part122/part123/part124/part125/part126/part127/part128/part129/part130/part131/part132/part133/part134/part135/part136/part137/part138/part139/part140/part141/part142/part143/part144/part145/part146/part147/part148/part149/part150/142",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD part1", "CWD part2", "CWD part3",
			"CWD part4", "CWD part5", "CWD part6", "CWD part7", "CWD part8", "CWD part9", "CWD part10",
			"CWD part11", "CWD part12", "CWD part13", "CWD part14", "CWD part15", "CWD part16",
			"CWD part17", "CWD part18", "CWD part19", "CWD part20", "CWD part21", "CWD part22",
			"CWD part23", "CWD part24", "CWD part25", "CWD part26", "CWD part27", "CWD part28",
			"CWD part29", "CWD part30", "CWD part31", "CWD part32", "CWD part33", "CWD part34",
			"CWD part35", "CWD part36", "CWD part37", "CWD part38", "CWD part39", "CWD part40",
			"CWD part41", "CWD part42", "CWD part43", "CWD part44", "CWD part45", "CWD part46",
			"CWD part47", "CWD part48", "CWD part49", "CWD part50", "CWD part51", "CWD part52",
			"CWD part53", "CWD part54", "CWD part55", "CWD part56", "CWD part57", "CWD part58",
			"CWD part59", "CWD part60", "CWD part61", "CWD part62", "CWD part63", "CWD part64",
			"CWD part65", "CWD part66", "CWD part67", "CWD part68", "CWD part69", "CWD part70",
			"CWD part71", "CWD part72", "CWD part73", "CWD part74", "CWD part75", "CWD part76",
			"CWD part77", "CWD part78", "CWD part79", "CWD part80", "CWD part81", "CWD part82",
			"CWD part83", "CWD part84", "CWD part85", "CWD part86", "CWD part87", "CWD part88",
			"CWD part89", "CWD part90", "CWD part91", "CWD part92", "CWD part93", "CWD part94",
			"CWD part95", "CWD part96", "CWD part97", "CWD part98", "CWD part99", "CWD part100",
			"CWD part101", "CWD part102", "CWD part103", "CWD part104", "CWD part105", "CWD part106",
			"CWD part107", "CWD part108", "CWD part109", "CWD part110", "CWD part111", "CWD part112",
			"CWD part113", "CWD part114", "CWD part115", "CWD part116", "CWD part117", "CWD part118",
			"CWD part119", "CWD part120", "CWD part121", "CWD part122", "CWD part123", "CWD part124",
			"CWD part125", "CWD part126", "CWD part127", "CWD part128", "CWD part129", "CWD part130",
			"CWD part131", "CWD part132", "CWD part133", "CWD part134", "CWD part135", "CWD part136",
			"CWD part137", "CWD part138", "CWD part139", "CWD part140", "CWD part141", "CWD part142",
			"CWD part143", "CWD part144", "CWD part145", "CWD part146", "CWD part147", "CWD part148",
			"CWD part149", "CWD part150", "EPSV", "TYPE I", "SIZE 142", "RETR 142", "QUIT",
		},
	},
	{
		Test: "tests/data/test143", Name: "FTP URL with type=a",
		URL:    "ftp://127.0.0.1:8992/%2ftmp/moo/143;type=a",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD /", "CWD tmp", "CWD moo", "EPSV",
			"TYPE A", "RETR 143", "QUIT",
		},
	},
	{
		Test: "tests/data/test161", Name: "FTP RETR partial file",
		URL:    "ftp://127.0.0.1:8992/161",
		Server: "ftp", Errorcode: 18,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "TYPE I", "SIZE 161", "RETR 161"},
	},
	{
		Test: "tests/data/test182", Name: "FTP download an empty file",
		URL:    "ftp://127.0.0.1:8992/182",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "TYPE I", "SIZE 182", "RETR 182",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test191", Name: "FTP URL with ?-letters in username and password",
		URL:    "ftp://use%3fr:pass%3fword@127.0.0.1:8992/191",
		Server: "ftp", Errorcode: 0,
		Commands: []string{"USER use?r", "PASS pass?word", "PWD", "EPSV", "TYPE I", "SIZE 191", "RETR 191", "QUIT"},
	},
	{
		Test: "tests/data/test195", Name: "FTP response 530 after PASS, temporarily not allowed access",
		URL:    "ftp://127.0.0.1:8992/195",
		Server: "ftp", Errorcode: 67,
		Commands: []string{"USER anonymous", "PASS ftp@example.com"},
	},
	{
		Test: "tests/data/test225", Name: "FTP %0a-code in URL's name part",
		URL:    "ftp://bad%0auser:passwd@127.0.0.1:8992/225%0a",
		Server: "ftp", Errorcode: 3,
		Commands: nil,
	},
	{
		Test: "tests/data/test226", Name: "FTP %0d-code in URL's CWD part",
		URL:    "ftp://127.0.0.1:8992/226%0d",
		Server: "ftp", Errorcode: 3,
		Commands: nil,
	},
	{
		Test: "tests/data/test238", Name: "FTP getting bad port in response to EPSV",
		URL:    "ftp://127.0.0.1:8992/238",
		Server: "ftp", Errorcode: 13,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "QUIT"},
	},
	{
		Test: "tests/data/test250", Name: "FTP dir list PASV with slow response",
		URL:    "ftp://127.0.0.1:8992/",
		Server: "ftp", Errorcode: 0,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "TYPE A", "LIST", "QUIT"},
	},
	{
		Test: "tests/data/test261", Name: "FTP RETR with 226 response code to TYPE",
		URL:    "ftp://127.0.0.1:8992/261",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "TYPE I", "SIZE 261", "RETR 261",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test295", Name: "FTP ACCT request without --ftp-account",
		URL:    "ftp://127.0.0.1:8992/295/",
		Server: "ftp", Errorcode: 67,
		Commands: []string{"USER anonymous", "PASS ftp@example.com"},
	},
	{
		Test: "tests/data/test354", Name: "FTP without password",
		URL:    "ftp://127.0.0.1:8992/354",
		Server: "ftp", Errorcode: 0,
		Commands: []string{"USER anonymous", "PWD", "EPSV", "TYPE I", "SIZE 354", "RETR 354", "QUIT"},
	},
	{
		Test: "tests/data/test511", Name: "FTP with FILETIME and NOBODY but missing file",
		URL:    "ftp://127.0.0.1:8992/511",
		Server: "ftp", Errorcode: 78,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "MDTM 511", "TYPE I", "SIZE 511", "QUIT"},
	},
	{
		Test: "tests/data/test520", Name: "FTP RETR with FILETIME",
		URL:    "ftp://127.0.0.1:8992/520",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "MDTM 520", "EPSV", "TYPE I", "SIZE 520",
			"RETR 520", "QUIT",
		},
	},
	{
		Test: "tests/data/test524", Name: "FTP upload with target URL ending with slash",
		URL:    "ftp://127.0.0.1:8992/path/to/",
		Server: "ftp", Errorcode: 3,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD"},
	},
	{
		Test: "tests/data/test526", Name: "FTP RETR same file using different handles but same connection",
		URL:    "ftp://127.0.0.1:8992/path/526",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 526",
			"RETR 526", "EPSV", "SIZE 526", "RETR 526", "EPSV", "SIZE 526", "RETR 526", "EPSV",
			"SIZE 526", "RETR 526", "QUIT",
		},
	},
	{
		Test: "tests/data/test527", Name: "FTP RETR same file using different handles and closed connections",
		URL:    "ftp://127.0.0.1:8992/path/527",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 527",
			"RETR 527", "EPSV", "SIZE 527", "RETR 527", "EPSV", "SIZE 527", "RETR 527", "EPSV",
			"SIZE 527", "RETR 527", "QUIT",
		},
	},
	{
		Test: "tests/data/test532", Name: "FTP RETR same file using reset handles between each transfer",
		URL:    "ftp://127.0.0.1:8992/path/532",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 532",
			"RETR 532", "EPSV", "SIZE 532", "RETR 532", "EPSV", "SIZE 532", "RETR 532", "EPSV",
			"SIZE 532", "RETR 532", "QUIT",
		},
	},
	{
		Test: "tests/data/test538", Name: "FTP multi-interface download, failed login: PASS not valid",
		URL:    "ftp://127.0.0.1:8992/538",
		Server: "ftp", Errorcode: 41,
		Commands: []string{"USER anonymous", "PASS ftp@example.com"},
	},
	{
		Test: "tests/data/test542", Name: "FTP a file with NOBODY yes and HEADER no",
		URL:    "ftp://127.0.0.1:8992/542",
		Server: "ftp", Errorcode: 0,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "TYPE I", "SIZE 542", "REST 0", "QUIT"},
	},
	{
		Test: "tests/data/test574", Name: "FTP wildcard download - changed fnmatch, 2x perform (Unix LIST)",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/UNIX/*.txt",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD fully_simulated", "CWD UNIX", "EPSV",
			"TYPE A", "LIST", "EPSV", "TYPE I", "RETR chmod1", "EPSV", "RETR chmod2", "EPSV",
			"RETR chmod3", "EPSV", "RETR empty_file.dat", "EPSV", "RETR file.txt", "EPSV",
			"RETR someothertext.txt", "EPSV", "TYPE A", "LIST", "EPSV", "TYPE I", "RETR chmod1",
			"EPSV", "RETR chmod2", "EPSV", "RETR chmod3", "EPSV", "RETR empty_file.dat", "EPSV",
			"RETR file.txt", "EPSV", "RETR someothertext.txt", "QUIT",
		},
	},
	{
		Test: "tests/data/test575", Name: "FTP wildcard download - dup_handle and multi interface",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/UNIX/*",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD fully_simulated", "CWD UNIX", "EPSV",
			"TYPE A", "LIST", "EPSV", "TYPE I", "RETR chmod1", "EPSV", "RETR chmod2", "EPSV",
			"RETR chmod3", "EPSV", "RETR empty_file.dat", "EPSV", "RETR file.txt", "EPSV",
			"RETR someothertext.txt", "EPSV", "TYPE A", "LIST", "EPSV", "TYPE I", "RETR chmod1",
			"EPSV", "RETR chmod2", "EPSV", "RETR chmod3", "EPSV", "RETR empty_file.dat", "EPSV",
			"RETR file.txt", "EPSV", "RETR someothertext.txt", "QUIT", "USER anonymous",
			"PASS ftp@example.com", "PWD", "CWD fully_simulated", "CWD UNIX", "EPSV", "TYPE A", "LIST",
			"EPSV", "TYPE I", "RETR chmod1", "EPSV", "RETR chmod2", "EPSV", "RETR chmod3", "EPSV",
			"RETR empty_file.dat", "EPSV", "RETR file.txt", "EPSV", "RETR someothertext.txt", "QUIT",
		},
	},
	{
		Test: "tests/data/test576", Name: "FTP wildcard - skip/parser_correctness/CURLOPT_FNMATCH_FUNCTION (Unix)",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/UNIX/*",
		Server: "ftp", Errorcode: 0,
		Commands: nil,
	},
	{
		Test: "tests/data/test586", Name: "FTP and open/close socket callbacks",
		URL:    "ftp://127.0.0.1:8992/586",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "TYPE I", "SIZE 586", "RETR 586",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test597", Name: "FTP connect only option",
		URL:    "ftp://127.0.0.1:8992",
		Server: "ftp", Errorcode: 0,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD"},
	},
	{
		Test: "tests/data/test661", Name: "Avoid redundant CWDs",
		URL:    "ftp://127.0.0.1:8992/",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD /folderA", "EPSV", "TYPE I",
			"RETR 661", "CWD /folderB", "EPSV", "RETR 661", "QUIT", "USER anonymous",
			"PASS ftp@example.com", "PWD", "EPSV", "TYPE I", "RETR /folderA/661", "CWD /folderB",
			"EPSV", "RETR 661", "EPSV", "RETR /folderA/661", "QUIT", "USER anonymous",
			"PASS ftp@example.com", "PWD", "SYST", "QUIT", "USER anonymous", "PASS ftp@example.com",
			"PWD", "SYST", "SYST", "QUIT",
		},
	},
	{
		Test: "tests/data/test711", Name: "FTP fetch with all_proxy set to socks5",
		URL:    "ftp://127.0.0.1:8992/711",
		Server: "ftp\nsocks5", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "TYPE I", "SIZE 711", "RETR 711",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test753", Name: "cleanup easy without multi_remove_handle",
		URL:    "ftp://127.0.0.1:8992/753",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "USER anonymous", "PASS ftp@example.com", "PWD",
			"EPSV", "TYPE I", "SIZE 753", "QUIT",
		},
	},
	{
		Test: "tests/data/test766", Name: "FTP PORT with sockopt callback refusing the accept",
		URL:    "ftp://127.0.0.1:8992/path/766",
		Server: "ftp", Errorcode: 42,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPRT |1|"},
	},
	{
		Test: "tests/data/test1003", Name: "FTP with excessively large server command response line",
		URL:    "ftp://127.0.0.1:8992/path/1003",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 1003",
			"RETR 1003", "QUIT",
		},
	},
	{
		Test: "tests/data/test1005", Name: "FTP with excessively large number of server command response lines",
		URL:    "ftp://127.0.0.1:8992/path/1005",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 1005",
			"RETR 1005", "QUIT",
		},
	},
	{
		Test: "tests/data/test1006", Name: "FTP with large number of command response lines (boundary condition)",
		URL:    "ftp://127.0.0.1:8992/path/1006",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 1006",
			"RETR 1006", "QUIT",
		},
	},
	{
		Test: "tests/data/test1062", Name: "FTP excessively long server command response lines, boundary condition",
		URL:    "ftp://127.0.0.1:8992/path/1062",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD path", "EPSV", "TYPE I", "SIZE 1062",
			"RETR 1062", "QUIT",
		},
	},
	{
		Test: "tests/data/test1102", Name: "FTP OS/400 server name format check",
		URL:    "ftp://127.0.0.1:8992/1102",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "SYST", "SITE NAMEFMT 1", "PWD", "EPSV",
			"TYPE I", "SIZE 1102", "RETR 1102", "QUIT",
		},
	},
	{
		Test: "tests/data/test1103", Name: "FTP non-OS/400 server",
		URL:    "ftp://127.0.0.1:8992/1103",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "SYST", "EPSV", "TYPE I", "SIZE 1103",
			"RETR 1103", "QUIT",
		},
	},
	{
		Test: "tests/data/test1106", Name: "FTP URL and with ftp_proxy environment variable set",
		URL:    "ftp://127.0.0.1:23456/1106",
		Server: "http", Errorcode: 0,
		Commands: []string{
			"GET ftp://%HOSTIP:23456/1106 HTTP/1.1", "Host: %HOSTIP:23456",
			"User-Agent: curl/%VERSION", "Accept: */*", "Proxy-Connection: Keep-Alive",
		},
	},
	{
		Test: "tests/data/test1113", Name: "FTP wildcard download - changed fnmatch, 2x perform (DOS LIST)",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/DOS/*.txt",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD fully_simulated", "CWD DOS", "EPSV",
			"TYPE A", "LIST", "EPSV", "TYPE I", "RETR chmod1", "EPSV", "RETR chmod2", "EPSV",
			"RETR chmod3", "EPSV", "RETR empty_file.dat", "EPSV", "RETR file.txt", "EPSV",
			"RETR someothertext.txt", "EPSV", "TYPE A", "LIST", "EPSV", "TYPE I", "RETR chmod1",
			"EPSV", "RETR chmod2", "EPSV", "RETR chmod3", "EPSV", "RETR empty_file.dat", "EPSV",
			"RETR file.txt", "EPSV", "RETR someothertext.txt", "QUIT",
		},
	},
	{
		Test: "tests/data/test1114", Name: "FTP wildcard download - skip/correctness/FNMATCH_FUNCTION (DOS)",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/DOS/*",
		Server: "ftp", Errorcode: 0,
		Commands: nil,
	},
	{
		Test: "tests/data/test1120", Name: "FTP with 421 timeout response",
		URL:    "ftp://127.0.0.1:8992/a/path/1120",
		Server: "ftp", Errorcode: 28,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD", "CWD a"},
	},
	{
		Test: "tests/data/test1152", Name: "FTP with unclosed quote in PWD response",
		URL:    "ftp://127.0.0.1:8992/test-1152/",
		Server: "ftp", Errorcode: 8,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD"},
	},
	{
		Test: "tests/data/test1153", Name: "FTP with quoted double quotes",
		URL:    "ftp://127.0.0.1:8992/test-1153/",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD test-1153", "EPSV", "TYPE A", "LIST",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test1162", Name: "FTP wildcard with crazy pattern",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/DOS/[*\\\\s-'tl",
		Server: "ftp", Errorcode: 78,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD fully_simulated", "CWD DOS", "EPSV",
			"TYPE A", "LIST", "QUIT",
		},
	},
	{
		Test: "tests/data/test1163", Name: "FTP wildcard with pattern ending with an open-bracket",
		URL:    "ftp://127.0.0.1:8992/fully_simulated/DOS/*[][",
		Server: "ftp", Errorcode: 78,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD fully_simulated", "CWD DOS", "EPSV",
			"TYPE A", "LIST", "QUIT",
		},
	},
	{
		Test: "tests/data/test1219", Name: "FTP with no user+password required (230 response)",
		URL:    "ftp://127.0.0.1:8992/1219",
		Server: "ftp", Errorcode: 0,
		Commands: []string{"PWD", "EPSV", "TYPE I", "SIZE 1219", "RETR 1219", "QUIT"},
	},
	{
		Test: "tests/data/test1224", Name: "FTP fetch a file from the root directory",
		URL:    "ftp://127.0.0.1:8992//1224",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD /", "EPSV", "TYPE I", "SIZE 1224",
			"RETR 1224", "QUIT",
		},
	},
	{
		Test: "tests/data/test1233", Name: "FTP failing to connect to EPSV port, switching to PASV",
		URL:    "ftp://127.0.0.1:8992/1233",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "EPSV", "PASV", "TYPE I", "SIZE 1233",
			"RETR 1233", "QUIT",
		},
	},
	{
		Test: "tests/data/test1282", Name: "FTP with 633 response to auth",
		URL:    "ftp://127.0.0.1:8992/1282",
		Server: "ftp", Errorcode: 67,
		Commands: []string{"USER anonymous", "PASS ftp@example.com"},
	},
	{
		Test: "tests/data/test1501", Name: "FTP with multi interface and slow LIST response",
		URL:    "ftp://127.0.0.1:8992/1501/",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "CWD 1501", "EPSV", "TYPE A", "LIST",
			"QUIT",
		},
	},
	{
		Test: "tests/data/test1913", Name: "FTP with NOBODY set, getting a missing file",
		URL:    "ftp://127.0.0.1:8992/not-there/1913",
		Server: "ftp", Errorcode: 78,
		Commands: nil,
	},
	{
		Test: "tests/data/test2083", Name: "Pre-request callback for FTP",
		URL:    "ftp://127.0.0.1:8992/test-2083/",
		Server: "ftp", Errorcode: 0,
		Commands: nil,
	},
	{
		Test: "tests/data/test2108", Name: "FTP rejects a nul byte in a server response line",
		URL:    "ftp://127.0.0.1:8992/2108",
		Server: "ftp", Errorcode: 8,
		Commands: []string{"USER anonymous", "PASS ftp@example.com"},
	},
	{
		Test: "tests/data/test3027", Name: "Get a file via FTP but 550 after MDTM command",
		URL:    "ftp://127.0.0.1:8992/3027",
		Server: "ftp", Errorcode: 0,
		Commands: []string{
			"USER anonymous", "PASS ftp@example.com", "PWD", "MDTM 3027", "EPSV", "TYPE I",
			"SIZE 3027", "RETR 3027", "QUIT",
		},
	},
	{
		Test: "tests/data/test3217", Name: "FTP with control characters in PWD response",
		URL:    "ftp://127.0.0.1:8992/3217",
		Server: "ftp", Errorcode: 8,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD"},
	},
	{
		Test: "tests/data/test3218", Name: "FTP with CR control character in PWD response path",
		URL:    "ftp://127.0.0.1:8992/3218",
		Server: "ftp", Errorcode: 8,
		Commands: []string{"USER anonymous", "PASS ftp@example.com", "PWD"},
	},
}
