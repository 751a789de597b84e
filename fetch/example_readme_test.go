package fetch_test

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// The examples of the README, as it shows them (readme_test.go checks
// that every ```go block of the README is in an Example function of
// this file or of the root's example_readme_test.go). They fetch from
// "ftp.example.org", which readmeMirror serves on 127.0.0.1.

// readmeModTime is the time of every file of the README's server, so
// that ftpget -I prints the same Last-Modified in every run.
var readmeModTime = time.Date(2024, time.May, 1, 12, 0, 0, 0, time.UTC)

// readmeFiles is the tree of ftp.example.org in the README's examples.
var readmeFiles = map[string]string{
	"pub/README":       "Welcome to ftp.example.org.\n",
	"pub/linux/README": "Linux mirrors moved to /mirror/linux.\n",
}

// readmeMirror starts ftpserverlib on 127.0.0.1 with readmeFiles, and
// makes fetch.DefaultClient dial it for ftp.example.org:21, and
// ftp.example.org's data connections at 127.0.0.1. stop undoes both.
func readmeMirror() (stop func()) {
	dir, err := os.MkdirTemp("", "ftpurl-readme-")
	if err != nil {
		log.Fatal(err)
	}
	for name, text := range readmeFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
		if err := os.Chtimes(p, readmeModTime, readmeModTime); err != nil {
			log.Fatal(err)
		}
	}
	addr, stopServer, err := newFtpserverlib(dir)
	if err != nil {
		log.Fatal(err)
	}
	saved := fetch.DefaultClient
	fetch.DefaultClient = &fetch.Client{
		DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			// The control connection, and the data connections, which
			// a Client with a DialContext dials at the URL's host.
			if host, port, _ := net.SplitHostPort(a); host == "ftp.example.org" {
				if port == "21" {
					a = addr
				} else {
					a = net.JoinHostPort("127.0.0.1", port)
				}
			}
			var d net.Dialer
			return d.DialContext(ctx, network, a)
		},
	}
	return func() {
		fetch.DefaultClient.CloseIdleConnections()
		fetch.DefaultClient = saved
		stopServer()
		os.RemoveAll(dir)
	}
}

// The README's download: a file to standard output.
func Example_readmeDownload() {
	stop := readmeMirror()
	defer stop()

	ctx := context.Background()
	resp, err := fetch.Open(ctx, "ftp://ftp.example.org/pub/README")
	if err != nil {
		log.Fatal(err) // *ftpurl.Error for a bad URL, else *fetch.Error: the step, the command, the reply
	}
	defer resp.Close()
	if _, err := io.Copy(os.Stdout, resp); err != nil {
		log.Fatal(err) // a transfer cut short is an error here, never a short file
	}
	// Output:
	// Welcome to ftp.example.org.
}

// The README's net/http example: an http.Client that fetches ftp URLs.
func Example_readmeHTTP() {
	stop := readmeMirror()
	defer stop()

	t := http.DefaultTransport.(*http.Transport).Clone()
	t.RegisterProtocol("ftp", fetch.DefaultClient)
	t.RegisterProtocol("ftps", fetch.DefaultClient)
	client := &http.Client{Transport: t}
	resp, err := client.Get("ftp://ftp.example.org/pub/README")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	fmt.Println(resp.Status, resp.ContentLength) // 200 OK 28
	// Output:
	// 200 OK 28
}

// The README's Stat and resume.
func Example_readmeStatResume() {
	stop := readmeMirror()
	defer stop()
	ctx := context.Background()

	fi, err := fetch.Stat(ctx, "ftp://ftp.example.org/pub/README") // MLST, else SIZE and MDTM
	if err != nil {
		log.Fatal(err) // errors.Is(err, fetch.ErrNotFound): the server has no such name
	}
	fmt.Println(fi.Size(), fi.ModTime().UTC()) // 28 2024-05-01 12:00:00 +0000 UTC

	resp, err := fetch.Open(ctx, "ftp://ftp.example.org/pub/README", fetch.WithOffset(11)) // REST 11
	if err != nil {
		log.Fatal(err) // a server that refuses REST is an error, never the file from byte 0
	}
	defer resp.Close()
	if _, err := io.Copy(os.Stdout, resp); err != nil { // ftp.example.org.
		log.Fatal(err)
	}
	// Output:
	// 28 2024-05-01 12:00:00 +0000 UTC
	// ftp.example.org.
}

// The README's upload.
func Example_readmeFS() {
	stop := readmeMirror()
	defer stop()
	ctx := context.Background()

	fsys, err := fetch.NewFS(ctx, "ftp://ftp.example.org/pub/") // one login, reused by every call
	if err != nil {
		log.Fatal(err)
	}
	err = fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fmt.Println(path, d.IsDir()) // . true, README false, linux true, linux/README false
		return nil
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// . true
	// README false
	// linux true
	// linux/README false
}

func Example_readmeUpload() {
	stop := readmeMirror()
	defer stop()
	ctx := context.Background()

	backup := strings.NewReader("-- dump of 2024-05-01\n")
	n, err := fetch.Put(ctx, "ftp://ftpurl:ftpurl-secret@ftp.example.org/backups/2024-05-01.sql", backup,
		fetch.WithCreateDirs(), // MKD backups, where CWD backups is refused
		fetch.WithTempName())   // STOR .2024-05-01.sql.ftpurl-XXXXXXXX.part, then RNFR and RNTO
	if err != nil {
		log.Fatal(err) // *fetch.Error: the command refused (Op "stor", "mkd", "rename"), or "size" for an upload cut short
	}
	fmt.Println(n, "bytes, proven by SIZE") // 22 bytes, proven by SIZE
	// Output:
	// 22 bytes, proven by SIZE
}
