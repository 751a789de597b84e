package fetch_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// TestTreeUpCallsOnServers: DESIGN, "The tree up": Mkdir (MKD;
// WithCreateDirs makes the parents, and a directory that exists is no
// error), Remove (DELE a file; RMD a directory URL; never recursive: a
// directory that holds a file is RMD's refusal), Rename (RNFR/RNTO,
// into another directory too), SetModTime (to the second, read back
// from the tree on disk) and Put's WithSetModTime, on the five servers,
// plain and TLS, as the password user; no error holds the password.
func TestTreeUpCallsOnServers(t *testing.T) {
	stamp := time.Date(2021, 2, 3, 4, 5, 6, 0, time.UTC)
	onEachTarget(t, func(t *testing.T, name string, tg upTarget, rel, abs string) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		c, base := tg.cl, tg.base+rel+"/"
		noPassword := func(err error) {
			t.Helper()
			if err != nil && strings.Contains(err.Error(), testPassword) {
				t.Errorf("the error holds the password: %v", err)
			}
		}
		isDir := func(p string) bool {
			fi, err := os.Stat(filepath.Join(abs, filepath.FromSlash(p)))
			return err == nil && fi.IsDir()
		}
		exists := func(p string) bool {
			_, err := os.Lstat(filepath.Join(abs, filepath.FromSlash(p)))
			return err == nil
		}

		// Mkdir.
		if err := c.Mkdir(ctx, base+"d", tg.opts...); err != nil || !isDir("d") {
			t.Fatalf("Mkdir(d): %v", err)
		}
		err := c.Mkdir(ctx, base+"d/", tg.opts...)
		if fe := asError(t, err); fe.Op != "mkd" || fe.Command != "MKD d" || fe.Code < 400 {
			t.Errorf("Mkdir of an existing directory: %v; want Op mkd, MKD d refused", err)
		}
		noPassword(err)
		if err := c.Mkdir(ctx, base+"p/q/r/", append(tg.opts, fetch.WithCreateDirs())...); err != nil || !isDir("p/q/r") {
			t.Errorf("Mkdir(p/q/r) WithCreateDirs: %v", err)
		}
		if err := c.Mkdir(ctx, base+"p/q/r/", append(tg.opts, fetch.WithCreateDirs())...); err != nil {
			t.Errorf("Mkdir(p/q/r) WithCreateDirs again: %v; want nil, as mkdir -p", err)
		}
		if err := c.Mkdir(ctx, "ftp://h/", tg.opts...); err == nil {
			t.Error("Mkdir of the root: no error")
		}

		// Put with WithSetModTime, then SetModTime.
		if _, err := c.Put(ctx, base+"d/f.txt", strings.NewReader("hello"), append(tg.opts, fetch.WithSetModTime(stamp))...); err != nil {
			t.Fatalf("Put WithSetModTime: %v", err)
		}
		if fi, err := os.Stat(filepath.Join(abs, "d", "f.txt")); err != nil || !fi.ModTime().Equal(stamp) {
			t.Errorf("after Put WithSetModTime: %v, %v; want the time %v", fi.ModTime().UTC(), err, stamp)
		}
		later := stamp.Add(36*time.Hour + 7*time.Second)
		for range 2 { // the second time, the form the Client learnt
			if err := c.SetModTime(ctx, base+"d/f.txt", later, tg.opts...); err != nil {
				t.Fatalf("SetModTime: %v", err)
			}
		}
		if fi, err := os.Stat(filepath.Join(abs, "d", "f.txt")); err != nil || !fi.ModTime().Equal(later) {
			t.Errorf("after SetModTime: %v, %v; want %v", fi.ModTime().UTC(), err, later)
		}
		if fi, err := c.Stat(ctx, base+"d/f.txt", tg.opts...); err != nil || !fi.ModTime().Equal(later) {
			t.Errorf("Stat after SetModTime: %v, %v; want %v", fi, err, later)
		}
		err = c.SetModTime(ctx, base+"d/missing.txt", later, tg.opts...)
		if fe := asError(t, err); fe.Op != "modtime" {
			t.Errorf("SetModTime of a missing file: %v; want Op modtime", err)
		}

		// Remove: RMD of a directory that holds a file is refused.
		err = c.Remove(ctx, base+"d/", tg.opts...)
		if fe := asError(t, err); fe.Op != "rmd" || fe.Command != "RMD d" || !isDir("d") || !exists("d/f.txt") {
			t.Errorf("Remove(d/) holding a file: %v; want RMD refused, d and d/f.txt kept", err)
		}
		noPassword(err)

		// Rename, in one directory and into another.
		if err := c.Rename(ctx, base+"d/f.txt", base+"d/g.txt", tg.opts...); err != nil || !exists("d/g.txt") || exists("d/f.txt") {
			t.Errorf("Rename(d/f.txt, d/g.txt): %v", err)
		}
		if err := c.Rename(ctx, base+"d/g.txt", base+"p/q/h.txt", tg.opts...); err != nil || !exists("p/q/h.txt") {
			t.Errorf("Rename(d/g.txt, p/q/h.txt): %v", err)
		}
		if err := c.Rename(ctx, base+"p/q/h.txt", "ftp://other.example/h.txt", tg.opts...); err == nil {
			t.Error("Rename onto another server: no error")
		}
		err = c.Rename(ctx, base+"d/missing", base+"d/x", tg.opts...)
		if fe := asError(t, err); fe.Op != "rename" || !strings.HasPrefix(fe.Command, "RNFR ") {
			t.Errorf("Rename of a missing name: %v; want RNFR refused", err)
		}

		// Remove the file, then the empty directories.
		if err := c.Remove(ctx, base+"p/q/h.txt", tg.opts...); err != nil || exists("p/q/h.txt") {
			t.Errorf("Remove(p/q/h.txt): %v", err)
		}
		err = c.Remove(ctx, base+"p/q/h.txt", tg.opts...)
		if fe := asError(t, err); fe.Op != "dele" || fe.Command != "DELE h.txt" {
			t.Errorf("Remove of a missing file: %v; want DELE refused", err)
		}
		for _, d := range []string{"p/q/r/", "p/q/", "p/", "d/"} {
			if err := c.Remove(ctx, base+d, tg.opts...); err != nil || exists(d) {
				t.Errorf("Remove(%s): %v", d, err)
			}
		}
		if err := c.Remove(ctx, base+"d", tg.opts...); !errors.As(err, new(*fetch.Error)) {
			t.Errorf("Remove of a missing name: %v", err)
		}
	})
}

// TestSetModTimeForms: SetModTime tries MFMT (where FEAT lists it),
// SITE UTIME with five arguments, then two, then MDTM with a time,
// which it checks with a plain MDTM; it remembers what worked for the
// server and sends that first the next time; a server that takes none
// is an *Error of Op modtime that says so.
func TestSetModTimeForms(t *testing.T) {
	stamp := time.Date(2021, 2, 3, 4, 5, 6, 0, time.UTC)
	var mdtmSet bool
	f := newFake(t, script{
		"FEAT": say("211-Features:", " SIZE", " MDTM", "211 End"),
		"SITE": func(c *fconn, arg string) {
			if strings.HasPrefix(arg, "UTIME 20210203040506 ") {
				c.send("200 UTIME OK")
				return
			}
			c.send("501 Syntax error")
		},
		"MDTM": func(c *fconn, arg string) { c.send("550 Not a plain file") },
	})
	c := &fetch.Client{StallTimeout: 10 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	for range 2 {
		if err := c.SetModTime(context.Background(), f.url("d/f"), stamp); err != nil {
			t.Fatal(err)
		}
	}
	var sent []string
	for _, cmd := range f.commands() {
		if strings.HasPrefix(cmd, "SITE") || strings.HasPrefix(cmd, "MFMT") || strings.HasPrefix(cmd, "MDTM") {
			sent = append(sent, cmd)
		}
	}
	want := []string{"SITE UTIME f 20210203040506 20210203040506 20210203040506 UTC", "SITE UTIME 20210203040506 f", "SITE UTIME 20210203040506 f"}
	if !slices.Equal(sent, want) {
		t.Errorf("sent %q; want %q (no MFMT without FEAT's, the learnt form first the second time)", sent, want)
	}

	// None taken: MDTM with a time reads as a file's time here, and the
	// check finds the time not set.
	g := newFake(t, script{
		"MDTM": func(c *fconn, arg string) {
			mdtmSet = mdtmSet || strings.HasPrefix(arg, "20210203040506 ")
			c.send("213 20200101000000")
		},
	})
	err := c.SetModTime(context.Background(), g.url("f"), stamp)
	if fe := asError(t, err); fe.Op != "modtime" || !strings.Contains(err.Error(), "sets no modification time") || !mdtmSet {
		t.Errorf("a server that sets no time: %v", err)
	}
}

// TestTreeUpCallsAreNeverReplayed: the calls follow Put's retry rule:
// a reused session found dead before the change (at its CWD) runs the
// call again on a new session; one that dies once MKD went out is the
// caller's error, never sent twice.
func TestTreeUpCallsAreNeverReplayed(t *testing.T) {
	for _, tc := range []struct {
		name     string
		dieAt    string
		wantMKDs int
		wantErr  bool
	}{
		{"dead at CWD: run again", "CWD", 1, false},
		{"dead at MKD: not again", "MKD", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var sessions int
			f := newFake(t, script{
				"PASS": func(c *fconn, _ string) { sessions++; c.send("230 Logged in") },
				"MKD":  say(`257 "d" created`),
			})
			c := &fetch.Client{StallTimeout: 10 * time.Second}
			t.Cleanup(c.CloseIdleConnections)
			if err := c.Mkdir(context.Background(), f.url("a/x")); err != nil {
				t.Fatal(err)
			}
			// The idle session's next command is answered 421, as by a
			// server that restarted.
			f.sc[tc.dieAt] = func(c *fconn, _ string) { c.send("421 Restarting"); c.hangup() }
			err := c.Mkdir(context.Background(), f.url("a/d"))
			mkds := 0
			for _, cmd := range f.commands() {
				if cmd == "MKD d" {
					mkds++
				}
			}
			if (err != nil) != tc.wantErr || mkds != tc.wantMKDs {
				t.Errorf("err %v, MKD d sent %d times; want error %v, %d", err, mkds, tc.wantErr, tc.wantMKDs)
			}
		})
	}
}
