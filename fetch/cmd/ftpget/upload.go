package main

// Upload: -T FILE URL, as curl's -T (the 1997 draft §2.5 lets an ftp URL
// name a file to update; the 2011 draft §3.2 does not, and curl does).

import (
	"context"
	"errors"
	"flag"
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
	upload     string // -T FILE ("-": standard input)
	createDirs bool   // --ftp-create-dirs
}

// uploadFlags registers -T and --ftp-create-dirs on set.
func uploadFlags(set *flag.FlagSet, o *uploadOptions) {
	set.StringVar(&o.upload, "T", "", "")
	set.BoolVar(&o.createDirs, "ftp-create-dirs", false, "")
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
	if o.createDirs {
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
	err := g.login(func(lo []fetch.Option) error {
		_, err := g.client.Put(context.Background(), target, in, append(lo[:len(lo):len(lo)], opts...)...)
		return err
	})
	if err == nil {
		return exitOK
	}
	g.printf("%v", err)
	return uploadExit(err)
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
