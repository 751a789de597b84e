package main

// -v, --verbose: the dialog with the server on standard error, as
// curl -v shows it: "> " before each command sent, "< " before each
// line received (fetch.WithTrace). The password, and anything the
// server echoes of it, reads "xxxxx" (curl 7.88 shows it: not here).

import (
	"fmt"
	"strconv"

	"github.com/ftpurl/ftpurl/fetch"
)

// trace is the fetch.Trace of -v and -w: with -v, each line on
// standard error, made printable, one line at a time whatever the
// transfers at once; and the code of the last reply (200 and 213 aside),
// for -w's %{response_code}.
func (g *getter) trace() *fetch.Trace {
	line := func(prefix string) func(string) {
		return func(l string) {
			if !g.o.verbose {
				return
			}
			g.errMu.Lock()
			defer g.errMu.Unlock()
			fmt.Fprintf(g.stderr, "%s%s\n", prefix, printable(l))
		}
	}
	sent, received := line("> "), line("< ")
	return &fetch.Trace{Sent: sent, Received: func(l string) {
		// A reply's last line: "DDD text" (RFC 959 §4.2). The 213 of
		// a SIZE and the 200 of a NOOP that fetch sends after a
		// transfer (Put's proof, the NOOP after ABOR) are left out:
		// curl's response_code is the transfer's 226 then.
		if len(l) >= 3 && (len(l) == 3 || l[3] == ' ') {
			if code, err := strconv.Atoi(l[:3]); err == nil && code != 200 && code != 213 {
				g.lastCode.Store(int32(code))
			}
		}
		received(l)
	}}
}
