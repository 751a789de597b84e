package main

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// burstFile is what a burstServer serves: 1,000,000 bytes, so that the
// bar's counts are round in its SI units ("300 kB/1.0 MB").
func burstFile() []byte {
	b := make([]byte, 1_000_000)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// A burstServer is a scripted FTP server with one file, burstFile,
// which it sends in two bursts: first bytes from the REST offset (RFC
// 3659 §5), then nothing until release is closed, then the rest. With
// refuseRest, a RETR after a REST past the end is refused with 554, as
// RFC 3659 §5.4 says ("554 Requested action not taken: invalid REST
// parameter"; pyftpdlib does so).
type burstServer struct {
	first      int
	release    chan struct{}
	refuseRest bool
	addr       string
	// releaseFunc closes release: the second burst goes.
	releaseFunc func()
}

func startBurst(t *testing.T, first int, refuseRest bool) *burstServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &burstServer{first: first, release: make(chan struct{}), refuseRest: refuseRest, addr: l.Addr().String()}
	released := false
	t.Cleanup(func() {
		if !released {
			close(s.release)
		}
	})
	s.releaseFunc = func() { released = true; close(s.release) }
	acceptEach(t, l, s.serve)
	return s
}

func (s *burstServer) serve(c net.Conn) {
	defer c.Close()
	file := burstFile()
	r := bufio.NewReader(c)
	reply := func(format string, args ...any) { fmt.Fprintf(c, format+"\r\n", args...) }
	reply("220 burst server")
	var data net.Listener
	defer func() {
		if data != nil {
			data.Close()
		}
	}()
	var rest int64
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb, arg, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch strings.ToUpper(verb) {
		case "USER":
			reply("331 password")
		case "PASS":
			reply("230 in")
		case "FEAT":
			reply("211-Features:\r\n SIZE\r\n REST STREAM\r\n211 End")
		case "TYPE":
			reply("200 type")
		case "PWD":
			reply(`257 "/"`)
		case "CWD":
			reply("250 ok")
		case "SIZE":
			reply("213 %d", len(file))
		case "REST":
			rest, _ = strconv.ParseInt(arg, 10, 64)
			reply("350 Restarting at %d", rest)
		case "EPSV":
			if data, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
				reply("425 no")
				continue
			}
			reply("229 Entering Extended Passive Mode (|||%d|)", data.Addr().(*net.TCPAddr).Port)
		case "RETR":
			if rest > int64(len(file)) {
				if s.refuseRest {
					reply("554 Invalid REST parameter")
					rest = 0
					continue
				}
				rest = int64(len(file))
			}
			reply("150 Opening BINARY mode data connection for %s (%d bytes)", arg, len(file))
			d, err := data.Accept()
			if err != nil {
				return
			}
			body := file[rest:]
			n := min(s.first, len(body))
			d.Write(body[:n])
			<-s.release
			d.Write(body[n:])
			d.Close()
			rest = 0
			reply("226 Transfer complete")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

// fileSize is the size of name on disk, 0 when there is none.
func fileSize(name string) int64 {
	fi, err := os.Stat(name)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// TestProgressBarRedrawsWhileNothingArrives (issue 25, point 6): while
// the server sends nothing, the bar is drawn again at least once a
// second, its clock moving; and what it counts is on disk: when it
// shows 300 kB, the file holds them.
func TestProgressBarRedrawsWhileNothingArrives(t *testing.T) {
	s := startBurst(t, 300_000, false)
	ptmx, tty := openPty(t)
	out := readPty(ptmx)
	name := filepath.Join(t.TempDir(), "burst.bin")
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"-o", name, "ftp://" + s.addr + "/burst.bin"}, strings.NewReader(""), &bytes.Buffer{}, tty, nil)
	}()
	out.waitFor(t, "300 kB/1.0 MB")
	if got := fileSize(name); got != 300_000 {
		t.Errorf("the bar shows 300 kB, the file holds %d bytes", got)
	}
	// Nothing arrives now: count the redraws in 2 seconds.
	before := len(out.String())
	time.Sleep(2 * time.Second)
	stalled := out.String()[before:]
	if n := strings.Count(stalled, "300 kB/1.0 MB"); n < 2 {
		t.Errorf("while nothing arrived for 2 s the bar was drawn %d times (%q), want at least 2", n, stalled)
	}
	if !strings.Contains(stalled, "[2s:") && !strings.Contains(stalled, "[1s:") {
		t.Errorf("the bar's clock did not move while nothing arrived: %q", stalled)
	}
	s.releaseFunc()
	select {
	case c := <-code:
		if c != 0 {
			t.Fatalf("exit %d; terminal %q", c, out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ftpget did not end")
	}
	out.waitFor(t, "(1.0/1.0 MB")
	out.waitFor(t, "100%")
	if got := readFile(t, name); got != string(burstFile()) {
		t.Errorf("the file holds %d bytes", len(got))
	}
}

// TestProgressBarCountsAResumedFileFromItsOffset (issue 25, point 6):
// -C - on a file that holds 600,000 of 1,000,000 bytes shows 600 kB of
// 1.0 MB at once, then 700 kB (70%) when 100,000 more have arrived,
// never less than what the file held.
func TestProgressBarCountsAResumedFileFromItsOffset(t *testing.T) {
	s := startBurst(t, 100_000, false)
	ptmx, tty := openPty(t)
	out := readPty(ptmx)
	name := filepath.Join(t.TempDir(), "burst.bin")
	writeFile(t, name, burstFile()[:600_000], 0o644)
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"-C", "-", "-o", name, "ftp://" + s.addr + "/burst.bin"}, strings.NewReader(""), &bytes.Buffer{}, tty, nil)
	}()
	out.waitFor(t, "700 kB/1.0 MB")
	if got := fileSize(name); got != 700_000 {
		t.Errorf("the bar shows 700 kB, the file holds %d bytes", got)
	}
	if s := out.String(); !strings.Contains(s, " 70%") {
		t.Errorf("700 kB of 1.0 MB: the bar does not show 70%%: %q", s)
	}
	s.releaseFunc()
	if c := <-code; c != 0 {
		t.Fatalf("exit %d; terminal %q", c, out.String())
	}
	out.waitFor(t, "(1.0/1.0 MB")
	for _, low := range []string{"(0 B/", "100 kB/1.0 MB", "400 kB/", "/400 kB"} {
		if strings.Contains(out.String(), low) {
			t.Errorf("the bar counted the resumed file from 0 or out of the rest (%q): %q", low, out.String())
		}
	}
	if got := readFile(t, name); got != string(burstFile()) {
		t.Errorf("the resumed file holds %d bytes", len(got))
	}
}

// TestResumeOffsetPastTheEndIsExit36: curl(1), EXIT CODES: "36 Bad
// download resume. Could not continue an earlier aborted download";
// whether the server refuses the offset (RFC 3659 §5.4, 554 on RETR)
// or takes it and sends nothing, the output is left as it was, and the
// message speaks of -C.
func TestResumeOffsetPastTheEndIsExit36(t *testing.T) {
	for _, refuse := range []bool{true, false} {
		t.Run(fmt.Sprintf("refused=%v", refuse), func(t *testing.T) {
			s := startBurst(t, 1<<30, refuse)
			s.releaseFunc()
			name := filepath.Join(t.TempDir(), "burst.bin")
			longer := append(burstFile(), "more"...)
			writeFile(t, name, longer, 0o644)
			r := runIn(t, "", "-C", "-", "-o", name, "ftp://"+s.addr+"/burst.bin")
			r.want(t, 36, "")
			if !strings.HasPrefix(r.stderr, "ftpget: -C: ") || strings.Contains(r.stderr, "WithOffset") || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line about -C", r.stderr)
			}
			if got := readFile(t, name); got != string(longer) {
				t.Errorf("a refused resume changed the file: %d bytes", len(got))
			}
		})
	}
}

// TestResumeTypeAIsRefusedInFlagTerms: an offset counts the file's
// bytes, which TYPE A does not send as they are (RFC 3659 §5.1); -C N
// with ";type=a" is refused before connecting, speaking of -C and
// ;type=a, not of the library's WithOffset; curl's 36.
func TestResumeTypeAIsRefusedInFlagTerms(t *testing.T) {
	r := runIn(t, "", "-C", "3", ftpURL("text.txt;type=a"))
	r.want(t, 36, "")
	if !strings.HasPrefix(r.stderr, "ftpget: -C: ") || !strings.Contains(r.stderr, ";type=a") || strings.Contains(r.stderr, "WithOffset") {
		t.Errorf("stderr %q", r.stderr)
	}
	runIn(t, "", "-C", "3", ftpURL("text.txt;type=i")).want(t, 0, textFile[3:])
}

// TestResumePastTheEndOnPyftpdlib: the same on a real server:
// pyftpdlib takes "REST N" past the end and refuses the RETR after it
// with 554 (RFC 3659 §5.4). Skipped where /usr/bin/python3 has no pyftpdlib,
// except in CI (CI=true), where a missing server fails.
func TestResumePastTheEndOnPyftpdlib(t *testing.T) {
	if err := exec.Command(pyftpdlibPython, "-c", "import pyftpdlib").Run(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("pyftpdlib: %v", err)
		}
		t.Skipf("no pyftpdlib: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_, port, _ := net.SplitHostPort(addr)
	l.Close()
	cmd := exec.Command(pyftpdlibPython, "-m", "pyftpdlib", "-i", "127.0.0.1", "-p", port, "-d", testRoot)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("pyftpdlib did not start")
		}
	}
	name := filepath.Join(t.TempDir(), "binary.bin")
	longer := append(binaryFile(), "more"...)
	writeFile(t, name, longer, 0o644)
	r := runIn(t, "", "-C", "-", "-o", name, "ftp://"+addr+"/binary.bin")
	r.want(t, 36, "")
	if !strings.HasPrefix(r.stderr, "ftpget: -C: ") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr %q, want one line about -C", r.stderr)
	}
	if got := readFile(t, name); got != string(longer) {
		t.Errorf("a refused resume changed the file: %d bytes", len(got))
	}
	// A resume within the file works there.
	writeFile(t, name, binaryFile()[:100], 0o644)
	runIn(t, "", "-C", "-", "-o", name, "ftp://"+addr+"/binary.bin").want(t, 0, "")
	if got := readFile(t, name); got != string(binaryFile()) {
		t.Errorf("-C - on pyftpdlib: %d bytes", len(got))
	}
}

// pyftpdlibPython is Debian's python3, which python3-pyftpdlib serves
// (as fetch's servers_test.go starts it).
const pyftpdlibPython = "/usr/bin/python3"
