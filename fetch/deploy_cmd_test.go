package fetch_test

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// ftpgetBin builds cmd/ftpget once for the tests that run it.
var ftpgetBin = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ftpget-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "ftpget")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/ftpget").CombinedOutput(); err != nil {
		return "", &exec.Error{Name: "go build ./cmd/ftpget: " + string(out), Err: err}
	}
	return bin, nil
})

// A ftpgetRun is one run of the ftpget binary.
type ftpgetRun struct {
	code           int
	stdout, stderr string
}

func runFtpget(t *testing.T, args ...string) ftpgetRun {
	t.Helper()
	bin, err := ftpgetBin()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r := ftpgetRun{stdout: stdout.String(), stderr: stderr.String()}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// deploySummary matches the line that ends a deploy: sent, bytes, up
// to date, deleted (with --delete), made, skipped, links, others,
// failed.
var deploySummary = regexp.MustCompile(`: (\d+) files \((\d+) bytes\) (?:sent|to send [^,]*), (\d+) up to date, (?:(\d+) deleted, )?(\d+) directories made; (\d+) skipped \((\d+) links, (\d+) of other types\); (\d+) failed\n$`)

// summaryOf returns the deploy's numbers: sent, bytes, up to date,
// deleted, made, skipped, links, others, failed.
func summaryOf(t *testing.T, r ftpgetRun) []int {
	t.Helper()
	m := deploySummary.FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no summary: exit %d, stderr %q", r.code, r.stderr)
	}
	var n []int
	for _, s := range m[1:] {
		v, _ := strconv.Atoi(s)
		n = append(n, v)
	}
	return n
}

// deployFiles are the local tree's files, by slash path: odd names, an
// empty file, a nested one, and a 4 MiB one to watch while it uploads.
var deployFiles = map[string]string{
	"index.html":       "<h1>hi</h1>\n",
	"with space.txt":   "space",
	"100%.txt":         "percent",
	"x;type=d":         "typecode",
	"-lead.txt":        "dash",
	"ünï.txt":          "utf-8",
	"arrow -> b.txt":   "arrow",
	"empty.txt":        "",
	"css/site.css":     "body{}",
	"css/img/logo.svg": "<svg/>",
	"big.bin":          strings.Repeat("0123456789abcdef", 256<<10),
}

// buildDeployTree writes deployFiles under dir, each with its own time
// to the second, and a symbolic link and a FIFO, which a deploy names
// and skips.
func buildDeployTree(t *testing.T, dir string) {
	t.Helper()
	at := time.Date(2023, 4, 5, 6, 7, 8, 0, time.UTC)
	for name, text := range deployFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Hour + time.Second)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameTrees reports how tree b differs from the files of deployFiles
// in a: bytes, and times to the second.
func sameTrees(t *testing.T, a, b, what string) {
	t.Helper()
	for name := range deployFiles {
		pa, pb := filepath.Join(a, filepath.FromSlash(name)), filepath.Join(b, filepath.FromSlash(name))
		da, _ := os.ReadFile(pa)
		db, err := os.ReadFile(pb)
		if err != nil || !bytes.Equal(da, db) {
			t.Errorf("%s: %s: %d bytes, %v; want %d bytes", what, name, len(db), err, len(da))
			continue
		}
		fa, _ := os.Stat(pa)
		fb, _ := os.Stat(pb)
		if !fa.ModTime().Truncate(time.Second).Equal(fb.ModTime().Truncate(time.Second)) {
			t.Errorf("%s: %s: time %v, want %v", what, name, fb.ModTime().UTC(), fa.ModTime().UTC())
		}
	}
}

// TestDeployOnServers: DESIGN, "The tree up": ftpget -T DIR --mirror
// URL/ on the five servers, plain and TLS: the tree of odd names goes
// up whole, with its times (read on the server's disk), the directories
// made, the link and the FIFO named and skipped; the big file's name
// never holds a part of it (the server's directory watched while it
// uploads); no temporary file stays. A second run sends nothing (and,
// plain, no STOR and one listing a directory, counted on the wire); a
// file whose time was changed on the server is sent again (ProFTPD
// refuses RNTO onto it: the old one is deleted first); the tree comes
// down again equal, bytes and times; --dry-run --delete prints what it
// would do and sends no command that changes anything; --delete
// removes what DIR lacks, and nothing where a listing fails.
func TestDeployOnServers(t *testing.T) {
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		local := t.TempDir()
		buildDeployTree(t, local)
		var flags []string
		switch tg.mode {
		case "explicit":
			flags = []string{"--tls", "--cacert", testCAFile}
		case "implicit":
			flags = []string{"--cacert", testCAFile}
		}
		url := tg.base + rel + "/site/"
		site := filepath.Join(abs, "site")
		login, server, _ := strings.Cut(strings.SplitN(tg.base, "//", 2)[1], "@")
		server = strings.TrimSuffix(server, "/")
		// up runs the deploy, through the relay where one is given.
		up := func(relay *cmdRelay, extra ...string) ftpgetRun {
			t.Helper()
			u := url
			if relay != nil {
				u = "ftp://" + login + "@" + relay.addr + "/" + rel + "/site/"
			}
			return runFtpget(t, append(append([]string{"-T", local, "--mirror", u, "--parallel-max", "3"}, flags...), extra...)...)
		}

		// The first run, the big file watched on the server's disk.
		var partial atomic.Value
		stop := make(chan struct{})
		watched := make(chan struct{})
		go func() {
			defer close(watched)
			big := filepath.Join(site, "big.bin")
			for {
				if fi, err := os.Lstat(big); err == nil && fi.Size() != int64(len(deployFiles["big.bin"])) {
					partial.Store(fi.Size())
				}
				select {
				case <-stop:
					return
				case <-time.After(time.Millisecond):
				}
			}
		}()
		r := up(nil)
		close(stop)
		<-watched
		if s := summaryOf(t, r); r.code != 0 || s[0] != len(deployFiles) || s[2] != 0 || s[6] != 1 || s[7] != 1 || s[8] != 0 {
			t.Fatalf("first run: exit %d, summary %v; stderr %q", r.code, s, r.stderr)
		}
		if p := partial.Load(); p != nil {
			t.Errorf("big.bin was seen under its name with %d bytes", p)
		}
		sameTrees(t, local, site, "on the server")
		filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
			if err == nil && strings.Contains(d.Name(), ".ftpurl-") {
				t.Errorf("a temporary file stays: %s", p)
			}
			return nil
		})

		// The second run: nothing to send.
		var wire *cmdRelay
		if tg.mode == "plain" {
			wire = newCmdRelay(t, server, nil)
		}
		r = up(wire)
		if s := summaryOf(t, r); r.code != 0 || s[0] != 0 || s[2] != len(deployFiles) {
			t.Errorf("second run: exit %d, summary %v; want nothing sent, all up to date (stderr %q)", r.code, s, r.stderr)
		}
		if wire != nil {
			cmds := wire.commands()
			listings := 0
			for _, c := range cmds {
				verb, _, _ := strings.Cut(c, " ")
				switch verb {
				case "STOR", "APPE", "RNFR", "RNTO", "MFMT", "DELE", "MKD":
					t.Errorf("second run sent %q", c)
				case "LIST", "MLSD":
					listings++
				}
			}
			if listings != 3 { // site, css, css/img
				t.Errorf("second run: %d listings, want one a directory (3): %q", listings, cmds)
			}
		}

		// Changed on the server: sent again.
		changed := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(site, "index.html"), changed, changed); err != nil {
			t.Fatal(err)
		}
		r = up(nil)
		if s := summaryOf(t, r); r.code != 0 || s[0] != 1 || s[2] != len(deployFiles)-1 {
			t.Errorf("after a change on the server: exit %d, summary %v; want index.html sent again (stderr %q)", r.code, s, r.stderr)
		}
		sameTrees(t, local, site, "after the change")

		// Down again, into another directory: equal.
		down := filepath.Join(t.TempDir(), "down")
		rd := runFtpget(t, append([]string{"--mirror", down, url}, flags...)...)
		if rd.code != 0 {
			t.Errorf("--mirror down: exit %d, stderr %q", rd.code, rd.stderr)
		}
		sameTrees(t, local, down, "down again")

		// --dry-run --delete: printed, nothing changed.
		if err := os.WriteFile(filepath.Join(local, "new.txt"), []byte("new"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(site, "old", "deeper"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"extra.txt", "old/a.txt", "old/deeper/b.txt"} {
			if err := os.WriteFile(filepath.Join(site, filepath.FromSlash(p)), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// Made here, as root: the password user's, as if it had sent
		// them, so that the servers that run as it may delete them.
		if u, err := user.Lookup(testUser); err == nil {
			uid, _ := strconv.Atoi(u.Uid)
			gid, _ := strconv.Atoi(u.Gid)
			for _, p := range []string{"extra.txt", "old", "old/a.txt", "old/deeper", "old/deeper/b.txt"} {
				if err := os.Chown(filepath.Join(site, filepath.FromSlash(p)), uid, gid); err != nil {
					t.Fatal(err)
				}
			}
		}
		if wire != nil {
			wire = newCmdRelay(t, server, nil)
		}
		r = up(wire, "--dry-run", "--delete")
		for _, want := range []string{"would send new.txt (3 B)\n", "would delete extra.txt\n", "would delete old/deeper/b.txt\n", "would delete old/deeper\n", "would delete old\n"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("--dry-run: stdout %q lacks %q", r.stdout, want)
			}
		}
		if s := summaryOf(t, r); r.code != 0 || s[3] != 5 {
			t.Errorf("--dry-run --delete: exit %d, summary %v; stderr %q", r.code, s, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(site, "old", "deeper", "b.txt")); err != nil {
			t.Errorf("--dry-run deleted: %v", err)
		}
		if wire != nil {
			for _, c := range wire.commands() {
				verb, _, _ := strings.Cut(c, " ")
				switch verb {
				case "STOR", "APPE", "DELE", "RMD", "MKD", "RNFR", "RNTO", "MFMT", "SITE":
					t.Errorf("--dry-run sent %q", c)
				}
			}
		}

		// --delete with a listing that fails: nothing deleted.
		if tg.mode == "plain" {
			failing := newCmdRelay(t, server, map[string]string{"CWD img": "550 img: Permission denied"})
			r = up(failing, "--delete")
			if r.code == 0 || !strings.Contains(r.stderr, "nothing deleted") {
				t.Errorf("--delete after a failed listing: exit %d, stderr %q", r.code, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(site, "extra.txt")); err != nil {
				t.Errorf("--delete after a failed listing deleted extra.txt: %v", err)
			}
			for _, c := range failing.commands() {
				if strings.HasPrefix(c, "DELE ") || strings.HasPrefix(c, "RMD ") {
					t.Errorf("--delete after a failed listing sent %q", c)
				}
			}
		}

		// --delete: what DIR lacks goes, files then directories.
		r = up(nil, "--delete")
		if s := summaryOf(t, r); r.code != 0 || s[3] != 5 {
			t.Errorf("--delete: exit %d, summary %v; want 5 deleted (stderr %q)", r.code, s, r.stderr)
		}
		for _, p := range []string{"extra.txt", "old"} {
			if _, err := os.Lstat(filepath.Join(site, p)); err == nil {
				t.Errorf("--delete left %s", p)
			}
		}
		if b, err := os.ReadFile(filepath.Join(site, "new.txt")); err != nil || string(b) != "new" {
			t.Errorf("new.txt on the server: %q, %v", b, err)
		}
	})
}

// A cmdRelay passes a control connection to the server at addr and
// keeps the command lines it carries; a line in answer is answered by
// the relay itself with its reply, and never reaches the server (a
// listing made to fail).
type cmdRelay struct {
	addr string

	mu   sync.Mutex
	cmds []string

	hold func(cmd string) // where set, called before a command goes on (it may wait)
}

func newCmdRelay(t *testing.T, server string, answer map[string]string) *cmdRelay {
	t.Helper()
	return newHoldingRelay(t, server, answer, nil)
}

// newHoldingRelay is newCmdRelay with hold (see cmdRelay), set before
// the relay's goroutines start.
func newHoldingRelay(t *testing.T, server string, answer map[string]string, hold func(cmd string)) *cmdRelay {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &cmdRelay{addr: l.Addr().String(), hold: hold}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s, err := net.Dial("tcp", server)
			if err != nil {
				c.Close()
				continue
			}
			var wmu sync.Mutex // the client's side: the server's replies and the relay's
			go func() {
				defer c.Close()
				buf := make([]byte, 32<<10)
				for {
					n, err := s.Read(buf)
					if n > 0 {
						wmu.Lock()
						c.Write(buf[:n])
						wmu.Unlock()
					}
					if err != nil {
						return
					}
				}
			}()
			go func() {
				defer s.Close()
				br := bufio.NewReader(c)
				for {
					line, err := br.ReadString('\n')
					if line != "" {
						cmd := strings.TrimRight(line, "\r\n")
						r.mu.Lock()
						r.cmds = append(r.cmds, cmd)
						r.mu.Unlock()
						if reply, ok := answer[cmd]; ok {
							wmu.Lock()
							io.WriteString(c, reply+"\r\n")
							wmu.Unlock()
							continue
						}
						if r.hold != nil {
							r.hold(cmd)
						}
						s.Write([]byte(line))
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return r
}

func (r *cmdRelay) commands() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.cmds...)
}

// TestDeployListsAhead: a second deploy lists the directories that
// both sides have ahead of the walk, several at once on sessions of
// their own, as lftp's mirror does, and still each directory once: each
// listing command is held on its way until five are held (or for 5
// s). DIR's own directories are listed while the server's directory
// itself is, so all five listings (the top and its four directories,
// --parallel-max 4) are held at once, however slow the machine: a
// walk that listed them only after the top's listing would hold one,
// then four, 5 s each. The times of a LIST server come from one MDTM a
// file in one write (WithModTime), never from SIZE and MDTM a file.
func TestDeployListsAhead(t *testing.T) {
	for _, name := range []string{"vsftpd", "proftpd"} {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			local := t.TempDir()
			for _, d := range []string{"a", "b", "c", "d"} {
				if err := os.MkdirAll(filepath.Join(local, d), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(local, d, "f.txt"), []byte(d), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			rel, _ := upDir(t, name+"-ahead")
			url := func(addr string) string {
				return "ftp://" + testUser + ":" + testPassword + "@" + addr + "/" + rel + "/"
			}
			if r := runFtpget(t, "-T", local, "--mirror", url(srv.addr), "--parallel-max", "4"); r.code != 0 {
				t.Fatalf("first run: exit %d, stderr %q", r.code, r.stderr)
			}
			var held, most atomic.Int32
			all := make(chan struct{}) // closed once five listings are held
			var allOnce sync.Once
			wire := newHoldingRelay(t, srv.addr, nil, func(cmd string) {
				if verb, _, _ := strings.Cut(cmd, " "); verb == "LIST" || verb == "MLSD" {
					n := held.Add(1)
					for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
					}
					if n == 5 {
						allOnce.Do(func() { close(all) })
					}
					select {
					case <-all:
					case <-time.After(5 * time.Second):
					}
					held.Add(-1)
				}
			})
			r := runFtpget(t, "-T", local, "--mirror", url(wire.addr), "--parallel-max", "4")
			if s := summaryOf(t, r); r.code != 0 || s[0] != 0 || s[2] != 4 {
				t.Fatalf("second run: exit %d, summary %v; want 4 up to date (stderr %q)", r.code, s, r.stderr)
			}
			listings := 0
			for _, c := range wire.commands() {
				switch verb, _, _ := strings.Cut(c, " "); verb {
				case "LIST", "MLSD":
					listings++
				case "SIZE", "STOR":
					t.Errorf("second run sent %q", c)
				}
			}
			if listings != 5 || most.Load() != 5 {
				t.Errorf("second run: %d listings, at most %d at once; want 5 (one a directory), all 5 at once", listings, most.Load())
			}
		})
	}
}
