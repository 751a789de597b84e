package fetch_test

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/ftpurl/ftpurl/fetch"
)

// TestQuoteSendsTheLineInTheLoginDirectory: Quote sends the caller's
// command as it is and returns the final reply (RFC 959 §4.2); a
// reused session goes back to the login directory first (curl sends
// -Q's commands there, after PWD), and the next Open enters its
// directories again, since the command may have moved the session.
func TestQuoteSendsTheLineInTheLoginDirectory(t *testing.T) {
	f := newFake(t, script{
		"DELE": say("250 DELE command successful"),
		"RETR": say("550 No such file"),
	})
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()
	cl.Open(context.Background(), f.url("d/x.txt")) // leaves the session in d
	code, text, err := cl.Quote(context.Background(), f.url("ignored/path"), "DELE old.txt")
	if err != nil || code != 250 || text != "DELE command successful" {
		t.Fatalf("Quote = %d %q %v; want 250 and the text", code, text, err)
	}
	cl.Open(context.Background(), f.url("d/y.txt"))
	want := []string{"CWD d", "RETR x.txt", "CWD x.txt", "CWD /", "DELE old.txt", "CWD /", "CWD d", "RETR y.txt", "CWD y.txt"}
	var got []string
	for _, c := range f.commands() {
		if slices.Contains([]string{"CWD", "DELE", "RETR"}, verbOf(c)) {
			got = append(got, c)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("commands %q, want %q", got, want)
	}
	if n := f.dialCount(); n != 1 {
		t.Errorf("%d sessions, want 1 (Quote reuses the Client's session)", n)
	}
}

// TestQuoteRefusal: a reply of 400 or more is an *Error of Op "quote"
// naming the command, with the server's code (curl's -Q fails so,
// CURLE_QUOTE_ERROR), and is never sent again.
func TestQuoteRefusal(t *testing.T) {
	f := newFake(t, script{"DELE": say("550 nope.txt: No such file")})
	code, _, err := (&fetch.Client{}).Quote(context.Background(), f.url(""), "DELE nope.txt")
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "quote" || fe.Command != "DELE nope.txt" || fe.Code != 550 || code != 550 {
		t.Fatalf("Quote = %d, %#v; want Op quote, DELE nope.txt, 550", code, err)
	}
	if n := countVerb(f.commands(), "DELE"); n != 1 {
		t.Errorf("DELE sent %d times, want 1", n)
	}
}

// TestQuoteRefusesALineBreakBeforeConnecting: a command is one line
// (RFC 959 §4.1.3); one that holds CR, LF or NUL, or is empty, fails
// before any connection.
func TestQuoteRefusesALineBreakBeforeConnecting(t *testing.T) {
	f := newFake(t, nil)
	for _, line := range []string{"DELE a\r\nDELE b", "NOOP\n", "DELE a\x00b", " "} {
		_, _, err := (&fetch.Client{}).Quote(context.Background(), f.url(""), line)
		var fe *fetch.Error
		if !errors.As(err, &fe) || fe.Op != "quote" || fe.Code != 0 {
			t.Errorf("Quote(%q) = %v; want an *Error of Op quote, Code 0", line, err)
		}
	}
	if n := f.dialCount(); n != 0 {
		t.Errorf("%d connections; want none", n)
	}
}

func verbOf(line string) string {
	for i := range line {
		if line[i] == ' ' {
			return line[:i]
		}
	}
	return line
}

func countVerb(cmds []string, verb string) int {
	n := 0
	for _, c := range cmds {
		if verbOf(c) == verb {
			n++
		}
	}
	return n
}
