package fetch_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ftpurl/ftpurl/fetch"
)

// recorder records a Trace's lines as curl -v prints them.
type recorder struct {
	mu    sync.Mutex
	lines []string
}

func (r *recorder) trace() *fetch.Trace {
	add := func(prefix string) func(string) {
		return func(l string) { r.mu.Lock(); r.lines = append(r.lines, prefix+l); r.mu.Unlock() }
	}
	return &fetch.Trace{Sent: add("> "), Received: add("< ")}
}

// TestTraceShowsTheDialogWithThePasswordMasked: WithTrace sees every
// line of the dialog (RFC 959 §4: the commands and each line of a
// multi-line reply, §4.2), with the password, and the server's echo of
// it, as "xxxxx" (issue 33: curl -v's dialog, the password masked).
func TestTraceShowsTheDialogWithThePasswordMasked(t *testing.T) {
	f := newFake(t, script{
		"PASS": say("230 Welcome, your password s3cr%t is fine"),
		"RETR": say("550 No such file"),
	})
	var r recorder
	cl := &fetch.Client{IdleTimeout: -1}
	_, err := cl.Open(context.Background(), "ftp://alice:s3cr%25t@"+f.addr+"/f.txt", fetch.WithTrace(r.trace()))
	if err == nil {
		t.Fatal("Open of a refused RETR succeeded")
	}
	want := []string{
		"< 220 fake FTP server ready",
		"> USER alice",
		"< 331 Password required",
		"> PASS xxxxx",
		"< 230 Welcome, your password xxxxx is fine",
		"> FEAT",
		"< 211-Features:",
		"<  SIZE",
		"<  MDTM",
		"< 211 End",
		"> PWD",
	}
	if len(r.lines) < len(want) || !slices.Equal(r.lines[:len(want)], want) {
		t.Fatalf("trace begins\n%s\nwant\n%s", strings.Join(r.lines, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Contains(r.lines, "> RETR f.txt") || !slices.Contains(r.lines, "< 550 No such file") {
		t.Errorf("trace lacks RETR and its 550:\n%s", strings.Join(r.lines, "\n"))
	}
	for _, l := range r.lines {
		if strings.Contains(l, "s3cr") {
			t.Errorf("the password reached the trace: %q", l)
		}
	}
}

// TestTraceOnAReusedSession: a reused session traces the commands of
// the call that holds it, and a call without WithTrace traces nothing
// (WithTrace: "every command of the call on a reused one").
func TestTraceOnAReusedSession(t *testing.T) {
	f := newFake(t, script{"RETR": say("550 No such file")})
	cl := &fetch.Client{}
	defer cl.CloseIdleConnections()
	var first recorder
	cl.Open(context.Background(), f.url("a.txt"), fetch.WithTrace(first.trace()))
	var second recorder
	cl.Open(context.Background(), f.url("b.txt"), fetch.WithTrace(second.trace()))
	cl.Open(context.Background(), f.url("c.txt"))
	if slices.Contains(second.lines, "> USER anonymous") {
		t.Errorf("the second Open logged in again: %q", second.lines)
	}
	if !slices.Contains(second.lines, "> RETR b.txt") || slices.Contains(second.lines, "> RETR c.txt") || slices.Contains(first.lines, "> RETR b.txt") {
		t.Errorf("each trace should hold its own call's RETR only:\nfirst %q\nsecond %q", first.lines, second.lines)
	}
}
