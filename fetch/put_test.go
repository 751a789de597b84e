package fetch_test

// Put against the scripted fake server: the exact dialog of each
// option, and every error path, each a typed *fetch.Error that names
// the command. The real servers are in put_servers_test.go.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// A store is the file system of a fake server that takes uploads:
// STOR, APPE, SIZE, DELE, RNFR and RNTO, MKD, each answered as RFC 959
// §4.2 and RFC 3659 §4 say.
type store struct {
	mu    sync.Mutex
	files map[string][]byte
	from  string // the RNFR name
	keep  int    // > 0: STOR keeps only this many bytes and answers 226 (an upload cut short)
}

func newStore() *store { return &store{files: map[string][]byte{}} }

func (st *store) get(name string) ([]byte, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	b, ok := st.files[name]
	return b, ok
}

func (st *store) names() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []string
	for n := range st.files {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (st *store) script() script {
	return script{
		"STOR": st.receive(false),
		"APPE": st.receive(true),
		"SIZE": func(c *fconn, arg string) {
			if b, ok := st.get(arg); ok {
				c.send(fmt.Sprintf("213 %d", len(b)))
			} else {
				c.send("550 " + arg + ": No such file")
			}
		},
		"DELE": func(c *fconn, arg string) {
			st.mu.Lock()
			_, ok := st.files[arg]
			delete(st.files, arg)
			st.mu.Unlock()
			if ok {
				c.send("250 Deleted")
			} else {
				c.send("550 No such file")
			}
		},
		"RNFR": func(c *fconn, arg string) {
			if _, ok := st.get(arg); !ok {
				c.send("550 No such file")
				return
			}
			st.mu.Lock()
			st.from = arg
			st.mu.Unlock()
			c.send("350 Ready for RNTO")
		},
		"RNTO": func(c *fconn, arg string) {
			st.mu.Lock()
			st.files[arg] = st.files[st.from]
			delete(st.files, st.from)
			st.mu.Unlock()
			c.send("250 Renamed")
		},
		"MKD": func(c *fconn, arg string) { c.send(`257 "` + arg + `" created`) },
	}
}

// receive answers STOR (or APPE): 150, the data connection read to its
// end, 226.
func (st *store) receive(appending bool) handler {
	return func(c *fconn, arg string) {
		d := c.data()
		if d == nil {
			return
		}
		c.send("150 Ok to send data")
		b, _ := io.ReadAll(d)
		d.Close()
		st.mu.Lock()
		if st.keep > 0 && len(b) > st.keep {
			b = b[:st.keep]
		}
		if appending {
			st.files[arg] = append(st.files[arg], b...)
		} else {
			st.files[arg] = b
		}
		st.mu.Unlock()
		c.send("226 Transfer complete")
	}
}

// with returns sc with extra's handlers over it.
func (sc script) with(extra script) script {
	out := script{}
	for k, v := range sc {
		out[k] = v
	}
	for k, v := range extra {
		out[k] = v
	}
	return out
}

// put runs c.Put within 30 seconds.
func put(t *testing.T, c *fetch.Client, rawURL string, r io.Reader, opts ...fetch.Option) (n int64, err error) {
	t.Helper()
	within(t, 30*time.Second, func() {
		n, err = c.Put(context.Background(), rawURL, r, opts...)
	})
	return n, err
}

// The whole dialog of each kind of Put (RFC 959 §4.1.3, RFC 3659 §4):
// the URL's CWDs and TYPE as for RETR, then STOR of the name, the SIZE
// that proves the upload after the 226, and for WithTempName the
// rename; WithOffset asks SIZE first and APPEs; ";type=a" asks no SIZE.
func TestPutDialog(t *testing.T) {
	login := []string{"USER anonymous", "PASS anonymous@", "FEAT", "PWD"}
	cases := []struct {
		name string
		path string
		opts []fetch.Option
		pre  map[string][]byte // the server's files before
		want []string          // after the login, before QUIT; TEMP is the temporary name
	}{
		{"stor", "a/b/f.bin", nil, nil,
			[]string{"CWD a", "CWD b", "TYPE I", "EPSV", "STOR f.bin", "SIZE f.bin"}},
		{"stor ascii", "a/f.txt;type=a", nil, nil,
			[]string{"CWD a", "TYPE A", "EPSV", "STOR f.txt"}},
		{"stor image typecode", "f.bin;type=i", nil, nil,
			[]string{"TYPE I", "EPSV", "STOR f.bin", "SIZE f.bin"}},
		{"singlecwd", "a/b/f.bin", []fetch.Option{fetch.WithMethod(ftpurl.SingleCWD)}, nil,
			[]string{"CWD a/b", "TYPE I", "EPSV", "STOR f.bin", "SIZE f.bin"}},
		{"nocwd", "a/b/f.bin", []fetch.Option{fetch.WithMethod(ftpurl.NoCWD)}, nil,
			[]string{"TYPE I", "EPSV", "STOR a/b/f.bin", "SIZE a/b/f.bin"}},
		{"absolute", "a/f.bin", []fetch.Option{fetch.WithAbsolutePaths()}, nil,
			[]string{"CWD /", "CWD a", "TYPE I", "EPSV", "STOR f.bin", "SIZE f.bin"}},
		{"temp name", "a/f.bin", []fetch.Option{fetch.WithTempName()}, nil,
			[]string{"CWD a", "TYPE I", "EPSV", "STOR TEMP", "SIZE TEMP", "RNFR TEMP", "RNTO f.bin"}},
		{"offset", "f.bin", []fetch.Option{fetch.WithOffset(3)}, map[string][]byte{"f.bin": []byte("hel")},
			[]string{"TYPE I", "SIZE f.bin", "EPSV", "APPE f.bin", "SIZE f.bin"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore()
			for k, v := range tc.pre {
				st.files[k] = v
			}
			f := newFake(t, st.script())
			body := "hello"
			if tc.pre != nil {
				body = "lo"
			}
			n, err := put(t, testClient(t), f.url(tc.path), strings.NewReader(body), tc.opts...)
			if err != nil || n != int64(len(body)) {
				t.Fatalf("Put = %d, %v; want %d, nil; commands %q", n, err, len(body), f.commands())
			}
			waitFor(t, func() bool { return slices.Contains(f.commands(), "QUIT") })
			got := f.commands()
			temp := ""
			for _, c := range got {
				if rest, ok := strings.CutPrefix(c, "STOR "); ok && rest != "f.bin" && strings.Contains(rest, ".ftpurl-") {
					temp = rest
				}
			}
			var want []string
			for _, w := range append(append(login, tc.want...), "QUIT") {
				want = append(want, strings.ReplaceAll(w, "TEMP", temp))
			}
			if !slices.Equal(got, want) {
				t.Errorf("dialog\n got %s\nwant %s", strings.Join(got, " | "), strings.Join(want, " | "))
			}
			if tc.name == "temp name" && (!strings.HasPrefix(temp, ".f.bin.ftpurl-") || !strings.HasSuffix(temp, ".part")) {
				t.Errorf("temporary name %q, want .f.bin.ftpurl-XXXXXXXX.part", temp)
			}
			var stored []string
			for _, name := range st.names() {
				b, _ := st.get(name)
				stored = append(stored, name+"="+string(b))
			}
			wantName := tc.want[len(tc.want)-1]
			if strings.HasPrefix(wantName, "SIZE ") || strings.HasPrefix(wantName, "RNTO ") {
				wantName = wantName[5:]
			} else {
				wantName = strings.TrimPrefix(tc.want[len(tc.want)-1], "STOR ")
			}
			if !slices.Equal(stored, []string{wantName + "=hello"}) {
				t.Errorf("the server holds %q, want %s=hello", stored, wantName)
			}
		})
	}
}

// A URL that names no file, or a directory listing, or a WithOffset that
// cannot be checked, fails before connecting (1997 draft §2.5: the URL
// names the file to update).
func TestPutRefusedBeforeConnecting(t *testing.T) {
	f := newFake(t, newStore().script())
	cases := []struct {
		path string
		opts []fetch.Option
		op   string
		msg  string
	}{
		{"dir/", nil, "stor", "names a directory"},
		{"", nil, "stor", "names a directory"},
		{"f;type=d", nil, "stor", ";type=d"},
		{"f;type=e", nil, "stor", "not TYPE E"},
		{"f", []fetch.Option{fetch.WithOffset(-1)}, "appe", "negative"},
		{"f;type=a", []fetch.Option{fetch.WithOffset(5)}, "appe", "needs TYPE I"},
		{"f", []fetch.Option{fetch.WithOffset(5), fetch.WithTempName()}, "appe", "WithTempName"},
	}
	for _, tc := range cases {
		n, err := put(t, testClient(t), f.url(tc.path), strings.NewReader("x"), tc.opts...)
		e := asError(t, err)
		if n != 0 || e.Op != tc.op || e.Code != 0 || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("Put(%q) = %d, %v (Op %q); want Op %q, %q", tc.path, n, err, e.Op, tc.op, tc.msg)
		}
	}
	if f.dialCount() != 0 {
		t.Errorf("%d connections, want none", f.dialCount())
	}
}

// Five of five servers answer 226 to an upload cut short: Put is done
// only when SIZE (RFC 3659 §4) says the server holds every byte.
func TestPutShortUploadIsAnError(t *testing.T) {
	noLeaks(t)
	st := newStore()
	st.keep = 3
	f := newFake(t, st.script())
	n, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader("hello"))
	e := asError(t, err)
	if n != 5 || e.Op != "size" || e.Command != "SIZE f.bin" || !strings.Contains(err.Error(), "holds 3 bytes, not the 5") {
		t.Fatalf("Put = %d, %v; want 5 and a size error", n, err)
	}
}

// Where FEAT lists no SIZE, the 226 is taken (the doc says so).
func TestPutWithoutSIZETakesThe226(t *testing.T) {
	st := newStore()
	st.keep = 3
	f := newFake(t, st.script().with(script{"FEAT": say("211-Features:", " MDTM", "211 End")}))
	n, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader("hello"))
	if err != nil || n != 5 || f.received("SIZE") {
		t.Fatalf("Put = %d, %v, SIZE sent %v; want 5, nil, no SIZE", n, err, f.received("SIZE"))
	}
}

// errAfter is a reader that gives n bytes of 'x', then fails.
type errAfter struct {
	n   int
	err error
}

func (r *errAfter) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, r.err
	}
	m := min(len(p), r.n)
	for i := range p[:m] {
		p[i] = 'x'
	}
	r.n -= m
	return m, nil
}

var errDiskGone = errors.New("the disk went away")

// A reader that fails is Put's error (errors.Is reaches it), which says
// what the server now holds; with WithTempName, the temporary file is
// deleted and the name is untouched.
func TestPutReaderFails(t *testing.T) {
	noLeaks(t)
	st := newStore()
	f := newFake(t, st.script())
	n, err := put(t, testClient(t), f.url("f.bin"), &errAfter{n: 1000, err: errDiskGone})
	e := asError(t, err)
	if n != 1000 || e.Op != "stor" || e.Command != "STOR f.bin" || !errors.Is(err, errDiskGone) ||
		!strings.Contains(err.Error(), `the server now holds 1000 bytes of "f.bin"`) {
		t.Fatalf("Put = %d, %v; want 1000 and the reader's error with what the server holds", n, err)
	}

	st = newStore()
	st.files["f.bin"] = []byte("old")
	f = newFake(t, st.script())
	n, err = put(t, testClient(t), f.url("f.bin"), &errAfter{n: 1000, err: errDiskGone}, fetch.WithTempName())
	e = asError(t, err)
	if n != 1000 || !errors.Is(err, errDiskGone) || !strings.Contains(err.Error(), "was deleted") || !strings.HasPrefix(e.Command, "STOR .f.bin.ftpurl-") {
		t.Fatalf("Put with a temporary name = %d, %v", n, err)
	}
	if got := st.names(); !slices.Equal(got, []string{"f.bin"}) {
		t.Errorf("the server holds %q, want f.bin alone", got)
	}
	if b, _ := st.get("f.bin"); string(b) != "old" {
		t.Errorf("f.bin holds %q, want the old file", b)
	}
}

// A temporary file that the server will not delete is named in the
// error, so that its owner can find it.
func TestPutTempFileLeftIsNamed(t *testing.T) {
	st := newStore()
	st.keep = 2
	f := newFake(t, st.script().with(script{"DELE": say("550 Permission denied")}))
	_, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader("hello"), fetch.WithTempName())
	e := asError(t, err)
	names := st.names()
	if e.Op != "size" || len(names) != 1 || !strings.Contains(err.Error(), `the temporary file "`+names[0]+`" is left on the server: DELE `+names[0]+": 550 Permission denied") {
		t.Fatalf("Put = %v; the server holds %q", err, names)
	}
}

// A refused rename (ProFTPD's RNTO onto a file, by default) is Op
// "rename", naming the command, and the temporary file is deleted.
func TestPutRefusedRename(t *testing.T) {
	st := newStore()
	f := newFake(t, st.script().with(script{"RNTO": say("550 f.bin: Rename permission denied")}))
	_, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader("hello"), fetch.WithTempName())
	e := asError(t, err)
	if e.Op != "rename" || e.Command != "RNTO f.bin" || e.Code != 550 || !strings.Contains(err.Error(), "which holds the whole upload, was deleted") {
		t.Fatalf("Put = %v", err)
	}
	if got := st.names(); len(got) != 0 {
		t.Errorf("the server holds %q, want nothing", got)
	}
}

// A refused STOR (ProFTPD refuses to overwrite, by default) and a
// refused APPE are the command's *Error with the server's reply.
func TestPutRefusedStorAndAppe(t *testing.T) {
	st := newStore()
	st.files["f.bin"] = []byte("abc")
	f := newFake(t, st.script().with(script{
		"STOR": say("550 f.bin: Overwrite permission denied"),
		"APPE": say("550 f.bin: Overwrite permission denied"),
	}))
	_, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader("hello"))
	if e := asError(t, err); e.Op != "stor" || e.Command != "STOR f.bin" || e.Code != 550 {
		t.Errorf("STOR refused: %v", err)
	}
	_, err = put(t, testClient(t), f.url("f.bin"), strings.NewReader("de"), fetch.WithOffset(3))
	if e := asError(t, err); e.Op != "appe" || e.Command != "APPE f.bin" || e.Code != 550 {
		t.Errorf("APPE refused: %v", err)
	}
}

// WithOffset resumes only where SIZE says the offset: a file of
// another size, or none, fails before a byte is sent (no hole, no
// doubled part).
func TestPutOffsetMustMatchSIZE(t *testing.T) {
	st := newStore()
	st.files["f.bin"] = []byte("hel")
	f := newFake(t, st.script())
	for _, off := range []int64{2, 4} {
		n, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader("lo"), fetch.WithOffset(off))
		e := asError(t, err)
		if n != 0 || e.Op != "size" || e.Command != "SIZE f.bin" || !strings.Contains(err.Error(), fmt.Sprintf("holds 3 bytes, not the WithOffset %d", off)) {
			t.Errorf("offset %d: Put = %d, %v", off, n, err)
		}
	}
	_, err := put(t, testClient(t), f.url("g.bin"), strings.NewReader("lo"), fetch.WithOffset(3))
	if e := asError(t, err); e.Op != "size" || e.Code != 550 {
		t.Errorf("offset on a missing file: %v", err)
	}
	if f.received("APPE") {
		t.Errorf("APPE sent: %q", f.commands())
	}
	if b, _ := st.get("f.bin"); string(b) != "hel" {
		t.Errorf("f.bin holds %q", b)
	}
}

// WithCreateDirs: MKD only for the directory whose CWD is refused with
// 550, one segment at a time (servers refuse a nested MKD), then CWD
// again (curl's --ftp-create-dirs).
func TestPutCreateDirs(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts []fetch.Option
		want []string
	}{
		{"multicwd", nil, []string{"CWD a", "CWD b", "MKD b", "CWD b", "CWD c", "MKD c", "CWD c", "TYPE I"}},
		{"singlecwd", []fetch.Option{fetch.WithMethod(ftpurl.SingleCWD)}, []string{"CWD a/b/c", "MKD a", "MKD a/b", "MKD a/b/c", "CWD a/b/c", "TYPE I"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			made := map[string]bool{"a": true}
			var cwd []string
			f := newFake(t, newStore().script().with(script{
				"CWD": func(c *fconn, arg string) {
					mu.Lock()
					defer mu.Unlock()
					p := strings.Join(append(slices.Clone(cwd), arg), "/")
					if made[p] {
						cwd = strings.Split(p, "/")
						c.send("250 OK")
					} else {
						c.send("550 No such directory")
					}
				},
				"MKD": func(c *fconn, arg string) {
					mu.Lock()
					defer mu.Unlock()
					p := strings.Join(append(slices.Clone(cwd), arg), "/")
					if i := strings.LastIndexByte(p, '/'); i > 0 && !made[p[:i]] {
						c.send("550 No parent")
						return
					}
					made[p] = true
					c.send(`257 "` + arg + `" created`)
				},
			}))
			_, err := put(t, testClient(t), f.url("a/b/c/f.bin"), strings.NewReader("x"), append(tc.opts, fetch.WithCreateDirs())...)
			if err != nil {
				t.Fatalf("Put: %v; commands %q", err, f.commands())
			}
			got := f.commands()[4:]
			if !slices.Equal(got[:len(tc.want)], tc.want) {
				t.Errorf("dialog %q, want %q", got, tc.want)
			}
		})
	}

	// Without it, the missing directory is ErrNotFound, and no MKD.
	f := newFake(t, newStore().script().with(script{"CWD": say("550 No such directory")}))
	_, err := put(t, testClient(t), f.url("a/f.bin"), strings.NewReader("x"))
	if !errors.Is(err, fetch.ErrNotFound) || f.received("MKD") {
		t.Errorf("Put into a missing directory = %v", err)
	}
	// A refused MKD is Op "mkd", after the refused CWD.
	f = newFake(t, newStore().script().with(script{"CWD": say("550 No such directory"), "MKD": say("550 Permission denied")}))
	_, err = put(t, testClient(t), f.url("a/f.bin"), strings.NewReader("x"), fetch.WithCreateDirs())
	if e := asError(t, err); e.Op != "mkd" || e.Command != "MKD a" || e.Code != 550 || !strings.Contains(err.Error(), "(after CWD a: 550 No such directory)") {
		t.Errorf("refused MKD = %v", err)
	}
}

// A Put that sent data is never replayed (net/http retries only what
// is idempotent): a reused session that the server leaves during STOR
// fails the Put, where one it left before is replaced.
func TestPutIsNotReplayed(t *testing.T) {
	st := newStore()
	var mu sync.Mutex
	stors := 0
	f := newFake(t, st.script().with(script{
		"STOR": func(c *fconn, arg string) {
			mu.Lock()
			stors++
			k := stors
			mu.Unlock()
			if k == 2 {
				d := c.data()
				c.send("150 Ok")
				_, _ = io.Copy(io.Discard, d)
				d.Close()
				c.hangup()
				return
			}
			st.receive(false)(c, arg)
		},
	}))
	c := &fetch.Client{StallTimeout: 10 * time.Second}
	defer c.CloseIdleConnections()
	if _, err := put(t, c, f.url("f.bin"), strings.NewReader("one")); err != nil {
		t.Fatal(err)
	}
	// Longer than "one": a SIZE after the control connection's end
	// (DESIGN: a transfer that outlives its control connection is
	// proven on a new session) must not find the first upload's size.
	_, err := put(t, c, f.url("f.bin"), strings.NewReader("second"))
	if err == nil || stors != 2 {
		t.Fatalf("Put on a session the server left during STOR = %v, %d STORs; want an error, 2 STORs", err, stors)
	}
}

// No error of Put holds the password, whatever the server echoes.
func TestPutErrorsHoldNoPassword(t *testing.T) {
	const pw = "s3cret-pw"
	f := newFake(t, newStore().script().with(script{
		"STOR": say("550 cannot store for user with password " + pw),
		"MKD":  say("550 no MKD for " + pw),
		"CWD":  say("550 no " + pw),
	}))
	u := "ftp://alice:" + pw + "@" + f.addr + "/d/f.bin"
	for _, opts := range [][]fetch.Option{nil, {fetch.WithCreateDirs()}} {
		_, err := put(t, testClient(t), u, strings.NewReader("x"), opts...)
		for _, text := range errorTexts(err) {
			for _, leak := range leakForms(pw) {
				if strings.Contains(text, leak) {
					t.Errorf("error text %q holds the password", text)
				}
			}
		}
	}
	f = newFake(t, newStore().script().with(script{"STOR": say("550 cannot store for " + pw)}))
	_, err := put(t, testClient(t), "ftp://alice:"+pw+"@"+f.addr+"/f.bin", strings.NewReader("x"))
	if e := asError(t, err); e.Op != "stor" || strings.Contains(err.Error(), pw) || !strings.Contains(err.Error(), "xxxxx") {
		t.Errorf("Put = %v", err)
	}
}

// The bytes of a 1 MiB upload arrive whole and in order.
func TestPutBytesArriveWhole(t *testing.T) {
	st := newStore()
	f := newFake(t, st.script())
	data := bytes.Repeat([]byte("0123456789abcdef\r\n\x00\xff"), 1<<16)
	n, err := put(t, testClient(t), f.url("big.bin"), bytes.NewReader(data))
	if err != nil || n != int64(len(data)) {
		t.Fatalf("Put = %d, %v", n, err)
	}
	if b, _ := st.get("big.bin"); !bytes.Equal(b, data) {
		t.Fatalf("the server holds %d bytes, want the %d sent", len(b), len(data))
	}
}

// ";type=a" sends a line end as CRLF (RFC 959 §3.1.1.1), a CRLF as it
// is, even when a read splits it; Put counts the reader's bytes.
func TestPutASCIISendsCRLF(t *testing.T) {
	st := newStore()
	f := newFake(t, st.script())
	text := "a\nb\r\nc\n\nd"
	n, err := put(t, testClient(t), f.url("t.txt;type=a"), iotest.OneByteReader(strings.NewReader(text)))
	if err != nil || n != int64(len(text)) {
		t.Fatalf("Put = %d, %v", n, err)
	}
	if b, _ := st.get("t.txt"); string(b) != "a\r\nb\r\nc\r\n\r\nd" {
		t.Fatalf("sent %q", b)
	}
	if f.received("SIZE") {
		t.Errorf("SIZE sent in TYPE A: %q", f.commands())
	}
}

// An upload on a session whose EPSV has worked starts early: its bytes
// and the end of its data connection go out as soon as the connection
// is made, and SIZE with them, before the 150 (RFC 959 §4.1 lets a
// client send a command before the reply to the one before). Servers
// then answer in their own order: vsftpd and Pure-FTPd read SIZE after
// the transfer, ProFTPD and ftpserverlib may answer it while it runs,
// even before the 150. Each order is scripted here on the second Put
// of one session (the first one is not pipelined): Put tells the
// replies apart by their codes, asks SIZE again where its answer came
// before the file was whole, and leaves the session in step for a
// third Put.
func TestPutEarlyRepliesInAnyOrder(t *testing.T) {
	nextLine := func(c *fconn) string {
		line, _ := c.r.ReadString('\n')
		line = strings.TrimRight(line, "\r\n")
		c.f.mu.Lock()
		c.f.cmds = append(c.f.cmds, line)
		c.f.mu.Unlock()
		return line
	}
	for _, tc := range []struct {
		name  string
		stor  func(c *fconn) // the second STOR, with SIZE read where the script says
		sizes int            // SIZE commands of the second Put
		code  int            // its *Error's code; 0: success
		late  bool           // the third Put sends SIZE after the 226: the server answers during a transfer
	}{
		{"226 then SIZE's 213", func(c *fconn) {
			d := c.data()
			c.send("150 Opening")
			io.Copy(io.Discard, d)
			d.Close()
			c.send("226 Done")
		}, 1, 0, false},
		{"SIZE's 213 before the 226", func(c *fconn) {
			d := c.data()
			c.send("150 Opening")
			io.Copy(io.Discard, d)
			nextLine(c)
			c.send("213 5")
			d.Close()
			c.send("226 Done")
		}, 1, 0, false},
		{"SIZE's 213 before the 150", func(c *fconn) {
			d := c.data()
			nextLine(c)
			c.send("213 5", "150 Opening")
			io.Copy(io.Discard, d)
			d.Close()
			c.send("226 Done")
		}, 1, 0, false},
		{"SIZE refused before the file was made: asked again", func(c *fconn) {
			d := c.data()
			nextLine(c)
			c.send("550 f1.bin: No such file or directory", "150 Opening")
			io.Copy(io.Discard, d)
			d.Close()
			c.send("226 Done")
		}, 2, 0, true},
		{"SIZE counted a part of the file: asked again", func(c *fconn) {
			d := c.data()
			c.send("150 Opening")
			nextLine(c)
			c.send("213 2")
			io.Copy(io.Discard, d)
			d.Close()
			c.send("226 Done")
		}, 2, 0, true},
		{"STOR refused, then SIZE's 550", func(c *fconn) {
			c.send("553 Could not create file.")
		}, 1, 553, false},
		{"the transfer failed, SIZE's 213 first", func(c *fconn) {
			d := c.data()
			c.send("150 Opening")
			nextLine(c)
			c.send("213 3")
			d.Close()
			c.send("451 Local error in processing")
		}, 2, 451, false}, // the second: what the server holds, for the error's note
	} {
		t.Run(tc.name, func(t *testing.T) {
			stors, early3 := 0, false
			f := newFake(t, script{
				"FEAT": say("211-Features:", " SIZE", "211 End"),
				"STOR": func(c *fconn, _ string) {
					stors++
					if stors == 2 {
						tc.stor(c)
						return
					}
					d := c.data()
					c.send("150 Opening")
					io.Copy(io.Discard, d)
					if stors == 3 {
						// Whether SIZE came with the data's end.
						_ = c.c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
						_, err := c.r.Peek(1)
						early3 = err == nil
						_ = c.c.SetReadDeadline(time.Time{})
					}
					d.Close()
					c.send("226 Done")
				},
				"SIZE": func(c *fconn, arg string) {
					if stors == 2 && tc.code != 0 {
						c.send("550 " + arg + ": No such file or directory")
						return
					}
					c.send("213 5")
				},
			})
			c := &fetch.Client{StallTimeout: 5 * time.Second} // sessions kept: the second Put is the session's second
			t.Cleanup(c.CloseIdleConnections)
			var sizes []int
			for i := range 3 {
				before := countPrefix(f.commands(), "SIZE ")
				n, err := c.Put(context.Background(), f.url(fmt.Sprintf("f%d.bin", i)), strings.NewReader("hello"))
				sizes = append(sizes, countPrefix(f.commands(), "SIZE ")-before)
				switch {
				case i == 1 && tc.code != 0:
					// A refused STOR took no byte (0); a failed
					// transfer reports what was sent (5).
					if e := asError(t, err); e.Op != "stor" || e.Code != tc.code || n != map[int]int64{553: 0, 451: 5}[tc.code] {
						t.Fatalf("Put %d = %d, %v; want an *Error of Op stor, code %d", i, n, err, tc.code)
					}
				case err != nil:
					t.Fatalf("Put %d: %v", i, err)
				}
			}
			if sizes[1] != tc.sizes || f.dialCount() != 1 {
				t.Errorf("SIZE commands %v on %d sessions; want %d for the second Put, one session", sizes, f.dialCount(), tc.sizes)
			}
			if early3 == tc.late {
				t.Errorf("third Put: SIZE sent with the data's end %v; want %v", early3, !tc.late)
			}
		})
	}
}

func countPrefix(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

// A batch of uploads WithTempName on one session: from the session's
// second rename on, an EPSV (RFC 2428 §3) goes out with RNFR and RNTO,
// and the next upload connects to the port it names and sends STOR
// alone, a round trip less a file. Where the server refused that EPSV,
// or closed its port before the next transfer, the next upload sends
// its own EPSV, and every file arrives whole under its name.
func TestPutBatchOpensTheNextPort(t *testing.T) {
	for _, tc := range []struct {
		name string
		epsv func(c *fconn) // the third EPSV: the one after the second rename
		want string         // the verbs of the third Put
	}{
		{"the port used", nil, "STOR SIZE RNFR RNTO EPSV"},
		{"the EPSV refused", func(c *fconn) {
			c.send("425 EPSV: Address already in use")
		}, "EPSV STOR SIZE RNFR RNTO EPSV"},
		{"the port closed", func(c *fconn) {
			port := c.listen()
			c.pasv.Close()
			c.pasv = nil
			c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
		}, "EPSV STOR SIZE RNFR RNTO EPSV"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := newStore()
			epsvs := 0
			f := newFake(t, st.script().with(script{
				"EPSV": func(c *fconn, _ string) {
					epsvs++
					if epsvs == 3 && tc.epsv != nil {
						tc.epsv(c)
						return
					}
					if port := c.listen(); port > 0 {
						c.send(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", port))
					}
				},
			}))
			c := &fetch.Client{StallTimeout: 5 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			var third []string
			for i := range 3 {
				before := len(f.commands())
				body := strings.Repeat(strconv.Itoa(i), 100+i)
				if _, err := put(t, c, f.url(fmt.Sprintf("f%d", i)), strings.NewReader(body), fetch.WithTempName()); err != nil {
					t.Fatalf("Put %d: %v", i, err)
				}
				if b, _ := st.get(fmt.Sprintf("f%d", i)); string(b) != body {
					t.Fatalf("f%d holds %q, want %q", i, b, body)
				}
				if i == 2 {
					for _, cmd := range f.commands()[before:] {
						verb, _, _ := strings.Cut(cmd, " ")
						third = append(third, verb)
					}
				}
			}
			if got := strings.Join(third, " "); got != tc.want || f.dialCount() != 1 {
				t.Errorf("third Put sent %q on %d sessions; want %q on one", got, f.dialCount(), tc.want)
			}
		})
	}
}
