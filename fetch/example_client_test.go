package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// A Client logs in once and fetches file after file on that session,
// as a mirror or a crawler does.
func ExampleClient() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{MaxConnsPerHost: 4, IdleTimeout: time.Minute}
	defer cl.CloseIdleConnections()

	for _, p := range []string{"text.txt", "a/top.txt", "a/b/deep.txt"} {
		resp, err := cl.Open(context.Background(), "ftp://"+addr+"/"+p)
		if err != nil {
			log.Fatal(err)
		}
		b, err := io.ReadAll(resp) // to the end: the session goes back to cl
		resp.Close()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d bytes of %d\n", p, len(b), resp.Size)
	}
	// Output:
	// text.txt: 18 bytes of 18
	// a/top.txt: 4 bytes of 4
	// a/b/deep.txt: 5 bytes of 5
}

func ExampleClient_Open() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()

	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/a/")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.Action)
	for _, e := range resp.Entries {
		fmt.Println(e.Name)
	}
	// Output:
	// list
	// b
	// top.txt
}

func ExampleClient_Stat() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()

	for _, p := range []string{"binary.bin", "a/b", "missing.txt"} {
		fi, err := cl.Stat(context.Background(), "ftp://"+addr+"/"+p)
		switch {
		case errors.Is(err, fetch.ErrNotFound):
			fmt.Println(p, "not found")
		case err != nil:
			log.Fatal(err)
		default:
			fmt.Println(fi.Name(), fi.IsDir(), fi.Size())
		}
	}
	// Output:
	// binary.bin false 256
	// b true -1
	// missing.txt not found
}

func ExampleStat() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	fi, err := fetch.Stat(context.Background(), "ftp://"+addr+"/text.txt")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fi.Size(), !fi.ModTime().IsZero())
	// Output: 18 true
}

// CloseIdleConnections ends the sessions a Client keeps (QUIT), for
// instance before a program exits.
func ExampleClient_CloseIdleConnections() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	if _, err := cl.Stat(context.Background(), "ftp://"+addr+"/text.txt"); err != nil {
		log.Fatal(err)
	}
	cl.CloseIdleConnections()
	fmt.Println("closed")
	// Output: closed
}

// DefaultClient is what the package functions use; its sessions stay
// until IdleTimeout, or CloseIdleConnections.
func ExampleDefaultClient() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a/top.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, _ := io.ReadAll(resp)
	fmt.Printf("%q\n", b)
	// Output: "top\n"
}

// WithOffset resumes a download: the server sends the file from byte
// n (REST, RFC 3659 §5); Size is still the whole file's.
func ExampleWithOffset() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/text.txt", fetch.WithOffset(9))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, _ := io.ReadAll(resp)
	fmt.Printf("%q of %d bytes\n", b, resp.Size)
	// Output: "line two\n" of 18 bytes
}

// WithTLS never falls back to clear text: a server that refuses AUTH
// TLS (this one has no certificate) ends the fetch before the login.
func ExampleWithTLS() {
	addr, stop := exampleServer()
	defer stop()

	_, err := fetch.Open(context.Background(), "ftp://"+addr+"/text.txt", fetch.WithTLS())
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Op, fe.Command, fe.Code)
	}
	// Output: tls AUTH TLS 550
}

// ErrNotFound tells a missing name from other failures, whatever the
// server's wording.
func ExampleErrNotFound() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	_, err := fetch.Open(context.Background(), "ftp://"+addr+"/missing.txt")
	fmt.Println(errors.Is(err, fetch.ErrNotFound))
	// Output: true
}

// io.Copy moves the file through WriteTo, in buffers sized to it.
func ExampleResponse_WriteTo() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/binary.bin")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	n, err := io.Copy(io.Discard, resp)
	fmt.Println(n, err)
	// Output: 256 <nil>
}

// Error.Is lets errors.Is find ErrNotFound in an *Error whatever the
// server's wording of its 550.
func ExampleError_Is() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	_, err := fetch.Stat(context.Background(), "ftp://"+addr+"/a/missing/")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Op, fe.Code, fe.Is(fetch.ErrNotFound))
	}
	// Output: cwd 550 true
}

// A user without a password fails before any connection unless
// WithPassword gives one.
func ExampleErrPasswordRequired() {
	_, err := fetch.Open(context.Background(), "ftp://alice@127.0.0.1:1/f")
	fmt.Println(errors.Is(err, fetch.ErrPasswordRequired))
	// Output: true
}
