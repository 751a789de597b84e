package main

// Upload: -T FILE URL, as curl's -T (the 1997 draft §2.5 lets an ftp URL
// name a file to update; the 2011 draft §3.2 does not, and curl does).

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ftpurl/ftpurl/fetch"
)

// Exit statuses of an upload, as curl's.
const (
	exitUploadRead = 26 // the local file could not be read
	exitUpload     = 25 // the server refused the upload, or it is not whole
)

// uploadOptions are the flags of an upload.
type uploadOptions struct {
	upload        string // -T FILE ("-": standard input)
	ftpCreateDirs bool   // --ftp-create-dirs
}

// specs are -T (--upload-file) and --ftp-create-dirs.
func (o *uploadOptions) specs() []flagSpec {
	return []flagSpec{
		{short: 'T', long: []string{"upload-file"}, set: func(s string) error { o.upload = s; return nil }},
		{long: []string{"ftp-create-dirs"}, on: func(on bool) error { o.ftpCreateDirs = on; return nil }},
	}
}

// uploadURL is the URL an upload goes to: rawURL, or, when it ends in
// "/", rawURL with the local file's name (escaped) appended, as curl
// does.
func uploadURL(rawURL, file string) string {
	if !strings.HasSuffix(rawURL, "/") || file == "-" {
		return rawURL
	}
	return rawURL + url.PathEscape(filepath.Base(file))
}

// upload runs -T: Put of the file to the URL, with -C - (or -C N)
// resuming as curl does (SIZE of the remote file, then APPE of the
// rest), and --ftp-create-dirs. It returns the exit status.
func (g *getter) upload() int {
	o := g.o
	target := uploadURL(g.t.url, o.upload)
	var in io.Reader
	var f *os.File
	var size int64 = -1
	if o.upload == "-" {
		if o.resume != 0 {
			g.printf("-C does not go with -T -")
			return exitUsage
		}
		in = g.stdin
	} else {
		var err error
		f, err = os.Open(o.upload)
		if err != nil {
			g.printf("%v", err)
			return exitUploadRead
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		in = f
	}
	opts := []fetch.Option{}
	if o.ftpCreateDirs {
		opts = append(opts, fetch.WithCreateDirs())
	}
	offset := o.resume
	if offset == resumeFromEnd {
		// curl -C - -T: the remote file's size is where to go on.
		offset = 0
		err := g.login(func(lo []fetch.Option) error {
			fi, err := g.client.Stat(context.Background(), target, lo...)
			if err == nil {
				offset = fi.Size()
			}
			if errors.Is(err, fetch.ErrNotFound) {
				return nil
			}
			return err
		})
		if err != nil {
			return g.fail(err, false)
		}
	}
	if offset > 0 {
		if size >= 0 && offset > size {
			g.printf("cannot resume: the file on the server has %d bytes, %s %d", offset, o.upload, size)
			return exitResume
		}
		if _, err := f.Seek(offset, io.SeekStart); err != nil {
			g.printf("%v", err)
			return exitUploadRead
		}
		opts = append(opts, fetch.WithOffset(offset))
	}
	// The bar counts what Put has read of the file, from the offset
	// (issue 33: "no progress at all during -T").
	bar := g.progressBar(nil, size, offset)
	up := &uploadReader{r: limitRate(in, o.limitRate), bar: bar, n: &g.got}
	g.total = -1
	if size >= 0 {
		g.total = size - offset
	}
	err := g.login(func(lo []fetch.Option) error {
		_, err := g.client.Put(context.Background(), target, up, append(lo[:len(lo):len(lo)], opts...)...)
		return err
	})
	if bar != nil {
		bar.End(err == nil)
	}
	if err == nil {
		return exitOK
	}
	g.lastErr = err
	g.printf("%s", g.describe(err, false))
	return uploadExit(err)
}

// An uploadReader reads what -T sends, counting it for the bar and for
// messages.
type uploadReader struct {
	r   io.Reader
	bar *progress // nil: none
	n   *int64
}

func (u *uploadReader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	*u.n += int64(n)
	if u.bar != nil {
		u.bar.Written(n)
	}
	return n, err
}

// uploadExit is curl's exit status for a failed upload: 26 when the
// local file could not be read, 25 when the server refused the upload
// (STOR, APPE, MKD, the rename) or does not hold it whole (SIZE), else
// as for a download.
func uploadExit(err error) int {
	var pe *fs.PathError
	var fe *fetch.Error
	switch {
	case errors.As(err, &pe):
		return exitUploadRead
	case !errors.As(err, &fe):
	case fe.Op == "size" && fe.Code != 530:
		return exitUpload
	case fe.Code != 0 && (fe.Op == "stor" || fe.Op == "appe" || fe.Op == "mkd" || fe.Op == "rename"):
		return exitUpload
	}
	return exitCode(err, false)
}
