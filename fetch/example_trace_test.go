package fetch_test

import (
	"context"
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
