package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"

	"golang.org/x/term"
)

// outputName is the file that the transfer's -o or -O names; "" for
// standard output (no -o, or "-o -").
func (g *getter) outputName() (string, error) {
	switch {
	case g.t.output == "-":
		return "", nil
	case g.t.output != "":
		return g.t.output, nil
	case !g.t.remoteName:
		return "", nil
	}
	name := g.u.Name
	switch {
	case name == "":
		return "", errors.New("-O: the URL names no file (its path ends with /)")
	case name == "." || !filepath.IsLocal(name) || filepath.Base(name) != name || strings.ContainsRune(name, '/'):
		return "", fmt.Errorf("-O: the URL's name %q is not a plain local file name", name)
	}
	return name, nil
}

// writeText writes text (Stat's lines, a listing) to the output and
// returns the exit status.
func (g *getter) writeText(text string) int {
	w, code := g.openOutput(false)
	if w == nil {
		return code
	}
	if _, err := io.WriteString(w, text); err != nil {
		g.closeOutput(w)
		return g.writeFailed(err)
	}
	return g.closeOutput(w)
}

// openOutput opens where the output goes: standard output (behind the
// binary check when it is a terminal), or the file (appending when
// resuming).
func (g *getter) openOutput(appending bool) (io.Writer, int) {
	name := g.name
	if name == "" {
		if g.t.output != "-" && isTerminal(g.stdout) {
			return &terminalGuard{w: g.stdout}, exitOK
		}
		return g.stdout, exitOK
	}
	if g.o.createDirs {
		// --create-dirs: the missing directories of -o FILE, as curl
		// makes them (mode 0750).
		if err := os.MkdirAll(filepath.Dir(name), 0o750); err != nil {
			g.printf("--create-dirs: %v", err)
			return nil, exitWrite
		}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if appending {
		flags = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	}
	f, err := os.OpenFile(name, flags, 0o666)
	if err != nil {
		g.printf("%v", err)
		return nil, exitWrite
	}
	return f, exitOK
}

func (g *getter) closeOutput(w io.Writer) int {
	if f, ok := w.(*os.File); ok && w != g.stdout {
		if err := f.Close(); err != nil {
			return g.writeFailed(err)
		}
	}
	return exitOK
}

// writeFailed reports a write error: curl's exit 23 (CURLE_WRITE_ERROR),
// for a closed pipe (EPIPE: SIGPIPE is ignored, see main) too.
func (g *getter) writeFailed(err error) int {
	switch {
	case errors.Is(err, errBinary):
		g.printf("%v", err)
	case errors.Is(err, syscall.EPIPE):
		g.printf("writing the output: the reader closed the pipe (%v)", err)
		g.outputGone = true
	default:
		g.printf("writing the output: %v", err)
	}
	return exitWrite
}

// errBinary is curl's refusal of binary output to a terminal (curl's
// tool_cb_wrt.c; "--output -" is "-o -" here), with curl's words.
var errBinary error = binaryError{}

type binaryError struct{}

func (binaryError) Error() string {
	return `Binary output can mess up your terminal. Use "-o -" to tell ftpget to output it to your terminal anyway, or consider "-o FILE" to save to a file.`
}

// A terminalGuard stands between the file and a terminal: it refuses
// binary data, as curl does, so that a binary file does not reach a
// terminal unless -o - asks for it. Like curl, it looks for a NUL in
// every write; in the first, it also takes invalid UTF-8 for binary
// (a rune cut at the end of the write aside).
type terminalGuard struct {
	w       io.Writer
	started bool
}

func (t *terminalGuard) Write(p []byte) (int, error) {
	if looksBinary(p, !t.started) {
		return 0, errBinary
	}
	t.started = true
	return t.w.Write(p)
}

// looksBinary reports whether p holds a NUL byte or, when first, bytes
// that are not UTF-8 in its first 4 KiB.
func looksBinary(p []byte, first bool) bool {
	if bytes.IndexByte(p, 0) >= 0 {
		return true
	}
	if !first {
		return false
	}
	head := p[:min(len(p), 4096)]
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 {
			// A rune cut by the end of head is not an error.
			return utf8.FullRune(head)
		}
		head = head[n:]
	}
	return false
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
