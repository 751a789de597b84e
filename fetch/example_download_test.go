package fetch_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	ftpserver "github.com/fclairamb/ftpserverlib"

	"github.com/ftpurl/ftpurl/fetch"
)

// hashingServer starts ftpserverlib on 127.0.0.1 with the test tree
// and 8 MiB of numbered lines in big.txt, with its hash commands on
// (Settings.EnableHASH), and returns its address.
func hashingServer() (addr string, stop func()) {
	dir, err := os.MkdirTemp("", "ftpurl-example-")
	if err != nil {
		log.Fatal(err)
	}
	if err := buildTree(dir); err != nil {
		log.Fatal(err)
	}
	var big bytes.Buffer
	for i := 0; big.Len() < 8<<20; i++ {
		fmt.Fprintf(&big, "line %07d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), big.Bytes(), 0o644); err != nil {
		log.Fatal(err)
	}
	addr, stopServer, err := serveFtpserverlib(&ftpDriver{
		root:     dir,
		settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30, EnableHASH: true},
	})
	if err != nil {
		log.Fatal(err)
	}
	return addr, func() { stopServer(); os.RemoveAll(dir) }
}

// Download writes a file into an io.WriterAt, here an *os.File.
func ExampleDownload() {
	addr, stop := exampleServer()
	defer stop()
	f, err := os.CreateTemp("", "binary-*.bin")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	n, err := fetch.Download(context.Background(), "ftp://"+addr+"/binary.bin", f)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "bytes")
	// Output:
	// 256 bytes
}

// A Client downloads a large file over four sessions: MaxConnsPerHost
// lets them run, WithSegments asks for them. Each range lands at its
// offset; the file is whole once every range is.
func ExampleClient_Download() {
	addr, stop := hashingServer()
	defer stop()
	cl := &fetch.Client{MaxConnsPerHost: 4}
	defer cl.CloseIdleConnections()
	f, err := os.CreateTemp("", "big-*.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	n, err := cl.Download(context.Background(), "ftp://"+addr+"/big.txt", f, fetch.WithSegments(4))
	if err != nil {
		log.Fatal(err)
	}
	last := make([]byte, 13)
	if _, err := f.ReadAt(last, n-13); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d bytes, ending %q\n", n, last)
	// Output:
	// 8388614 bytes, ending "line 0645277\n"
}

// WithSegments(n) asks for up to n sessions; the Client's
// MaxConnsPerHost (2 by default) caps them, as for any other use.
func ExampleWithSegments() {
	addr, stop := hashingServer()
	defer stop()
	cl := &fetch.Client{} // at most 2 sessions to a server
	defer cl.CloseIdleConnections()
	f, err := os.CreateTemp("", "big-*.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()

	n, err := cl.Download(context.Background(), "ftp://"+addr+"/big.txt", f, fetch.WithSegments(8))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "bytes")
	// Output:
	// 8388614 bytes
}

// Hash asks the server for a file's hash (HASH, or XSHA256 and the
// like); a server that offers none gives ErrNoHash, never a guess.
func ExampleClient_Hash() {
	addr, stop := hashingServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()
	ctx := context.Background()

	sum, err := cl.Hash(ctx, "ftp://"+addr+"/text.txt", "SHA-256")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(hex.EncodeToString(sum))

	plain, stopPlain := exampleServer() // no hash commands
	defer stopPlain()
	_, err = cl.Hash(ctx, "ftp://"+plain+"/text.txt", "")
	fmt.Println(errors.Is(err, fetch.ErrNoHash))
	// Output:
	// e9024f1a07d29d52ad3aa5e1a18e94db1f3a9fd32b89e39d47c472cd99071e13
	// true
}

// WithChecksum proves an upload and a download by the server's hash
// where it offers one: a byte changed on the way is ErrHashMismatch.
func ExampleWithChecksum() {
	addr, stop := hashingServer()
	defer stop()
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()
	ctx := context.Background()
	u := "ftp://ftpurl:ftpurl-secret@" + addr + "/report.txt"

	if _, err := cl.Put(ctx, u, strings.NewReader("quarterly report\n"), fetch.WithChecksum()); err != nil {
		log.Fatal(err)
	}
	f, err := os.CreateTemp("", "report-*.txt")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	n, err := cl.Download(ctx, u, f, fetch.WithChecksum())
	if errors.Is(err, fetch.ErrHashMismatch) {
		log.Fatal("the copy differs from the server's file")
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "bytes, proven by the server's SHA-256")
	// Output:
	// 17 bytes, proven by the server's SHA-256
}
