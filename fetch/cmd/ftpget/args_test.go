package main

import (
	"io"
	"slices"
	"strings"
	"testing"
)

// testSpecs is a small flag table: -s and -S booleans, -o a value, and
// the long names of each.
func testSpecs(got *[]string) []flagSpec {
	on := func(name string) func(bool) error {
		return func(v bool) error {
			if v {
				*got = append(*got, name)
			} else {
				*got = append(*got, "no-"+name)
			}
			return nil
		}
	}
	set := func(name string) func(string) error {
		return func(v string) error { *got = append(*got, name+"="+v); return nil }
	}
	return []flagSpec{
		{short: 's', long: []string{"silent"}, on: on("silent")},
		{short: 'S', long: []string{"show-error"}, on: on("show-error")},
		{short: 'o', long: []string{"output"}, set: set("output")},
		{short: 'C', long: []string{"continue-at"}, set: set("continue-at")},
		{short: '#', long: []string{"progress-bar"}, on: on("progress-bar")},
		{long: []string{"verbose"}, on: on("verbose")},
	}
}

// TestParseCommandLineAsCurl: curl's command line (curl(1),
// "OPTIONS"; src/tool_getparam.c): letters share a dash, a letter that
// takes a value takes the rest of its word or the next word, "--"
// ends the flags, "-" is an argument, --no-NAME turns a boolean off.
func TestParseCommandLineAsCurl(t *testing.T) {
	for _, c := range []struct {
		args  []string
		flags []string
		rest  []string
	}{
		{[]string{"-sS", "u"}, []string{"silent", "show-error"}, []string{"u"}},
		{[]string{"-sSo", "f", "u"}, []string{"silent", "show-error", "output=f"}, []string{"u"}},
		{[]string{"-ofile", "u"}, []string{"output=file"}, []string{"u"}},
		{[]string{"-C-", "-o", "f", "u"}, []string{"continue-at=-", "output=f"}, []string{"u"}},
		{[]string{"-C", "-", "u"}, []string{"continue-at=-"}, []string{"u"}},
		{[]string{"u1", "--output", "f", "u2"}, []string{"output=f"}, []string{"u1", "u2"}},
		{[]string{"--output=f", "u"}, []string{"output=f"}, []string{"u"}},
		{[]string{"-#", "u"}, []string{"progress-bar"}, []string{"u"}},
		{[]string{"--no-silent", "u"}, []string{"no-silent"}, []string{"u"}},
		{[]string{"-s", "--", "-o", "--x"}, []string{"silent"}, []string{"-o", "--x"}},
		{[]string{"-", "u"}, nil, []string{"-", "u"}},
		{[]string{"-o", "-s", "u"}, []string{"output=-s"}, []string{"u"}},
	} {
		var got []string
		rest, err := parseCommandLine(c.args, testSpecs(&got))
		if err != nil || !slices.Equal(got, c.flags) || !slices.Equal(rest, c.rest) {
			t.Errorf("%q: flags %q, rest %q, %v; want %q, %q", c.args, got, rest, err, c.flags, c.rest)
		}
	}
}

// TestUnknownFlagNamedAsTypedWithTheNearest: an unknown flag is named
// as typed, with the nearest known one (DESIGN: "--verbose, not
// -verbose"); a missing value names its flag; a boolean given a value
// is refused.
func TestUnknownFlagNamedAsTypedWithTheNearest(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--verbos", "u"}, "unknown flag --verbos (did you mean --verbose?)"},
		{[]string{"-verbose", "u"}, "unknown flag -verbose (did you mean --verbose?)"},
		{[]string{"--outptu", "f"}, "unknown flag --outptu (did you mean --output?)"},
		{[]string{"-sX", "u"}, "unknown flag -X"},
		{[]string{"--zzzzzzzzzz", "u"}, "unknown flag --zzzzzzzzzz"},
		{[]string{"-o"}, "-o needs a value"},
		{[]string{"-so"}, "-o needs a value"},
		{[]string{"--output"}, "--output needs a value"},
		{[]string{"--silent=yes"}, `--silent takes no value ("--silent=yes")`},
		{[]string{"--no-output", "x"}, "unknown flag --no-output (did you mean --output?)"},
	} {
		var got []string
		_, err := parseCommandLine(c.args, testSpecs(&got))
		if err == nil || err.Error() != c.msg {
			t.Errorf("%q: %v; want %q", c.args, err, c.msg)
		}
	}
}

// TestEditDistance: Levenshtein's distance, the measure of "nearest".
func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"verbos", "verbose", 1}, {"kitten", "sitting", 3}, {"outptu", "output", 2}, {"", "abc", 3}} {
		if d := editDistance(c.a, c.b); d != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}

// TestHelpListsEveryFlag: -h lists every flag the command reads
// (DESIGN: "-h/--help listing every flag"), by its letter and its
// long names.
func TestHelpListsEveryFlag(t *testing.T) {
	var o options
	for _, f := range o.flagSpecs(&parseState{}) {
		if f.short != 0 && !strings.Contains(usage, "-"+string(f.short)+",") && !strings.Contains(usage, "  -"+string(f.short)+" ") {
			t.Errorf("the help lacks -%c", f.short)
		}
		for _, l := range f.long {
			if !strings.Contains(usage, "--"+l+" ") && !strings.Contains(usage, "--"+l+"\n") && !strings.Contains(usage, "--"+l+",") {
				t.Errorf("the help lacks --%s", l)
			}
		}
	}
	r := runIn(t, "", "-h")
	r.want(t, 0, usage)
}

// TestVersion: --version and -V print the version and the protocols,
// and exit 0 without a URL, as curl's.
func TestVersion(t *testing.T) {
	for _, flag := range []string{"--version", "-V"} {
		r := runIn(t, "", flag)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "ftpget ") || !strings.Contains(r.stdout, "\nProtocols: ftp ftps\n") {
			t.Errorf("%s: exit %d, stdout %q", flag, r.code, r.stdout)
		}
	}
}

// TestNetworkFlags: curl's letters and names for active mode and HTTP
// proxies (curl(1): -P/--ftp-port, -p/--proxytunnel, --ftp-pasv,
// --disable-epsv) set what network.go hands the Client; --ftp-pasv
// undoes an --ftp-port before it, as in curl, and -P "" is refused.
func TestNetworkFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want networkFlags
	}{
		{[]string{"-P", "-"}, networkFlags{ftpPort: "-"}},
		{[]string{"--ftp-port", "127.0.0.1:40000-40009"}, networkFlags{ftpPort: "127.0.0.1:40000-40009"}},
		{[]string{"-P-", "--ftp-pasv"}, networkFlags{}},
		{[]string{"-p"}, networkFlags{tunnel: true}},
		{[]string{"--proxytunnel", "--disable-epsv"}, networkFlags{tunnel: true, disableEPSV: true}},
	} {
		o, code := parseArgs(append(c.args, ftpURL("text.txt")), io.Discard, io.Discard)
		if code != exitOK || o.network != c.want {
			t.Errorf("%q: exit %d, %+v; want %+v", c.args, code, o, c.want)
		}
	}
	if r := runIn(t, "", "-P", "", ftpURL("text.txt")); r.code != exitUsage || !strings.Contains(r.stderr, `-P: takes an address`) {
		t.Errorf(`-P "": exit %d, stderr %q; want 2`, r.code, r.stderr)
	}
}

// TestFlagValuesRefused: values that cannot be right are usage errors
// naming the flag (exit 2, curl's for a bad option value).
func TestFlagValuesRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-r", "9-1", ftpURL("text.txt")}, `-r: "9-1" ends before it begins`},
		{[]string{"-r", "x", ftpURL("text.txt")}, "-r: takes A-B"},
		{[]string{"-r", "0-1,5-6", ftpURL("text.txt")}, "one range for an ftp URL"},
		{[]string{"-m", "-1", ftpURL("text.txt")}, "-m: takes a number of seconds"},
		{[]string{"--limit-rate", "fast", ftpURL("text.txt")}, "--limit-rate: takes bytes a second"},
		{[]string{"--retry", "x", ftpURL("text.txt")}, "--retry: takes a number"},
		{[]string{"-Q", "NOOP\r\nDELE x", ftpURL("text.txt")}, "holds CR, LF or NUL"},
		{[]string{"-Q", "+NOOP", ftpURL("text.txt")}, "not between the CWDs and RETR"},
		{[]string{"--ftp-create-dirs", ftpURL("text.txt")}, "--ftp-create-dirs makes the server's directories of an upload"},
		{[]string{"-r", "0-1", "-C", "-", "-o", "x", ftpURL("text.txt")}, "-r takes a range of a download"},
		{[]string{"--parallel-max", "0", "-Z", ftpURL("text.txt")}, "--parallel-max takes 1 to 300"},
	} {
		r := runIn(t, "", c.args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, c.msg) || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, r.code, r.stderr, c.msg)
		}
	}
}

// TestRateAndRangeSyntax: --limit-rate's suffixes are powers of 1024
// (curl(1), "--limit-rate"); -r's forms (curl(1), "--range").
func TestRateAndRangeSyntax(t *testing.T) {
	for s, want := range map[string]int64{"100": 100, "1k": 1024, "200K": 200 << 10, "1M": 1 << 20, "1.5m": 3 << 19, "1G": 1 << 30} {
		if n, err := parseRate(s); err != nil || n != want {
			t.Errorf("parseRate(%q) = %d, %v; want %d", s, n, err, want)
		}
	}
	for s, want := range map[string]byteRange{"0-99": {0, 99, false}, "100-": {100, -1, false}, "-500": {500, -1, true}, "7-7": {7, 7, false}} {
		if r, err := parseRange(s); err != nil || *r != want {
			t.Errorf("parseRange(%q) = %v, %v; want %v", s, r, err, want)
		}
	}
	for _, s := range []string{"-", "", "a-b", "-0", "+1-2", "1-+2"} {
		if _, err := parseRange(s); err == nil {
			t.Errorf("parseRange(%q) took it", s)
		}
	}
}
