package fetch_test

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCurlAgreesOnServers runs command lines with curl and with ftpget
// (cmd/ftpget, built here) against each of the five servers, and
// compares their exit statuses and standard output (issue 33, point 2;
// DESIGN: "Exit codes as curl's for the same case on the same server").
// cmd/ftpget's TestCurlComparison runs 95 lines on ftpserverlib; these
// are the ones whose answer depends on the server: a missing file or
// directory, a file used as a directory, a refused password, a range,
// NLST, -Q, -w's reply codes. It skips without curl.
func TestCurlAgreesOnServers(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed: nothing to compare with")
	}
	bin := filepath.Join(t.TempDir(), "ftpget")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/ftpget").CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/ftpget: %v: %s", err, out)
	}
	cases := [][]string{
		{"{u}/walk/plain.txt"},
		{"{u}/walk/with%20space.txt"},
		{"{u}/walk/sub/deep.txt"},
		{"{u}/walk/missing.txt"},
		{"{u}/walk/nodir/x.txt"},
		{"{u}/walk/plain.txt/"},
		{"{u}/walk/plain.txt/x"},
		{"-l", "{u}/walk/sub/"},
		{"-r", "0-2", "{u}/walk/plain.txt"},
		{"-r", "2-", "{u}/walk/plain.txt"},
		{"-r", "-3", "{u}/walk/plain.txt"},
		{"-r", "0-9", "{u}/bench/big.bin"},
		{"-u", testUser + ":wrong", "{u}/walk/plain.txt"},
		{"-u", testUser + ":" + testPassword, "{u}/walk/plain.txt"},
		{"-Q", "NOOP", "{u}/walk/plain.txt"},
		{"-Q", "DELE nope.txt", "{u}/walk/plain.txt"},
		{"-Q", "-NOOP", "{u}/walk/sub/deep.txt"},
		{"-o", "/dev/null", "-w", "%{response_code} %{size_download} %{exitcode}\n", "{u}/walk/plain.txt"},
		{"-w", "%{response_code} %{exitcode}\n", "{u}/walk/missing.txt"},
		{"-w", "%{response_code} %{exitcode}\n", "{u}/walk/nodir/x.txt"},
		{"-w", "%{response_code}\n", "-u", testUser + ":wrong", "{u}/walk/plain.txt"},
		// After a range, curl's response_code is whichever reply to
		// the cut transfer came last (225 or 226 from one run to the
		// next): only the bytes are compared.
		{"-w", "%{size_download}\n", "-r", "0-9", "{u}/bench/big.bin"},
	}
	run := func(t *testing.T, tool string, args []string) (int, []byte) {
		cmd := exec.Command(tool, args...)
		dir := t.TempDir()
		cmd.Dir = dir
		cmd.Env = append(cmd.Environ(), "HOME="+dir)
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		err := cmd.Run()
		var ee *exec.ExitError
		switch {
		case errors.As(err, &ee):
			return ee.ExitCode(), stdout.Bytes()
		case err != nil:
			t.Fatal(err)
		}
		return 0, stdout.Bytes()
	}
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			base := "ftp://" + need(t, name).addr
			for _, c := range cases {
				args := make([]string, len(c))
				for i, a := range c {
					args[i] = strings.ReplaceAll(a, "{u}", base)
				}
				wantCode, want := run(t, curl, append([]string{"-q", "-s"}, args...))
				gotCode, got := run(t, bin, append([]string{"-s"}, args...))
				if gotCode != wantCode || !bytes.Equal(got, want) {
					t.Errorf("%s: ftpget exit %d, %q; curl exit %d, %q", strings.Join(c, " "), gotCode, clip80(got), wantCode, clip80(want))
				}
			}
		})
	}
}

// clip80 is b as a string, cut at 80 bytes for a message.
func clip80(b []byte) string {
	if len(b) > 80 {
		return string(b[:80]) + "..."
	}
	return string(b)
}
