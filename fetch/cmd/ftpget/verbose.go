package main

// -v, --verbose: the dialog with the server on standard error, as
// curl -v shows it: "> " before each command sent, "< " before each
// line received (fetch.WithTrace). The password, and anything the
// server echoes of it, reads "xxxxx" (curl 7.88 shows it: not here).

import (
	"fmt"

	"github.com/ftpurl/ftpurl/fetch"
)

// trace is the fetch.Trace of -v: each line on standard error, made
// printable, one line at a time whatever the transfers at once.
func (g *getter) trace() *fetch.Trace {
	line := func(prefix string) func(string) {
		return func(l string) {
			g.errMu.Lock()
			defer g.errMu.Unlock()
			fmt.Fprintf(g.stderr, "%s%s\n", prefix, printable(l))
		}
	}
	return &fetch.Trace{Sent: line("> "), Received: line("< ")}
}
