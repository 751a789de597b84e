package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// An FS is an ftp tree as io/fs has it: fs.WalkDir walks it on the
// Client's pooled sessions.
func ExampleClient_FS() {
	addr, stop := exampleServer()
	defer stop()
	c := &fetch.Client{}
	defer c.CloseIdleConnections()

	fsys, err := c.FS(context.Background(), "ftp://"+addr+"/a/")
	if err != nil {
		log.Fatal(err)
	}
	err = fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fmt.Println(path, d.IsDir())
		return nil
	})
	fmt.Println(err)
	// Output:
	// . true
	// b true
	// b/deep.txt false
	// top.txt false
	// <nil>
}

// NewFS is Client.FS on DefaultClient; a file of it reads as any
// fs.File.
func ExampleNewFS() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/")
	if err != nil {
		log.Fatal(err)
	}
	b, err := fs.ReadFile(fsys, "a/b/deep.txt")
	fmt.Printf("%q %v\n", b, err)
	// Output:
	// "deep\n" <nil>
}

// http.FileServerFS serves an ftp tree; a Range request is answered
// with 206 from a REST at its first byte, as the file is an io.Seeker.
func ExampleFS() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/")
	if err != nil {
		log.Fatal(err)
	}
	web := httptest.NewServer(http.FileServerFS(fsys))
	defer web.Close()
	req, _ := http.NewRequest("GET", web.URL+"/text.txt", nil)
	req.Header.Set("Range", "bytes=5-7")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.Status, resp.Header.Get("Content-Range"), string(body))
	// Output:
	// 206 Partial Content bytes 5-7/18 one
}

// os.CopyFS copies an ftp tree to a local directory.
func ExampleFS_Sub() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/")
	if err != nil {
		log.Fatal(err)
	}
	sub, err := fs.Sub(fsys, "a")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "ftpurl-copy-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, sub); err != nil {
		log.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "b", "deep.txt"))
	fmt.Printf("%q %v\n", b, err)
	// Output:
	// "deep\n" <nil>
}

// Stat says what the directory's listing says of a name.
func ExampleFS_Stat() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/")
	if err != nil {
		log.Fatal(err)
	}
	fi, err := fsys.Stat("a/top.txt")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fi.Name(), fi.Size(), fi.IsDir())
	_, err = fsys.Stat("a/missing.txt")
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// top.txt 4 false
	// true
}

// ReadDir lists a directory sorted by name, as fs.ReadDirFS says.
func ExampleFS_ReadDir() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/a")
	if err != nil {
		log.Fatal(err)
	}
	entries, err := fsys.ReadDir(".")
	for _, d := range entries {
		fmt.Println(d)
	}
	fmt.Println(err)
	// Output:
	// d b/
	// - top.txt
	// <nil>
}

// ReadFile reads a file whole, into a new slice each call.
func ExampleFS_ReadFile() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/")
	if err != nil {
		log.Fatal(err)
	}
	b, err := fsys.ReadFile("text.txt")
	fmt.Printf("%q %v\n", b, err)
	// Output:
	// "line one\nline two\n" <nil>
}

// Open gives an fs.File; a directory's is an fs.ReadDirFile.
func ExampleFS_Open() {
	addr, stop := exampleServer()
	defer stop()

	fsys, err := fetch.NewFS(context.Background(), "ftp://"+addr+"/")
	if err != nil {
		log.Fatal(err)
	}
	f, err := fsys.Open("a")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	entries, err := f.(fs.ReadDirFile).ReadDir(1)
	fmt.Println(entries, err)
	// Output:
	// [d b/] <nil>
}

// DirEntry makes a listed Entry an fs.DirEntry, for code that takes
// one.
func ExampleEntry_DirEntry() {
	e, ok := fetch.ParseListLine("-rw-r--r--   1 ftp ftp  1024 Jan 02  2024 notes.txt", time.Now())
	if !ok {
		log.Fatal("no entry")
	}
	fmt.Println(fs.FormatDirEntry(e.DirEntry()))
	// Output:
	// - notes.txt
}
