package main

import (
	"bytes"
	"crypto/sha256"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/spf13/afero"
)

// The comparison with curl (issue 33, point 2; DESIGN: "Exit codes as
// curl's for the same case on the same server; a test runs each case
// with both"): each command line runs with curl and with ftpget
// against ftpserverlib, each on a fresh copy of one tree, and their
// exit statuses and bytes (standard output, the files written here,
// the files uploaded) must be equal, except where the case states the
// difference and ftpget's own status.
//
// go test -run TestCurlComparison -args -curl-table ../../../docs/ftpget.md
// writes the table of docs/ftpget.md's "Against curl" (between its
// curl-table markers).

var curlTable = flag.String("curl-table", "", "write the curl comparison's table, in Markdown, to this file")

// A curlCase is one command line. In args, {u} is the server's root
// URL for anonymous, {l} the same with the name localhost, {a} for the
// test user with the password, {netrc} a file holding netrc.
type curlCase struct {
	args   []string
	local  map[string]string // files made here before the run
	netrc  string
	files  []string // the files here whose bytes are compared
	server []string // the files on the server whose bytes are compared
	// differs, when not "", says why ftpget differs from curl; code is
	// then ftpget's own status, which the test checks.
	differs string
	code    int
}

func curlCases() []curlCase {
	const nrc = "machine 127.0.0.1 login ftpurl password ftpurl-secret\n"
	return []curlCase{
		// Downloads.
		{args: []string{"{u}/text.txt"}},
		{args: []string{"{u}/a/top.txt"}},
		{args: []string{"{u}/a/b/deep.txt"}},
		{args: []string{"{u}/empty.txt"}},
		{args: []string{"{u}/sp%20ace.txt"}},
		{args: []string{"{u}/text.txt;type=a"}},
		{args: []string{"-o", "out", "{u}/text.txt"}, files: []string{"out"}},
		{args: []string{"-O", "{u}/a/top.txt"}, files: []string{"top.txt"}},
		{args: []string{"-o", "-", "{u}/binary.bin"}},
		{args: []string{"-o", "out", "{u}/big.bin"}, files: []string{"out"}},
		{args: []string{"{u}/text.txt", "{u}/a/top.txt"}},
		{args: []string{"-o", "o1", "-o", "o2", "{u}/text.txt", "{u}/a/top.txt"}, files: []string{"o1", "o2"}},
		{args: []string{"--remote-name-all", "{u}/text.txt", "{u}/a/top.txt"}, files: []string{"text.txt", "top.txt"}},
		{args: []string{"-Z", "-o", "o1", "-o", "o2", "{u}/text.txt", "{u}/a/top.txt"}, files: []string{"o1", "o2"}},
		{args: []string{"--parallel", "--parallel-max", "1", "-o", "o1", "-o", "o2", "{u}/text.txt", "{u}/binary.bin"}, files: []string{"o1", "o2"}},
		{args: []string{"--create-dirs", "-o", "x/y/out", "{u}/text.txt"}, files: []string{"x/y/out"}},
		{args: []string{"-o", "x/y/out", "{u}/text.txt"}},
		{args: []string{"-R", "-o", "out", "{u}/text.txt"}, files: []string{"out"}},
		// Errors.
		{args: []string{"{u}/nope.txt"}},
		{args: []string{"{u}/nodir/x.txt"}},
		{args: []string{"{u}/text.txt/"}},
		{args: []string{"{u}/text.txt/x"}},
		{args: []string{"-s", "{u}/nope.txt"}},
		{args: []string{"-sS", "{u}/nope.txt"}},
		{args: []string{"-o", "out", "{u}/nope.txt", "{u}/text.txt"}},
		{args: []string{"ftp://127.0.0.1:1/x"}},
		{args: []string{"ftp://127.0.0.1:1/x", "--connect-timeout", "5"}},
		{args: []string{"--retry", "2", "{u}/nope.txt"}},
		{args: []string{"-m", "20", "{u}/text.txt"}},
		{args: []string{"--max-filesize", "5", "{u}/text.txt"}},
		{args: []string{"--max-filesize", "18", "{u}/text.txt"}},
		{args: []string{"--max-filesize", "1K", "-o", "out", "{u}/big.bin"}, files: []string{"out"}},
		{args: []string{"-4", "{l}/text.txt"}},
		{args: []string{"-6", "{l}/text.txt"}},
		{args: []string{"--ipv4", "-l", "{l}/a/"}},
		// Listings.
		{args: []string{"-l", "{u}/"}},
		{args: []string{"-l", "{u}/a/"}},
		{args: []string{"--list-only", "{u}/a/b/"}},
		{args: []string{"{u}/a/;type=d"}},
		{args: []string{"-l", "{u}/text.txt"}},
		// Ranges and resuming.
		{args: []string{"-r", "0-4", "{u}/text.txt"}},
		{args: []string{"-r", "5-", "{u}/text.txt"}},
		{args: []string{"-r", "-3", "{u}/text.txt"}},
		{args: []string{"-r", "0-0", "{u}/binary.bin"}},
		{args: []string{"--range", "10-19", "-o", "out", "{u}/binary.bin"}, files: []string{"out"}},
		{args: []string{"-r", "100-200", "{u}/text.txt"}},
		{args: []string{"-r", "4-100", "{u}/text.txt"}},
		{args: []string{"-C", "5", "-o", "out", "{u}/text.txt"}, files: []string{"out"}},
		{args: []string{"-C", "-", "-o", "out", "{u}/text.txt"}, local: map[string]string{"out": "line"}, files: []string{"out"}},
		{args: []string{"-C", "-", "-o", "out", "{u}/text.txt"}, local: map[string]string{"out": strings.Repeat("x", 40)}, files: []string{"out"}},
		// Logins.
		{args: []string{"-u", "ftpurl:ftpurl-secret", "{u}/text.txt"}},
		{args: []string{"--user", "ftpurl:wrong", "{u}/text.txt"}},
		{args: []string{"-u", "nobody:x", "{u}/text.txt"}},
		{args: []string{"{a}/text.txt"}},
		{args: []string{"--netrc-file", "{netrc}", "{u}/text.txt"}, netrc: nrc},
		{args: []string{"-n", "--netrc-file", "{netrc}", "{u}/text.txt"}, netrc: "machine 127.0.0.1 login ftpurl password wrong\n"},
		{args: []string{"--netrc-optional", "--netrc-file", "{netrc}", "{u}/text.txt"}, netrc: "default login ftpurl password ftpurl-secret\n"},
		{args: []string{"--netrc-file", "{netrc}", "{u}/text.txt"}, netrc: "macdef init\ncd pub\n\n" + nrc},
		{args: []string{"--netrc-file", "{netrc}", "{u}/text.txt"}, netrc: "machine other.example login x password y\n"},
		{args: []string{"--netrc-file", "missing-netrc", "{u}/text.txt"}},
		{args: []string{"-u", "nobody:x", "--netrc-file", "{netrc}", "{u}/text.txt"}, netrc: nrc},
		// -Q.
		{args: []string{"-Q", "NOOP", "{u}/text.txt"}},
		{args: []string{"-Q", "DELE nope.txt", "{u}/text.txt"}},
		{args: []string{"-Q", "*DELE nope.txt", "{u}/text.txt"}},
		{args: []string{"-Q", "-NOOP", "{u}/text.txt"}},
		{args: []string{"-Q", "-DELE nope.txt", "{u}/text.txt"}},
		{args: []string{"-Q", "DELE text.txt", "{a}/a/top.txt"}, server: []string{"text.txt"}},
		// Uploads.
		{args: []string{"-T", "up.txt", "{a}/up.txt"}, local: map[string]string{"up.txt": "uploaded\n"}, server: []string{"up.txt"}},
		{args: []string{"-T", "up.txt", "{a}/a/"}, local: map[string]string{"up.txt": "uploaded\n"}, server: []string{"a/up.txt"}},
		{args: []string{"-T", "up.txt", "{a}/nodir/up.txt"}, local: map[string]string{"up.txt": "uploaded\n"}},
		{args: []string{"-T", "up.txt", "--ftp-create-dirs", "{a}/new/dir/up.txt"}, local: map[string]string{"up.txt": "uploaded\n"}, server: []string{"new/dir/up.txt"}},
		{args: []string{"-T", "up.txt", "{u}/up.txt"}, local: map[string]string{"up.txt": "uploaded\n"}},
		{args: []string{"-T", "missing.txt", "{a}/up.txt"}},
		{args: []string{"--limit-rate", "100K", "-T", "up.bin", "{a}/up.bin"}, local: map[string]string{"up.bin": strings.Repeat("0123456789", 2000)}, server: []string{"up.bin"}},
		// Output and flags.
		{args: []string{"-v", "{u}/text.txt"}},
		{args: []string{"-s", "-o", "/dev/null", "{u}/text.txt"}},
		{args: []string{"--limit-rate", "200K", "-o", "out", "{u}/big.bin"}, files: []string{"out"}},
		{args: []string{"--no-such-flag", "{u}/text.txt"}},
		// -w.
		{args: []string{"-o", "/dev/null", "-w", "%{response_code} %{size_download} %{exitcode}\n", "{u}/text.txt"}},
		{args: []string{"-o", "/dev/null", "-w", "%{response_code} %{size_download} %{exitcode}\n", "{u}/nope.txt"}},
		{args: []string{"-w", "%{http_code}\n", "{u}/nodir/x.txt"}},
		{args: []string{"-w", "%{response_code}\n", "-u", "ftpurl:wrong", "{u}/text.txt"}},
		{args: []string{"-w", "%{response_code}\n", "-l", "{u}/a/"}},
		{args: []string{"-w", "a\tb %% [%{filename_effective}]\n", "-o", "out", "{u}/text.txt"}, files: []string{"out"}},
		{args: []string{"-w", "%{foo}x\n", "{u}/a/top.txt"}},
		{args: []string{"-w", "%{response_code} %{size_upload}\n", "-T", "up.txt", "{a}/up.txt"}, local: map[string]string{"up.txt": "uploaded\n"}, server: []string{"up.txt"}},
		{args: []string{"-w", "%{size_download}\n", "-r", "0-4", "{u}/big.bin"}},
		// What scripts pass to curl whatever the URL (ignored.go).
		{args: []string{"-fsSL", "{u}/text.txt"}},
		{args: []string{"-fsSL", "{u}/nope.txt"}},
		{args: []string{"-A", "agent/1", "-H", "X-A: b", "-e", "http://127.0.0.1/", "--compressed", "{u}/text.txt"}},
		{args: []string{"-g", "-N", "--tcp-nodelay", "--ftp-skip-pasv-ip", "--no-progress-meter", "{u}/a/top.txt"}},
		{args: []string{"-b", "c=1", "-j", "--fail-with-body", "--location", "{u}/binary.bin"}},
		{args: []string{"-o"}},
		{args: []string{"-I", "{u}/text.txt"}, differs: "-I prints ftpget's facts of the name (Type, Content-Length, Last-Modified), not curl's header lines", code: 0},
		{args: []string{"{u}/a"}, differs: "a URL without a final / that names a directory is listed (RETR refused with 550, then LIST: the 2011 draft §3.2.3 (4d)); curl's RETR fails", code: 0},
	}
}

// compareDriver serves a tree: read-only to anonymous, writable to
// testUser.
type compareDriver struct{ root string }

func (d *compareDriver) GetSettings() (*ftpserver.Settings, error) {
	return &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30}, nil
}
func (d *compareDriver) ClientConnected(ftpserver.ClientContext) (string, error) {
	return "ftpget curl comparison", nil
}
func (d *compareDriver) ClientDisconnected(ftpserver.ClientContext) {}
func (d *compareDriver) AuthUser(_ ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	fs := afero.NewBasePathFs(afero.NewOsFs(), d.root)
	switch {
	case user == "anonymous":
		return afero.NewReadOnlyFs(fs), nil
	case user == testUser && pass == testPassword:
		return fs, nil
	}
	return nil, errors.New("login refused")
}
func (d *compareDriver) GetTLSConfig() (*tls.Config, error) { return nil, errors.New("no TLS") }

// compareTree makes the tree each run starts from.
func compareTree(t *testing.T, root string) {
	for name, data := range map[string]string{
		"text.txt":     textFile,
		"binary.bin":   string(binaryFile()),
		"big.bin":      string(bytes.Repeat(binaryFile(), 4<<10)),
		"empty.txt":    "",
		"sp ace.txt":   "space\n",
		"a/top.txt":    "top\n",
		"a/b/deep.txt": "deep\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, []byte(data), 0o644)
	}
	old := time.Date(2020, 2, 3, 4, 5, 6, 0, time.UTC)
	os.Chtimes(filepath.Join(root, "text.txt"), old, old)
}

// A curlRun is what one tool did with one case.
type curlRun struct {
	code   int
	out    []byte            // standard output
	files  map[string]string // the compared files' bytes ("(none)" when missing)
	mtimes map[string]time.Time
}

func (r curlRun) summary() string {
	s := fmt.Sprintf("%d bytes", len(r.out))
	if len(r.out) > 0 {
		s += fmt.Sprintf(" (sha256 %.12x)", sha256.Sum256(r.out))
	}
	if len(r.files) > 0 {
		s += fmt.Sprintf(", %d %s", len(r.files), plural(len(r.files), "file", "files"))
	}
	return s
}

// runCase runs c with tool (nil: ftpget, in-process) on a fresh server
// and directory.
func runCase(t *testing.T, c curlCase, curl string) curlRun {
	root := t.TempDir()
	compareTree(t, root)
	srv := ftpserver.NewFtpServer(&compareDriver{root: root})
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	defer func() { _ = srv.Stop(); <-done }()
	addr := srv.Addr()

	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("HOME", dir) // no ~/.netrc, no ~/.curlrc
	for name, data := range c.local {
		writeFile(t, filepath.Join(dir, name), []byte(data), 0o644)
	}
	netrc := filepath.Join(dir, "netrc")
	if c.netrc != "" {
		writeFile(t, netrc, []byte(c.netrc), 0o600)
	}
	args := make([]string, len(c.args))
	for i, a := range c.args {
		a = strings.ReplaceAll(a, "{u}", "ftp://"+addr)
		a = strings.ReplaceAll(a, "{l}", "ftp://localhost:"+addr[strings.LastIndex(addr, ":")+1:])
		a = strings.ReplaceAll(a, "{a}", "ftp://"+testUser+":"+testPassword+"@"+addr)
		a = strings.ReplaceAll(a, "{netrc}", netrc)
		args[i] = a
	}
	var r curlRun
	if curl != "" {
		cmd := exec.Command(curl, append([]string{"-q", "-s"}, args...)...)
		cmd.Dir = dir
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			r.code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		r.out = stdout.Bytes()
	} else {
		var stdout, stderr bytes.Buffer
		r.code = run(append([]string{"-s"}, args...), strings.NewReader(""), &stdout, &stderr, nil)
		r.out = stdout.Bytes()
	}
	r.files, r.mtimes = map[string]string{}, map[string]time.Time{}
	read := func(key, p string) {
		b, err := os.ReadFile(p)
		if err != nil {
			r.files[key] = "(none)"
			return
		}
		r.files[key] = string(b)
		if fi, err := os.Stat(p); err == nil {
			r.mtimes[key] = fi.ModTime()
		}
	}
	for _, f := range c.files {
		read(f, filepath.Join(dir, f))
	}
	for _, f := range c.server {
		read("server:"+f, filepath.Join(root, f))
	}
	return r
}

// TestCurlComparison runs each case with curl and with ftpget and
// compares their exit statuses and bytes.
func TestCurlComparison(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed: nothing to compare with")
	}
	var table strings.Builder
	table.WriteString("| # | command line | curl 7.88 | ftpget | same |\n|---|---|---|---|---|\n")
	same, differ := 0, 0
	for i, c := range curlCases() {
		line := strings.Join(c.args, " ")
		ok := t.Run(fmt.Sprintf("%02d", i+1), func(t *testing.T) {
			want := runCase(t, c, curl)
			got := runCase(t, c, "")
			cell := func(r curlRun) string { return fmt.Sprintf("exit %d, %s", r.code, r.summary()) }
			if c.differs != "" {
				if got.code != c.code {
					t.Errorf("%s: ftpget exit %d, want %d (%s)", line, got.code, c.code, c.differs)
				}
				fmt.Fprintf(&table, "| %d | `%s` | %s | %s | no: %s |\n", i+1, line, cell(want), cell(got), c.differs)
				differ++
				return
			}
			if got.code != want.code || !bytes.Equal(got.out, want.out) {
				t.Errorf("%s: ftpget exit %d, stdout %q; curl exit %d, stdout %q", line, got.code, clip(string(got.out)), want.code, clip(string(want.out)))
			}
			for k, v := range want.files {
				if got.files[k] != v {
					t.Errorf("%s: %s holds %q after ftpget, %q after curl", line, k, clip(got.files[k]), clip(v))
				}
				if slices.Contains(c.args, "-R") && !got.mtimes[k].Equal(want.mtimes[k]) {
					t.Errorf("%s: %s's time is %v after ftpget, %v after curl", line, k, got.mtimes[k], want.mtimes[k])
				}
			}
			fmt.Fprintf(&table, "| %d | `%s` | %s | %s | yes |\n", i+1, line, cell(want), cell(got))
			same++
		})
		if !ok {
			fmt.Fprintf(&table, "| %d | `%s` | | | **FAILED** |\n", i+1, line)
		}
	}
	fmt.Fprintf(&table, "\n%d command lines: %d alike, %d with a stated difference, %d failed.\n", len(curlCases()), same, differ, len(curlCases())-same-differ)
	if *curlTable != "" {
		if err := replaceBetween(*curlTable, "<!-- curl-table -->\n", "<!-- /curl-table -->", table.String()); err != nil {
			t.Fatal(err)
		}
	}
}

// replaceBetween replaces the text of the file name between the markers
// begin and end with text.
func replaceBetween(name, begin, end, text string) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q ... %q", name, begin, end)
	}
	return os.WriteFile(name, []byte(s[:i+len(begin)]+text+s[j:]), 0o644)
}
