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

// WithTrace shows the dialog, as curl -v does: here the commands of a
// download, without the server's replies, whose texts vary.
func ExampleWithTrace() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()

	trace := &fetch.Trace{Sent: func(line string) {
		if !strings.HasPrefix(line, "EPSV") && !strings.HasPrefix(line, "PASV") {
			fmt.Println(">", line)
		}
	}}
	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/a/top.txt", fetch.WithTrace(trace))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	if _, err := io.Copy(io.Discard, resp); err != nil {
		log.Fatal(err)
	}
	// Output:
	// > USER anonymous
	// > PASS anonymous@
	// > FEAT
	// > PWD
	// > CWD a
	// > TYPE I
	// > SIZE top.txt
	// > RETR top.txt
}

// Quote sends a command of the caller's, as curl -Q does, and returns
// the server's reply.
func ExampleClient_Quote() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()

	code, _, err := cl.Quote(context.Background(), "ftp://"+addr+"/", "NOOP")
	fmt.Println(code, err)
	_, _, err = cl.Quote(context.Background(), "ftp://"+addr+"/", "DELE missing.txt")
	var fe *fetch.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Op, fe.Command, fe.Code)
	}
	// Output:
	// 200 <nil>
	// quote DELE missing.txt 550
}

// Quote on DefaultClient: a command before a download, as curl -Q
// sends one.
func ExampleQuote() {
	addr, stop := exampleServer()
	defer stop()
	defer fetch.DefaultClient.CloseIdleConnections()

	code, _, err := fetch.Quote(context.Background(), "ftp://"+addr+"/", "NOOP")
	fmt.Println(code, err)
	// Output:
	// 200 <nil>
}

// A Trace that prints the dialog as curl -v does; the replies' texts
// vary from server to server, so only the codes of their first and
// last lines are printed here (a FEAT reply's features are left out).
func ExampleTrace() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{IdleTimeout: -1}

	trace := &fetch.Trace{
		Sent: func(line string) { fmt.Println(">", line) },
		Received: func(line string) {
			if line != "" && line[0] >= '0' && line[0] <= '9' {
				fmt.Println("<", line[:3])
			}
		},
	}
	if _, err := cl.Stat(context.Background(), "ftp://"+addr+"/missing.txt", fetch.WithTrace(trace)); err == nil {
		log.Fatal("Stat of a missing name succeeded")
	}
	// Output:
	// < 220
	// > USER anonymous
	// < 331
	// > PASS anonymous@
	// < 230
	// > FEAT
	// < 211
	// < 211
	// > PWD
	// < 257
	// > TYPE I
	// < 200
	// > MLST missing.txt
	// < 550
}

// Abort ends a transfer once the bytes wanted have arrived, as curl -r
// does, and the session serves the next Open.
func ExampleResponse_Abort() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()

	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/text.txt", fetch.WithOffset(5))
	if err != nil {
		log.Fatal(err)
	}
	b := make([]byte, 3)
	if _, err := io.ReadFull(resp, b); err != nil {
		log.Fatal(err)
	}
	resp.Abort()
	fmt.Printf("%q\n", b)
	// Output:
	// "one"
}
