package fetch_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"io/fs"
	"net"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// fsFiles are the files of the "fs/" tree (buildTree), by io/fs name.
var fsFiles = []string{"binary.bin", "empty.txt", "sub/deep.txt", "sub/more/x.txt", "with space.txt", "semi;colon.txt", "ünïcödé.txt"}

// countingClient is a Client whose control connections to addr are
// counted: a login each.
func countingClient(addr string) (*fetch.Client, *atomic.Int32) {
	var n atomic.Int32
	c := &fetch.Client{DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
		if a == addr {
			n.Add(1)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, a)
	}}
	return c, &n
}

// TestFSOnServers: DESIGN, "fetch as an io/fs file system": FS passes
// testing/fstest.TestFS on the five servers (it opens, reads, seeks,
// reads at offsets and lists each name several times, then again under
// fs.Sub), with at most two logins for the whole run: every use reuses
// a pooled session, and a transfer left early by Seek or ReadAt is
// ended with ABOR, its session kept.
func TestFSOnServers(t *testing.T) {
	for _, name := range serverNames {
		for _, mode := range []string{"plain", "explicit"} {
			t.Run(name+"/"+mode, func(t *testing.T) {
				t.Parallel()
				addr := need(t, name).addr
				var opts []fetch.Option
				if mode == "explicit" {
					if addr = needTLS(t, name).explicitAddr; addr == "" {
						t.Skipf("%s has no explicit TLS (see servers_test.go)", name)
					}
					opts = append(opts, fetch.WithTLS())
				}
				c, logins := countingClient(addr)
				c.TLSConfig = &tls.Config{RootCAs: testCAPool}
				t.Cleanup(c.CloseIdleConnections)
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				defer cancel()
				fsys, err := c.FS(ctx, "ftp://"+addr+"/fs/", opts...)
				if err != nil {
					t.Fatal(err)
				}
				if err := fstest.TestFS(fsys, fsFiles...); err != nil {
					t.Fatal(err)
				}
				if n := logins.Load(); n < 1 || n > 2 {
					t.Errorf("%d logins for fstest.TestFS; want 1 or 2", n)
				}
			})
		}
	}
}

// TestFSErrors: errors are *fs.PathError wrapping what io/fs expects
// (fs.ErrNotExist, fs.ErrInvalid, fs.ErrPermission), and Read, Seek and
// ReadAt keep their contracts at the file's end.
func TestFSErrors(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			fsys, err := c.FS(ctx, "ftp://"+srv.addr+"/")
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct {
				name string
				want error
			}{
				{"missing.txt", fs.ErrNotExist},
				{"a/missing/x.txt", fs.ErrNotExist},
				{"../text.txt", fs.ErrInvalid},
				{"/text.txt", fs.ErrInvalid},
				{"a/./top.txt", fs.ErrInvalid},
			} {
				_, err := fsys.Open(tc.name)
				var pe *fs.PathError
				if !errors.As(err, &pe) || pe.Path != tc.name || !errors.Is(err, tc.want) {
					t.Errorf("Open(%q): %v; want an *fs.PathError wrapping %v", tc.name, err, tc.want)
				}
				if _, err := fs.Stat(fsys, tc.name); !errors.Is(err, tc.want) {
					t.Errorf("Stat(%q): %v; want %v", tc.name, err, tc.want)
				}
			}
			// walk/locked is mode 000: vsftpd, ProFTPD and Pure-FTPd
			// (as the ftp user) refuse its CWD with 550; ftpserverlib
			// and pyftpdlib run as its owner and list it.
			locked, err := fs.ReadDir(fsys, "walk/locked")
			switch name {
			case "vsftpd", "proftpd", "pure-ftpd":
				if !errors.Is(err, fs.ErrPermission) {
					t.Errorf("ReadDir(walk/locked): %v; want fs.ErrPermission (the directory is listed, and its CWD refused)", err)
				}
			default:
				if err != nil || len(locked) != 1 {
					t.Errorf("ReadDir(walk/locked): %v, %v; want its one file", locked, err)
				}
			}
			// A name that is not an io/fs name ("\xff\xfe.bin", not
			// UTF-8) is left out of ReadDir and named in its error;
			// pyftpdlib lists it as "??.bin", an io/fs name.
			walk, err := fsys.ReadDir("walk")
			for _, d := range walk {
				if !fs.ValidPath(d.Name()) {
					t.Errorf("ReadDir(walk) holds %q, not an io/fs name", d.Name())
				}
			}
			var pe *fs.PathError
			switch {
			case name == "pyftpdlib":
				if err != nil {
					t.Errorf("ReadDir(walk): %v", err)
				}
			case !errors.As(err, &pe) || !strings.Contains(err.Error(), `"\xff\xfe.bin"`) || len(walk) < 10:
				t.Errorf("ReadDir(walk): %d entries, %v; want the others, and an *fs.PathError naming \"\\xff\\xfe.bin\"", len(walk), err)
			}
			if _, err := fetch.NewFS(ctx, "ftp://"+srv.addr+"/text.txt"); err == nil {
				t.Error("NewFS of a file: no error")
			}
			if _, err := c.FS(ctx, "ftp://"+srv.addr+"/missing/"); !errors.Is(err, fetch.ErrNotFound) {
				t.Errorf("FS of a missing directory: %v; want ErrNotFound", err)
			}

			f, err := fsys.Open("text.txt")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rs := f.(io.ReadSeeker)
			if off, err := rs.Seek(-4, io.SeekEnd); err != nil || off != int64(len(textFile)-4) {
				t.Fatalf("Seek(-4, end) = %d, %v", off, err)
			}
			b, err := io.ReadAll(rs)
			if err != nil || string(b) != textFile[len(textFile)-4:] {
				t.Errorf("after Seek(-4, end): %q, %v", b, err)
			}
			p := make([]byte, 5)
			if n, err := f.(io.ReaderAt).ReadAt(p, 5); n != 5 || err != nil || string(p) != textFile[5:10] {
				t.Errorf("ReadAt(5, 5) = %d %q, %v", n, p[:n], err)
			}
			if n, err := f.(io.ReaderAt).ReadAt(p, int64(len(textFile))); n != 0 || err != io.EOF {
				t.Errorf("ReadAt at the end = %d, %v; want 0, io.EOF", n, err)
			}
			if _, err := fsys.ReadFile("a"); err == nil || !strings.Contains(err.Error(), "is a directory") {
				t.Errorf("ReadFile of a directory: %v", err)
			}
		})
	}
}

// TestFSWalkDirEndsOnLinks: fs.WalkDir over an FS never goes through a
// link, on the five servers: pyftpdlib's MLSD shows a link to a
// directory as the directory ("walk/sub/up -> ..", "walk/loop -> ."),
// which LIST tells apart (FS.list); before, fs.WalkDir went down
// sub/up/sub/up/... without end.
func TestFSWalkDirEndsOnLinks(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			fsys, err := c.FS(ctx, "ftp://"+srv.addr+"/walk/")
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
				if strings.HasPrefix(p, "sub/up/") || strings.HasPrefix(p, "loop/") || strings.HasPrefix(p, "link-dir/") {
					t.Errorf("%s: fs.WalkDir went through a link", p)
					return fs.SkipAll
				}
				if err == nil {
					seen[p] = true
					// A link (ftpserverlib's MLSD says a file).
					if p == "sub/up" && d.IsDir() {
						t.Errorf("sub/up is %v, want no directory", d.Type())
					}
				}
				return nil
			})
			if err != nil || !seen["sub/deep.txt"] || !seen["sub/up"] {
				t.Errorf("fs.WalkDir: %v; seen %v", err, seen)
			}
		})
	}
}
