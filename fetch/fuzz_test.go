package fetch_test

import (
	"context"
	"errors"
	"io"
	"net"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// fuzzPaths are the URL paths FuzzServerReplies fetches, picked by its
// kind argument: each plan of ftpurl, RETR with its fallback included.
var fuzzPaths = []string{"d/f", "d/f;type=i", "d/", "d/;type=d", "f;type=a"}

// FuzzServerReplies lets a server answer fetch with any bytes: replies
// is everything the control connection sends (written at once, then
// the server's side of it ends), data what every data connection
// sends. Whatever they hold, Open, Read and Stat return without a
// panic and in bounded time, and every error is a *fetch.Error whose
// Error() is one line, without a control byte, and shows the
// password in none of its texts.
//
// The Client's DialContext sends every data connection to the fake's
// data listener, whatever port a reply names, so that fuzzed replies
// never reach another program on the machine.
func FuzzServerReplies(f *testing.F) {
	f.Add([]byte("220 hi\r\n331 pw\r\n230 ok\r\n211-Features:\r\n SIZE\r\n211 End\r\n200 ok\r\n257 \"/\"\r\n250 ok\r\n213 5\r\n229 Entering Extended Passive Mode (|||1|)\r\n150 Opening (5 bytes)\r\n226 Done\r\n221 Bye\r\n"), []byte("hello"), uint8(0))
	f.Fuzz(func(t *testing.T, replies, data []byte, kind uint8) {
		srv := newFuzzServer(t, replies, data)
		c := &fetch.Client{IdleTimeout: -1, StallTimeout: 200 * time.Millisecond, DialContext: srv.dial}
		defer c.CloseIdleConnections()
		rawURL := "ftp://alice:s3cr%25t@" + srv.ctl.Addr().String() + "/" + fuzzPaths[int(kind)%len(fuzzPaths)]

		done := make(chan struct{})
		go func() {
			defer close(done)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			resp, err := c.Open(ctx, rawURL)
			if err != nil {
				t.Logf("Open: %v", err)
				checkFuzzError(t, "Open", err)
			} else {
				n, err := io.Copy(io.Discard, io.LimitReader(resp, 4<<20))
				t.Logf("Open: %v, %d bytes, %v", resp.Action, n, err)
				if err != nil {
					checkFuzzError(t, "Read", err)
				}
				if err := resp.Close(); err != nil {
					t.Errorf("Close = %v", err)
				}
			}
			if _, err := c.Stat(ctx, rawURL); err != nil {
				t.Logf("Stat: %v", err)
				checkFuzzError(t, "Stat", err)
			}
		}()
		select {
		case <-done:
		case <-time.After(time.Minute):
			t.Fatal("Open, Read and Stat still run after a minute")
		}
	})
}

// checkFuzzError holds an error of FuzzServerReplies to its invariants.
// It runs on the goroutine that Open runs on, so it reports with
// Errorf, never Fatalf (testing.T.FailNow must be called from the test's
// own goroutine).
func checkFuzzError(t *testing.T, what string, err error) {
	t.Helper()
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		t.Errorf("%s: %v (%T), want a *fetch.Error", what, err, err)
		return
	}
	msg := err.Error()
	noControlByte(t, what+": Error()", msg)
	if strings.ContainsRune(msg, '\u0085') || strings.ContainsRune(msg, '\u2028') {
		t.Errorf("%s: Error() holds a Unicode line end: %q", what, msg)
	}
	for _, text := range errorTexts(err) {
		for _, form := range leakForms("s3cr%t") {
			if strings.Contains(text, form) {
				t.Errorf("%s: an error text holds the password as %q: %q", what, form, text)
				return
			}
		}
	}
}

// A fuzzServer sends the same bytes on every control connection, and
// the same on every data connection.
type fuzzServer struct {
	ctl, data net.Listener
	wg        sync.WaitGroup
	mu        sync.Mutex
	conns     []net.Conn
}

func newFuzzServer(t *testing.T, replies, data []byte) *fuzzServer {
	s := &fuzzServer{}
	var err error
	if s.ctl, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	if s.data, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		s.ctl.Close()
		t.Fatal(err)
	}
	s.wg.Add(2)
	go s.serve(s.ctl, replies, true)
	go s.serve(s.data, data, false)
	t.Cleanup(s.stop)
	return s
}

// serve writes b on every connection of l and ends the server's side
// of it; on a control connection it then reads and drops the client's
// commands until the client leaves.
func (s *fuzzServer) serve(l net.Listener, b []byte, control bool) {
	defer s.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns = append(s.conns, c)
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer c.Close()
			_, _ = c.Write(b)
			if !control {
				return
			}
			_ = c.(*net.TCPConn).CloseWrite()
			_, _ = io.Copy(io.Discard, c)
		}()
	}
}

// dial is the Client's DialContext: the control address as it is, any
// other to the data listener.
func (s *fuzzServer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if addr != s.ctl.Addr().String() {
		addr = s.data.Addr().String()
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

func (s *fuzzServer) stop() {
	s.ctl.Close()
	s.data.Close()
	s.mu.Lock()
	for _, c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// FuzzParseListLine feeds ParseListLine any text, one line or many.
// It never panics; an entry's Name is never empty and neither it nor
// Target holds CR, LF or NUL; Line is the line as given; and the
// listing read whole (the engine's parseListing) gives the entries and
// the unparsed lines that its lines give one by one.
func FuzzParseListLine(f *testing.F) {
	for _, s := range []string{
		"-rw-r--r-- 1 ftp ftp           42 Mar  7 09:15 notes.txt",
		"lrwxrwxrwx 1 u g 8 Mar 07 09:15 current -> releases",
		"03-07-25  09:15AM       <DIR>          Program Files",
		"type=file;size=12;modify=20250307091500; a.txt",
		"+i1.2,m1741338900,r,s12,\tb.txt",
		"total 3\r\ndtrwxrwxrwx 1 ftp ftp 4096 Nov 30  2023 tmp\r\n",
	} {
		f.Add(s, int64(1742472000))
	}
	f.Fuzz(func(t *testing.T, text string, unix int64) {
		now := time.Unix(unix%(1<<40), 0).UTC()
		var want []fetch.Entry
		var wantUnparsed, lines []string
		vms := false // a line is an OpenVMS name alone, which the next completes
		for _, line := range strings.Split(text, "\n") {
			e, ok := fetch.ParseListLine(line, now)
			if ok {
				if e.Name == "" || strings.ContainsAny(e.Name, "\r\n\x00") || strings.ContainsAny(e.Target, "\r\n\x00") {
					t.Fatalf("ParseListLine(%q): Name %q, Target %q", line, e.Name, e.Target)
				}
				if e.Line != line {
					t.Fatalf("ParseListLine(%q): Line %q", line, e.Line)
				}
			}
			line = strings.TrimSuffix(line, "\r")
			lines = append(lines, line)
			if line == "" {
				continue
			}
			vms = vms || fetch.IsVMSNameLine(line)
			if e, ok := fetch.ParseListLine(line, now); ok {
				want = append(want, e)
			} else {
				wantUnparsed = append(wantUnparsed, line)
			}
		}
		// The whole listing reads as its lines do (Response.Entries,
		// read in chunks, and parseLines).
		got, unparsed := fetch.ParseListing(text, now)
		byLines, unparsedLines := fetch.ParseLines(lines, now)
		if !reflect.DeepEqual(got, byLines) || !slices.Equal(unparsed, unparsedLines) {
			t.Fatalf("ParseListing(%q) = %+v, %q; its lines %+v, %q", text, got, unparsed, byLines, unparsedLines)
		}
		if vms {
			// An OpenVMS entry may span two lines (ParseListLine's
			// doc): line by line is no longer the same.
			return
		}
		if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseListing(%q) = %+v, line by line %+v", text, got, want)
		}
		// The lines that do not parse are kept, in order, but for ls's
		// "total N", which is skipped.
		i := 0
		for _, u := range wantUnparsed {
			if i < len(unparsed) && unparsed[i] == u {
				i++
			} else if !strings.HasPrefix(u, "total ") {
				t.Fatalf("ParseListing(%q): unparsed %q, want %q kept", text, unparsed, u)
			}
		}
		if i != len(unparsed) {
			t.Fatalf("ParseListing(%q): unparsed %q, line by line %q", text, unparsed, wantUnparsed)
		}
	})
}
