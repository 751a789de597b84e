package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/textproto"
	"os"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// exampleServer starts ftpserverlib on 127.0.0.1 with the test tree
// (text.txt, binary.bin, a/b/deep.txt, ...) and returns its address.
func exampleServer() (addr string, stop func()) {
	dir, err := os.MkdirTemp("", "ftpurl-example-")
	if err != nil {
		log.Fatal(err)
	}
	if err := buildTree(dir); err != nil {
		log.Fatal(err)
	}
	addr, stopServer, err := newFtpserverlib(dir)
	if err != nil {
		log.Fatal(err)
	}
	return addr, func() { stopServer(); os.RemoveAll(dir) }
}

func Example() {
	addr, stop := exampleServer()
	defer stop()
	ctx := context.Background()

	resp, err := fetch.Open(ctx, "ftp://"+addr+"/text.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	if _, err := io.Copy(os.Stdout, resp); err != nil {
		log.Fatal(err)
	}
	// Output:
	// line one
	// line two
}

func ExampleOpen() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a/b/deep.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.Plan.Commands())
	if _, err := io.Copy(os.Stdout, resp); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [CWD a CWD b TYPE I RETR deep.txt]
	// deep
}

// A URL whose last segment is a directory, without a typecode: RETR is
// refused with 550, and the plan's Fallback lists the directory.
func ExampleResponse() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.Action, resp.Fallback, resp.Plan.Fallback.Commands())
	for _, e := range resp.Entries {
		fmt.Println(e.Mode.Type(), e.Name)
	}
	// Output:
	// list true [CWD a TYPE A LIST]
	// d--------- b
	// ---------- top.txt
}

func ExampleResponse_Read() {
	addr, stop := exampleServer()
	defer stop()

	// No typecode: the plan sends TYPE I, so every byte comes back as
	// it is on the server.
	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/binary.bin")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, err := io.ReadAll(resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(b), b[:4], b[252:])
	// Output:
	// 256 [0 1 2 3] [252 253 254 255]
}

func ExampleResponse_Close() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/binary.bin")
	if err != nil {
		log.Fatal(err)
	}
	first := make([]byte, 3)
	if _, err := io.ReadFull(resp, first); err != nil {
		log.Fatal(err)
	}
	// Closing before the end abandons the transfer and ends the session.
	fmt.Println(first, resp.Close(), resp.Close())
	// Output:
	// [0 1 2] <nil> <nil>
}

func ExampleError() {
	addr, stop := exampleServer()
	defer stop()

	_, err := fetch.Open(context.Background(), "ftp://"+addr+"/missing/file.txt")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Op, fe.Command, fe.Code)
	}
	// Output:
	// cwd CWD missing 550
}

// The message names the step and quotes the server's reply; the URL in
// it is redacted.
func ExampleError_Error() {
	addr, stop := exampleServer()
	defer stop()

	_, err := fetch.Open(context.Background(), "ftp://"+testUser+":wrong@"+addr+"/text.txt")
	fmt.Println(strings.Replace(err.Error(), addr, "HOST", 1))
	// Output:
	// fetch ftp://ftpurl:xxxxx@HOST/text.txt: login (PASS xxxxx): 530 Authentication error: login refused
}

// Err is often the server's reply, a *textproto.Error, which errors.As
// reaches through Unwrap.
func ExampleError_Unwrap() {
	addr, stop := exampleServer()
	defer stop()

	_, err := fetch.Open(context.Background(), "ftp://"+addr+"/missing/file.txt")
	var reply *textproto.Error
	if errors.As(err, &reply) {
		fmt.Println(reply.Code)
	}
	// Output:
	// 550
}

// A name that is neither a file nor a directory fails twice: RETR, then
// the Fallback's CWD.
func ExampleError_Retr() {
	addr, stop := exampleServer()
	defer stop()

	_, err := fetch.Open(context.Background(), "ftp://"+addr+"/missing.txt")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Fallback, fe.Command, fe.Code)
		fmt.Println(fe.Retr().Command, fe.Retr().Code)
	}
	// Output:
	// true CWD missing.txt 550
	// RETR missing.txt 550
}

// Options can be gathered in a slice; when two set the same thing, the
// later one wins.
func ExampleOption() {
	addr, stop := exampleServer()
	defer stop()

	opts := []fetch.Option{
		fetch.WithMethod(ftpurl.NoCWD),
		fetch.WithMethod(ftpurl.SingleCWD),
	}
	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a/b/deep.txt", opts...)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.Plan.Commands())
	// Output:
	// [CWD a/b TYPE I RETR deep.txt]
}

func ExampleWithGrammar() {
	// RFC 3986 (the 2011 draft §3.1) allows ";" only in ";type=".
	_, err := fetch.Open(context.Background(), "ftp://ftp.example.org/semi;colon.txt",
		fetch.WithGrammar(ftpurl.RFC3986))
	fmt.Println(errors.Is(err, ftpurl.ErrPath))
	// Output:
	// true
}

func ExampleWithMethod() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a/b/deep.txt",
		fetch.WithMethod(ftpurl.NoCWD))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.Plan.Commands())
	// Output:
	// [TYPE I RETR a/b/deep.txt]
}

func ExampleWithAbsolutePaths() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a/top.txt",
		fetch.WithAbsolutePaths())
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	fmt.Println(resp.Plan.Commands())
	// Output:
	// [CWD / CWD a TYPE I RETR top.txt]
}

func ExampleWithPassword() {
	addr, stop := exampleServer()
	defer stop()

	rawURL := "ftp://" + testUser + "@" + addr + "/text.txt"
	_, err := fetch.Open(context.Background(), rawURL)
	fmt.Println(errors.Is(err, fetch.ErrPasswordRequired))

	resp, err := fetch.Open(context.Background(), rawURL, fetch.WithPassword(testPassword))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, _ := io.ReadAll(resp)
	fmt.Printf("%q\n", b)
	// Output:
	// true
	// "line one\nline two\n"
}

// WithTimeout bounds the whole fetch, reading included; a context
// deadline does the same.
func ExampleWithTimeout() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/text.txt",
		fetch.WithTimeout(30*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	if _, err := io.Copy(os.Stdout, resp); err != nil {
		log.Fatal(err)
	}
	// Output:
	// line one
	// line two
}

func ExampleWithDialTimeout() {
	addr, stop := exampleServer()
	defer stop()

	resp, err := fetch.Open(context.Background(), "ftp://"+addr+"/a/",
		fetch.WithDialTimeout(5*time.Second))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	for _, e := range resp.Entries {
		fmt.Println(e.Name)
	}
	// Output:
	// b
	// top.txt
}

// A server that sends nothing for the Client's StallTimeout fails the
// step, with or without a deadline; Error.Timeout says why.
func ExampleError_Timeout() {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	defer close(done)
	go func() {
		c, err := l.Accept()
		if err == nil {
			defer c.Close()
			<-done // accepts, never greets
		}
	}()
	cl := &fetch.Client{StallTimeout: 50 * time.Millisecond}
	_, err = cl.Open(context.Background(), "ftp://"+l.Addr().String()+"/f")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Op, fe.Timeout())
	}
	// Output: dial true
}
