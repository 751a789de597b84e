package fetch_test

import (
	"fmt"
	"io"
	"log"
	"net/http"

	"github.com/ftpurl/ftpurl/fetch"
)

// An http.Client that fetches ftp URLs too: a file, a part of it (a
// resumed download), a listing, and a name the server does not have.
func ExampleClient_RoundTrip() {
	addr, stop := exampleServer()
	defer stop()

	t := http.DefaultTransport.(*http.Transport).Clone()
	t.RegisterProtocol("ftp", fetch.DefaultClient)
	t.RegisterProtocol("ftps", fetch.DefaultClient)
	client := &http.Client{Transport: t}

	get := func(rawURL, rng string) {
		req, err := http.NewRequest("GET", rawURL, nil)
		if err != nil {
			log.Fatal(err)
		}
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := client.Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			log.Fatal(err)
		}
		if resp.StatusCode >= 300 {
			// The body is the *fetch.Error's text, with the server's reply.
			fmt.Println(resp.Status)
			return
		}
		fmt.Println(resp.Status, resp.Header.Get("Content-Type"), resp.ContentLength)
		if cr := resp.Header.Get("Content-Range"); cr != "" {
			fmt.Println("Content-Range:", cr)
		}
		fmt.Printf("%s", body)
	}
	get("ftp://"+addr+"/text.txt", "")
	get("ftp://"+addr+"/text.txt", "bytes=9-")
	get("ftp://"+addr+"/a/b/;type=d", "")
	get("ftp://"+addr+"/missing.txt", "")

	resp, err := client.Head("ftp://" + addr + "/binary.bin")
	if err != nil {
		log.Fatal(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Status, resp.ContentLength)
	// Output:
	// 200 OK text/plain; charset=utf-8 18
	// line one
	// line two
	// 206 Partial Content text/plain; charset=utf-8 9
	// Content-Range: bytes 9-17/18
	// line two
	// 200 OK text/plain; charset=utf-8 9
	// deep.txt
	// 404 Not Found
	// 200 OK 256
}
