package main

import (
	"bytes"
	"crypto/tls"
	"errors"
	"os"
	"path/filepath"
	"testing"

	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/spf13/afero"
)

// writeDriver serves root to testUser, writable.
type writeDriver struct {
	root     string
	settings *ftpserver.Settings
}

func (d *writeDriver) GetSettings() (*ftpserver.Settings, error) { return d.settings, nil }
func (d *writeDriver) ClientConnected(ftpserver.ClientContext) (string, error) {
	return "ftpget upload test server", nil
}
func (d *writeDriver) ClientDisconnected(ftpserver.ClientContext) {}
func (d *writeDriver) AuthUser(_ ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	if user == testUser && pass == testPassword {
		return afero.NewBasePathFs(afero.NewOsFs(), d.root), nil
	}
	return nil, errors.New("login refused")
}
func (d *writeDriver) GetTLSConfig() (*tls.Config, error) { return nil, errors.New("no TLS") }

// writableServer starts ftpserverlib on a directory of its own, which
// it returns, and the URL of its root for testUser.
func writableServer(t *testing.T) (root, base string) {
	t.Helper()
	root = t.TempDir()
	srv := ftpserver.NewFtpServer(&writeDriver{root: root, settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30}})
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	t.Cleanup(func() { _ = srv.Stop(); <-done })
	return root, "ftp://" + testUser + ":" + testPassword + "@" + srv.Addr() + "/"
}

// localFile writes data to a file of the test and returns its path.
func localFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func readBack(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// -T FILE URL uploads FILE to the URL, as curl -T does; a URL that ends
// in "/" takes the file's name (escaped).
func TestUploadFile(t *testing.T) {
	root, base := writableServer(t)
	data := bigFile()
	src := localFile(t, "a b;c.bin", data)
	runIn(t, "", "-T", src, base+"up.bin").want(t, exitOK, "")
	if got := readBack(t, filepath.Join(root, "up.bin")); !bytes.Equal(got, data) {
		t.Fatalf("stored %d bytes, want %d", len(got), len(data))
	}
	runIn(t, "", "-T", src, base).want(t, exitOK, "")
	if got := readBack(t, filepath.Join(root, "a b;c.bin")); !bytes.Equal(got, data) {
		t.Fatalf("stored %d bytes under the file's name, want %d", len(got), len(data))
	}
	// Standard input.
	runIn(t, "from stdin\n", "-T", "-", base+"stdin.txt").want(t, exitOK, "")
	if got := readBack(t, filepath.Join(root, "stdin.txt")); string(got) != "from stdin\n" {
		t.Fatalf("stored %q", got)
	}
}

// --ftp-create-dirs makes the missing directories (MKD a segment);
// without it the missing directory is exit 78, as for a download.
func TestUploadCreateDirs(t *testing.T) {
	root, base := writableServer(t)
	src := localFile(t, "f.txt", []byte("x\n"))
	if r := runIn(t, "", "-T", src, base+"d1/d2/"); r.code != exitCWD {
		t.Fatalf("without --ftp-create-dirs: exit %d (%s), want %d (curl 7.88's for a missing directory)", r.code, r.stderr, exitCWD)
	}
	runIn(t, "", "--ftp-create-dirs", "-T", src, base+"d1/d2/").want(t, exitOK, "")
	if got := readBack(t, filepath.Join(root, "d1", "d2", "f.txt")); string(got) != "x\n" {
		t.Fatalf("stored %q", got)
	}
}

// -C - with -T resumes as curl does: the remote file's SIZE is the
// offset, APPE sends the rest; a remote file larger than the local one
// is exit 36.
func TestUploadResume(t *testing.T) {
	root, base := writableServer(t)
	data := bigFile()
	if err := os.WriteFile(filepath.Join(root, "r.bin"), data[:1000], 0o644); err != nil {
		t.Fatal(err)
	}
	src := localFile(t, "r.bin", data)
	runIn(t, "", "-C", "-", "-T", src, base).want(t, exitOK, "")
	if got := readBack(t, filepath.Join(root, "r.bin")); !bytes.Equal(got, data) {
		t.Fatalf("resumed file: %d bytes, want %d", len(got), len(data))
	}
	// A file the server does not have starts at 0.
	runIn(t, "", "-C", "-", "-T", src, base+"new.bin").want(t, exitOK, "")
	if got := readBack(t, filepath.Join(root, "new.bin")); !bytes.Equal(got, data) {
		t.Fatalf("new file: %d bytes", len(got))
	}
	small := localFile(t, "small.bin", data[:10])
	if r := runIn(t, "", "-C", "-", "-T", small, base+"r.bin"); r.code != exitResume {
		t.Fatalf("remote larger: exit %d (%s), want %d", r.code, r.stderr, exitResume)
	}
}

// A refused upload is exit 25 (curl's "upload failed"); a local file
// that cannot be read is 26.
func TestUploadFailures(t *testing.T) {
	src := localFile(t, "f.txt", []byte("x\n"))
	// The shared test server is read-only.
	if r := runIn(t, "", "-T", src, "ftp://"+testUser+":"+testPassword+"@"+serverAddr+"/new.txt"); r.code != exitUpload {
		t.Fatalf("refused STOR: exit %d (%s), want %d", r.code, r.stderr, exitUpload)
	}
	_, base := writableServer(t)
	if r := runIn(t, "", "-T", filepath.Join(t.TempDir(), "missing"), base+"m.txt"); r.code != exitUploadRead {
		t.Fatalf("missing local file: exit %d (%s), want %d", r.code, r.stderr, exitUploadRead)
	}
}
