package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/ftpurl/ftpurl/fetch"
)

// In active mode the server connects to fetch: "-" listens on the
// control connection's local address and sends PORT (or EPRT), for a
// server or a firewall that allows no passive mode.
func ExampleClient_active() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{Active: "-"}
	defer cl.CloseIdleConnections()

	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/text.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Close()
	b, err := io.ReadAll(resp)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%q\n", b)
	// Output:
	// "line one\nline two\n"
}

// An Active that is no host[:port[-port]] fails before any connection.
func ExampleActiveError() {
	cl := &fetch.Client{Active: "127.0.0.1:99999"}
	_, err := cl.Open(context.Background(), "ftp://127.0.0.1/text.txt")
	var ae *fetch.ActiveError
	if errors.As(err, &ae) {
		fmt.Println(ae.Why)
	}
	// Output:
	// the port "99999" is not a number from 1 to 65535
}

// DisableEPSV opens each data connection by PASV alone, as curl's
// --disable-epsv.
func ExampleClient_disableEPSV() {
	addr, stop := exampleServer()
	defer stop()
	cl := &fetch.Client{DisableEPSV: true}
	defer cl.CloseIdleConnections()

	resp, err := cl.Open(context.Background(), "ftp://"+addr+"/a/")
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
