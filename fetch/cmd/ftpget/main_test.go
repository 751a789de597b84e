package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/ftpurl/ftpurl/fetch"
	"github.com/spf13/afero"
)

// The server every test fetches from: ftpserverlib, in-process, with
// a tree of its own.
const (
	testUser     = "ftpurl"
	testPassword = "ftpurl-secret"
	textFile     = "line one\nline two\n"
)

var (
	serverAddr string
	testRoot   string // the tree the server serves
)

func binaryFile() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// bigFile is large enough for the progress bar to draw more than once.
func bigFile() []byte {
	return bytes.Repeat(binaryFile(), 4<<10)
}

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		// The test binary as ftpget itself, its arguments ftpget's:
		// see ftpgetCommand.
		main()
	}
	os.Exit(func() int {
		dir, err := os.MkdirTemp("", "ftpget-test-")
		if err != nil {
			panic(err)
		}
		defer os.RemoveAll(dir)
		testRoot = dir
		files := map[string][]byte{
			"text.txt":     []byte(textFile),
			"binary.bin":   binaryFile(),
			"big.bin":      bigFile(),
			"a/b/deep.txt": []byte("deep\n"),
			"a/top.txt":    []byte("top\n"),
		}
		for name, data := range files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				panic(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				panic(err)
			}
		}
		srv := ftpserver.NewFtpServer(&driver{root: dir, settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30}})
		if err := srv.Listen(); err != nil {
			panic(err)
		}
		done := make(chan struct{})
		go func() { defer close(done); _ = srv.Serve() }()
		defer func() { _ = srv.Stop(); <-done }()
		serverAddr = srv.Addr()
		return m.Run()
	}())
}

// driver is a minimal ftpserverlib driver: anonymous, or testUser with
// testPassword, read-only.
type driver struct {
	root     string
	settings *ftpserver.Settings
	tls      *tls.Config // nil: AUTH TLS is refused
}

func (d *driver) GetSettings() (*ftpserver.Settings, error) { return d.settings, nil }
func (d *driver) ClientConnected(ftpserver.ClientContext) (string, error) {
	return "ftpget test server", nil
}
func (d *driver) ClientDisconnected(ftpserver.ClientContext) {}
func (d *driver) AuthUser(_ ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	if user == "anonymous" || user == testUser && pass == testPassword {
		return afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), d.root)), nil
	}
	return nil, errors.New("login refused")
}
func (d *driver) GetTLSConfig() (*tls.Config, error) {
	if d.tls == nil {
		return nil, errors.New("no TLS")
	}
	return d.tls, nil
}

func ftpURL(path string) string { return "ftp://" + serverAddr + "/" + path }

// result is what one run gave.
type result struct {
	code           int
	stdout, stderr string
}

// runIn runs the command with buffers for its output and no terminal.
func runIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr, nil)
	return result{code, stdout.String(), stderr.String()}
}

func (r result) want(t *testing.T, code int, stdout string) {
	t.Helper()
	if r.code != code || r.stdout != stdout {
		t.Errorf("exit %d, stdout %q (stderr %q); want exit %d, stdout %q", r.code, clip(r.stdout), r.stderr, code, clip(stdout))
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestStdout(t *testing.T) {
	r := runIn(t, "", ftpURL("binary.bin"))
	r.want(t, 0, string(binaryFile()))
	if r.stderr != "" {
		t.Errorf("stderr %q, want nothing (not a terminal)", r.stderr)
	}
	runIn(t, "", ftpURL("a/b/deep.txt")).want(t, 0, "deep\n")
	login := url.UserPassword(testUser, testPassword).String()
	runIn(t, "", "ftp://"+login+"@"+serverAddr+"/text.txt").want(t, 0, textFile)
	// Flags before or after the URL; "--" ends them.
	runIn(t, "", "--method", "nocwd", ftpURL("a/b/deep.txt"), "--absolute", "--timeout", "10s").want(t, 0, "deep\n")
	runIn(t, "", "--method=singlecwd", "--", ftpURL("a/b/deep.txt")).want(t, 0, "deep\n")
}

func TestOutputFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.bin")
	writeFile(t, name, []byte("old content that is longer than the file ......................................................................................................................................................................................................................................................"), 0o644)
	runIn(t, "", ftpURL("binary.bin"), "-o", name).want(t, 0, "")
	if got := readFile(t, name); got != string(binaryFile()) {
		t.Errorf("-o: the file holds %q", clip(got))
	}
	// A failed fetch leaves no file behind.
	missing := filepath.Join(dir, "missing.txt")
	runIn(t, "", "-o", missing, ftpURL("nothing.txt")).want(t, 78, "")
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed fetch made %s: %v", missing, err)
	}
}

func TestRemoteName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	runIn(t, "", "-O", ftpURL("a/b/deep.txt")).want(t, 0, "")
	if got := readFile(t, "deep.txt"); got != "deep\n" {
		t.Errorf("-O: deep.txt holds %q", got)
	}
	for _, u := range []string{ftpURL("a%2Fb.txt"), ftpURL("a/"), ftpURL(".."), ftpURL("%2E%2E")} {
		r := runIn(t, "", "-O", u)
		r.want(t, 23, "")
		if !strings.Contains(r.stderr, "-O") {
			t.Errorf("-O %s: stderr %q", u, r.stderr)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("-O made files: %v", entries)
	}
	runIn(t, "", "-O", "-o", "x", ftpURL("text.txt")).want(t, 2, "")
}

func TestResume(t *testing.T) {
	dir := t.TempDir()
	bin := string(binaryFile())
	name := filepath.Join(dir, "part.bin")
	for _, have := range []int{100, 0, 255, 256} {
		writeFile(t, name, []byte(bin[:have]), 0o644)
		runIn(t, "", "-C", "-", "-o", name, ftpURL("binary.bin")).want(t, 0, "")
		if got := readFile(t, name); got != bin {
			t.Errorf("-C - from %d bytes: the file holds %d bytes, %q", have, len(got), clip(got))
		}
	}
	// No file yet: from byte 0.
	os.Remove(name)
	runIn(t, "", ftpURL("binary.bin"), "-C", "-", "-o", name).want(t, 0, "")
	if got := readFile(t, name); got != bin {
		t.Errorf("-C - without a file: %q", clip(got))
	}
	// A file larger than the server's.
	writeFile(t, name, []byte(bin+"more"), 0o644)
	runIn(t, "", "-C", "-", "-o", name, ftpURL("binary.bin")).want(t, 36, "")
	if got := readFile(t, name); got != bin+"more" {
		t.Errorf("a refused resume changed the file: %q", clip(got))
	}
	// -C - with -O.
	t.Chdir(dir)
	writeFile(t, "binary.bin", []byte(bin[:10]), 0o644)
	runIn(t, "", "-O", "-C", "-", ftpURL("binary.bin")).want(t, 0, "")
	if got := readFile(t, "binary.bin"); got != bin {
		t.Errorf("-O -C -: %q", clip(got))
	}
	// -C N to standard output.
	runIn(t, "", "-C", "250", ftpURL("binary.bin")).want(t, 0, bin[250:])
	// Usage errors.
	runIn(t, "", "-C", "-", ftpURL("binary.bin")).want(t, 2, "")
	runIn(t, "", "-C", "x", ftpURL("binary.bin")).want(t, 2, "")
	runIn(t, "", "-C", "1", "-I", ftpURL("binary.bin")).want(t, 2, "")
}

func TestHead(t *testing.T) {
	r := runIn(t, "", "-I", ftpURL("binary.bin"))
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Type: file\nContent-Length: 256\nLast-Modified: ") || !strings.HasSuffix(r.stdout, " GMT\n") {
		t.Errorf("-I binary.bin: exit %d, %q (stderr %q)", r.code, r.stdout, r.stderr)
	}
	lm := strings.TrimSuffix(strings.TrimPrefix(r.stdout[strings.Index(r.stdout, "Last-Modified: "):], "Last-Modified: "), "\n")
	if _, err := time.Parse(time.RFC1123, lm); err != nil {
		t.Errorf("-I: Last-Modified %q: %v", lm, err)
	}
	r = runIn(t, "", ftpURL("a/"), "-I")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "Type: directory\n") || strings.Contains(r.stdout, "Content-Length") {
		t.Errorf("-I a/: exit %d, %q (stderr %q)", r.code, r.stdout, r.stderr)
	}
	runIn(t, "", "-I", ftpURL("nothing.txt")).want(t, 78, "")
}

func TestListing(t *testing.T) {
	for _, p := range []string{"a/", "a", "a;type=d", ""} {
		resp, err := fetch.Open(context.Background(), ftpURL(p))
		if err != nil {
			t.Fatal(err)
		}
		resp.Close()
		lines := resp.Lines
		if resp.Names != nil {
			lines = resp.Names
		}
		// What the tree holds there, so that the comparison below is
		// of a real listing.
		if name := map[string]string{"": "text.txt"}[p]; !slices.ContainsFunc(lines, func(l string) bool {
			return strings.HasSuffix(l, cmp.Or(name, "top.txt"))
		}) {
			t.Fatalf("%s: the listing %q lacks %s", p, lines, cmp.Or(name, "top.txt"))
		}
		want := strings.Join(lines, "\n") + "\n"
		runIn(t, "", ftpURL(p)).want(t, 0, want)
	}
}

// The exit statuses are curl's (curl(1), EXIT CODES) where one fits,
// as the command's doc lists them: 3 a bad URL, 7 no connection, 28 a
// timeout, 67 a refused login, 78 nothing at the URL, 2 a usage error;
// each message is one line (issue 25, point 5), and a deadline reads as
// one.
func TestExitCodes(t *testing.T) {
	wrong := url.UserPassword(testUser, "wrong").String()
	closed := func() string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		return l.Addr().String()
	}()
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	go func() {
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	for _, c := range []struct {
		name string
		args []string
		code int
		msg  string // in stderr
	}{
		{"NotFound", []string{ftpURL("nothing.txt")}, 78, "550"},
		{"DirectoryNotFound", []string{ftpURL("nothing/x.txt")}, 9, "a directory of the URL does not exist (CWD nothing: 550"}, // curl 7.88: 9
		// A file used as a directory is no missing name: curl's 9
		// (CURLE_REMOTE_ACCESS_DENIED, a CWD refused), not 78.
		{"FileUsedAsADirectory", []string{ftpURL("text.txt/")}, 9, "is a file, not a directory"},
		{"LoginRefused", []string{"ftp://" + wrong + "@" + serverAddr + "/text.txt"}, 67, "530"},
		{"NotFTP", []string{"http://" + serverAddr + "/text.txt"}, 3, "not an ftp URL"},
		{"BadPort", []string{"ftp://h:99999/"}, 3, "port"},
		{"ControlCharacter", []string{ftpURL("a%0Db")}, 3, "ftpurl"},
		{"NoConnection", []string{"ftp://" + closed + "/x"}, 7, "dial"},
		{"Timeout", []string{"--timeout", "200ms", "ftp://" + silent.Addr().String() + "/x"}, 28, "context deadline exceeded"},
		{"NoURL", nil, 2, "no URL"},
		{"MoreOutputsThanURLs", []string{"-o", "x", "-O", ftpURL("text.txt")}, 2, "2 -o/-O for 1 URLs"},
		{"UnknownFlag", []string{"--frobnicate", ftpURL("a")}, 2, "frobnicate"},
		{"BadMethod", []string{"--method", "somecwd", ftpURL("a")}, 2, "somecwd"},
		{"NoPasswordAndNoTerminal", []string{"ftp://" + testUser + "@" + serverAddr + "/text.txt"}, 2, "--password-file"},
		{"MissingPasswordFile", []string{"--password-file", "/nonexistent/pw", "ftp://" + testUser + "@" + serverAddr + "/text.txt"}, 2, "--password-file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runIn(t, "", c.args...)
			if r.code != c.code || !strings.Contains(r.stderr, c.msg) || r.stdout != "" {
				t.Errorf("ftpget %q: exit %d, stderr %q, stdout %q; want exit %d, %q in stderr", c.args, r.code, r.stderr, clip(r.stdout), c.code, c.msg)
			}
			// Issue 25, point 5: one line, no line break inside,
			// escaped or not.
			if strings.Count(r.stderr, "\n") != 1 || !strings.HasSuffix(r.stderr, "\n") || strings.Contains(r.stderr, `\n`) || strings.Contains(r.stderr, "\r") {
				t.Errorf("stderr %q, want one line", r.stderr)
			}
			if strings.Contains(r.stderr, "wrong") {
				t.Errorf("stderr shows the password: %q", r.stderr)
			}
		})
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		r := runIn(t, "", arg)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "Usage: ftpget") {
			t.Errorf("%s: exit %d, %q", arg, r.code, clip(r.stdout))
		}
	}
}

func TestPasswordFile(t *testing.T) {
	u := "ftp://" + testUser + "@" + serverAddr + "/text.txt"
	pw := filepath.Join(t.TempDir(), "pw")
	writeFile(t, pw, []byte(testPassword+"\n"), 0o600)
	runIn(t, "", "--password-file", pw, u).want(t, 0, textFile)
	runIn(t, testPassword+"\r\n", "--password-file", "-", u).want(t, 0, textFile)
	runIn(t, "wrong\n", "--password-file", "-", u).want(t, 67, "")
}

// ptyBuffer collects what a program writes to a pseudo-terminal.
type ptyBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	done chan struct{}
}

func readPty(ptmx *os.File) *ptyBuffer {
	p := &ptyBuffer{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			p.mu.Lock()
			p.b.Write(buf[:n])
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p
}

func (p *ptyBuffer) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.b.String()
}

// waitFor waits until the terminal has shown s.
func (p *ptyBuffer) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(p.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q; it shows %q", s, p.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// drained writes a mark to the terminal tty and waits until p has
// read it: whatever the terminal showed before the mark is in p then,
// so that a check that something was not shown cannot pass only
// because it came late.
func (p *ptyBuffer) drained(t *testing.T, tty *os.File) {
	t.Helper()
	const mark = "<end of the test's output>"
	if _, err := tty.Write([]byte(mark)); err != nil {
		t.Fatal(err)
	}
	p.waitFor(t, mark)
}

func openPty(t *testing.T) (ptmx, tty *os.File) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); ptmx.Close() })
	return ptmx, tty
}

// TestPasswordPrompt: a URL with a user and no password asks for it on
// the terminal, without echo.
func TestPasswordPrompt(t *testing.T) {
	ptmx, tty := openPty(t)
	out := readPty(ptmx)
	var stdout, stderr bytes.Buffer
	code := make(chan int)
	go func() {
		code <- run([]string{"ftp://" + testUser + "@" + serverAddr + "/text.txt"}, strings.NewReader(""), &stdout, &stderr, tty)
	}()
	out.waitFor(t, "Password for "+testUser+"@"+serverAddr+": ")
	// Echo is off once ReadPassword runs; wait for it before typing.
	deadline := time.Now().Add(5 * time.Second)
	for {
		if tio, err := unixEcho(tty); err == nil && !tio {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the terminal's echo stays on")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := ptmx.Write([]byte(testPassword + "\r")); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-code:
		if c != 0 || stdout.String() != textFile {
			t.Errorf("exit %d, stdout %q, stderr %q", c, stdout.String(), stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ftpget did not end")
	}
	out.drained(t, tty)
	if s := out.String(); strings.Contains(s, testPassword) {
		t.Errorf("the terminal echoed the password: %q", s)
	}
}

// TestProgressBar: drawn on standard error when it is a terminal, and
// not when it is a pipe or when the file goes to the same terminal.
func TestProgressBar(t *testing.T) {
	dir := t.TempDir()
	t.Run("Terminal", func(t *testing.T) {
		ptmx, tty := openPty(t)
		out := readPty(ptmx)
		var stdout bytes.Buffer
		name := filepath.Join(dir, "big1.bin")
		if c := run([]string{"-o", name, ftpURL("big.bin")}, strings.NewReader(""), &stdout, tty, nil); c != 0 {
			t.Fatalf("exit %d; terminal %q", c, out.String())
		}
		out.waitFor(t, "100%")
		out.waitFor(t, "1.0 MB")
		if got := readFile(t, name); got != string(bigFile()) {
			t.Errorf("the file holds %d bytes", len(got))
		}
		if !strings.Contains(out.String(), "big.bin") {
			t.Errorf("the bar does not name the file: %q", out.String())
		}
	})
	t.Run("Pipe", func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Join(dir, "big2.bin")
		c := run([]string{"-o", name, ftpURL("big.bin")}, strings.NewReader(""), io.Discard, w, nil)
		w.Close()
		got, _ := io.ReadAll(r)
		r.Close()
		if c != 0 || len(got) != 0 {
			t.Errorf("exit %d, stderr %q; want 0 and nothing", c, got)
		}
	})
	t.Run("StdoutIsTheTerminal", func(t *testing.T) {
		ptmx, tty := openPty(t)
		out := readPty(ptmx)
		if c := run([]string{ftpURL("text.txt")}, strings.NewReader(""), tty, tty, nil); c != 0 {
			t.Fatalf("exit %d", c)
		}
		out.waitFor(t, "line two")
		out.drained(t, tty)
		if s := out.String(); strings.Contains(s, "%") || strings.Contains(s, " B") {
			t.Errorf("a bar on the terminal that shows the file: %q", s)
		}
	})
}

// writeFile is os.WriteFile for a test's setup: a file it fails to
// write would turn a resume into a download from byte 0, which passes.
func writeFile(t *testing.T, name string, data []byte, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, data, perm); err != nil {
		t.Fatal(err)
	}
}

// acceptEach runs serve, in a goroutine of its own, for each
// connection l accepts, until the test ends and closes l.
func acceptEach(t *testing.T, l net.Listener, serve func(net.Conn)) {
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serve(c)
		}
	}()
}
