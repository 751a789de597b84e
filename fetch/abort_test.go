package fetch_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/ftpurl/ftpurl/fetch"
)

// TestAbortKeepsTheSession: Response.Abort ends a transfer after the
// bytes a range needs (ABOR, RFC 959 §4.1.3, then NOOP: transfer.cut)
// and the session serves the Client's next Opens, in step, on each of
// the five servers (issue 33: ftpget -r, as curl ends a range).
func TestAbortKeepsTheSession(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			base := "ftp://" + need(t, name).addr + "/"
			cl := &fetch.Client{MaxConnsPerHost: 1}
			defer cl.CloseIdleConnections()
			var logins int
			trace := &fetch.Trace{Sent: func(l string) {
				if strings.HasPrefix(l, "USER ") {
					logins++
				}
			}}
			part := func(off, n int64) []byte {
				resp, err := cl.Open(context.Background(), base+"bench/big.bin", fetch.WithOffset(off), fetch.WithTrace(trace))
				if err != nil {
					t.Fatal(err)
				}
				b := make([]byte, n)
				if _, err := io.ReadFull(resp, b); err != nil {
					t.Fatal(err)
				}
				resp.Abort()
				if _, err := resp.Read(make([]byte, 1)); err == nil {
					t.Error("Read after Abort succeeded")
				}
				resp.Close()
				return b
			}
			a := part(100, 10)
			b := part(105, 5)
			if !bytes.Equal(a[5:], b) {
				t.Errorf("bytes 105-109: %x, then %x", a[5:], b)
			}
			resp, err := cl.Open(context.Background(), base+"walk/plain.txt", fetch.WithTrace(trace))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp)
			resp.Close()
			if err != nil || string(got) != "plain" {
				t.Errorf("the next file: %q, %v", got, err)
			}
			if logins != 1 {
				t.Errorf("%d logins for three Opens; want 1: Abort keeps the session", logins)
			}
		})
	}
}
