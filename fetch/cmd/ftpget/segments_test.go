package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/spf13/afero"
)

// cappedServer serves tree with ftpserverlib, each read of a file
// taking 8 ms for at most 64 KiB (a cap of about 8 MB/s a connection,
// which a client under the race detector still outruns),
// with its hash commands on (computed on the true file). It counts the
// files open at once, the most in maxOpen; with flip, byte 1000 of
// what RETR sends is flipped.
type cappedServer struct {
	addr    string
	open    atomic.Int32
	maxOpen atomic.Int32
	flip    bool
}

func serveCapped(t *testing.T, tree string, flip bool) *cappedServer {
	t.Helper()
	cs := &cappedServer{flip: flip}
	d := &cappedDriver{driver: &driver{root: tree, settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30, EnableHASH: true}}, cs: cs}
	srv := ftpserver.NewFtpServer(d)
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	t.Cleanup(func() { _ = srv.Stop(); <-done })
	cs.addr = srv.Addr()
	return cs
}

type cappedDriver struct {
	*driver
	cs *cappedServer
}

func (d *cappedDriver) AuthUser(cc ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	fs, err := d.driver.AuthUser(cc, user, pass)
	if err != nil {
		return nil, err
	}
	return &cappedFs{Fs: fs.(afero.Fs), cs: d.cs}, nil
}

type cappedFs struct {
	afero.Fs
	cs *cappedServer
}

func (s *cappedFs) Open(name string) (afero.File, error) {
	return s.OpenFile(name, os.O_RDONLY, 0)
}

func (s *cappedFs) OpenFile(name string, flag int, perm os.FileMode) (afero.File, error) {
	f, err := s.Fs.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || fi.IsDir() {
		return f, nil
	}
	n := s.cs.open.Add(1)
	for {
		m := s.cs.maxOpen.Load()
		if n <= m || s.cs.maxOpen.CompareAndSwap(m, n) {
			break
		}
	}
	return &cappedFile{File: f, cs: s.cs}, nil
}

// ComputeHash is ftpserverlib's ClientDriverExtensionHasher: the hash
// of the true file, whatever RETR sends.
func (s *cappedFs) ComputeHash(name string, algo ftpserver.HASHAlgo, start, end int64) (string, error) {
	if algo != ftpserver.HASHAlgoSHA256 {
		return "", errors.New("SHA-256 only")
	}
	f, err := s.Fs.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

type cappedFile struct {
	afero.File
	cs     *cappedServer
	pos    int64
	closed atomic.Bool
}

func (f *cappedFile) Seek(off int64, whence int) (int64, error) {
	n, err := f.File.Seek(off, whence)
	f.pos = n
	return n, err
}

func (f *cappedFile) Read(b []byte) (int, error) {
	time.Sleep(8 * time.Millisecond)
	n, err := f.File.Read(b[:min(len(b), 64<<10)])
	if f.cs.flip && f.pos <= 1000 && 1000 < f.pos+int64(n) {
		b[1000-f.pos] ^= 0xff
	}
	f.pos += int64(n)
	return n, err
}

func (f *cappedFile) Close() error {
	if !f.closed.Swap(true) {
		f.cs.open.Add(-1)
	}
	return f.File.Close()
}

// segTree makes a tree with an 8 MiB file of random bytes, big.bin (as
// large as a mirror fetches in segments),
// and a small one, small.txt; it returns the tree and big.bin's bytes.
func segTree(t *testing.T) (string, []byte) {
	t.Helper()
	tree := t.TempDir()
	big := make([]byte, segmentedMin)
	_, _ = rand.NewChaCha8([32]byte{5}).Read(big)
	writeFile(t, filepath.Join(tree, "big.bin"), big, 0o644)
	writeFile(t, filepath.Join(tree, "small.txt"), []byte(textFile), 0o644)
	return tree, big
}

// TestSegmentsRunNSessions: --segments 4 -o FILE fetches a file over 4
// sessions at once from a server that caps each connection (the
// Client's MaxConnsPerHost raised from 2 to 4 for them), byte for byte;
// without --segments, one.
func TestSegmentsRunNSessions(t *testing.T) {
	tree, big := segTree(t)
	for _, tc := range []struct {
		args []string
		open int32
	}{
		{[]string{"--segments", "4"}, 4},
		{nil, 1},
	} {
		cs := serveCapped(t, tree, false)
		out := filepath.Join(t.TempDir(), "big.bin")
		args := append(tc.args, "-o", out, "ftp://"+cs.addr+"/big.bin")
		runIn(t, "", args...).want(t, 0, "")
		if got := readFile(t, out); got != string(big) {
			t.Errorf("%q: the file differs", args)
		}
		if n := cs.maxOpen.Load(); n != tc.open {
			t.Errorf("%q: %d ranges at once; want %d", args, n, tc.open)
		}
	}
}

// TestChecksumFlag: --checksum proves a file by the server's SHA-256
// (XSHA256 on ftpserverlib): a true server passes, one that flips a
// byte of the data fails the run (exit 1) with ErrHashMismatch's
// words; a mirror keeps the file as .ftpget-part (exit 18).
func TestChecksumFlag(t *testing.T) {
	tree, big := segTree(t)
	good := serveCapped(t, tree, false)
	bad := serveCapped(t, tree, true)
	dir := t.TempDir()

	out := filepath.Join(dir, "good.bin")
	runIn(t, "", "--checksum", "-o", out, "ftp://"+good.addr+"/big.bin").want(t, 0, "")
	if got := readFile(t, out); got != string(big) {
		t.Error("--checksum: the file differs")
	}
	out = filepath.Join(dir, "bad.bin")
	r := runIn(t, "", "--checksum", "-o", out, "ftp://"+bad.addr+"/big.bin")
	if r.code != exitFailed || !strings.Contains(r.stderr, "hash") {
		t.Errorf("--checksum, a byte flipped: exit %d, stderr %q; want 1 and the hash's error", r.code, r.stderr)
	}
	// Without --checksum, SIZE alone takes the flipped file.
	runIn(t, "", "-o", out, "ftp://"+bad.addr+"/big.bin").want(t, 0, "")

	mirror := filepath.Join(dir, "mirror")
	r = runIn(t, "", "--checksum", "--mirror", mirror, "ftp://"+bad.addr+"/")
	if r.code != exitPartial || !strings.Contains(r.stderr, "big.bin.ftpget-part") {
		t.Errorf("--checksum --mirror, a byte flipped: exit %d, stderr %q; want 18, big.bin kept as .ftpget-part", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(mirror, "big.bin")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the mirror kept big.bin as good: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(mirror, "small.txt")); err != nil || string(b) != textFile {
		t.Errorf("small.txt: %q, %v", b, err)
	}
}

// TestSegmentsInAMirror: --mirror with --segments 4 fetches a file of 8
// MiB or more over 4 sessions at once (MaxConnsPerHost raised by 3
// beside the mirror's own), the small ones as before.
func TestSegmentsInAMirror(t *testing.T) {
	tree, big := segTree(t)
	cs := serveCapped(t, tree, false)
	mirror := filepath.Join(t.TempDir(), "m")
	r := runIn(t, "", "--segments", "4", "--mirror", mirror, "ftp://"+cs.addr+"/")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(mirror, "big.bin")); err != nil || !bytes.Equal(b, big) {
		t.Errorf("big.bin differs: %v", err)
	}
	if n := cs.maxOpen.Load(); n < 4 {
		t.Errorf("%d files open at once; want the 4 ranges of big.bin at least", n)
	}
}
