package fetch_test

// What an error says, on the five servers (DESIGN, "The command, as
// familiar as curl"): a missing file's message leads with the RETR
// refusal; a 550 for a name of the wrong kind is not ErrNotFound when
// the server shows that the name exists; no message holds a line
// break, escaped or not; a deadline reads as one.

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// oneLineError fails the test if err's text holds a line break, or
// the two characters `\n` or `\r` that escape one.
func oneLineError(t *testing.T, err error) {
	t.Helper()
	if s := err.Error(); strings.ContainsAny(s, "\r\n") || strings.Contains(s, `\n`) || strings.Contains(s, `\r`) {
		t.Errorf("the error holds a line break: %q", s)
	}
}

func TestErrorsOnServers(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c := &fetch.Client{}
			t.Cleanup(c.CloseIdleConnections)
			base := "ftp://" + srv.addr + "/"
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()

			// 2011 draft §3.2.3 (4d): RETR, then the fallback's CWD; the
			// RETR refusal is what the user reads first.
			_, err := c.Open(ctx, base+"missing.txt")
			var fe *fetch.Error
			if !errors.As(err, &fe) || !errors.Is(err, fetch.ErrNotFound) {
				t.Fatalf("missing.txt: err = %v, want an *Error with ErrNotFound", err)
			}
			if want := "fetch " + base + "missing.txt: retr (RETR missing.txt): 550 "; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "; then fallback cwd (CWD missing.txt): 550 ") {
				t.Errorf("missing.txt: err = %q, want it to begin %q and name the fallback after", err, want)
			}
			if fe.Retr() == nil || fe.Retr().Command != "RETR missing.txt" {
				t.Errorf("missing.txt: Retr() = %v, want the RETR refusal", fe.Retr())
			}
			oneLineError(t, err)

			// A file used as a directory: CWD is refused with 550, and
			// MLST, MDTM or SIZE (RFC 3659 §7, §3, §4) shows the file.
			for _, m := range []ftpurl.Method{ftpurl.MultiCWD, ftpurl.SingleCWD} {
				_, err := c.Open(ctx, base+"text.txt/", fetch.WithMethod(m))
				if !errors.As(err, &fe) || fe.Op != "cwd" || fe.Code != 550 {
					t.Fatalf("text.txt/ (%v): err = %v, want a refused CWD", m, err)
				}
				if errors.Is(err, fetch.ErrNotFound) || !strings.Contains(err.Error(), `"text.txt" is a file, not a directory`) {
					t.Errorf("text.txt/ (%v): err = %v, want no ErrNotFound and the reason", m, err)
				}
				oneLineError(t, err)
			}

			// A directory retrieved as a file (;type=i, RETR only): a
			// refusal, at once or after the 150, but not ErrNotFound:
			// CWD enters it.
			resp, err := c.Open(ctx, base+"a;type=i")
			if err == nil {
				_, err = io.ReadAll(resp)
				resp.Close()
			}
			if err == nil || errors.Is(err, fetch.ErrNotFound) {
				t.Errorf("a;type=i: err = %v, want an error that is not ErrNotFound", err)
			} else {
				oneLineError(t, err)
			}

			// A missing directory is ErrNotFound still.
			_, err = c.Open(ctx, base+"missing/text.txt")
			if !errors.Is(err, fetch.ErrNotFound) {
				t.Errorf("missing/text.txt: err = %v, want ErrNotFound", err)
			}
		})
	}
}

// TestDeadlineReadsAsOne: a step that the context's deadline cuts
// short reads "context deadline exceeded", once and on one line, and
// is errors.Is context.DeadlineExceeded, whatever the connection
// reported (RFC 959 is silent; DESIGN, "Errors a program can act on").
func TestDeadlineReadsAsOne(t *testing.T) {
	for name, sc := range map[string]script{
		"greeting": {"": func(c *fconn, _ string) { c.stall() }},
		"RETR":     {"RETR": stalledFile},
	} {
		t.Run(name, func(t *testing.T) {
			noLeaks(t)
			f := newFake(t, sc)
			c := testClient(t)
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			defer cancel()
			var err error
			within(t, 30*time.Second, func() { _, _, err = openAndRead(ctx, c, f.url("f")) })
			if !errors.Is(err, context.DeadlineExceeded) || !strings.HasSuffix(err.Error(), ": context deadline exceeded") || strings.Count(err.Error(), "deadline") != 1 {
				t.Errorf("err = %q, want it to end with the context's deadline, said once", err)
			}
			oneLineError(t, err)
		})
	}
}
