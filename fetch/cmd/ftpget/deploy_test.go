package main

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/spf13/afero"
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

// shortOnce is a file system whose first upload of a file named as
// name's temporary (".NAME.ftpurl-XXXXXXXX.part") keeps no byte while
// the server answers 226: an upload cut short, found by SIZE.
type shortOnce struct {
	afero.Fs
	name string
	done atomic.Bool
}

func (s *shortOnce) OpenFile(p string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := s.Fs.OpenFile(p, flag, perm)
	if err == nil && flag&os.O_WRONLY != 0 && strings.HasPrefix(path.Base(p), "."+s.name+".ftpurl-") && s.done.CompareAndSwap(false, true) {
		return dropWrites{f}, nil
	}
	return f, err
}

type dropWrites struct{ afero.File }

func (dropWrites) Write(p []byte) (int, error) { return len(p), nil }

type shortDriver struct {
	writeDriver
	fs afero.Fs
}

func (d *shortDriver) AuthUser(_ ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	if user == testUser && pass == testPassword {
		return d.fs, nil
	}
	return nil, errors.New("login refused")
}

// TestDeploySendsAgainAFileFoundShort: a file whose upload the server
// answered 226 but holds short (SIZE, RFC 3659 §4) is sent once more,
// whole, under a new temporary name, as lftp's and rclone's retries do,
// and said on standard error; the run then exits 0 with every file
// whole and no temporary file left.
func TestDeploySendsAgainAFileFoundShort(t *testing.T) {
	root := t.TempDir()
	fs := &shortOnce{Fs: afero.NewBasePathFs(afero.NewOsFs(), root), name: "b.txt"}
	srv := ftpserver.NewFtpServer(&shortDriver{writeDriver: writeDriver{root: root, settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30}}, fs: fs})
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	t.Cleanup(func() { _ = srv.Stop(); <-done })
	local := t.TempDir()
	for name, text := range map[string]string{"a.txt": "aaa", "b.txt": "bbbbb"} {
		writeFile(t, filepath.Join(local, name), []byte(text), 0o644)
	}
	r := runIn(t, "", "-T", local, "--mirror", "ftp://"+testUser+":"+testPassword+"@"+srv.Addr()+"/site/")
	if r.code != exitOK || !strings.Contains(r.stderr, "b.txt: sent again after: ") || !strings.Contains(r.stderr, "holds 0 bytes, not the 5") || !strings.Contains(r.stderr, ": 2 files (8 bytes) sent,") {
		t.Fatalf("exit %d, stderr %q; want b.txt sent again and exit 0", r.code, r.stderr)
	}
	if !fs.done.Load() {
		t.Fatal("no upload of b.txt was cut short")
	}
	for name, text := range map[string]string{"a.txt": "aaa", "b.txt": "bbbbb"} {
		if got := readBack(t, filepath.Join(root, "site", name)); string(got) != text {
			t.Errorf("%s holds %q, want %q", name, got, text)
		}
	}
	entries, _ := os.ReadDir(filepath.Join(root, "site"))
	if len(entries) != 2 {
		t.Errorf("the server's directory holds %d entries, want 2 (no temporary file left)", len(entries))
	}
}
