package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDeployInProcess: -T DIR --mirror URL in-process (so that go test
// -race watches its workers), on ftpserverlib: the tree goes up with
// its times, a second run sends nothing, --dry-run --delete prints and
// keeps, --delete removes what DIR lacks; fetch's TestDeployOnServers
// runs the command on the five servers.
func TestDeployInProcess(t *testing.T) {
	root, base := writableServer(t)
	local := t.TempDir()
	at := time.Date(2022, 3, 4, 5, 6, 7, 0, time.UTC)
	for i, name := range []string{"a.txt", "d/b.txt", "d/e/c.txt", "f g.txt"} {
		p := filepath.Join(local, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, []byte(strings.Repeat("x", i+1)), 0o644)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	url := base + "site/"
	r := runIn(t, "", "-T", local, "--mirror", url, "--parallel-max", "3")
	if r.code != exitOK || !strings.Contains(r.stderr, ": 4 files (10 bytes) sent, 0 up to date, 3 directories made;") {
		t.Fatalf("first run: exit %d, stderr %q", r.code, r.stderr)
	}
	for _, name := range []string{"a.txt", "d/e/c.txt"} {
		fi, err := os.Stat(filepath.Join(root, "site", filepath.FromSlash(name)))
		if err != nil || !fi.ModTime().Equal(at) {
			t.Errorf("%s on the server: %v, %v; want the time %v", name, fi, err, at)
		}
	}
	r = runIn(t, "", "-T", local, "--mirror", url)
	if r.code != exitOK || !strings.Contains(r.stderr, ": 0 files (0 bytes) sent, 4 up to date,") {
		t.Errorf("second run: exit %d, stderr %q", r.code, r.stderr)
	}
	writeFile(t, filepath.Join(root, "site", "d", "extra.txt"), []byte("x"), 0o644)
	r = runIn(t, "", "-T", local, "--mirror", url, "--delete", "--dry-run")
	if r.code != exitOK || r.stdout != "would delete d/extra.txt\n" {
		t.Errorf("--delete --dry-run: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runIn(t, "", "-T", local, "--mirror", url, "--delete")
	if _, err := os.Stat(filepath.Join(root, "site", "d", "extra.txt")); r.code != exitOK || err == nil {
		t.Errorf("--delete: exit %d, extra.txt %v, stderr %q", r.code, err, r.stderr)
	}
	// Not a directory: the upload of one file is -T FILE URL.
	if r := runIn(t, "", "-T", filepath.Join(local, "a.txt"), "--mirror", url); r.code != exitUploadRead {
		t.Errorf("-T FILE --mirror: exit %d, stderr %q", r.code, r.stderr)
	}
}
