package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMainEnv makes the test binary run main() with its own arguments:
// a real process, for what only a process shows (a signal, its exit).
const runMainEnv = "FTPGET_TEST_RUN_MAIN"

// ftpgetCommand is ftpget as a process: the test binary running main.
func ftpgetCommand(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), runMainEnv+"=1")
	return cmd
}

// TestSeveralURLsPairWithOutputsInOrder: curl(1), -o: "You may use
// this option as many times as the number of URLs you have. [...] the
// first -o goes with the first URL", wherever it stands; -O likewise; a
// URL without one goes to standard output.
func TestSeveralURLsPairWithOutputsInOrder(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// -o a ... -o b: a for the first URL, b for the second, although
	// the second -o comes after both URLs.
	r := runIn(t, "", "-o", "a.txt", ftpURL("text.txt"), ftpURL("a/top.txt"), "-o", "b.txt")
	r.want(t, 0, "")
	if got := readFile(t, "a.txt"); got != textFile {
		t.Errorf("the first URL's -o file holds %q", got)
	}
	if got := readFile(t, "b.txt"); got != "top\n" {
		t.Errorf("the second URL's -o file holds %q", got)
	}
	// -O for the first, nothing for the second: standard output.
	runIn(t, "", "-O", ftpURL("a/b/deep.txt"), ftpURL("text.txt")).want(t, 0, textFile)
	if got := readFile(t, "deep.txt"); got != "deep\n" {
		t.Errorf("-O with two URLs: deep.txt holds %q", got)
	}
	// -o - is standard output: the first URL there, the second to -O.
	runIn(t, "", "-o", "-", ftpURL("a/top.txt"), "-O", ftpURL("binary.bin")).want(t, 0, "top\n")
	if got := readFile(t, "binary.bin"); got != string(binaryFile()) {
		t.Errorf("-O after -o -: binary.bin holds %q", clip(got))
	}
	if _, err := os.Stat("-"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-o - made a file named -: %v", err)
	}
	// Three URLs, all to standard output, in order.
	runIn(t, "", ftpURL("a/top.txt"), ftpURL("a/b/deep.txt"), ftpURL("a/top.txt")).want(t, 0, "top\ndeep\ntop\n")
}

// TestRemoteNameAll: curl(1), --remote-name-all: "This option changes
// the default action for all given URLs to be dealt with as if -O,
// --remote-name were used for each one"; an -o still wins for its URL.
func TestRemoteNameAll(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	runIn(t, "", "--remote-name-all", ftpURL("text.txt"), "-o", "other.txt", ftpURL("a/top.txt"), ftpURL("a/b/deep.txt")).want(t, 0, "")
	for name, want := range map[string]string{"other.txt": textFile, "top.txt": "top\n", "deep.txt": "deep\n"} {
		if got := readFile(t, filepath.Join(dir, name)); got != want {
			t.Errorf("--remote-name-all: %s holds %q, want %q", name, got, want)
		}
	}
	if _, err := os.Stat("text.txt"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("-o other.txt: text.txt was written too (%v)", err)
	}
}

// TestExitStatusIsTheLastURLs: curl(1), --fail-early: "By default, it
// will ignore errors if there are more URLs given and the last URL's
// success will determine the error code curl returns."
func TestExitStatusIsTheLastURLs(t *testing.T) {
	r := runIn(t, "", ftpURL("nothing.txt"), ftpURL("a/top.txt"))
	r.want(t, 0, "top\n")
	if !strings.Contains(r.stderr, "550") || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("the failed first URL: stderr %q, want its one line", r.stderr)
	}
	runIn(t, "", ftpURL("a/top.txt"), ftpURL("nothing.txt")).want(t, 78, "top\n")
}

// TestBinaryToTerminalIsRefused: curl's tool_cb_wrt.c refuses binary
// output to a terminal ("Binary output can mess up your terminal"),
// CURLE_WRITE_ERROR (23), unless "--output -" (here "-o -") asks for it.
func TestBinaryToTerminalIsRefused(t *testing.T) {
	ptmx, tty := openPty(t)
	out := readPty(ptmx)
	var stderr bytes.Buffer
	if c := run([]string{ftpURL("binary.bin")}, strings.NewReader(""), tty, &stderr, nil); c != 23 {
		t.Errorf("binary.bin to a terminal: exit %d, want 23", c)
	}
	if want := "ftpget: Binary output can mess up your terminal. Use \"-o -\" to tell ftpget to output it to your terminal anyway, or consider \"-o FILE\" to save to a file.\n"; stderr.String() != want {
		t.Errorf("stderr %q, want %q", stderr.String(), want)
	}
	out.drained(t, tty)
	if s := out.String(); s != "<end of the test's output>" {
		t.Errorf("the terminal got %q, want nothing of the file", s)
	}

	// Text goes to the terminal.
	stderr.Reset()
	if c := run([]string{ftpURL("text.txt")}, strings.NewReader(""), tty, &stderr, nil); c != 0 {
		t.Errorf("text.txt to a terminal: exit %d, stderr %q", c, stderr.String())
	}
	out.waitFor(t, "line two")

	// Not UTF-8, without a NUL: binary too.
	if !looksBinary([]byte("caf\xe9 au lait"), true) || looksBinary([]byte("café"), true) || looksBinary([]byte("caf\xc3"), true) {
		t.Error("looksBinary: Latin-1 is binary, UTF-8 (whole or cut at the end) is not")
	}

	// -o - writes it all the same.
	stderr.Reset()
	if c := run([]string{"-o", "-", ftpURL("binary.bin")}, strings.NewReader(""), tty, &stderr, nil); c != 0 || stderr.Len() != 0 {
		t.Errorf("-o - binary.bin to a terminal: exit %d, stderr %q; want 0 and nothing", c, stderr.String())
	}
	out.waitFor(t, "\xf0\xf1\xf2\xf3")

	// Not a terminal: written without a word.
	runIn(t, "", ftpURL("binary.bin")).want(t, 0, string(binaryFile()))
}

// TestClosedPipeIsExit23: "ftpget URL | head -c 10" ends as curl's
// does, CURLE_WRITE_ERROR (23), not killed by SIGPIPE (which a shell
// shows as 141), with one line on standard error.
func TestClosedPipeIsExit23(t *testing.T) {
	cmd := ftpgetCommand(ftpURL("big.bin"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	head := make([]byte, 10)
	if _, err := io.ReadFull(stdout, head); err != nil {
		t.Fatal(err)
	}
	stdout.Close() // as head -c 10 exits
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("ftpget did not end after its reader left")
	}
	if !bytes.Equal(head, bigFile()[:10]) {
		t.Errorf("the first 10 bytes: %q", head)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("ftpget: %v, want exit status 23", err)
	}
	ws := ee.Sys().(syscall.WaitStatus)
	if ws.Signaled() || ee.ExitCode() != 23 {
		t.Errorf("ftpget: %v (signaled %v), want exit status 23", err, ws.Signaled())
	}
	if s := stderr.String(); !strings.HasPrefix(s, "ftpget: writing the output: ") || strings.Count(s, "\n") != 1 || strings.Contains(s, "signal") {
		t.Errorf("stderr %q, want one line of ftpget's", s)
	}
}
