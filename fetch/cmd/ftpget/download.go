package main

// A download: a file, a listing, or -I's facts of a name.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// head prints what Stat finds, like curl -I.
func (g *getter) head() int {
	var fi fs.FileInfo
	err := g.login(func(opts []fetch.Option) (err error) {
		fi, err = g.client.Stat(context.Background(), g.t.url, opts...)
		return err
	})
	if err != nil {
		return g.fail(err, false)
	}
	var b strings.Builder
	if fi.IsDir() {
		b.WriteString("Type: directory\n")
	} else {
		b.WriteString("Type: file\n")
		if fi.Size() >= 0 {
			fmt.Fprintf(&b, "Content-Length: %d\n", fi.Size())
		}
	}
	if t := fi.ModTime(); !t.IsZero() {
		fmt.Fprintf(&b, "Last-Modified: %s\n", t.UTC().Format(http.TimeFormat))
	}
	return g.writeText(b.String())
}

// fetch fetches the file or the listing.
func (g *getter) fetch() int {
	o := g.o
	offset := o.resume
	if offset == resumeFromEnd {
		offset = 0
		switch fi, err := os.Stat(g.name); {
		case err == nil:
			offset = fi.Size()
		case !errors.Is(err, fs.ErrNotExist):
			g.printf("-C -: %v", err)
			return exitWrite
		}
	}
	// An offset counts the file's bytes: TYPE I only (RFC 3659 §5.1).
	if offset > 0 && g.u.Type != ftpurl.TypeNone && g.u.Type != 'i' && g.u.Type != 'd' {
		g.printf("-C: cannot resume %s: its ;type=%c transfers other bytes than the file holds, so an offset does not count them (RFC 3659 §5.1)", g.u.Redacted(), rune(g.u.Type))
		return exitResume
	}
	var want int64 = -1 // -r: the bytes to read; -1: to the end
	if r := o.byteRange; r != nil {
		var code int
		if offset, want, code = g.rangeStart(r); code != exitOK {
			return code
		}
	}
	if code, done := g.segmented(offset); done {
		return code
	}
	var resp *fetch.Response
	err := g.login(func(opts []fetch.Option) (err error) {
		opts = opts[:len(opts):len(opts)]
		if offset > 0 {
			opts = append(opts, fetch.WithOffset(offset))
		}
		if o.remoteTime && g.name != "" {
			opts = append(opts, fetch.WithModTime())
		}
		resp, err = g.client.Open(context.Background(), g.t.url, opts...)
		return err
	})
	if err != nil {
		var fe *fetch.Error
		if offset > 0 && errors.As(err, &fe) && (fe.Op == "rest" && fe.Code != 0 || fe.Code == 554) {
			// RFC 3659 §5.4: "554 Requested action not taken: invalid
			// REST parameter", on REST or on the RETR after it.
			g.printf("%s", g.restRefused(offset, fe))
			return exitResume
		}
		return g.fail(err, false)
	}
	defer resp.Close()

	resuming := o.resume != 0
	if resp.Action != ftpurl.Retrieve {
		if resuming && offset > 0 {
			g.printf("-C: cannot resume: %s is a directory listing", resp.URL)
			return exitResume
		}
		lines := resp.Lines
		if resp.Action == ftpurl.NameList {
			lines = resp.Names
		}
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		return g.writeText(b.String())
	}
	if m := o.maxFilesize; m > 0 && resp.Size > m {
		// curl's CURLE_FILESIZE_EXCEEDED: the size the server gave
		// (150 or SIZE, RFC 3659 §4) is over the limit; nothing is
		// written.
		g.printf("%s is %d bytes, over --max-filesize %d", resp.URL, resp.Size, m)
		return exitFileSize
	}
	if offset > 0 && resp.Size >= 0 && offset > resp.Size && o.byteRange != nil {
		g.printf("-r: the range begins at byte %d, past the end of %s (%d bytes)", offset, resp.URL, resp.Size)
		return exitResume
	}
	if offset > 0 && resp.Size >= 0 && offset > resp.Size {
		g.printf("-C: cannot resume: the output has %d bytes, the file on the server %d", offset, resp.Size)
		return exitResume
	}

	w, code := g.openOutput(resuming)
	if w == nil {
		return code
	}
	size := resp.Size
	if want >= 0 && (size < 0 || offset+want < size) {
		size = offset + want
	}
	g.total = -1
	if size >= 0 {
		g.total = size - offset
	}
	bar := g.progressBar(w, size, offset)
	cw := &countingWriter{w: w, bar: bar, n: &g.got}
	var in io.Reader = resp
	if want >= 0 {
		// -r: the range's bytes, then the transfer ends (Abort).
		in = io.LimitReader(resp, want)
	}
	if g.u.Type == 'a' {
		// ;type=a: the file in TYPE A, whose lines end in CRLF on the
		// wire (RFC 959 §3.1.1.1), written with this system's line
		// ends, as curl does.
		in = &crlfReader{r: in}
	}
	_, err = io.Copy(cw, limitRate(in, o.limitRate))
	if want >= 0 && err == nil {
		// -r: the range's last byte is in; the rest of the file is
		// not wanted: ABOR, and the session serves the next URL.
		resp.Abort()
	}
	g.wroteStdout = g.name == "" && g.got > 0
	if bar != nil {
		bar.End(err == nil)
	}
	switch {
	case err != nil && cw.err != nil:
		g.closeOutput(w)
		return g.writeFailed(cw.err)
	case err != nil:
		g.closeOutput(w)
		return g.fail(err, true)
	}
	if code := g.closeOutput(w); code != exitOK {
		return code
	}
	if t := resp.ModTime; o.remoteTime && g.name != "" && !t.IsZero() {
		// -R: the server's time (MDTM, RFC 3659 §3) on the file.
		if err := os.Chtimes(g.name, t, t); err != nil {
			g.printf("-R: %v", err)
			return exitWrite
		}
	}
	return exitOK
}

// rangeStart returns where -r's range starts and how many bytes it
// takes (-1: to the end). For "-N", the file's last N bytes, it asks
// the file's size first (SIZE, via Stat), as curl does.
func (g *getter) rangeStart(r *byteRange) (offset, want int64, code int) {
	if !r.last {
		return r.from, r.length(), exitOK
	}
	var fi fs.FileInfo
	err := g.login(func(opts []fetch.Option) (err error) {
		fi, err = g.client.Stat(context.Background(), g.t.url, opts...)
		return err
	})
	if err != nil {
		return 0, 0, g.fail(err, false)
	}
	if fi.IsDir() || fi.Size() < 0 {
		g.printf("-r -%d: %s has no size to count back from", r.from, g.u.Redacted())
		return 0, 0, exitResume
	}
	return max(fi.Size()-r.from, 0), -1, exitOK
}

// printable replaces what a terminal would not show as text.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError {
			return '?'
		}
		return r
	}, s)
}

// restRefused is the message of a REST the server refused (RFC 3659
// §5.4): where the file is shorter than the offset, as when the output
// of -C - is larger than the file on the server, it says so, not that
// the server is at fault (SIZE, via Stat, tells).
func (g *getter) restRefused(offset int64, fe *fetch.Error) string {
	flag := "-C"
	if g.o.byteRange != nil {
		flag = "-r"
	}
	var fi fs.FileInfo
	err := g.login(func(opts []fetch.Option) (err error) {
		fi, err = g.client.Stat(context.Background(), g.t.url, opts...)
		return err
	})
	if err == nil && !fi.IsDir() && fi.Size() >= 0 && offset > fi.Size() {
		if flag == "-C" && g.name != "" {
			return fmt.Sprintf("-C: cannot resume: %s has %d bytes, more than the file on the server (%d) (%s)", g.name, offset, fi.Size(), dialog(fe))
		}
		return fmt.Sprintf("%s: byte %d is past the end of the file on the server (%d bytes) (%s)", flag, offset, fi.Size(), dialog(fe))
	}
	return fmt.Sprintf("%s: the server refused to start at byte %d (%s)", flag, offset, dialog(fe))
}
