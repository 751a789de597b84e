package main

// Tests of --mirror (issue 26, points 3 and 4), on ftpserverlib (in
// process; plain, explicit and implicit TLS) and pyftpdlib (plain and
// explicit TLS), over a tree that the tests make: the "walk/" tree of
// the fetch tests (its odd names, a FIFO, links to a file and to a
// directory, two loops, an unreadable directory, a file 40 days
// ahead). The Debian servers (vsftpd, ProFTPD, Pure-FTPd) run the same
// mirror in the fetch tests: TestMirrorCommandOnServers in
// ../../mirror_cmd_test.go, which builds this command.

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/spf13/afero"
)

// mirrorFiles are the regular files of the mirror tree, by path, with
// their content; buildMirrorTree makes them.
var mirrorFiles = map[string]string{
	"plain.txt":      "plain",
	"with space.txt": "space",
	"100%.txt":       "percent",
	"x;type=d":       "typecode",
	`back\slash.txt`: "backslash",
	"-lead.txt":      "dash",
	"ünï.txt":        "utf-8",
	"\xff\xfe.bin":   "latin-1",
	"old.txt":        "old",
	"future.txt":     "future",
	"empty.txt":      "",
	"sub/deep.txt":   "deep",
	"locked/hidden":  "hidden",
}

// buildMirrorTree makes the tree under dir: fetch's buildWalkTree,
// with an empty file, and n big files of size bytes each under "big/"
// (for an interrupted transfer).
func buildMirrorTree(t *testing.T, dir string, n, size int) {
	t.Helper()
	files := map[string]string{}
	for k, v := range mirrorFiles {
		files[k] = v
	}
	for i := range n {
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(i*7 + j*13 + j>>8)
		}
		files[fmt.Sprintf("big/f%d.bin", i)] = string(b)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, []byte(text), 0o644)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	future := time.Now().Add(40 * 24 * time.Hour).Truncate(time.Second)
	for name, tm := range map[string]time.Time{"old.txt": old, "future.txt": future} {
		if err := os.Chtimes(filepath.Join(dir, name), tm, tm); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"link-file": "plain.txt", "link-dir": "sub", "loop": ".", "sub/up": ".."} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	locked := filepath.Join(dir, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
}

// serveTree starts ftpserverlib on tree, with TLS when config is not
// nil, slowly (each read of a file sleeping) when slow.
func serveTree(t *testing.T, tree string, config *tls.Config, mode ftpserver.TLSRequirement, slow bool) string {
	t.Helper()
	d := &driver{root: tree, tls: config, settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30, TLSRequired: mode}}
	var main ftpserver.MainDriver = d
	if slow {
		main = slowDriver{d}
	}
	srv := ftpserver.NewFtpServer(main)
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	t.Cleanup(func() { _ = srv.Stop(); <-done })
	return srv.Addr()
}

// slowDriver serves files that take 20 ms per read of 4 KiB or less.
type slowDriver struct{ *driver }

func (d slowDriver) AuthUser(cc ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	fs, err := d.driver.AuthUser(cc, user, pass)
	if err != nil {
		return nil, err
	}
	return slowFs{fs.(afero.Fs)}, nil
}

type slowFs struct{ afero.Fs }

func (s slowFs) Open(name string) (afero.File, error) {
	f, err := s.Fs.Open(name)
	return slowFile{f}, err
}

func (s slowFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := s.Fs.OpenFile(name, flag, perm)
	return slowFile{f}, err
}

type slowFile struct{ afero.File }

func (f slowFile) Read(b []byte) (int, error) {
	time.Sleep(20 * time.Millisecond)
	return f.File.Read(b[:min(len(b), 4096)])
}

// pyftpdlib starts testdata/pyftpd.py of the fetch tests on tree, with
// explicit TLS when certFile is not "". It returns "" when
// /usr/bin/python3 has no pyftpdlib, and fails the test then with
// CI=true.
func pyftpdlib(t *testing.T, tree, certFile, keyFile string) string {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import pyftpdlib").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pyftpdlib: %v", err)
		}
		t.Logf("no pyftpdlib, its tests skipped: %v", err)
		return ""
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	pasv := 40000 + port%20000
	args := []string{"../../testdata/pyftpd.py", strconv.Itoa(port), tree, strconv.Itoa(pasv), strconv.Itoa(pasv + 99), testUser, testPassword}
	if certFile != "" {
		args = append(args, certFile, keyFile)
	}
	cmd := exec.Command("/usr/bin/python3", args...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			line, _ := bufio.NewReader(c).ReadString('\n')
			c.Close()
			if strings.HasPrefix(line, "220") {
				return addr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pyftpdlib on %s did not greet: %v", addr, err)
		}
	}
}

// certFiles writes config's certificate and key as PEM files.
func certFiles(t *testing.T, config *tls.Config) (certFile, keyFile string) {
	t.Helper()
	dir := t.TempDir()
	cert := config.Certificates[0]
	key, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	writeFile(t, certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600)
	writeFile(t, keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key}), 0o600)
	return certFile, keyFile
}

// A mirrorTarget is one server serving the mirror tree: the URL of its
// root and the flags it needs.
type mirrorTarget struct {
	name string
	url  string
	args []string
	// lossy: the server sends "?" for a name's bytes that are not
	// UTF-8 (pyftpdlib 1.5.7), so that file cannot be fetched.
	lossy bool
}

func mirrorTargets(t *testing.T, tree string) []mirrorTarget {
	config, caFile := testCA(t)
	certFile, keyFile := certFiles(t, config)
	targets := []mirrorTarget{
		{name: "ftpserverlib", url: "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/"},
		{name: "ftpserverlib-explicit-tls", url: "ftp://" + serveTree(t, tree, config, ftpserver.MandatoryEncryption, false) + "/", args: []string{"--tls", "--cacert", caFile}},
		{name: "ftpserverlib-implicit-tls", url: "ftps://" + serveTree(t, tree, config, ftpserver.ImplicitEncryption, false) + "/", args: []string{"--cacert", caFile}},
	}
	if addr := pyftpdlib(t, tree, "", ""); addr != "" {
		targets = append(targets,
			mirrorTarget{name: "pyftpdlib", url: "ftp://" + addr + "/", lossy: true},
			mirrorTarget{name: "pyftpdlib-explicit-tls", url: "ftp://" + pyftpdlib(t, tree, certFile, keyFile) + "/", args: []string{"--tls", "--cacert", caFile}, lossy: true})
	}
	return targets
}

var summaryRE = regexp.MustCompile(`ftpget: mirror of \S+ in .*: (\d+) files \((\d+) bytes\) fetched, (?:(\d+) up to date, )?(\d+) directories; (\d+) skipped \((\d+) links, (\d+) of other types, (\d+) unsafe names\); (\d+) failed\n$`)

// summary returns the numbers of the summary line, the last of stderr:
// fetched, bytes, up to date, directories, skipped, links, others,
// unsafe, failed.
func summary(t *testing.T, stderr string) []int64 {
	t.Helper()
	m := summaryRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no summary line at the end of stderr %q", stderr)
	}
	var n []int64
	for _, s := range m[1:] {
		v, _ := strconv.ParseInt(s, 10, 64)
		n = append(n, v)
	}
	return n
}

// TestMirrorCopiesFilesAndDirectoriesOnly: DESIGN.md, "ftpget --mirror":
// "files and directories only (links are listed in the summary, never
// followed or made), names that are not safe local names skipped and
// reported"; each file byte for byte, under its own name (space, "%",
// ";type=d", leading "-", a backslash, non-ASCII, non-UTF-8), with the server's UTC
// time (the file 40 days ahead too); no link made and no loop entered;
// the FIFO not opened as a file; exit 0 when nothing failed. Then
// (issue 26, point 4) a second run with -N transfers nothing.
func TestMirrorCopiesFilesAndDirectoriesOnly(t *testing.T) {
	tree := t.TempDir()
	buildMirrorTree(t, tree, 0, 0)
	for _, target := range mirrorTargets(t, tree) {
		t.Run(target.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := append([]string{"--mirror", out, target.url, "--parallel-max", "3"}, target.args...)
			r := runIn(t, "", args...)
			wantCode, wantFailed := 0, int64(0)
			if target.lossy {
				wantCode, wantFailed = 78, 1 // "??.bin": 550
			}
			if r.code != wantCode || r.stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d", r.code, r.stdout, r.stderr, wantCode)
			}
			s := summary(t, r.stderr)
			// A backslash is part of a name on Unix, as io/fs takes it
			// (issue 36, point 2): copied, as lftp and wget copy it.
			if s[8] != wantFailed || s[7] != 0 {
				t.Errorf("summary %v: want %d failed, no unsafe name; stderr %q", s, wantFailed, r.stderr)
			}
			for name, text := range mirrorFiles {
				got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
				switch {
				case target.lossy && name == "\xff\xfe.bin":
					if err == nil {
						t.Errorf("%q was written", name)
					}
				case err != nil:
					t.Errorf("%q: %v", name, err)
				case string(got) != text:
					t.Errorf("%q holds %q, want %q", name, got, text)
				}
			}
			for _, name := range []string{"future.txt", "old.txt"} {
				src, _ := os.Stat(filepath.Join(tree, name))
				dst, err := os.Stat(filepath.Join(out, name))
				if err != nil || !dst.ModTime().Equal(src.ModTime().Truncate(time.Second)) {
					t.Errorf("%s: time %v, want the server's %v (%v)", name, dst.ModTime(), src.ModTime(), err)
				}
			}
			// No link made, no loop entered, no FIFO, no partial file.
			filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
				rel, _ := filepath.Rel(out, p)
				switch {
				case err != nil:
					t.Error(err)
				case d.Type()&^fs.ModeDir != 0:
					t.Errorf("%s is a %v", rel, d.Type())
				case strings.HasSuffix(rel, partSuffix):
					t.Errorf("%s left behind", rel)
				case strings.HasPrefix(rel, "loop/") || strings.HasPrefix(rel, "link-dir/") || strings.HasPrefix(rel, "sub/up/"):
					t.Errorf("%s: a link to a directory was followed", rel)
				case rel == "sub/up" || rel == "loop" || rel == "link-dir":
					// pyftpdlib's MLSD calls sub/up (a link to "..")
					// a directory, with the unique fact of the root;
					// Walk passes it as one and does not enter it.
					t.Logf("%s lists the link %s as a directory: made empty, not entered", target.name, rel)
				}
				return nil
			})
			// A link to a file: named as a link where the listing shows
			// one; ftpserverlib's and pyftpdlib's MLSD call it a file
			// (type=file), which the mirror cannot tell from one: then
			// the copy is a file with the target's bytes, never a link.
			if b, err := os.ReadFile(filepath.Join(out, "link-file")); err == nil {
				t.Logf("%s lists link-file as a file: copied as one (%q)", target.name, b)
				if string(b) != "plain" {
					t.Errorf("link-file holds %q", b)
				}
			} else if !strings.Contains(r.stderr, "not copied: link-file, a symbolic link") {
				t.Errorf("link-file neither copied nor named: %q", r.stderr)
			}

			// -N: nothing changed, nothing transferred.
			args = append([]string{"--newer", "--mirror", out, target.url}, target.args...)
			r2 := runIn(t, "", args...)
			s2 := summary(t, r2.stderr)
			// ftpserverlib's MLSD gives link-file the link's own size
			// (9), and RETR the target's bytes (5): -N, which compares
			// sizes, fetches it again each time.
			relisted := int64(0)
			if strings.HasPrefix(target.name, "ftpserverlib") {
				relisted = 1
			}
			if r2.code != wantCode || s2[0] != relisted || s2[1] != 5*relisted || s2[2] != s[0]-relisted {
				t.Errorf("-N again: exit %d, summary %v after %v; want no file fetched, %d up to date (stderr %q)", r2.code, s2, s, s[0], r2.stderr)
			}
		})
	}
}

// TestMirrorWritesNothingOutsideDir: nothing is written outside DIR,
// not even through a symbolic link already in DIR (the basic-ftp
// CVE-2026-27699 class; os.CopyFS writes through such a link): a link
// where a directory goes fails that directory (exit 23), a link where
// a file goes is replaced, not written through, and so is a link where
// the partial file goes, with -C - too.
func TestMirrorWritesNothingOutsideDir(t *testing.T) {
	tree := t.TempDir()
	buildMirrorTree(t, tree, 0, 0)
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/"
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	writeFile(t, victim, []byte("untouched"), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"sub":                         outside,
		"plain.txt":                   victim,
		"with space.txt" + partSuffix: victim,
		"100%.txt" + partSuffix:       "../../" + filepath.Base(outside) + "/victim.txt",
	} {
		if err := os.Symlink(target, filepath.Join(out, link)); err != nil {
			t.Fatal(err)
		}
	}
	r := runIn(t, "", "--mirror", out, "-C", "-", url)
	if r.code != exitWrite || summary(t, r.stderr)[8] != 1 || !strings.Contains(r.stderr, "sub exists in "+out+" and is a symbolic link") {
		t.Errorf("exit %d, stderr %q; want 23 and one failure: sub", r.code, r.stderr)
	}
	if got := readFile(t, victim); got != "untouched" {
		t.Errorf("written through a link: victim.txt holds %q", got)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("files made outside DIR: %v", entries)
	}
	for name, want := range map[string]string{"plain.txt": "plain", "with space.txt": "space", "100%.txt": "percent"} {
		if fi, err := os.Lstat(filepath.Join(out, name)); err != nil || !fi.Mode().IsRegular() || readFile(t, filepath.Join(out, name)) != want {
			t.Errorf("%s: %v, %v; want a file holding %q", name, fi, err, want)
		}
	}
}

// TestMirrorSkipsHostileNames: a server that lists "..", "../x",
// "/etc/x" or "a/b" (the basic-ftp CVE-2026-27699 class) has each
// skipped and named (fetch.ErrUnsafeName, filepath.IsLocal), never
// written, and the rest of the tree copied.
func TestMirrorSkipsHostileNames(t *testing.T) {
	addr := hostileServer(t, []string{
		"-rw-r--r--   1 ftp ftp 2 Jan 02  2024 ../escape.txt",
		"-rw-r--r--   1 ftp ftp 2 Jan 02  2024 /tmp/abs.txt",
		"-rw-r--r--   1 ftp ftp 2 Jan 02  2024 a/b.txt",
		"drwxr-xr-x   2 ftp ftp 2 Jan 02  2024 ..",
		"-rw-r--r--   1 ftp ftp 2 Jan 02  2024 ok.txt",
	})
	out := filepath.Join(t.TempDir(), "out")
	r := runIn(t, "", "--mirror", out, "ftp://"+addr+"/")
	s := summary(t, r.stderr)
	if r.code != 0 || s[0] != 1 || s[7] != 3 {
		t.Errorf("exit %d, summary %v; want 0, one file, three unsafe names (stderr %q)", r.code, s, r.stderr)
	}
	if got := readFile(t, filepath.Join(out, "ok.txt")); got != "ok" {
		t.Errorf("ok.txt holds %q", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(out))
	if len(entries) != 1 {
		t.Errorf("beside DIR: %v", entries)
	}
	for _, n := range []string{"../escape.txt", "/tmp/abs.txt", "a/b.txt"} {
		if !strings.Contains(r.stderr, "skipped "+n+": not a safe local name") {
			t.Errorf("%s not reported: %q", n, r.stderr)
		}
	}
}

// hostileServer is a scripted FTP server whose LIST of any directory
// gives lines and whose RETR of any file gives "ok".
func hostileServer(t *testing.T, lines []string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	acceptEach(t, l, func(c net.Conn) { serveHostile(c, lines) })
	return l.Addr().String()
}

func serveHostile(c net.Conn, lines []string) {
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	reply("220 hostile server")
	var data net.Listener
	send := func(text string) {
		if data == nil {
			reply("425 no data connection")
			return
		}
		reply("150 here it comes")
		if dc, err := data.Accept(); err == nil {
			io.WriteString(dc, text)
			dc.Close()
		}
		data.Close()
		data = nil
		reply("226 done")
	}
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch strings.ToUpper(verb) {
		case "USER":
			reply("331 password")
		case "PASS":
			reply("230 in")
		case "PWD":
			reply(`257 "/"`)
		case "CWD":
			reply("250 ok")
		case "TYPE":
			reply("200 ok")
		case "EPSV":
			data, _ = net.Listen("tcp", "127.0.0.1:0")
			reply(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", data.Addr().(*net.TCPAddr).Port))
		case "LIST":
			send(strings.Join(lines, "\r\n") + "\r\n")
		case "RETR":
			send("ok")
		case "SIZE":
			reply("213 2")
		case "MDTM":
			reply("213 20240102030405")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not here")
		}
	}
}

// TestMirrorInterruptedAndRerunFinishes (issue 26, point 4): a mirror
// killed midway leaves its partial files as NAME.ftpget-part, never
// under the file's name; the rerun with -C - -N resumes them (REST)
// and finishes the tree byte for byte, transferring less than all.
func TestMirrorInterruptedAndRerunFinishes(t *testing.T) {
	tree := t.TempDir()
	const files, size = 4, 96 << 10
	buildMirrorTree(t, tree, files, size)
	slow := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, true) + "/big/"
	out := filepath.Join(t.TempDir(), "out")
	cmd := ftpgetCommand("--mirror", out, "--parallel-max", "2", slow)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var partial string
	for deadline := time.Now().Add(20 * time.Second); partial == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		matches, _ := filepath.Glob(filepath.Join(out, "*"+partSuffix))
		for _, m := range matches {
			if fi, err := os.Stat(m); err == nil && fi.Size() > 8<<10 {
				partial = m
			}
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if partial == "" {
		t.Fatal("no partial file appeared")
	}
	whole, _ := filepath.Glob(filepath.Join(out, "*.bin"))
	for _, w := range whole {
		if fi, _ := os.Stat(w); fi.Size() != size {
			t.Errorf("%s, of %d bytes, is under its own name", w, fi.Size())
		}
	}
	fast := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/big/"
	r := runIn(t, "", "--mirror", out, "-C", "-", "--newer", fast)
	s := summary(t, r.stderr)
	if r.code != 0 || s[1] >= files*size {
		t.Errorf("rerun: exit %d, summary %v: want 0 and fewer than %d bytes (stderr %q)", r.code, s, files*size, r.stderr)
	}
	for i := range files {
		name := fmt.Sprintf("f%d.bin", i)
		want, _ := os.ReadFile(filepath.Join(tree, "big", name))
		if got, err := os.ReadFile(filepath.Join(out, name)); err != nil || string(got) != string(want) {
			t.Errorf("%s differs after the rerun (%d bytes, %v)", name, len(got), err)
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(out, "*"+partSuffix)); len(matches) != 0 {
		t.Errorf("partial files left: %q", matches)
	}
}

// TestMirrorExitStatus: exit 0 only when nothing failed; else the first
// failure's status, curl's where one fits: 23 a file that cannot be
// written in DIR (a directory stands at its name), 78 a URL that names
// nothing, 9 a URL that names a file; the summary line counts the
// failures.
func TestMirrorExitStatus(t *testing.T) {
	tree := t.TempDir()
	buildMirrorTree(t, tree, 0, 0)
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/"
	out := filepath.Join(t.TempDir(), "out")
	if err := os.MkdirAll(filepath.Join(out, "plain.txt", "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := runIn(t, "", "--mirror", out, url)
	if s := summary(t, r.stderr); r.code != exitWrite || s[8] != 1 || !strings.Contains("\n"+r.stderr, "\nftpget: plain.txt: renameat plain.txt.ftpget-part plain.txt: file exists\n") {
		t.Errorf("exit %d, stderr %q; want 23, one failure on one line, the summary", r.code, r.stderr)
	}
	r = runIn(t, "", "--mirror", out, url+"missing/")
	if s := summary(t, r.stderr); r.code != exitCWD || s[8] != 1 {
		t.Errorf("missing: exit %d, stderr %q; want 9, curl's for a directory it cannot enter", r.code, r.stderr)
	}
	// A URL that names a file: Walk gives the file as its root (issue
	// 36), and the mirror says there is no tree, with curl's 9 for a
	// path it cannot enter.
	r = runIn(t, "", "--mirror", out, url+"plain.txt")
	if s := summary(t, r.stderr); r.code != exitCWD || s[8] != 1 || !strings.Contains(r.stderr, "the URL names the file plain.txt, not a directory") {
		t.Errorf("a file: exit %d, stderr %q; want 9 and why", r.code, r.stderr)
	}
}

// TestMirrorFlags: --recursive mirrors into the URL's last segment,
// here (as lftp mirror does); the mirror flags' usage errors are exit
// 2, and -r, -P, -N are curl's letters (DESIGN, "The command, as
// familiar as curl"), not the mirror's.
func TestMirrorFlags(t *testing.T) {
	tree := t.TempDir()
	buildMirrorTree(t, tree, 0, 0)
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/"
	t.Chdir(t.TempDir())
	runIn(t, "", "--recursive", url+"sub").want(t, 0, "")
	if got := readFile(t, "sub/deep.txt"); got != "deep" {
		t.Errorf("-r: sub/deep.txt holds %q", got)
	}
	for _, args := range [][]string{
		{"--parallel-max", "0", url},
		{"--newer", url},
		{"-r", url + "sub"},
		{"-r", "0-9", "--recursive", url},
		{"--mirror", "d", url, url},
		{"--mirror", "d", "-o", "x", url},
		{"--mirror", "d", "-O", url},
		{"--mirror", "d", "-I", url},
		{"--mirror", "d", "-C", "5", url},
		{"--mirror", "d", "--parallel-max", "0", url},
		{"--recursive", "--parallel-max", "65", url},
		{"--delete", url},
		{"--dry-run", url},
		{"--mirror-all", url},
		{"--mirror", "d", "--max-delete", "3", url},
		{"--mirror", "d", "--delete", "--max-delete", "-1", url},
		{"--mirror", "d", "--mirror-all", "--newer", url},
		{"-T", ".", "--recursive", url},
		{"-T", ".", "--mirror", "d", url},
		{"-T", ".", "--mirror", url, "-C", "-"},
		{"-T", ".", "--mirror", url, "--ftp-create-dirs"},
	} {
		if r := runIn(t, "", args...); r.code != exitUsage || !strings.HasPrefix(r.stderr, "ftpget: ") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want 2 and one line", args, r.code, r.stderr)
		}
	}
	if _, err := os.Stat("d"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a usage error made d: %v", err)
	}
}

// TestMirrorProgressOnTerminal: on a terminal, the progress shows the
// files and bytes fetched of those listed so far (issue 33: "totals
// for the mirror"), and is erased before the summary line.
func TestMirrorProgressOnTerminal(t *testing.T) {
	tree := t.TempDir()
	buildMirrorTree(t, tree, 2, 256<<10)
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, true) + "/big/"
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	got := make(chan string)
	go func() { b, _ := io.ReadAll(ptmx); got <- string(b) }()
	code := run([]string{"--mirror", filepath.Join(t.TempDir(), "out"), url}, strings.NewReader(""), io.Discard, tty, nil)
	tty.Close()
	text := <-got
	if code != 0 || !regexp.MustCompile(`\r\x1b\[K\d+ of [12] files, [\d.]+ [KM]?i?B of [\d.]+ [KM]?i?B fetched`).MatchString(text) || !strings.Contains(text, " of 2 files, ") || !strings.Contains(text, " of 512.0 KiB fetched") || !strings.Contains(text, "\r\x1b[Kftpget: mirror of") {
		t.Errorf("exit %d, terminal %q", code, text)
	}
}

// TestMirrorIncrementalDeleteDryRun: DESIGN, "ftpget --mirror": only
// what changed by default (a second run fetches nothing; --mirror-all
// everything), --delete removes local files and directories the server
// no longer lists (a partial file of a listed one stays), never after a
// listing no parser read; --dry-run prints what it would do and writes
// nothing, not even DIR; directory times are the server's; nothing is
// made when the URL names nothing.
func TestMirrorIncrementalDeleteDryRun(t *testing.T) {
	tree := t.TempDir()
	if err := os.MkdirAll(filepath.Join(tree, "sub", "deeper"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"a.txt": "a", "sub/b.txt": "bb", "sub/deeper/c.txt": "ccc"} {
		writeFile(t, filepath.Join(tree, filepath.FromSlash(name)), []byte(text), 0o644)
	}
	subTime := time.Date(2019, 6, 7, 8, 9, 10, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(tree, "sub"), subTime, subTime); err != nil {
		t.Fatal(err)
	}
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/"
	out := filepath.Join(t.TempDir(), "out")

	// A dry run into a DIR that is not there: printed, nothing made.
	r := runIn(t, "", "--mirror", out, "--dry-run", url)
	for _, want := range []string{"would make directory sub\n", "would fetch sub/deeper/c.txt (3 B)\n", "would fetch a.txt (1 B)\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--dry-run: stdout %q lacks %q", r.stdout, want)
		}
	}
	if _, err := os.Stat(out); r.code != 0 || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("--dry-run: exit %d, %v; want 0 and no DIR (stderr %q)", r.code, err, r.stderr)
	}
	// Nothing made for a URL that names nothing.
	if r := runIn(t, "", "--mirror", out, url+"missing/"); r.code != exitCWD {
		t.Errorf("a missing URL: exit %d", r.code)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing URL made DIR: %v", err)
	}

	runIn(t, "", "--mirror", out, url).want(t, 0, "")
	if fi, err := os.Stat(filepath.Join(out, "sub")); err != nil || !fi.ModTime().Equal(subTime) {
		t.Errorf("sub's time: %v, %v; want the server's %v", fi.ModTime().UTC(), err, subTime)
	}
	r = runIn(t, "", "--mirror", out, url)
	if s := summary(t, r.stderr); r.code != 0 || s[0] != 0 || s[2] != 3 {
		t.Errorf("a second run: summary %v; want nothing fetched, 3 up to date", s)
	}
	r = runIn(t, "", "--mirror", out, "--mirror-all", url)
	if s := summary(t, r.stderr); r.code != 0 || s[0] != 3 {
		t.Errorf("--mirror-all: summary %v; want 3 fetched", s)
	}

	// What the server no longer has.
	for _, p := range []string{"gone.txt", "sub/gone/x.txt", "a.txt.ftpget-part", "gone2.txt.ftpget-part"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(out, filepath.FromSlash(p)), []byte("x"), 0o644)
	}
	r = runIn(t, "", "--mirror", out, "--delete", "--dry-run", url)
	for _, want := range []string{"would delete gone.txt\n", "would delete sub/gone/x.txt\n", "would delete sub/gone\n", "would delete gone2.txt.ftpget-part\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("--delete --dry-run: stdout %q lacks %q", r.stdout, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "gone.txt")); err != nil {
		t.Errorf("--dry-run deleted gone.txt: %v", err)
	}
	r = runIn(t, "", "--mirror", out, "--delete", "--max-delete", "3", url)
	if _, err := os.Stat(filepath.Join(out, "gone.txt")); r.code == 0 || err != nil {
		t.Errorf("--max-delete 3 of 4: exit %d, gone.txt %v; want a failure and nothing deleted", r.code, err)
	}
	r = runIn(t, "", "--mirror", out, "--delete", url)
	if r.code != 0 || !strings.Contains(r.stderr, ", 4 deleted,") {
		t.Errorf("--delete: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, p := range []string{"gone.txt", "sub/gone", "gone2.txt.ftpget-part"} {
		if _, err := os.Lstat(filepath.Join(out, filepath.FromSlash(p))); err == nil {
			t.Errorf("--delete left %s", p)
		}
	}
	for _, p := range []string{"a.txt", "a.txt.ftpget-part", "sub/deeper/c.txt"} {
		if _, err := os.Lstat(filepath.Join(out, filepath.FromSlash(p))); err != nil {
			t.Errorf("--delete removed %s: %v", p, err)
		}
	}

	// A listing with a line no parser reads: nothing deleted.
	hostile := hostileServer(t, []string{"-rw-r--r--   1 ftp ftp 2 Jan 02  2024 ok.txt", "this line is no listing entry"})
	kept := filepath.Join(t.TempDir(), "kept")
	if err := os.MkdirAll(kept, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(kept, "mine.txt"), []byte("mine"), 0o644)
	r = runIn(t, "", "--mirror", kept, "--delete", "ftp://"+hostile+"/")
	if _, err := os.Stat(filepath.Join(kept, "mine.txt")); r.code == 0 || err != nil {
		t.Errorf("--delete after an unread listing line: exit %d, mine.txt %v; want a failure and nothing deleted (stderr %q)", r.code, err, r.stderr)
	}
}
