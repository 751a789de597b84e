package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// Mkdir makes a directory (MKD); WithCreateDirs makes its parents too.
func ExampleMkdir() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	base := "ftp://ftpurl:ftpurl-secret@" + addr + "/"

	err := fetch.Mkdir(ctx, base+"site/assets/img/", fetch.WithCreateDirs())
	fmt.Println(err)
	fi, err := fetch.Stat(ctx, base+"site/assets/img/")
	fmt.Println(fi.IsDir(), err)
	// Output:
	// <nil>
	// true <nil>
}

// Client.Mkdir refuses, with the server's reply, a directory that is
// there already (without WithCreateDirs).
func ExampleClient_Mkdir() {
	addr, stop := exampleServer()
	defer stop()
	c := &fetch.Client{}
	defer c.CloseIdleConnections()
	ctx := context.Background()
	base := "ftp://ftpurl:ftpurl-secret@" + addr + "/"

	err := c.Mkdir(ctx, base+"a/")
	var fe *fetch.Error
	fmt.Println(errors.As(err, &fe), fe.Op, fe.Command)
	// Output:
	// true mkd MKD a
}

// Remove deletes a file (DELE), or an empty directory named by a URL
// that ends in "/" (RMD); never what a directory holds.
func ExampleRemove() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	base := "ftp://ftpurl:ftpurl-secret@" + addr + "/"

	fmt.Println(fetch.Remove(ctx, base+"a/top.txt"))
	err := fetch.Remove(ctx, base+"a/")
	var fe *fetch.Error
	fmt.Println(errors.As(err, &fe), fe.Command) // a/ holds b/
	// Output:
	// <nil>
	// true RMD a
}

// Client.Remove of a missing file is the server's refusal of DELE.
func ExampleClient_Remove() {
	addr, stop := exampleServer()
	defer stop()
	c := &fetch.Client{}
	defer c.CloseIdleConnections()

	err := c.Remove(context.Background(), "ftp://ftpurl:ftpurl-secret@"+addr+"/missing.txt")
	var fe *fetch.Error
	fmt.Println(errors.As(err, &fe), fe.Op, fe.Command)
	// Output:
	// true dele DELE missing.txt
}

// Rename moves a file to another name, in another directory too (RNFR,
// RNTO).
func ExampleRename() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	base := "ftp://ftpurl:ftpurl-secret@" + addr + "/"

	fmt.Println(fetch.Rename(ctx, base+"text.txt", base+"a/b/moved.txt"))
	_, err := fetch.Stat(ctx, base+"text.txt")
	fmt.Println(errors.Is(err, fetch.ErrNotFound))
	// Output:
	// <nil>
	// true
}

// Client.Rename takes two URLs of one server and login; others fail
// before connecting.
func ExampleClient_Rename() {
	c := &fetch.Client{}
	err := c.Rename(context.Background(), "ftp://a.example/x", "ftp://b.example/x")
	fmt.Println(err)
	// Output:
	// fetch ftp://a.example/x: rename: the two URLs are not on one server with one login: RNFR and RNTO rename on one server (ftp://b.example/x)
}

// SetModTime sets a file's time, to the second, with what the server
// takes: MFMT here.
func ExampleSetModTime() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/text.txt"

	t := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	fmt.Println(fetch.SetModTime(ctx, u, t))
	fi, err := fetch.Stat(ctx, u)
	fmt.Println(fi.ModTime(), err)
	// Output:
	// <nil>
	// 2024-05-01 12:00:00 +0000 UTC <nil>
}

// Client.SetModTime remembers per server the command that worked.
func ExampleClient_SetModTime() {
	addr, stop := exampleServer()
	defer stop()
	c := &fetch.Client{}
	defer c.CloseIdleConnections()
	ctx := context.Background()
	base := "ftp://ftpurl:ftpurl-secret@" + addr + "/"

	for i, name := range []string{"text.txt", "binary.bin"} {
		t := time.Date(2020, 1, 1+i, 0, 0, 0, 0, time.UTC)
		if err := c.SetModTime(ctx, base+name, t); err != nil {
			log.Fatal(err)
		}
		fi, _ := c.Stat(ctx, base+name)
		fmt.Println(name, fi.ModTime().Format(time.DateOnly))
	}
	// Output:
	// text.txt 2020-01-01
	// binary.bin 2020-01-02
}

// WithSetModTime gives an upload the local file's time once SIZE has
// proven it, so that the next mirror finds it up to date.
func ExampleWithSetModTime() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/index.html"

	t := time.Date(2025, 3, 7, 9, 15, 0, 0, time.UTC)
	if _, err := fetch.Put(ctx, u, strings.NewReader("<h1>hi</h1>\n"), fetch.WithTempName(), fetch.WithSetModTime(t)); err != nil {
		log.Fatal(err)
	}
	fi, err := fetch.Stat(ctx, u)
	fmt.Println(fi.Size(), fi.ModTime(), err)
	// Output:
	// 12 2025-03-07 09:15:00 +0000 UTC <nil>
}
