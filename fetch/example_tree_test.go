package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// ReadDir lists a directory with MLSD where the server has it (RFC 3659
// §7), its Name taken as a directory: "a" and "a/" list the same.
func ExampleReadDir() {
	addr, stop := exampleServer()
	defer stop()

	entries, err := fetch.ReadDir(context.Background(), "ftp://"+addr+"/a")
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e.Mode.Type(), e.Size, e.Name)
	}
	// Output:
	// d--------- 4096 b
	// ---------- 4 top.txt
}

func ExampleClient_ReadDir() {
	addr, stop := exampleServer()
	defer stop()
	c := &fetch.Client{}
	defer c.CloseIdleConnections()

	_, err := c.ReadDir(context.Background(), "ftp://"+addr+"/missing/")
	fmt.Println(errors.Is(err, fetch.ErrNotFound))
	// Output:
	// true
}

// Walk visits the tree under a directory URL as fs.WalkDir does, depth
// first, on the Client's sessions.
func ExampleWalk() {
	addr, stop := exampleServer()
	defer stop()

	err := fetch.Walk(context.Background(), "ftp://"+addr+"/a/", func(path string, e fetch.Entry, err error) error {
		if err != nil {
			return err
		}
		fmt.Println(path, e.Mode.IsDir())
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// . true
	// b true
	// b/deep.txt false
	// top.txt false
}

// fs.SkipDir skips a directory. A symbolic link, where the server's
// listing shows one, is passed to the WalkFunc and never entered.
func ExampleClient_Walk() {
	addr, stop := exampleServer()
	defer stop()
	c := &fetch.Client{}
	defer c.CloseIdleConnections()

	err := c.Walk(context.Background(), "ftp://"+addr+"/", func(path string, e fetch.Entry, err error) error {
		switch {
		case err != nil:
			return err
		case e.Mode&fs.ModeSymlink != 0:
			fmt.Println("link", path)
		case e.Mode.IsDir() && path != "." && path != "a":
			return fs.SkipDir
		default:
			fmt.Println(path)
		}
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// .
	// -dash.txt
	// a
	// a/top.txt
	// binary.bin
	// empty.txt
	// semi;colon.txt
	// text.txt
	// ünïcödé.txt
}

// A WalkFunc that returns fs.SkipAll ends the walk, and Walk returns
// nil.
func ExampleWalkFunc() {
	addr, stop := exampleServer()
	defer stop()

	n := 0
	var first fetch.WalkFunc = func(path string, e fetch.Entry, err error) error {
		if n++; path != "." {
			return fs.SkipAll
		}
		return err
	}
	err := fetch.Walk(context.Background(), "ftp://"+addr+"/a/", first)
	fmt.Println(n, err)
	// Output:
	// 2 <nil>
}

// A name that is not one path element (here a control character in
// it) reaches the WalkFunc with ErrUnsafeName, and is never entered; a
// backslash is part of a name, as io/fs takes it.
func ExampleErrUnsafeName() {
	dir, err := os.MkdirTemp("", "ftpurl-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	for _, name := range []string{"bell\a.txt", `back\slash.txt`} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			log.Fatal(err)
		}
	}
	addr, stop, err := newFtpserverlib(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer stop()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var names []string
	err = fetch.Walk(ctx, "ftp://"+addr+"/", func(path string, e fetch.Entry, err error) error {
		if errors.Is(err, fetch.ErrUnsafeName) {
			fmt.Printf("skipped %q\n", e.Name)
			return nil
		}
		names = append(names, path)
		return err
	})
	slices.Sort(names)
	fmt.Println(names, err)
	// Output:
	// skipped "bell\a.txt"
	// [. back\slash.txt] <nil>
}

// WithModTime asks the file's time (MDTM, RFC 3659 §3) beside its RETR.
func ExampleWithModTime() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/walk/old.txt", fetch.WithModTime())
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.ModTime)
	// Output:
	// 2020-01-02 03:04:05 +0000 UTC
}
