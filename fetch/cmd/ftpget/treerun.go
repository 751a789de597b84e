package main

import (
	"fmt"
	"sync"
)

// A treeRun is what a mirror down (mirror.go) and a mirror up
// (deploy.go) share: the getter, the progress line, and the failures,
// counted and printed one at a time under mu (which also guards the
// counters of the mirror that embeds it).
type treeRun struct {
	g   *getter
	bar *treeProgress // nil: not a terminal

	mu     sync.Mutex
	failed int
	code   int // the exit status of the first failure
}

// count adds one to *n and, when format is not "", prints a line.
func (r *treeRun) count(n *int, format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*n++
	if format != "" {
		r.printLocked(fmt.Sprintf(format, args...))
	}
}

// failure counts a failure, keeps the first one's exit status, and
// prints err in words (describe), after what when it is not "".
func (r *treeRun) failure(err error, code int, what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed++
	if r.code == exitOK {
		r.code = code
	}
	if what != "" {
		r.printLocked(what + ": " + r.g.describe(err, false))
		return
	}
	r.printLocked(r.g.describe(err, false))
}

// printLocked prints one message, on its own line under the progress
// line; r.mu is held.
func (r *treeRun) printLocked(msg string) {
	if r.bar != nil {
		r.bar.clear()
	}
	r.g.printf("%s", msg)
}
