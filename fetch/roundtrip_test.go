package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// httpClient returns an http.Client whose Transport fetches ftp and
// ftps URLs with a Client of the test's own.
func httpClient(t *testing.T) (*http.Client, *fetch.Client) {
	t.Helper()
	c := &fetch.Client{}
	t.Cleanup(c.CloseIdleConnections)
	tr := &http.Transport{}
	tr.RegisterProtocol("ftp", c)
	tr.RegisterProtocol("ftps", c)
	return &http.Client{Transport: tr}, c
}

// do sends one request; header holds name, value pairs. It reads the
// whole body.
func do(t *testing.T, hc *http.Client, method, rawURL string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, rawURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, rawURL, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the body: %v", method, rawURL, err)
	}
	return resp, body
}

// A roundTripCase is one request and what must come back. Header
// values "" must be absent; "*" must be present.
type roundTripCase struct {
	name    string
	method  string // "": GET
	path    string // after "ftp://[userinfo@]addr/"
	user    string // userinfo with "@"
	header  []string
	status  int
	body    []byte // nil: not checked
	length  int64  // ContentLength; -2: not checked
	headers map[string]string
}

// roundTripCases are RoundTrip's answers (docs/http.md): 200 with the
// file, 206 with Content-Range for "bytes=N-" (RFC 9110 §14.1.2,
// §14.4, §15.3.7), 416 with "Content-Range: bytes */N" past the end
// (§15.5.17), 404 for what the server has not, 401 with
// WWW-Authenticate for a refused login (§15.5.2), 403 for a refused
// PUT (§15.5.4), 405 with Allow for a method other than GET, HEAD and
// PUT (§15.5.6).
func roundTripCases() []roundTripCase {
	bin := binaryFile()
	login := url.UserPassword(testUser, testPassword).String() + "@"
	return []roundTripCase{
		{name: "TextFile", path: "text.txt", status: 200, body: []byte(textFile), length: int64(len(textFile)),
			headers: map[string]string{"Content-Length": strconv.Itoa(len(textFile)), "Content-Type": mime.TypeByExtension(".txt"), "Content-Range": ""}},
		{name: "BinaryFileWithLogin", path: "binary.bin", user: login, status: 200, body: bin, length: 256},
		// ProFTPD gives no size for an empty file: 0 or -1.
		{name: "EmptyFile", path: "empty.txt", status: 200, body: []byte{}, length: -2},
		{name: "DeepFile", path: "a/b/deep.txt", status: 200, body: []byte("deep\n"), length: 5},
		{name: "HeadFile", method: "HEAD", path: "binary.bin", status: 200, body: []byte{}, length: 256,
			headers: map[string]string{"Content-Length": "256", "Last-Modified": "*"}},
		{name: "HeadDirectory", method: "HEAD", path: "a/", status: 200, body: []byte{}, length: -1,
			headers: map[string]string{"Content-Type": "text/plain; charset=utf-8", "Content-Length": ""}},
		{name: "HeadMissing", method: "HEAD", path: "nothing.txt", status: 404, body: []byte{}, length: -2},
		{name: "RangeFromTheMiddle", path: "binary.bin", header: []string{"Range", "bytes=100-"}, status: 206, body: bin[100:], length: 156,
			headers: map[string]string{"Content-Range": "bytes 100-255/256", "Content-Length": "156"}},
		{name: "RangeFromLastByte", path: "binary.bin", header: []string{"Range", "bytes=255-"}, status: 206, body: bin[255:], length: 1,
			headers: map[string]string{"Content-Range": "bytes 255-255/256"}},
		{name: "RangeFromZero", path: "binary.bin", header: []string{"Range", "BYTES=0-"}, status: 206, body: bin, length: 256,
			headers: map[string]string{"Content-Range": "bytes 0-255/256"}},
		{name: "RangeAtTheEnd", path: "binary.bin", header: []string{"Range", "bytes=256-"}, status: 416, body: []byte{}, length: 0,
			headers: map[string]string{"Content-Range": "bytes */256"}},
		{name: "RangePastTheEnd", path: "binary.bin", header: []string{"Range", "bytes=1000-"}, status: 416, body: []byte{}, length: 0,
			headers: map[string]string{"Content-Range": "bytes */256"}},
		{name: "RangeOfAnEmptyFile", path: "empty.txt", header: []string{"Range", "bytes=0-"}, status: 416, body: []byte{}, length: 0,
			headers: map[string]string{"Content-Range": "bytes */0"}},
		{name: "ClosedRangeIsIgnored", path: "binary.bin", header: []string{"Range", "bytes=10-20"}, status: 200, body: bin, length: 256,
			headers: map[string]string{"Content-Range": ""}},
		{name: "SuffixRangeIsIgnored", path: "binary.bin", header: []string{"Range", "bytes=-10"}, status: 200, body: bin, length: 256},
		{name: "TwoRangesAreIgnored", path: "binary.bin", header: []string{"Range", "bytes=1-,5-"}, status: 200, body: bin, length: 256},
		{name: "RangeWithIfRangeIsIgnored", path: "binary.bin", header: []string{"Range", "bytes=100-", "If-Range", "Mon, 02 Jan 2006 15:04:05 GMT"}, status: 200, body: bin, length: 256},
		{name: "RangeInTypeAIsIgnored", path: "binary.bin;type=a", header: []string{"Range", "bytes=100-"}, status: 200, length: -1,
			headers: map[string]string{"Content-Range": "", "Content-Length": ""}},
		{name: "RangeOfADirectoryIsIgnored", path: "a/", header: []string{"Range", "bytes=1-"}, status: 200, length: -2,
			headers: map[string]string{"Content-Type": "text/plain; charset=utf-8", "Content-Range": ""}},
		{name: "MissingFile", path: "nothing.txt", status: 404, length: -2,
			headers: map[string]string{"Content-Type": "text/plain; charset=utf-8"}},
		{name: "MissingDirectory", path: "nothing/text.txt", status: 404, length: -2},
		{name: "MissingFileWithRange", path: "nothing.txt", header: []string{"Range", "bytes=5-"}, status: 404, length: -2},
		{name: "UserWithoutPassword", path: "text.txt", user: testUser + "@", status: 401, length: -2,
			headers: map[string]string{"WWW-Authenticate": "*"}},
		{name: "UserWithoutPasswordAndBasicAuth", path: "text.txt", user: testUser + "@",
			header: []string{"Authorization", "Basic " + basic(testUser, testPassword)}, status: 200, body: []byte(textFile), length: int64(len(textFile))},
		{name: "BasicAuthOfAnotherUserIsNotUsed", path: "text.txt", user: testUser + "@",
			header: []string{"Authorization", "Basic " + basic("someone", testPassword)}, status: 401, length: -2},
		{name: "WrongPassword", path: "text.txt", user: url.UserPassword(testUser, "wrong").String() + "@", status: 403, length: -2},
		{name: "Post", method: "POST", path: "text.txt", status: 405, length: -2,
			headers: map[string]string{"Allow": "GET, HEAD, PUT"}},
		// Anonymous may not write on any test server: the refused STOR
		// is 403 (put_servers_test.go uploads as the password user).
		{name: "PutRefused", method: "PUT", path: "text.txt", status: 403, length: -2},
	}
}

func basic(user, password string) string {
	r := &http.Request{Header: http.Header{}}
	r.SetBasicAuth(user, password)
	return strings.TrimPrefix(r.Header.Get("Authorization"), "Basic ")
}

func TestRoundTrip(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			hc, _ := httpClient(t)
			for _, c := range roundTripCases() {
				t.Run(c.name, func(t *testing.T) {
					method := c.method
					if method == "" {
						method = "GET"
					}
					u := "ftp://" + c.user + srv.addr + "/" + c.path
					resp, body := do(t, hc, method, u, c.header...)
					if resp.StatusCode != c.status || resp.Status != strconv.Itoa(c.status)+" "+http.StatusText(c.status) {
						t.Fatalf("%s %s: status %q, want %d; body %q", method, u, resp.Status, c.status, body)
					}
					if c.body != nil && !bytes.Equal(body, c.body) {
						t.Errorf("%s %s: body %q, want %q", method, u, body, c.body)
					}
					if c.length != -2 && resp.ContentLength != c.length {
						t.Errorf("%s %s: ContentLength %d, want %d", method, u, resp.ContentLength, c.length)
					}
					for k, v := range c.headers {
						got := resp.Header.Values(k)
						has := len(got) > 0
						switch {
						case v == "" && has:
							t.Errorf("%s %s: %s: %q, want none", method, u, k, got)
						case v == "*" && !has:
							t.Errorf("%s %s: no %s", method, u, k)
						case v != "" && v != "*" && (len(got) != 1 || got[0] != v):
							t.Errorf("%s %s: %s: %q, want %q", method, u, k, got, v)
						}
					}
					if resp.StatusCode >= 400 && method == "GET" && resp.StatusCode != 416 && !strings.Contains(string(body), "fetch ") && resp.StatusCode != 405 {
						t.Errorf("%s %s: %d's body %q does not hold the *Error", method, u, resp.StatusCode, body)
					}
					if strings.Contains(string(body), testPassword) || strings.Contains(string(body), ":wrong@") {
						t.Errorf("%s %s: the body shows the password: %q", method, u, body)
					}
				})
			}
		})
	}
}

// TestRoundTripListings checks that a listing is the lines Open gives,
// one a line.
func TestRoundTripListings(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			hc, c := httpClient(t)
			for _, p := range []string{"a/", "a", "a;type=d", "", "emptydir/", "a/b/;type=d"} {
				t.Run(p, func(t *testing.T) {
					u := "ftp://" + srv.addr + "/" + p
					r, err := c.Open(context.Background(), u)
					if err != nil {
						t.Fatal(err)
					}
					r.Close()
					lines := r.Lines
					if r.Action == ftpurl.NameList {
						lines = r.Names
					}
					if r.Action == ftpurl.Retrieve {
						t.Fatalf("Open(%s) retrieved a file", u)
					}
					// The listing holds what the tree has there, so that
					// the comparison below is of real lines.
					if want := map[string]string{"a/": "top.txt", "a": "top.txt", "a;type=d": "top.txt", "": "text.txt", "a/b/;type=d": "deep.txt"}[p]; want != "" && !listsName(lines, want) {
						t.Fatalf("Open(%s) lists %q, want %s among them", u, lines, want)
					}
					if p == "emptydir/" && len(lines) != 0 {
						t.Fatalf("Open(%s) lists %q in an empty directory", u, lines)
					}
					want := ""
					for _, l := range lines {
						want += l + "\n"
					}
					resp, body := do(t, hc, "GET", u)
					if resp.StatusCode != 200 || string(body) != want {
						t.Errorf("GET %s: %s %q, want 200 %q", u, resp.Status, body, want)
					}
					if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
						t.Errorf("GET %s: Content-Type %q", u, ct)
					}
					if resp.ContentLength != int64(len(want)) {
						t.Errorf("GET %s: ContentLength %d, want %d", u, resp.ContentLength, len(want))
					}
				})
			}
		})
	}
}

// TestRoundTripBodyCloseEndsTheTransfer closes a body early; the next
// request of the same server still works.
func TestRoundTripBodyCloseEndsTheTransfer(t *testing.T) {
	srv := need(t, "ftpserverlib")
	hc, _ := httpClient(t)
	u := "ftp://" + srv.addr + "/binary.bin"
	for range 3 {
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 10)
		if _, err := io.ReadFull(resp.Body, buf); err != nil {
			t.Fatal(err)
		}
		if err := resp.Body.Close(); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := do(t, hc, "GET", u)
	if resp.StatusCode != 200 || !bytes.Equal(body, binaryFile()) {
		t.Fatalf("GET after closed bodies: %s %q", resp.Status, body)
	}
}

// TestRoundTripErrors: what gives no reply is RoundTrip's error.
func TestRoundTripErrors(t *testing.T) {
	srv := need(t, "ftpserverlib")
	hc, _ := httpClient(t)

	t.Run("NetworkFailure", func(t *testing.T) {
		l, err := netListen()
		if err != nil {
			t.Fatal(err)
		}
		addr := l.Addr().String()
		l.Close()
		resp, err := hc.Get("ftp://" + addr + "/text.txt")
		var fe *fetch.Error
		if err == nil || resp != nil || !errors.As(err, &fe) || fe.Code != 0 || fe.Op != "dial" {
			t.Fatalf("GET of a closed port: %v, %v; want a dial *fetch.Error", resp, err)
		}
	})
	t.Run("Canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", "ftp://"+srv.addr+"/text.txt", nil)
		resp, err := hc.Do(req)
		if err == nil || resp != nil || !errors.Is(err, context.Canceled) {
			t.Fatalf("GET with a canceled context: %v, %v", resp, err)
		}
	})
	t.Run("CanceledWhileReading", func(t *testing.T) {
		// A file that stops after 100 of its 1000 bytes: the body's
		// Read blocks until the request's context ends it.
		f := newFake(t, script{"RETR": stalledFile})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", f.url("f"), nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		time.AfterFunc(50*time.Millisecond, cancel)
		if _, err = io.ReadAll(resp.Body); !errors.Is(err, context.Canceled) {
			t.Fatalf("reading a stalled body when the context is canceled: %v, want context.Canceled", err)
		}
	})
	t.Run("Timeout", func(t *testing.T) {
		// A listener that never greets: http.Client's Timeout ends the
		// dial's wait for the 220.
		l, err := netListen()
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				defer c.Close()
			}
		}()
		h := *hc
		h.Timeout = 200 * time.Millisecond
		resp, err := h.Get("ftp://" + l.Addr().String() + "/text.txt")
		var ue *url.Error
		// The Client's timer and the context's deadline race: either
		// says it.
		if err == nil || resp != nil || !errors.As(err, &ue) || !ue.Timeout() && !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("GET of a silent server: %v, %v; want a timeout", resp, err)
		}
	})
	t.Run("BadURL", func(t *testing.T) {
		resp, err := hc.Get("ftp://" + srv.addr + "/a%0Db")
		var pe *ftpurl.Error
		if err == nil || resp != nil || !errors.As(err, &pe) {
			t.Fatalf("GET of a URL with CR: %v, %v; want an *ftpurl.Error", resp, err)
		}
	})
	t.Run("FTPS", func(t *testing.T) {
		// ftpserverlib here has no TLS: whether fetch refuses the
		// scheme or the handshake fails, it is an error, not a reply.
		resp, err := hc.Get("ftps://" + srv.addr + "/text.txt")
		if err == nil || resp != nil {
			t.Fatalf("GET of an ftps URL of a server without TLS: %v, %v; want an error", resp, err)
		}
	})
}

// listsName reports whether a listing's lines (LIST or NLST, as the
// server sent them) name name: a line that ends in it as a word.
func listsName(lines []string, name string) bool {
	for _, l := range lines {
		if l == name || strings.HasSuffix(l, " "+name) || strings.HasSuffix(l, "/"+name) {
			return true
		}
	}
	return false
}
