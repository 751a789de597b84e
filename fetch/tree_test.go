package fetch_test

// Listings, ReadDir and Walk on the five servers, over the tree
// "walk/" (buildWalkTree): every line the servers send, LIST and MLSD,
// parsed exactly, each entry checked against the file it stands for.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// checkEntry checks e against the file it names in the test tree: its
// type, its size (a regular file's), its time to the entry's
// Precision. A server may describe a link as the link (lstat) or as
// its target (stat); the entry must match one of the two.
func checkEntry(t *testing.T, srv, dir string, e fetch.Entry) {
	t.Helper()
	p := filepath.Join(testTree, filepath.FromSlash(dir), e.Name)
	lst, err := os.Lstat(p)
	if err != nil {
		if strings.Contains(e.Name, "?") && strings.HasPrefix(srv, "pyftpdlib") {
			// pyftpdlib sends "?" for the bytes of a name that are not
			// UTF-8 (its "??.bin" is "\xff\xfe.bin"): the server's
			// loss, which no parser can undo.
			return
		}
		t.Errorf("%s: %q is no file of the tree (line %q): %v", srv, e.Name, e.Line, err)
		return
	}
	infos := []fs.FileInfo{lst}
	if st, err := os.Stat(p); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		infos = append(infos, st)
	}
	// What servers say of files their MLSD has no type for (RFC 3659
	// §7.5.1 names file, dir, cdir, pdir and OS-specific types): a
	// FIFO as "type=file" (ftpserverlib, pyftpdlib, ProFTPD) or
	// "type=unknown" (Pure-FTPd), a link as "type=file" with the
	// link's own size (ftpserverlib). The entry must say what the line
	// says; the file is what the server described.
	if t := lst.Mode().Type(); t&(fs.ModeNamedPipe|fs.ModeSymlink) != 0 && strings.Contains(e.Line, "=") &&
		(e.Mode.IsRegular() && e.Size == lst.Size() || e.Mode.Type() == fs.ModeIrregular) {
		return
	}
	var why []string
	for _, fi := range infos {
		switch {
		case e.Mode.Type() != fi.Mode().Type()&^fs.ModeCharDevice:
			why = append(why, "type "+e.Mode.Type().String()+", the file's "+fi.Mode().Type().String())
		case fi.Mode().IsRegular() && e.Size != fi.Size():
			why = append(why, "size differs")
		case !e.ModTime.IsZero() && !e.ModTime.Equal(fi.ModTime().UTC().Truncate(e.Precision)) && fi.Mode().IsRegular():
			why = append(why, "time "+e.ModTime.String()+" at "+e.Precision.String()+", the file's "+fi.ModTime().UTC().String())
		case e.Mode&fs.ModeSymlink != 0 && e.Target != "" && e.Target != mustReadlink(p) && !strings.HasSuffix(e.Target, "/"+mustReadlink(p)):
			why = append(why, "target "+e.Target)
		default:
			return
		}
	}
	t.Errorf("%s: %q (line %q): %s", srv, e.Name, e.Line, strings.Join(why, "; or "))
}

func mustReadlink(p string) string {
	s, _ := os.Readlink(p)
	return s
}

// TestListingsOfTheServersParseExactly: every line of the five servers'
// LIST (Open) and MLSD (ReadDir, where FEAT lists MLST, RFC 3659 §7)
// listings of "walk/" is an entry, and each is right about its file.
func TestListingsOfTheServersParseExactly(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			for _, dir := range []string{"walk", "walk/sub", "a"} {
				resp, err := c.Open(ctx, "ftp://"+srv.addr+"/"+dir+"/")
				if err != nil {
					t.Fatalf("LIST %s: %v", dir, err)
				}
				if len(resp.Unparsed) > 0 {
					t.Errorf("LIST %s: lines left unparsed: %q", dir, resp.Unparsed)
				}
				for _, e := range resp.Entries {
					if e.Name != "." && e.Name != ".." {
						checkEntry(t, name+" LIST", dir, e)
					}
				}
				entries, err := c.ReadDir(ctx, "ftp://"+srv.addr+"/"+dir)
				if err != nil {
					t.Fatalf("ReadDir %s: %v", dir, err)
				}
				for _, e := range entries {
					checkEntry(t, name+" ReadDir", dir, e)
				}
				if len(entries) == 0 || len(resp.Entries) == 0 {
					t.Errorf("%s: LIST gave %d entries, ReadDir %d", dir, len(resp.Entries), len(entries))
				}
			}
		})
	}
}

// TestReadDir: ReadDir takes the URL's Name as a directory whatever
// its typecode; a missing directory is ErrNotFound; ".", ".." are left
// out.
func TestReadDir(t *testing.T) {
	srv := need(t, "ftpserverlib")
	ctx := context.Background()
	names := func(rawURL string) []string {
		t.Helper()
		entries, err := fetch.ReadDir(ctx, rawURL)
		if err != nil {
			t.Fatalf("ReadDir(%s): %v", rawURL, err)
		}
		var n []string
		for _, e := range entries {
			n = append(n, e.Name)
		}
		slices.Sort(n)
		return n
	}
	base := "ftp://" + srv.addr + "/"
	want := []string{"b", "top.txt"}
	for _, u := range []string{base + "a", base + "a/", base + "a;type=i", base + "%2F/a"} {
		if got := names(u); !slices.Equal(got, want) {
			t.Errorf("ReadDir(%s) = %q, want %q", u, got, want)
		}
	}
	if got := names(base + "emptydir"); got != nil {
		t.Errorf("ReadDir(emptydir) = %q, want nothing", got)
	}
	if _, err := fetch.ReadDir(ctx, base+"missing"); !errors.Is(err, fetch.ErrNotFound) {
		t.Errorf("ReadDir(missing): err = %v, want ErrNotFound", err)
	}
}

// TestWalkOnServers walks "walk/" on the five servers: each path once,
// links never entered (no loop, though "loop" and "sub/up" make two),
// a backslash part of a name (fs.ValidPath), fs.SkipDir and fs.SkipAll
// as fs.WalkDir has them.
func TestWalkOnServers(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			seen := map[string]int{}
			var unsafe []string
			err := c.Walk(ctx, "ftp://"+srv.addr+"/walk/", func(p string, e fetch.Entry, err error) error {
				if errors.Is(err, fetch.ErrUnsafeName) {
					unsafe = append(unsafe, e.Name)
					return nil
				}
				if err != nil {
					if p != "locked" {
						t.Errorf("Walk: %s: %v", p, err)
					}
					return nil
				}
				seen[p]++
				return nil
			})
			if err != nil {
				t.Fatalf("Walk: %v", err)
			}
			for p, n := range seen {
				if n != 1 {
					t.Errorf("%s visited %d times", p, n)
				}
				if strings.HasPrefix(p, "link-dir/") || strings.HasPrefix(p, "loop/") || strings.HasPrefix(p, "sub/up/") {
					t.Errorf("%s: Walk followed a link", p)
				}
			}
			for _, p := range []string{".", "plain.txt", "sub", "sub/deep.txt", "with space.txt", "100%.txt", "x;type=d", "-lead.txt", "ünï.txt"} {
				if seen[p] != 1 {
					t.Errorf("%s not visited; visited %v", p, seen)
				}
			}
			// A backslash is part of a name, as io/fs takes it
			// (fs.ValidPath; DESIGN, "The tree"): no unsafe name here.
			if len(unsafe) != 0 || seen[`back\slash.txt`] != 1 {
				t.Errorf("unsafe names %q, back\\slash.txt visited %d times; want none, and once", unsafe, seen[`back\slash.txt`])
			}

			// fs.SkipDir on a directory skips it; on a file, the rest
			// of its directory. fs.SkipAll ends the walk, with nil.
			var order []string
			err = c.Walk(ctx, "ftp://"+srv.addr+"/a/", func(p string, e fetch.Entry, err error) error {
				order = append(order, p)
				if p == "b" {
					return fs.SkipDir
				}
				return err
			})
			if err != nil || slices.Contains(order, "b/deep.txt") || !slices.Contains(order, "top.txt") {
				t.Errorf("SkipDir on b: order %q, err %v", order, err)
			}
			n := 0
			err = c.Walk(ctx, "ftp://"+srv.addr+"/walk/", func(p string, e fetch.Entry, err error) error {
				n++
				return fs.SkipAll
			})
			if err != nil || n != 1 {
				t.Errorf("SkipAll: %d calls, err %v; want 1 and nil", n, err)
			}
		})
	}
}

// TestWithModTime: WithModTime asks MDTM (RFC 3659 §3) with the RETR,
// and Response.ModTime is the file's time in UTC, to the second, on the
// five servers; without it, no MDTM goes out.
func TestWithModTime(t *testing.T) {
	fi, err := os.Stat(filepath.Join(testTree, "walk", "old.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := fi.ModTime().UTC().Truncate(time.Second)
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			c := &fetch.Client{}
			defer c.CloseIdleConnections()
			for i := 0; i < 2; i++ { // the second RETR is pipelined with its EPSV
				resp, err := c.Open(context.Background(), "ftp://"+srv.addr+"/walk/old.txt", fetch.WithModTime())
				if err != nil {
					t.Fatal(err)
				}
				resp.Close()
				if !resp.ModTime.Equal(want) {
					t.Errorf("ModTime = %v, want %v", resp.ModTime, want)
				}
			}
		})
	}
	f := newFake(t, script{"MDTM": say("213 20240102030405"), "RETR": transfer("x", "150 Opening", "226 Done")})
	c := testClient(t)
	resp, err := c.Open(context.Background(), f.url("f;type=i"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Close()
	if f.received("MDTM") || !resp.ModTime.IsZero() {
		t.Errorf("without WithModTime: MDTM sent %v, ModTime %v", f.received("MDTM"), resp.ModTime)
	}
}

// TestReadDirKeepsWhatItRead: a LIST line that is no entry is counted
// in ReadDir's error beside the entries it read, as os.ReadDir returns
// what it read with its error; the listing was whole (226), so the
// session serves the next ReadDir (one login for both).
func TestReadDirKeepsWhatItRead(t *testing.T) {
	noLeaks(t)
	f := newFake(t, script{"LIST": transfer("-rw-r--r-- 1 ftp ftp 5 Jan 02 2024 a.txt\r\nno listing line at all\r\n", "150 Here", "226 Done")})
	c := testClient(t)
	c.IdleTimeout = 0
	defer c.CloseIdleConnections()
	for range 2 {
		entries, err := c.ReadDir(context.Background(), f.url("d/"))
		var fe *fetch.Error
		if len(entries) != 1 || entries[0].Name != "a.txt" || entries[0].Size != 5 || !errors.As(err, &fe) || fe.Op != "list" || !strings.Contains(err.Error(), `1 of 2 lines`) {
			t.Fatalf("ReadDir = %v, %v; want a.txt and an error counting 1 of 2 lines", entries, err)
		}
	}
	if n := f.dialCount(); n != 1 {
		t.Errorf("%d logins for two ReadDirs, want 1: a listing with an unreadable line leaves the session whole", n)
	}
}

// TestWalkFileRoot: DESIGN, "The tree": "A URL that names a file gives
// fn that file once, as fs.WalkDir does for a file root"; before, fn
// got "." as a directory, then the listing's error. A missing root is
// still "." with its error, as fs.WalkDir passes a root it cannot stat.
func TestWalkFileRoot(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			var calls []string
			err := c.Walk(ctx, "ftp://"+srv.addr+"/walk/plain.txt", func(p string, e fetch.Entry, err error) error {
				calls = append(calls, fmt.Sprintf("%s %s %v size=%d err=%v", p, e.Name, e.Mode.Type(), e.Size, err))
				return nil
			})
			want := []string{". plain.txt ---------- size=5 err=<nil>"}
			if err != nil || !slices.Equal(calls, want) {
				t.Errorf("Walk of a file: calls %q, err %v; want %q", calls, err, want)
			}
			calls = nil
			err = c.Walk(ctx, "ftp://"+srv.addr+"/walk/missing/", func(p string, e fetch.Entry, err error) error {
				calls = append(calls, fmt.Sprintf("%s notFound=%v", p, errors.Is(err, fetch.ErrNotFound)))
				return err
			})
			if !errors.Is(err, fetch.ErrNotFound) || !slices.Equal(calls, []string{". notFound=false", ". notFound=true"}) {
				t.Errorf("Walk of a missing directory: calls %q, err %v; want the root, then its ErrNotFound", calls, err)
			}
		})
	}
}

// TestMLSDAsksForUnixMode: RFC 3659 §7.9: where FEAT's MLST line offers
// UNIX.mode without its '*' (pyftpdlib), fetch sends "OPTS MLST" with
// the facts it reads, once a session, before its first MLSD or MLST, so
// that entries carry permission bits (issue 37; before, pyftpdlib's
// were "----------"). pyftpdlib then writes the mode as Python does,
// "0o644". A server whose UNIX.mode is on already (ProFTPD, Pure-FTPd)
// or that offers none gets no OPTS.
func TestMLSDAsksForUnixMode(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			entries, err := c.ReadDir(context.Background(), "ftp://"+srv.addr+"/a/")
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.Name == "top.txt" && name != "ftpserverlib" && e.Mode.Perm() != 0o644 {
					t.Errorf("%s: %v, want -rw-r--r-- (line %q)", e.Name, e.Mode, e.Line)
				}
			}
		})
	}
	for _, tc := range []struct {
		mlst, want string
	}{
		{"type*;perm*;size*;modify*;unique*;unix.mode;unix.uid;unix.gid;", "OPTS MLST type;size;modify;unique;unix.mode;"},
		{"type*;size*;modify*;UNIX.mode*;", ""},
		{"type*;size*;modify*;", ""},
	} {
		t.Run(tc.mlst, func(t *testing.T) {
			f := newFake(t, script{
				"FEAT": say("211-Features:", " MLST "+tc.mlst, "211 End"),
				"OPTS": say("200 MLST OPTS"),
				"MLSD": transfer("type=file;size=1;unix.mode=0o640; x\r\n", "150 Here", "226 Done"),
			})
			c := &fetch.Client{StallTimeout: 10 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			for range 2 {
				entries, err := c.ReadDir(context.Background(), f.url("d/"))
				if err != nil || len(entries) != 1 || entries[0].Mode != 0o640 {
					t.Fatalf("ReadDir: %v, %v", entries, err)
				}
			}
			var opts []string
			for _, cmd := range f.commands() {
				if strings.HasPrefix(cmd, "OPTS") {
					opts = append(opts, cmd)
				}
			}
			if tc.want == "" && len(opts) != 0 || tc.want != "" && !slices.Equal(opts, []string{tc.want}) {
				t.Errorf("sent %q; want %q once", opts, tc.want)
			}
		})
	}
}

// TestArrowInAFileName: DESIGN, "Listings a program can trust": "A
// regular file's name is the rest of its line, ' -> ' and all: only a
// link's name is split" (issue 37; before, "arrow -> b.txt" came as a
// file "arrow" with Target "b.txt" from every server's LIST). Checked
// in LIST (Open of the directory) and in ReadDir (MLSD where offered).
func TestArrowInAFileName(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			resp, err := c.Open(context.Background(), "ftp://"+srv.addr+"/walk/")
			if err != nil {
				t.Fatal(err)
			}
			resp.Close()
			entries, err := c.ReadDir(context.Background(), "ftp://"+srv.addr+"/walk/")
			if err != nil {
				t.Fatal(err)
			}
			for what, list := range map[string][]fetch.Entry{"LIST": resp.Entries, "ReadDir": entries} {
				i := slices.IndexFunc(list, func(e fetch.Entry) bool { return strings.HasPrefix(e.Name, "arrow") })
				if i < 0 {
					t.Errorf("%s: no entry of arrow -> b.txt", what)
					continue
				}
				if e := list[i]; e.Name != "arrow -> b.txt" || e.Target != "" || !e.Mode.IsRegular() {
					t.Errorf("%s: name %q, target %q, mode %v; want the file \"arrow -> b.txt\" (line %q)", what, e.Name, e.Target, e.Mode, e.Line)
				}
			}
		})
	}
}

// TestReadDirWithModTime: WithModTime's doc: ReadDir gives each file of
// a LIST listing the server's UTC time to the second from MDTM (RFC
// 3659 §3), as MLSD does (RFC 3659 §7.5.3), on each of the five
// servers; a fake shows the MDTMs (named from the LIST argument under
// the nocwd method), a refused one keeping the LIST time, and no MDTM
// for a directory, a link or without the option.
func TestReadDirWithModTime(t *testing.T) {
	fi, err := os.Stat(filepath.Join(testTree, "walk", "old.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := fi.ModTime().UTC().Truncate(time.Second)
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			srv := need(t, name)
			entries, err := fetch.ReadDir(context.Background(), "ftp://"+srv.addr+"/walk/", fetch.WithModTime())
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(entries, func(e fetch.Entry) bool { return e.Name == "old.txt" })
			if i < 0 {
				t.Fatalf("no old.txt in %v", entries)
			}
			if e := entries[i]; !e.ModTime.Equal(want) || e.Precision != time.Second || e.Local {
				t.Errorf("old.txt: ModTime %v, Precision %v, Local %v; want %v to the second, UTC", e.ModTime, e.Precision, e.Local, want)
			}
		})
	}
	t.Run("fake", func(t *testing.T) {
		list := "-rw-r--r-- 1 ftp ftp 5 Jan 02 2024 a.txt\r\n" +
			"-rw-r--r-- 1 ftp ftp 5 Jan 03 2024 gone.txt\r\n" +
			"drwxr-xr-x 2 ftp ftp 0 Jan 04 2024 sub\r\n" +
			"lrwxrwxrwx 1 ftp ftp 5 Jan 05 2024 ln -> a.txt\r\n"
		f := newFake(t, script{
			"LIST": transfer(list, "150 Here", "226 Done"),
			"MDTM": func(c *fconn, arg string) {
				if arg == "d/e/a.txt" {
					c.send("213 20240102030405")
				} else {
					c.send("550 " + arg + ": No such file")
				}
			},
		})
		c := testClient(t)
		entries, err := c.ReadDir(context.Background(), f.url("d/e/"), fetch.WithModTime(), fetch.WithMethod(ftpurl.NoCWD))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, e := range entries {
			got[e.Name] = fmt.Sprintf("%s %v %v", e.ModTime.Format(time.DateTime), e.Precision, e.Local)
		}
		wantTimes := map[string]string{
			"a.txt":    "2024-01-02 03:04:05 1s false",
			"gone.txt": "2024-01-03 00:00:00 24h0m0s true",
			"sub":      "2024-01-04 00:00:00 24h0m0s true",
			"ln":       "2024-01-05 00:00:00 24h0m0s true",
		}
		if !maps.Equal(got, wantTimes) {
			t.Errorf("entries %v, want %v", got, wantTimes)
		}
		var mdtm []string
		for _, cmd := range f.commands() {
			if strings.HasPrefix(cmd, "MDTM ") {
				mdtm = append(mdtm, cmd)
			}
		}
		if want := []string{"MDTM d/e/a.txt", "MDTM d/e/gone.txt"}; !slices.Equal(mdtm, want) {
			t.Errorf("sent %q, want %q", mdtm, want)
		}
		before := len(f.commands())
		if _, err := c.ReadDir(context.Background(), f.url("d/e/")); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range f.commands()[before:] {
			if strings.HasPrefix(cmd, "MDTM") {
				t.Errorf("without WithModTime: %s sent", cmd)
			}
		}
	})
}
