package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNetrcRules: curl's .netrc rules (curl(1), "--netrc"; lib/netrc.c):
// machine entries compared without case, the first that matches taken,
// default only when no machine entry is, a URL's user picking that
// user's entry or none, macdef skipped to the empty line, quoted words,
// comment lines.
func TestNetrcRules(t *testing.T) {
	for _, c := range []struct {
		name, text, host, user string
		want                   netrcLogin
		found                  bool
	}{
		{"Machine", "machine h.example login alice password s3cret\n", "h.example", "", netrcLogin{"alice", "s3cret", true}, true},
		{"OneLinePerWord", "machine\nh.example\nlogin\nalice\npassword\ns3cret\n", "h.example", "", netrcLogin{"alice", "s3cret", true}, true},
		{"CaseOfTheHost", "machine H.Example login alice password p\n", "h.example", "", netrcLogin{"alice", "p", true}, true},
		{"OtherHost", "machine other login alice password p\n", "h.example", "", netrcLogin{}, false},
		{"FirstMatchWins", "machine h login a password 1\nmachine h login b password 2\n", "h", "", netrcLogin{"a", "1", true}, true},
		{"UserPicksItsEntry", "machine h login a password 1\nmachine h login b password 2\n", "h", "b", netrcLogin{"b", "2", true}, true},
		{"UserWithoutEntry", "machine h login a password 1\n", "h", "carol", netrcLogin{}, false},
		{"Default", "machine other login x password y\ndefault login d password dp\n", "h", "", netrcLogin{"d", "dp", true}, true},
		{"MachineBeforeDefault", "default login d password dp\nmachine h login a password 1\n", "h", "", netrcLogin{"a", "1", true}, true},
		{"Macdef", "macdef init\nmachine h login evil password evil\n\nmachine h login a password 1\n", "h", "", netrcLogin{"a", "1", true}, true},
		{"Quoted", `machine h login "al ice" password "p\"w\\d"` + "\n", "h", "", netrcLogin{"al ice", `p"w\d`, true}, true},
		{"Comment", "# machine h login c password c\nmachine h login a password 1\n", "h", "", netrcLogin{"a", "1", true}, true},
		{"NoPassword", "machine h login a\n", "h", "", netrcLogin{"a", "", false}, true},
		{"AccountIgnored", "machine h login a account x password 1\n", "h", "", netrcLogin{"a", "1", true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, found, err := parseNetrc("netrc", c.text, c.host, c.user)
			if err != nil || found != c.found || got != c.want {
				t.Errorf("%+v, %v, %v; want %+v, %v", got, found, err, c.want, c.found)
			}
		})
	}
}

// TestNetrcRefusesLineBreaks: a login or password holding CR, LF or
// NUL (a quoted \n) is refused, naming the file and line: it would end
// the FTP command (RFC 959 §4.1.3). A word without its value, or an
// open quote, is refused too.
func TestNetrcRefusesLineBreaks(t *testing.T) {
	for _, text := range []string{
		"machine h login a password \"x\\nDELE f\"\n",
		"machine h login \"a\\r\" password x\n",
		"machine h login a password",
		"machine h login \"a password x\n",
	} {
		_, _, err := parseNetrc("f.netrc", text, "h", "")
		var ne *netrcError
		if !errors.As(err, &ne) || !strings.HasPrefix(err.Error(), "f.netrc:") {
			t.Errorf("%q: %v; want a *netrcError naming the file", text, err)
		}
	}
}

// TestNetrcLogin: -n, --netrc-file and --netrc-optional log in with the
// entry (curl's --netrc); -u wins over it; a missing file is no entry
// and no error, as curl's; a file readable by others is a warning.
func TestNetrcLogin(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	good := "machine 127.0.0.1 login " + testUser + " password " + testPassword + "\n"
	file := filepath.Join(dir, "n")
	writeFile(t, file, []byte(good), 0o600)
	runIn(t, "", "--netrc-file", file, ftpURL("text.txt")).want(t, 0, textFile)
	writeFile(t, filepath.Join(dir, ".netrc"), []byte(good), 0o600)
	runIn(t, "", "-n", ftpURL("text.txt")).want(t, 0, textFile)
	runIn(t, "", "--netrc-optional", ftpURL("text.txt")).want(t, 0, textFile)
	runIn(t, "", "-n", "-u", testUser+":wrong", ftpURL("text.txt")).want(t, exitLogin, "")
	runIn(t, "", "--netrc-file", filepath.Join(dir, "missing"), ftpURL("text.txt")).want(t, 0, textFile)

	writeFile(t, file, []byte("machine 127.0.0.1 login "+testUser+" password wrong\n"), 0o644)
	if err := os.Chmod(file, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, "", "--netrc-file", file, ftpURL("text.txt"))
	r.want(t, exitLogin, "")
	if !strings.Contains(r.stderr, "may be read by other users") || !strings.Contains(r.stderr, "the server refused the password (PASS xxxxx: 530") {
		t.Errorf("stderr %q; want the warning and the refused PASS", r.stderr)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	writeFile(t, file, []byte("machine 127.0.0.1 login a password \"x\\ny\"\n"), 0o600)
	runIn(t, "", "--netrc-file", file, ftpURL("text.txt")).want(t, exitUsage, "")
}

// TestAnonymousNoteWhenNetrcHasTheHost: without -n, ftpget logs in
// anonymously as curl does, and says so once when ~/.netrc has an entry
// for the host (issue 33: "~/.netrc is ignored without a word"); -s
// silences it; no note when ~/.netrc has none.
func TestAnonymousNoteWhenNetrcHasTheHost(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	r := runIn(t, "", ftpURL("text.txt"))
	if r.code != 0 || r.stderr != "" {
		t.Errorf("no ~/.netrc: exit %d, stderr %q", r.code, r.stderr)
	}
	writeFile(t, filepath.Join(dir, ".netrc"), []byte("machine 127.0.0.1 login x password y\n"), 0o600)
	r = runIn(t, "", ftpURL("text.txt"), ftpURL("a/top.txt"))
	if r.code != 0 || strings.Count(r.stderr, "anonymously") != 1 || !strings.Contains(r.stderr, "-n (--netrc)") {
		t.Errorf("exit %d, stderr %q; want one note naming -n", r.code, r.stderr)
	}
	if r := runIn(t, "", "-s", ftpURL("text.txt")); r.stderr != "" {
		t.Errorf("-s: stderr %q", r.stderr)
	}
}
