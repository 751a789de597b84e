package fetch_test

// Put on the five real servers, plain and over TLS (explicit and
// implicit where the server has the mode), as the password user, into a
// directory each test makes in the served tree (and removes): what the
// server stored is read back from the tree on disk, byte for byte.
//
// Where a server differs, the test expects the typed *fetch.Error that
// names the command, and docs/servers.md ("Upload") lists it.

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// An upTarget is one server in one mode, with the Client and options
// that reach it as the password user.
type upTarget struct {
	server, mode string
	base         string // "ftp://user:password@addr/"
	opts         []fetch.Option
	cl           *fetch.Client
}

// upTargets returns the server's listeners: plain, explicit TLS and
// implicit TLS, those it has.
func upTargets(t *testing.T, name string) []upTarget {
	t.Helper()
	login := testUser + ":" + testPassword + "@"
	var ts []upTarget
	srv := need(t, name)
	ts = append(ts, upTarget{server: name, mode: "plain", base: "ftp://" + login + srv.addr + "/"})
	if tsrv := tlsServers[name]; tsrv != nil && tsrv.err == nil {
		if tsrv.explicitAddr != "" {
			ts = append(ts, upTarget{server: name, mode: "explicit", base: "ftp://" + login + tsrv.explicitAddr + "/", opts: []fetch.Option{fetch.WithTLS()}})
		}
		if tsrv.implicitAddr != "" {
			ts = append(ts, upTarget{server: name, mode: "implicit", base: "ftps://" + login + tsrv.implicitAddr + "/"})
		}
	}
	for i := range ts {
		ts[i].cl = &fetch.Client{TLSConfig: &tls.Config{RootCAs: testCAPool}, StallTimeout: 30 * time.Second}
		t.Cleanup(ts[i].cl.CloseIdleConnections)
	}
	return ts
}

// onEachTarget runs f on every listener of every server (upTargets),
// the servers in parallel, each in a directory of its own (upDir).
func onEachTarget(t *testing.T, f func(t *testing.T, name string, tg upTarget, rel, abs string)) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, tg := range upTargets(t, name) {
				t.Run(tg.mode, func(t *testing.T) {
					rel, abs := upDir(t, name+"-"+tg.mode)
					f(t, name, tg, rel, abs)
				})
			}
		})
	}
}

// upDir makes a directory for one test in the served tree, owned by the
// password user, and removes it when the test ends. It returns its path
// in the tree ("up/NAME-123") and on disk.
func upDir(t *testing.T, label string) (rel, abs string) {
	t.Helper()
	return upDirB(t, label)
}

// upDirs counts the directories of upDirB in use.
var upDirs struct {
	sync.Mutex
	n int
}

// upDirB is upDir for a test or a benchmark.
func upDirB(t testing.TB, label string) (rel, abs string) {
	t.Helper()
	if testTree == "" {
		t.Skip("no test tree")
	}
	root := filepath.Join(testTree, "up")
	// up/ exists while a test uses it, and only then: the tests of the
	// tree's listings expect the tree as buildTree made it.
	upDirs.Lock()
	defer upDirs.Unlock()
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := os.MkdirTemp(root, strings.NewReplacer("/", "-", " ", "-").Replace(label)+"-")
	if err != nil {
		t.Fatal(err)
	}
	upDirs.n++
	if err := os.Chmod(abs, 0o755); err != nil {
		t.Fatal(err)
	}
	if u, err := user.Lookup(testUser); err == nil {
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(abs, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		upDirs.Lock()
		defer upDirs.Unlock()
		os.RemoveAll(abs)
		if upDirs.n--; upDirs.n == 0 {
			os.Remove(root)
		}
	})
	return "up/" + filepath.Base(abs), abs
}

// randomBytes returns n bytes of a fixed pseudo-random sequence, every
// byte value among them.
func randomBytes(n int) []byte {
	b := make([]byte, n)
	r := rand.New(rand.NewPCG(1, uint64(n)))
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

var (
	big64Once sync.Once
	big64     []byte
)

// entries returns the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// Every size arrives byte for byte (0 B, 1 B, 1 MiB, 64 MiB), on every
// server, plain and over TLS: Put is done only when SIZE proves it
// (RFC 3659 §4).
func TestPutServersByteForByte(t *testing.T) {
	big64Once.Do(func() { big64 = randomBytes(64 << 20) })
	sizes := []int{0, 1, 1 << 20, 64 << 20}
	if testing.Short() {
		sizes = sizes[:3]
	}
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		for _, size := range sizes {
			data := big64[:size]
			file := "f" + strconv.Itoa(size) + ".bin"
			n, err := tg.cl.Put(context.Background(), tg.base+rel+"/"+file, bytes.NewReader(data), tg.opts...)
			if err != nil || n != int64(size) {
				t.Fatalf("Put of %d bytes = %d, %v", size, n, err)
			}
			got, err := os.ReadFile(filepath.Join(abs, file))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%d bytes: the server stored %d bytes (%v), not the bytes sent", size, len(got), err)
			}
		}
	})
}

// ";type=a" sends TYPE A and the text with CRLF line ends (RFC 959
// §3.1.1.1); the server makes its own line ends, except vsftpd, which
// stores what it gets (ftp-servers.md).
func TestPutServersASCII(t *testing.T) {
	const text = "line one\nline two\r\nend"
	crlf := "line one\r\nline two\r\nend"
	want := map[string]string{
		"ftpserverlib": "line one\nline two\nend",
		"vsftpd":       crlf,
		"proftpd":      "line one\nline two\nend",
		"pure-ftpd":    "line one\nline two\nend",
		"pyftpdlib":    "line one\nline two\nend",
	}
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		n, err := tg.cl.Put(context.Background(), tg.base+rel+"/t.txt;type=a", strings.NewReader(text), tg.opts...)
		if err != nil || n != int64(len(text)) {
			t.Fatalf("Put ;type=a = %d, %v", n, err)
		}
		got, err := os.ReadFile(filepath.Join(abs, "t.txt"))
		if err != nil || string(got) != want[name] {
			t.Fatalf("stored %q (%v), want %q", got, err, want[name])
		}
	})
}

// WithCreateDirs makes the missing directories one segment at a time
// (every server refuses a nested MKD), with MultiCWD and SingleCWD.
func TestPutServersCreateDirs(t *testing.T) {
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		u := tg.base + rel + "/n1/n2/f.txt"
		_, err := tg.cl.Put(context.Background(), u, strings.NewReader("x"), tg.opts...)
		if !errors.Is(err, fetch.ErrNotFound) {
			t.Fatalf("Put into a missing directory without WithCreateDirs = %v, want ErrNotFound", err)
		}
		if _, err := tg.cl.Put(context.Background(), u, strings.NewReader("made"), append(tg.opts, fetch.WithCreateDirs())...); err != nil {
			t.Fatalf("Put WithCreateDirs: %v", err)
		}
		if got, err := os.ReadFile(filepath.Join(abs, "n1", "n2", "f.txt")); string(got) != "made" {
			t.Fatalf("stored %q, %v", got, err)
		}
	})
}

// cutReader gives the bytes of data and fails after half of them; at
// that point it calls at.
type cutReader struct {
	r    io.Reader
	left int
	at   func()
}

func (c *cutReader) Read(p []byte) (int, error) {
	if c.left == 0 {
		if c.at != nil {
			c.at()
			c.at = nil
		}
		return 0, errDiskGone
	}
	n, err := c.r.Read(p[:min(len(p), c.left)])
	c.left -= n
	return n, err
}

// A reader cut short is Put's error, wrapping the reader's, and says
// what the server holds, which the disk confirms; with WithTempName the
// real name never holds a partial file (the old one stays until the
// rename) and no temporary file is left.
func TestPutServersReaderCutShortAndTempName(t *testing.T) {
	data := randomBytes(3 << 20)
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		// Without a temporary name: the partial file stays,
		// and the error says its size.
		r := &cutReader{r: bytes.NewReader(data), left: 1 << 20}
		n, err := tg.cl.Put(context.Background(), tg.base+rel+"/cut.bin", r, tg.opts...)
		fi, serr := os.Stat(filepath.Join(abs, "cut.bin"))
		if serr != nil {
			t.Fatal(serr)
		}
		held := `the server now holds ` + strconv.FormatInt(fi.Size(), 10) + ` bytes of "cut.bin"`
		if e := asError(t, err); n != 1<<20 || e.Op != "stor" || !errors.Is(err, errDiskGone) || !strings.Contains(err.Error(), held) {
			t.Fatalf("Put cut short = %d, %v; want %q", n, err, held)
		}

		// With a temporary name, onto an existing file.
		final := filepath.Join(abs, "keep.bin")
		if err := os.WriteFile(final, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		check := func() {
			if got, _ := os.ReadFile(final); string(got) != "old" {
				t.Errorf("during the upload the name holds %d bytes, want the old file", len(got))
			}
		}
		r = &cutReader{r: bytes.NewReader(data), left: 1 << 20, at: check}
		_, err = tg.cl.Put(context.Background(), tg.base+rel+"/keep.bin", r, append(tg.opts, fetch.WithTempName())...)
		if !errors.Is(err, errDiskGone) || !strings.Contains(err.Error(), "was deleted") {
			t.Fatalf("Put cut short WithTempName = %v", err)
		}
		if got := entries(t, abs); !slices.Equal(got, []string{"cut.bin", "keep.bin"}) {
			t.Errorf("the directory holds %q, want cut.bin and keep.bin", got)
		}
		check()

		// Whole, with a temporary name: during the upload the
		// name still holds the old file; after, the new one.
		half := &halfway{r: bytes.NewReader(data), at: len(data) / 2, f: check}
		_, err = tg.cl.Put(context.Background(), tg.base+rel+"/keep.bin", half, append(tg.opts, fetch.WithTempName())...)
		if name == "proftpd" {
			// ProFTPD refuses RNTO onto a file by default
			// (AllowOverwrite off).
			if e := asError(t, err); e.Op != "rename" || e.Command != "RNTO keep.bin" || e.Code != 550 || !strings.Contains(err.Error(), "was deleted") {
				t.Fatalf("Put WithTempName onto a file on ProFTPD = %v, want the refused RNTO", err)
			}
			check()
		} else {
			if err != nil {
				t.Fatalf("Put WithTempName: %v", err)
			}
			if got, _ := os.ReadFile(final); !bytes.Equal(got, data) {
				t.Errorf("after the rename the name holds %d bytes, want the %d sent", len(got), len(data))
			}
		}
		if got := entries(t, abs); !slices.Equal(got, []string{"cut.bin", "keep.bin"}) {
			t.Errorf("the directory holds %q, want cut.bin and keep.bin", got)
		}
	})
}

// halfway reads r and calls f once at byte at.
type halfway struct {
	r  io.Reader
	at int
	f  func()
	n  int
}

func (h *halfway) Read(p []byte) (int, error) {
	if h.f != nil && h.n >= h.at {
		h.f()
		h.f = nil
	}
	if h.f != nil {
		p = p[:min(len(p), h.at-h.n)]
	}
	n, err := h.r.Read(p)
	h.n += n
	return n, err
}

// WithOffset resumes where SIZE says the offset (RFC 3659 §4, then
// APPE, RFC 959 §4.1.3), and refuses any other offset before a byte is
// sent; ProFTPD refuses APPE by default (AllowStoreRestart off): Op
// "appe", "451 Append/Restart not permitted, try again".
func TestPutServersResume(t *testing.T) {
	data := randomBytes(1 << 20)
	half := int64(len(data) / 2)
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		u := tg.base + rel + "/r.bin"
		if _, err := tg.cl.Put(context.Background(), u, bytes.NewReader(data[:half]), tg.opts...); err != nil {
			t.Fatal(err)
		}
		// Wrong: one byte off either way.
		for _, off := range []int64{half - 1, half + 1} {
			n, err := tg.cl.Put(context.Background(), u, bytes.NewReader(data[off:]), append(tg.opts, fetch.WithOffset(off))...)
			if e := asError(t, err); n != 0 || e.Op != "size" || e.Command != "SIZE r.bin" || !strings.Contains(err.Error(), "holds "+strconv.FormatInt(half, 10)+" bytes") {
				t.Fatalf("resume at %d of %d = %d, %v", off, half, n, err)
			}
		}
		// Right.
		n, err := tg.cl.Put(context.Background(), u, bytes.NewReader(data[half:]), append(tg.opts, fetch.WithOffset(half))...)
		got, _ := os.ReadFile(filepath.Join(abs, "r.bin"))
		if name == "proftpd" {
			if e := asError(t, err); e.Op != "appe" || e.Command != "APPE r.bin" || e.Code != 451 {
				t.Fatalf("APPE on ProFTPD = %v, want its 451", err)
			}
			if !bytes.Equal(got, data[:half]) {
				t.Fatalf("ProFTPD changed the file: %d bytes", len(got))
			}
			return
		}
		if err != nil || n != int64(len(data))-half || !bytes.Equal(got, data) {
			t.Fatalf("resume = %d, %v; the server holds %d bytes", n, err, len(got))
		}
	})
}

// Overwriting a file: ProFTPD refuses by default (AllowOverwrite off),
// "550 ... Overwrite permission denied", as Op "stor"; the others
// replace it. No error holds the password.
func TestPutServersOverwriteAndNoPassword(t *testing.T) {
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		u := tg.base + rel + "/o.txt"
		if _, err := tg.cl.Put(context.Background(), u, strings.NewReader("first"), tg.opts...); err != nil {
			t.Fatal(err)
		}
		_, err := tg.cl.Put(context.Background(), u, strings.NewReader("second"), tg.opts...)
		got, _ := os.ReadFile(filepath.Join(abs, "o.txt"))
		if name == "proftpd" {
			if e := asError(t, err); e.Op != "stor" || e.Command != "STOR o.txt" || e.Code != 550 || string(got) != "first" {
				t.Fatalf("overwrite on ProFTPD = %v, file %q", err, got)
			}
		} else if err != nil || string(got) != "second" {
			t.Fatalf("overwrite = %v, file %q", err, got)
		}
		// Errors of every kind: none holds the password.
		var errs []error
		if err != nil {
			errs = append(errs, err)
		}
		_, err = tg.cl.Put(context.Background(), tg.base+rel+"/missing/f", strings.NewReader("x"), tg.opts...)
		errs = append(errs, err)
		_, err = tg.cl.Put(context.Background(), tg.base+rel+"/o.txt", strings.NewReader("x"), append(tg.opts, fetch.WithOffset(99))...)
		errs = append(errs, err)
		_, err = tg.cl.Put(context.Background(), tg.base+rel+"/c.bin", &errAfter{n: 10, err: errDiskGone}, tg.opts...)
		errs = append(errs, err)
		for _, err := range errs {
			if err == nil {
				t.Errorf("a Put that should fail did not")
			}
			for _, text := range errorTexts(err) {
				if strings.Contains(text, testPassword) {
					t.Errorf("error text %q holds the password", text)
				}
			}
		}
	})
}

// PUT through net/http runs Put: 201 Created with an empty body
// (RFC 9110 §15.3.2), the file stored byte for byte; a body shorter
// than the request's ContentLength fails the upload (RFC 9110 §8.6).
func TestPutServersRoundTrip(t *testing.T) {
	data := randomBytes(100 << 10)
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			rel, abs := upDir(t, name+"-http")
			hc, _ := httpClient(t)
			u := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/" + rel + "/h.bin"
			req, err := http.NewRequest(http.MethodPut, u, bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := hc.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusCreated || resp.ContentLength != 0 || len(body) != 0 || resp.Header.Get("Content-Length") != "0" {
				t.Fatalf("PUT: %s, ContentLength %d, body %q", resp.Status, resp.ContentLength, body)
			}
			if got, _ := os.ReadFile(filepath.Join(abs, "h.bin")); !bytes.Equal(got, data) {
				t.Fatalf("PUT stored %d bytes, want %d", len(got), len(data))
			}

			req, _ = http.NewRequest(http.MethodPut, strings.TrimSuffix(u, "h.bin")+"short.bin", io.NopCloser(bytes.NewReader(data[:10])))
			req.ContentLength = 20
			resp, err = (&fetch.Client{}).RoundTrip(req)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("PUT of 10 bytes with ContentLength 20: %s, want an error", resp.Status)
			}
			if !strings.Contains(err.Error(), "does not hold ContentLength bytes") {
				t.Errorf("PUT short body: %v", err)
			}
		})
	}
}
