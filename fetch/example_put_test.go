package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/ftpurl/ftpurl/fetch"
)

// Put uploads a reader to the file a URL names, and returns once the
// server's SIZE says it holds every byte.
func ExamplePut() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/hello.txt"

	n, err := fetch.Put(ctx, u, strings.NewReader("hello, world\n"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "bytes stored")

	resp, err := fetch.Open(ctx, u)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, _ := io.ReadAll(resp)
	fmt.Printf("%q\n", b)
	// Output:
	// 13 bytes stored
	// "hello, world\n"
}

// A Client uploads file after file on one session; WithOffset resumes
// an upload that stopped: SIZE must say the offset, then APPE sends
// the rest.
func ExampleClient_Put() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/log.txt"

	data := "first half, second half\n"
	if _, err := cl.Put(ctx, u, strings.NewReader(data[:12])); err != nil {
		log.Fatal(err)
	}
	n, err := cl.Put(ctx, u, strings.NewReader(data[12:]), fetch.WithOffset(12))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "more bytes")

	// A wrong offset is refused before a byte is sent.
	_, err = cl.Put(ctx, u, strings.NewReader("x"), fetch.WithOffset(5))
	var e *fetch.Error
	if errors.As(err, &e) {
		fmt.Println(e.Op, e.Command)
	}
	// Output:
	// 12 more bytes
	// size SIZE log.txt
}

// WithCreateDirs makes the directories of the URL that the server does
// not have, one MKD a segment, as curl's --ftp-create-dirs does.
func ExampleWithCreateDirs() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/backups/2024/01/db.sql"

	_, err := fetch.Put(ctx, u, strings.NewReader("dump\n"))
	fmt.Println("without:", err != nil)
	if _, err := fetch.Put(ctx, u, strings.NewReader("dump\n"), fetch.WithCreateDirs()); err != nil {
		log.Fatal(err)
	}
	fi, err := fetch.Stat(ctx, u)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fi.Name(), fi.Size())
	// Output:
	// without: true
	// db.sql 5
}

// WithTempName stores the upload under a temporary name and renames it
// once whole: a reader of the URL sees the old file or the new one,
// never part of one. A failed upload leaves the old file alone.
func ExampleWithTempName() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/site/index.html"
	opts := []fetch.Option{fetch.WithTempName(), fetch.WithCreateDirs()}

	if _, err := fetch.Put(ctx, u, strings.NewReader("<p>v1</p>\n"), opts...); err != nil {
		log.Fatal(err)
	}
	// An upload whose reader fails: the temporary file is deleted.
	broken := io.MultiReader(strings.NewReader("<p>v2"), iotestErrReader{})
	_, err := fetch.Put(ctx, u, broken, opts...)
	fmt.Println(err != nil, strings.Contains(err.Error(), "was deleted"))

	resp, err := fetch.Open(ctx, u)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, _ := io.ReadAll(resp)
	fmt.Printf("%q\n", b)
	// Output:
	// true true
	// "<p>v1</p>\n"
}

// iotestErrReader is a reader that fails, as a file on a disk that went
// away does.
type iotestErrReader struct{}

func (iotestErrReader) Read([]byte) (int, error) { return 0, errDiskGone }
