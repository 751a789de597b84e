package fetch

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ftpurl/ftpurl"
)

// An FS is the tree under a directory URL as an io/fs file system, on
// its Client's sessions: fs.WalkDir, os.CopyFS, http.FileServerFS,
// template.ParseFS and testing/fstest take it. It implements fs.FS,
// fs.ReadDirFS, fs.StatFS, fs.ReadFileFS and fs.SubFS. [Client.FS]
// makes one.
//
// Names are io/fs names (fs.ValidPath): slash-separated, relative to
// the URL's directory, without "." or ".." elements; an invalid name is
// an *fs.PathError wrapping fs.ErrInvalid. A name is one path element a
// level, so a backslash or a colon is part of a name, as the server
// has it.
//
// What Open, Stat and ReadDir say of a name comes from one listing of
// its directory ([Client.ReadDir]: MLSD, else LIST), so that a
// DirEntry's Info and the File's Stat agree: an Open costs a listing of
// the parent and, for a file, a RETR once it is read. Where an MLSD
// listing holds directories, LIST tells which are links (a server such
// as pyftpdlib shows a link to a directory as the directory, which
// would make fs.WalkDir loop), so such a listing costs two. A name the
// directory does not list is fs.ErrNotExist; a listed one the server
// will not read or list is fs.ErrPermission. A symbolic link is
// followed ([Client.Stat] of it). A file's fs.File is also an
// io.Seeker and an io.ReaderAt ("REST n" before "RETR", RFC 3659 §5),
// so that http.FileServerFS answers Range requests with 206; a
// transfer that a Seek or ReadAt leaves before its end is ended with
// ABOR and the session kept, not closed. A directory's fs.File is an
// fs.ReadDirFile.
//
// The context given to [Client.FS] bounds every call. An FS is safe for
// concurrent use; each fs.File is for one goroutine at a time, but for
// ReadAt. An open file that is being read holds a session of the
// Client until its end or Close: with MaxConnsPerHost 2, a third file
// read at once waits for one of them.
type FS struct {
	c    *Client
	ctx  context.Context
	root *ftpurl.URL // the directory, as asDirectory makes it
	cfg  config
}

// NewFS returns the tree under the directory rawURL names as an [FS],
// with [DefaultClient]; see [Client.FS].
func NewFS(ctx context.Context, rawURL string, opts ...Option) (*FS, error) {
	return DefaultClient.FS(ctx, rawURL, opts...)
}

// FS returns the tree under the directory rawURL names (its Dirs and
// its Name, as [Client.ReadDir] takes it) as an [FS], once [Client.Stat]
// shows it is a directory: one login, whose session the FS's calls
// reuse. The options are Open's: [WithPassword], [WithTLS],
// [WithMethod], [WithAbsolutePaths], [WithTimeout] (for each call),
// [WithDialTimeout]. A URL that names nothing is an *[Error] with
// [ErrNotFound]; one that names a file is an *Error of Op "stat".
func (c *Client) FS(ctx context.Context, rawURL string, opts ...Option) (*FS, error) {
	cfg := newConfig(opts)
	cfg.offset, cfg.modTime, cfg.createDirs, cfg.tempName = 0, false, false, false
	u, err := cfg.grammar.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	root := asDirectory(u)
	fi, err := c.stat(ctx, root, cfg)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &Error{Op: "stat", URL: root.Redacted(), Err: errors.New("the URL names a file, not a directory")}
	}
	return &FS{c: c, ctx: ctx, root: root, cfg: cfg}, nil
}

// dirURL returns the URL of the directory name (an io/fs name).
func (f *FS) dirURL(name string) *ftpurl.URL {
	d := *f.root
	if name != "." {
		d.Dirs = append(slices.Clip(f.root.Dirs), strings.Split(name, "/")...)
	}
	return &d
}

// fileURL returns the URL of the file name (an io/fs name other than
// "."), in TYPE I: its bytes as the server holds them.
func (f *FS) fileURL(name string) *ftpurl.URL {
	u := *f.root
	dir, base := path.Split(name)
	if dir != "" {
		u.Dirs = append(slices.Clip(f.root.Dirs), strings.Split(strings.TrimSuffix(dir, "/"), "/")...)
	}
	u.Name, u.Type = base, ftpurl.TypeImage
	return &u
}

// Open opens the named file or directory (fs.FS). It lists the parent
// directory to learn what name is (see [FS]); a file's transfer starts
// at its first Read.
func (f *FS) Open(name string) (fs.File, error) {
	e, err := f.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if e.Mode.IsDir() {
		return &dirFile{fsys: f, name: name, e: e}, nil
	}
	return &file{fsys: f, name: name, e: e, u: f.fileURL(name)}, nil
}

// Stat returns what the parent directory's listing says of name
// (fs.StatFS), a symbolic link followed; "." is a directory named ".".
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	e, err := f.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return e.Info(), nil
}

// ReadDir lists the named directory (fs.ReadDirFS): its entries sorted
// by name, without ".", "..", and any name that is not one io/fs path
// element (fs.ValidPath: empty, or not UTF-8), which cannot be opened
// through io/fs: those are left out and named in the error returned
// with the others, an *fs.PathError.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	entries, err := f.list(name)
	if err != nil && len(entries) == 0 {
		return nil, f.pathError("readdir", name, err)
	}
	out := make([]fs.DirEntry, 0, len(entries))
	var invalid []string
	for _, e := range entries {
		if !fs.ValidPath(e.Name) || strings.Contains(e.Name, "/") {
			invalid = append(invalid, strconv.Quote(e.Name))
			continue
		}
		out = append(out, e.DirEntry())
	}
	slices.SortFunc(out, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	switch {
	case len(invalid) > 0:
		err = &fs.PathError{Op: "readdir", Path: name, Err: errors.New("the server lists names that are not io/fs names (fs.ValidPath), left out: " + strings.Join(invalid, ", "))}
	case err != nil:
		err = f.pathError("readdir", name, err)
	}
	return out, err
}

// ReadFile reads the named file whole (fs.ReadFileFS), into a new
// slice each call.
func (f *FS) ReadFile(name string) ([]byte, error) {
	fl, err := f.Open(name)
	if err != nil {
		return nil, err
	}
	defer fl.Close()
	if _, ok := fl.(*dirFile); ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errIsDir}
	}
	size := fl.(*file).e.Size
	b := make([]byte, 0, max(size, 0)+1)
	for {
		n, err := fl.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// Sub returns the tree under the directory dir (fs.SubFS), on the same
// Client and context. It does not ask the server: a dir that is not a
// directory makes each call of the new FS fail.
func (f *FS) Sub(dir string) (fs.FS, error) {
	if !fs.ValidPath(dir) {
		return nil, &fs.PathError{Op: "sub", Path: dir, Err: fs.ErrInvalid}
	}
	if dir == "." {
		return f, nil
	}
	return &FS{c: f.c, ctx: f.ctx, root: f.dirURL(dir), cfg: f.cfg}, nil
}

// lookup returns the Entry that the listing of name's directory gives
// for it, a symbolic link followed; for ".", a directory.
func (f *FS) lookup(op, name string) (Entry, error) {
	if !fs.ValidPath(name) {
		return Entry{}, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if name == "." {
		return Entry{Name: ".", Mode: fs.ModeDir, Size: -1}, nil
	}
	e, err := f.listed(name)
	if err != nil {
		return Entry{}, f.pathError(op, name, err)
	}
	if e.Mode&fs.ModeSymlink != 0 {
		fi, err := f.c.stat(f.ctx, f.fileURL(name), f.cfg)
		if err != nil {
			return Entry{}, f.pathError(op, name, err)
		}
		t := fi.Sys().(Entry)
		t.Name = e.Name
		return t, nil
	}
	return e, nil
}

// list lists the directory name as [Client.ReadDir] does, and where its
// MLSD listing holds a directory, asks LIST which are links: a server
// whose MLSD shows a link to a directory as the directory (pyftpdlib)
// would make fs.WalkDir loop through "up -> ..".
func (f *FS) list(name string) ([]Entry, error) {
	entries, _, err := f.c.readDirUnique(f.ctx, f.dirURL(name), f.cfg, false, true)
	return entries, err
}

// listed returns the entry of name in its directory's listing, or an
// error with fs.ErrNotExist where the listing has none.
func (f *FS) listed(name string) (Entry, error) {
	dir, base := path.Split(name)
	entries, err := f.list(path.Clean(dir + "."))
	for _, e := range entries {
		if e.Name == base {
			return e, nil
		}
	}
	if err == nil {
		err = fs.ErrNotExist
	}
	return Entry{}, err
}

// pathError makes err an *fs.PathError that wraps what io/fs expects:
// fs.ErrNotExist for a name the server does not have, fs.ErrPermission
// for one it has and refuses (a 550 for a name its directory lists, a
// 530), with the *Error beside it.
func (f *FS) pathError(op, name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return err
	}
	var e *Error
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, ErrNotFound) && !f.exists(name):
		err = &fsError{kind: fs.ErrNotExist, err: err}
	case errors.As(err, &e) && (e.Code == 550 || e.Code == 530):
		err = &fsError{kind: fs.ErrPermission, err: err}
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}

// exists reports whether name's directory lists it: a 550 for a name
// listed is a refusal (fs.ErrPermission), not its absence.
func (f *FS) exists(name string) bool {
	if name == "." {
		return true
	}
	_, err := f.listed(name)
	return err == nil
}

// An fsError is a failure that io/fs classifies (fs.ErrNotExist,
// fs.ErrPermission): errors.Is finds both kind and the failure, which
// is the message.
type fsError struct{ kind, err error }

func (e *fsError) Error() string   { return e.err.Error() }
func (e *fsError) Unwrap() []error { return []error{e.kind, e.err} }

var errIsDir = errors.New("is a directory")

// A file is an open file of an FS: its reads are a RETR from the
// position on, which a Seek elsewhere ends (transfer.cut).
type file struct {
	fsys   *FS
	name   string
	e      Entry
	u      *ftpurl.URL
	off    int64     // where Read reads next
	resp   *Response // the transfer at off; nil: none yet
	closed bool
}

// Stat returns what the directory's listing says of the file.
func (f *file) Stat() (fs.FileInfo, error) {
	if f.closed {
		return nil, &fs.PathError{Op: "stat", Path: f.name, Err: fs.ErrClosed}
	}
	return f.e.Info(), nil
}

// Read reads from the file's position: RETR, after "REST n" where the
// position is n > 0 (RFC 3659 §5), on the first Read at a position.
func (f *file) Read(p []byte) (int, error) {
	switch {
	case f.closed:
		return 0, &fs.PathError{Op: "read", Path: f.name, Err: fs.ErrClosed}
	case len(p) == 0:
		return 0, nil
	case f.resp == nil && f.e.Size >= 0 && f.off >= f.e.Size:
		return 0, io.EOF
	}
	if f.resp == nil {
		resp, err := f.fsys.retrieve(f.u, f.off)
		if err != nil {
			return 0, f.fsys.readError(f.name, err)
		}
		f.resp = resp
	}
	n, err := f.resp.Read(p)
	f.off += int64(n)
	switch {
	case err == io.EOF:
		f.resp = nil // the session went back
		return n, io.EOF
	case err != nil:
		f.resp.Close()
		f.resp = nil
		return n, f.fsys.readError(f.name, err)
	}
	return n, nil
}

// Seek sets the position of the next Read (io.Seeker). io.SeekEnd needs
// the file's size from the listing. A transfer under way at another
// position is ended (ABOR), and the next Read starts one at the new
// position.
func (f *file) Seek(offset int64, whence int) (int64, error) {
	if f.closed {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrClosed}
	}
	pos := offset
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		pos += f.off
	case io.SeekEnd:
		if f.e.Size < 0 {
			return 0, &fs.PathError{Op: "seek", Path: f.name, Err: errors.New("the listing gives no size: io.SeekEnd cannot be used")}
		}
		pos += f.e.Size
	default:
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: fs.ErrInvalid}
	}
	if pos < 0 {
		return 0, &fs.PathError{Op: "seek", Path: f.name, Err: errors.New("negative position " + strconv.FormatInt(pos, 10))}
	}
	if pos != f.off && f.resp != nil {
		f.resp.cut()
		f.resp = nil
	}
	f.off = pos
	return pos, nil
}

// ReadAt reads len(p) bytes from off (io.ReaderAt) with a transfer of
// its own ("REST off", RFC 3659 §5, then RETR), ended once p is full:
// read to its end where p reaches it, else with ABOR. Fewer bytes than
// len(p) come with io.EOF. It does not move the position of Read, and
// may be called from several goroutines at once.
func (f *file) ReadAt(p []byte, off int64) (int, error) {
	switch {
	case f.closed:
		return 0, &fs.PathError{Op: "readat", Path: f.name, Err: fs.ErrClosed}
	case off < 0:
		return 0, &fs.PathError{Op: "readat", Path: f.name, Err: errors.New("negative offset " + strconv.FormatInt(off, 10))}
	case f.e.Size >= 0 && off >= f.e.Size:
		return 0, io.EOF
	case len(p) == 0:
		return 0, nil
	}
	resp, err := f.fsys.retrieve(f.u, off)
	if err != nil {
		return 0, f.fsys.readError(f.name, err)
	}
	n, err := io.ReadFull(resp, p)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return n, io.EOF // the session went back at the end
	case err != nil:
		resp.Close()
		return n, f.fsys.readError(f.name, err)
	}
	if f.e.Size >= 0 && off+int64(n) >= f.e.Size {
		// p reaches the end: read it, and the session goes back
		// without ABOR.
		var b [1]byte
		if m, err := resp.Read(b[:]); m == 0 && err == io.EOF {
			return n, nil
		}
	}
	resp.cut()
	return n, nil
}

// Close ends a transfer under way (ABOR) and the file.
func (f *file) Close() error {
	if f.closed {
		return &fs.PathError{Op: "close", Path: f.name, Err: fs.ErrClosed}
	}
	f.closed = true
	if f.resp != nil {
		f.resp.cut()
		f.resp = nil
	}
	return nil
}

// retrieve opens u from off on the FS's Client.
func (f *FS) retrieve(u *ftpurl.URL, off int64) (*Response, error) {
	cfg := f.cfg
	cfg.offset = off
	r, err := newRequestFor(u, cfg)
	if err != nil {
		return nil, err
	}
	return f.c.open(f.ctx, r)
}

// readError is the *fs.PathError of a file's read: the file was
// listed, so a 550 is a refusal (fs.ErrPermission), not its absence.
func (f *FS) readError(name string, err error) error {
	var e *Error
	if errors.As(err, &e) && (e.Code == 550 || e.Code == 530) {
		err = &fsError{kind: fs.ErrPermission, err: err}
	}
	return &fs.PathError{Op: "read", Path: name, Err: err}
}

// A dirFile is an open directory of an FS (fs.ReadDirFile), listed on
// the first ReadDir.
type dirFile struct {
	fsys    *FS
	name    string
	e       Entry
	entries []fs.DirEntry
	listed  bool
	closed  bool
}

func (d *dirFile) Stat() (fs.FileInfo, error) {
	if d.closed {
		return nil, &fs.PathError{Op: "stat", Path: d.name, Err: fs.ErrClosed}
	}
	return d.e.Info(), nil
}

// Read fails: a directory is read with ReadDir.
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.name, Err: errIsDir}
}

// ReadDir returns the directory's next n entries, sorted by name, as
// fs.ReadDirFile says: with n > 0, at most n and io.EOF at the end;
// with n <= 0, all that are left, and a nil error.
func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.closed {
		return nil, &fs.PathError{Op: "readdir", Path: d.name, Err: fs.ErrClosed}
	}
	if !d.listed {
		entries, err := d.fsys.ReadDir(d.name)
		d.entries, d.listed = entries, true
		if err != nil {
			// What was read, with the error, as os.File.ReadDir.
			out := d.entries
			if n > 0 {
				out = d.entries[:min(n, len(d.entries))]
			}
			d.entries = d.entries[len(out):]
			return out, err
		}
	}
	if n <= 0 {
		rest := d.entries
		d.entries = nil
		return rest, nil
	}
	if len(d.entries) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.entries))
	out := d.entries[:n:n]
	d.entries = d.entries[n:]
	return out, nil
}

func (d *dirFile) Close() error {
	if d.closed {
		return &fs.PathError{Op: "close", Path: d.name, Err: fs.ErrClosed}
	}
	d.closed = true
	return nil
}

// DirEntry returns e as an fs.DirEntry: Name, IsDir and Type are e's,
// and Info returns e.Info().
func (e Entry) DirEntry() fs.DirEntry { return dirEntry{e} }

type dirEntry struct{ e Entry }

func (d dirEntry) Name() string               { return d.e.Name }
func (d dirEntry) IsDir() bool                { return d.e.Mode.IsDir() }
func (d dirEntry) Type() fs.FileMode          { return d.e.Mode.Type() }
func (d dirEntry) Info() (fs.FileInfo, error) { return d.e.Info(), nil }
func (d dirEntry) String() string             { return fs.FormatDirEntry(d) }

var _ interface {
	fs.ReadDirFS
	fs.StatFS
	fs.ReadFileFS
	fs.SubFS
} = (*FS)(nil)

var (
	_ io.Seeker      = (*file)(nil)
	_ io.ReaderAt    = (*file)(nil)
	_ fs.ReadDirFile = (*dirFile)(nil)
)
