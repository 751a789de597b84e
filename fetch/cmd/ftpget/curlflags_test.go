package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
)

// TestVerboseShowsTheDialog: -v writes the dialog on standard error as
// curl -v does, "> " sent and "< " received, the password as xxxxx
// (DESIGN), and standard output holds the file alone.
func TestVerboseShowsTheDialog(t *testing.T) {
	r := runIn(t, "", "-v", "-u", testUser+":"+testPassword, ftpURL("text.txt"))
	r.want(t, 0, textFile)
	for _, want := range []string{"< 220 ", "> USER " + testUser + "\n", "> PASS xxxxx\n", "> RETR text.txt\n", "< 226 "} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, testPassword) {
		t.Errorf("the password is on standard error:\n%s", r.stderr)
	}
}

// TestSilentAndShowError: -s silences the error message, -sS shows it
// (curl(1), "--silent", "--show-error"); the exit status is the same.
func TestSilentAndShowError(t *testing.T) {
	r := runIn(t, "", "-s", ftpURL("nope.txt"))
	if r.code != exitNotFound || r.stderr != "" {
		t.Errorf("-s: exit %d, stderr %q; want 78 and nothing", r.code, r.stderr)
	}
	r = runIn(t, "", "-sS", ftpURL("nope.txt"))
	if r.code != exitNotFound || !strings.Contains(r.stderr, "the file does not exist (RETR nope.txt: 550") {
		t.Errorf("-sS: exit %d, stderr %q; want 78 and the message", r.code, r.stderr)
	}
}

// TestMessagesInWordsFirst: a missing file is "the file does not exist
// (RETR f: 550 ...)", not a log of every command tried (DESIGN,
// "Messages say what went wrong in words first, the dialog after"); a
// refused login names PASS.
func TestMessagesInWordsFirst(t *testing.T) {
	r := runIn(t, "", ftpURL("nope.txt"))
	want := "ftpget: ftp://" + serverAddr + "/nope.txt: the file does not exist (RETR nope.txt: 550 "
	if !strings.HasPrefix(r.stderr, want) || strings.Contains(r.stderr, "fallback") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("stderr %q; want one line beginning %q", r.stderr, want)
	}
	r = runIn(t, "", "-u", testUser+":wrong", ftpURL("text.txt"))
	if r.code != exitLogin || !strings.Contains(r.stderr, "the server refused the password (PASS xxxxx: 530 ") {
		t.Errorf("exit %d, stderr %q; want 67 naming PASS", r.code, r.stderr)
	}
}

// TestMaxTimeNamesTheFlagAndTheBytes: -m cuts a slow transfer with
// curl's 28, and the message says which flag and how many bytes of how
// many arrived (DESIGN: "a timeout says after how long and how many
// bytes of how many arrived, and which flag sets it").
func TestMaxTimeNamesTheFlagAndTheBytes(t *testing.T) {
	tree := t.TempDir()
	writeFile(t, filepath.Join(tree, "big.bin"), bigFile(), 0o644)
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, true) + "/big.bin"
	r := runIn(t, "", "-m", "0.5", "-o", filepath.Join(t.TempDir(), "out"), url)
	want := "the transfer took longer than -m 500ms: "
	if r.code != exitTimeout || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, fmt.Sprintf(" of %d bytes arrived", len(bigFile()))) {
		t.Errorf("exit %d, stderr %q; want 28, %q and the bytes", r.code, r.stderr, want)
	}
}

// fakeFTP serves each connection with a script: the greeting, then a
// reply to each command by its verb (502 for any other; "{epsv}": a
// 229 with a data port that takes one connection). It counts the
// connections and the commands of each verb.
type fakeFTP struct {
	addr  string
	conns atomic.Int32
	verbs map[string]*atomic.Int32

	mu      sync.Mutex
	closers []io.Closer // the data ports and connections, closed at the end
}

// track keeps c to close when the test ends.
func (f *fakeFTP) track(c io.Closer) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.closers = append(f.closers, c)
}

func newFakeFTP(t *testing.T, greeting string, replies map[string]string) *fakeFTP {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeFTP{addr: l.Addr().String(), verbs: map[string]*atomic.Int32{}}
	for v := range replies {
		f.verbs[v] = &atomic.Int32{}
	}
	t.Cleanup(func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, c := range f.closers {
			c.Close()
		}
	})
	acceptEach(t, l, func(c net.Conn) {
		defer c.Close()
		f.conns.Add(1)
		fmt.Fprintf(c, "%s\r\n", greeting)
		if !strings.HasPrefix(greeting, "220") {
			return
		}
		sc := bufio.NewScanner(c)
		for sc.Scan() {
			verb, _, _ := strings.Cut(strings.TrimSpace(sc.Text()), " ")
			rep, ok := replies[verb]
			if !ok {
				rep = "502 Not implemented"
			} else {
				f.verbs[verb].Add(1)
			}
			if rep == "{epsv}" {
				// A data port that takes one connection and holds it.
				dl, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					rep = "425 no port"
				} else {
					f.track(dl)
					go func() {
						if dc, err := dl.Accept(); err == nil {
							f.track(dc)
						}
					}()
					rep = fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", dl.Addr().(*net.TCPAddr).Port)
				}
			}
			fmt.Fprintf(c, "%s\r\n", rep)
			if verb == "QUIT" {
				return
			}
		}
	})
	return f
}

// TestRetryTransientOnly: --retry tries a transient failure again (a
// 4xx reply, RFC 959 §4.2: "Transient Negative Completion"; curl(1),
// "--retry"), as many times as it says, and never a 550.
func TestRetryTransientOnly(t *testing.T) {
	busy := newFakeFTP(t, "421 Too many connections, try later", nil)
	r := runIn(t, "", "--retry", "2", "--retry-delay", "0.01", "ftp://"+busy.addr+"/f.txt")
	if r.code != exitConnect && r.code != exitFailed || busy.conns.Load() != 3 || strings.Count(r.stderr, "trying again") != 2 {
		t.Errorf("421: exit %d, %d connections, stderr %q; want 3 connections, 2 notes", r.code, busy.conns.Load(), r.stderr)
	}
	busyUp := newFakeFTP(t, "421 Too many connections, try later", nil)
	r = runIn(t, "data", "--retry", "2", "--retry-delay", "0.01", "-T", "-", "ftp://"+busyUp.addr+"/f.txt")
	if r.code == 0 || busyUp.conns.Load() != 1 {
		t.Errorf("-T -: exit %d, %d connections; want a failure and one connection: standard input is not read twice", r.code, busyUp.conns.Load())
	}
	missing := newFakeFTP(t, "220 ready", map[string]string{
		"USER": "230 ok", "FEAT": "211 none", "PWD": `257 "/"`, "TYPE": "200 ok",
		"SIZE": "550 no", "EPSV": "229 (|||1|)", "RETR": "550 No such file", "CWD": "550 No such directory", "QUIT": "221 bye",
	})
	r = runIn(t, "", "--retry", "3", "--retry-delay", "0.01", "ftp://"+missing.addr+"/d/f.txt")
	if n := missing.verbs["CWD"].Load(); r.code != exitCWD || n != 1 || strings.Contains(r.stderr, "trying again") {
		t.Errorf("550: exit %d, %d CWD, stderr %q; want 9, one CWD, no retry", r.code, n, r.stderr)
	}
}

// TestQuoteBeforeAndAfter: -Q CMD goes before the transfer, -Q -CMD
// after it (curl(1), "--quote"); a refusal is exit 21, curl's
// CURLE_QUOTE_ERROR, unless the command begins with "*"; a CR or LF in
// it is refused before any connection.
func TestQuoteBeforeAndAfter(t *testing.T) {
	root, base := writableServer(t)
	writeFile(t, filepath.Join(root, "f.txt"), []byte("f\n"), 0o644)
	writeFile(t, filepath.Join(root, "g.txt"), []byte("g\n"), 0o644)
	// After: the file is fetched, then deleted.
	runIn(t, "", "-Q", "-DELE f.txt", base+"f.txt").want(t, 0, "f\n")
	if _, err := os.Stat(filepath.Join(root, "f.txt")); err == nil {
		t.Error("-Q -DELE: f.txt is still there")
	}
	// Before: deleted first, so the fetch finds nothing.
	r := runIn(t, "", "-Q", "DELE g.txt", base+"g.txt")
	if r.code != exitNotFound {
		t.Errorf("-Q DELE before RETR: exit %d (%s), want 78", r.code, r.stderr)
	}
	r = runIn(t, "", "-Q", "DELE nope.txt", base)
	if r.code != exitQuote || !strings.Contains(r.stderr, `the server refused -Q's command "DELE nope.txt" (DELE nope.txt: 550`) {
		t.Errorf("refused: exit %d, stderr %q; want 21", r.code, r.stderr)
	}
	runIn(t, "", "-Q", "*DELE nope.txt", base).want(t, 0, "")

	quiet := newFakeFTP(t, "220 ready", nil)
	r = runIn(t, "", "-Q", "NOOP\nDELE x", "ftp://"+quiet.addr+"/")
	if r.code != exitUsage || quiet.conns.Load() != 0 {
		t.Errorf("CR/LF: exit %d, %d connections; want 2 and none", r.code, quiet.conns.Load())
	}
}

// TestLimitRateClock: --limit-rate's reader sleeps until the bytes so
// far are due at the rate (curl(1): "averaged during the entire
// transfer"), and reads at most a tenth of a second's bytes at once.
func TestLimitRateClock(t *testing.T) {
	now := time.Unix(0, 0)
	var slept time.Duration
	l := &rateLimited{r: bytes.NewReader(make([]byte, 5000)), rate: 1000,
		now: func() time.Time { return now }, sleep: func(d time.Duration) { slept += d; now = now.Add(d) }}
	buf := make([]byte, 4096)
	total := 0
	for {
		n, err := l.Read(buf)
		if n > 100 {
			t.Fatalf("read %d bytes at once; want at most 100 (a tenth of a second)", n)
		}
		total += n
		if err == io.EOF {
			break
		}
	}
	if total != 5000 || slept != 5*time.Second {
		t.Errorf("%d bytes in %v; want 5000 in 5s", total, slept)
	}
	if r := limitRate(bytes.NewReader(nil), 0); r == nil {
		t.Error("no reader without a limit")
	} else if _, ok := r.(*rateLimited); ok {
		t.Error("a limit of 0 limits")
	}
}

// TestLimitRateMeasured: --limit-rate 256K takes a 512 KiB file about
// 2 seconds on the real clock: never less than 1.8 s (the limit holds);
// at most 4 s, as the machine may be shared and slow (-race).
func TestLimitRateMeasured(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 2 s")
	}
	tree := t.TempDir()
	writeFile(t, filepath.Join(tree, "half.bin"), bytes.Repeat([]byte("x"), 512<<10), 0o644)
	url := "ftp://" + serveTree(t, tree, nil, ftpserver.ClearOrEncrypted, false) + "/half.bin"
	start := time.Now()
	runIn(t, "", "--limit-rate", "256K", "-o", filepath.Join(t.TempDir(), "out"), url).want(t, 0, "")
	if d := time.Since(start); d < 1800*time.Millisecond || d > 4*time.Second {
		t.Errorf("512 KiB at 256K/s took %v; want about 2s", d)
	}
}

// TestUploadProgressBar: -T draws a bar on a terminal, as downloads do
// (issue 33: "no progress at all during -T").
func TestUploadProgressBar(t *testing.T) {
	root, base := writableServer(t)
	src := localFile(t, "up.bin", bigFile())
	ptmx, tty := openPty(t)
	out := readPty(ptmx)
	if c := run([]string{"-T", src, base + "up.bin"}, strings.NewReader(""), io.Discard, tty, nil); c != 0 {
		t.Fatalf("exit %d; terminal %q", c, out.String())
	}
	out.waitFor(t, "100%")
	out.waitFor(t, "1.0 MB")
	if got := readBack(t, filepath.Join(root, "up.bin")); !bytes.Equal(got, bigFile()) {
		t.Errorf("stored %d bytes", len(got))
	}
}

// TestRangeEndsTheTransferEarly: -r A-B reads REST A, then exactly
// B-A+1 bytes (curl(1), "--range"), from a file much larger than that,
// and ends the transfer with ABOR: the next URL uses the same session
// (one login). As curl's, the range is every URL's; one that begins
// past a file's end is exit 36.
func TestRangeEndsTheTransferEarly(t *testing.T) {
	r := runIn(t, "", "-v", "-r", "2-4", ftpURL("big.bin"), ftpURL("text.txt"))
	r.want(t, 0, "\x02\x03\x04ne ")
	if !strings.Contains(r.stderr, "> ABOR\n") || strings.Count(r.stderr, "> USER ") != 1 {
		t.Errorf("stderr %q; want ABOR and one login", r.stderr)
	}
	r = runIn(t, "", "-r", "256-259", ftpURL("text.txt"))
	if r.code != exitResume || !strings.Contains(r.stderr, "-r: the range begins at byte 256, past the end of") {
		t.Errorf("past the end: exit %d, stderr %q", r.code, r.stderr)
	}
	r = runIn(t, "", "-v", "-r", "10-", ftpURL("binary.bin"))
	if r.code != 0 || r.stdout != string(binaryFile()[10:]) || !strings.Contains(r.stderr, "> REST 10\n") {
		t.Errorf("-r 10-: exit %d, %d bytes, stderr %q", r.code, len(r.stdout), r.stderr)
	}
}

// TestResumeLargerThanTheServerFile: a server that refuses REST past
// the file's end (RFC 3659 §5.4: 554) with -C - and an output larger
// than the file is exit 36, and the message says the output is larger,
// not that the server failed (issue 33: "-C with a local file larger
// than the remote blames the server").
func TestResumeLargerThanTheServerFile(t *testing.T) {
	f := newFakeFTP(t, "220 ready", map[string]string{
		"USER": "230 ok", "FEAT": "211 none", "PWD": `257 "/"`, "TYPE": "200 ok", "CWD": "550 not a directory",
		"SIZE": "213 18", "MDTM": "213 20200101000000", "EPSV": "{epsv}", "REST": "554 Invalid REST parameter", "RETR": "503 Bad sequence", "QUIT": "221 bye",
	})
	out := filepath.Join(t.TempDir(), "f.txt")
	writeFile(t, out, bytes.Repeat([]byte("x"), 40), 0o644)
	r := runIn(t, "", "-C", "-", "-o", out, "ftp://"+f.addr+"/f.txt")
	if r.code != exitResume || !strings.Contains(r.stderr, "has 40 bytes, more than the file on the server (18) (REST 40: 554 Invalid REST parameter)") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestWriteOut: -w's variables after the file (curl(1), "--write-out"):
// the transfer's reply code, the bytes, the exit status; "\n", "%%";
// an unknown variable named on standard error and written as nothing;
// an unended "%{" written as it is.
func TestWriteOut(t *testing.T) {
	r := runIn(t, "", "-w", `%{response_code} %{size_download} %{exitcode}\t%%%{nope}|%{size_`, ftpURL("text.txt"))
	r.want(t, 0, textFile+"226 18 0\t%|%{size_")
	if !strings.Contains(r.stderr, "unknown --write-out variable: 'nope'") {
		t.Errorf("stderr %q; want the unknown variable named", r.stderr)
	}
	r = runIn(t, "", "-w", `%{response_code} %{exitcode}\n`, ftpURL("nope.txt"))
	r.want(t, exitNotFound, "550 78\n")
}
