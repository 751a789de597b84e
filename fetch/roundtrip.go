package fetch

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/ftpurl/ftpurl"
)

// RoundTrip fetches the ftp or ftps URL of req, so that a Client is an
// [http.RoundTripper]: registered on an *http.Transport for "ftp" and
// "ftps", it lets an http.Client, and everything built on one, fetch
// ftp URLs.
//
//	t := http.DefaultTransport.(*http.Transport).Clone()
//	t.RegisterProtocol("ftp", fetch.DefaultClient)
//	t.RegisterProtocol("ftps", fetch.DefaultClient)
//	resp, err := (&http.Client{Transport: t}).Get("ftp://ftp.example.org/pub/README")
//
// The URL goes through [ftpurl.FromURL], which keeps what net/url keeps
// of it ("%2F" inside a segment, ";type="), and its String is what Open
// or Stat fetch. The login is the URL's userinfo ([ftpurl.URL.Login]);
// for a URL with a user and no password ("ftp://alice@host/f"), a
// Basic Authorization header for the same user with a password that is
// not empty gives the password (as the retry of a 401 does).
// req.Context() bounds the whole fetch, reading the body included.
//
// The methods:
//
//   - GET runs [Client.Open]. A file is 200, its Body the *Response
//     (closing it ends the transfer), with Content-Length from
//     Response.Size when the transfer is in TYPE I and the size is
//     known, and a Content-Type from the name's extension
//     ([mime.TypeByExtension]; else "text/plain" for ";type=a", and
//     "application/octet-stream"). There is no Last-Modified: Open
//     does not learn the time (HEAD does). A listing (LIST, or NLST
//     for ";type=d") is 200, "text/plain; charset=utf-8", the lines as
//     the server sent them ([Response.Lines] or [Response.Names]), each
//     ended by "\n"; the server's bytes are handed through, UTF-8 or
//     not.
//   - HEAD runs [Client.Stat]: 200 with the Content-Type that GET
//     gives, Last-Modified where the server gives the time (MLST or
//     MDTM, RFC 3659), and Content-Length where it gives the size of a
//     file that GET fetches in TYPE I (not for a directory, nor for
//     ";type=a", whose bytes GET counts otherwise).
//   - Any other method is 405 Method Not Allowed, with "Allow: GET,
//     HEAD", without connecting (RFC 9110 §15.5.6): a response, as an
//     HTTP server would give, not an error.
//
// A GET with "Range: bytes=N-" (RFC 9110 §14.2: one range, from byte N
// to the end; the unit in any case) and no If-Range runs Open
// WithOffset(N) (REST N, RFC 3659 §5) and answers 206 Partial Content
// with "Content-Range: bytes N-L/S" (§14.4), S the size and L = S-1,
// and Content-Length S-N. The rest is done as §14.2 lets a server do:
//
//   - N at or past the size (an empty file too) is 416 Range Not
//     Satisfiable with "Content-Range: bytes */S" (§15.5.17).
//   - When the size is unknown a 206 cannot be written (Content-Range
//     needs the last byte's position, §14.4), and when the server
//     refuses REST there is no part to send: the file is fetched again
//     from byte 0 and the answer is 200 with the whole file. So it is
//     for a file that is not in TYPE I (";type=a"), without a second
//     fetch, since an offset there counts other bytes than the file's.
//   - Any other Range (a suffix "bytes=-N", "bytes=N-M", several
//     ranges, another unit), and a Range with If-Range (whose validator
//     RoundTrip cannot check, §13.1.5), is ignored: 200 with the whole
//     file. So is a Range on a listing.
//
// What fails is a response where an HTTP server would answer one:
//
//   - [ErrNotFound] (the URL names nothing, RFC 959's 550) is 404 Not
//     Found;
//   - [ErrPasswordRequired] (a user and no password) is 401
//     Unauthorized, with "WWW-Authenticate: Basic" (RFC 9110 §11.6.1)
//     for the retry;
//   - a reply 530 (the server refuses the login, RFC 959 §4.2) is 403
//     Forbidden;
//   - any other refusal by the server (an [*Error] with a Code) is 502
//     Bad Gateway;
//
// each with a text/plain body that holds the *Error's message (which
// never shows the password). What gave no reply is RoundTrip's error,
// with a nil *http.Response, as http.Transport returns one for a
// connection that fails: a URL that does not parse or plan (the
// *ftpurl.Error), a network failure or timeout, the context's end (an
// *Error with Code 0 that wraps context.Canceled or
// context.DeadlineExceeded). Status is written as net/http writes it
// ("404 Not Found"), and Proto is "HTTP/1.0", as for
// [http.NewFileTransport].
func (c *Client) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		// A RoundTripper closes the request body, even on errors.
		req.Body.Close()
	}
	if req.URL == nil {
		return nil, errors.New("fetch: RoundTrip: the request has no URL")
	}
	u, rawURL, err := requestURL(req.URL)
	if err != nil {
		return nil, err
	}
	switch req.Method {
	case "", http.MethodGet:
		return c.roundTripGet(req, u, rawURL)
	case http.MethodHead:
		return c.roundTripHead(req, u, rawURL)
	}
	resp := textResponse(req, http.StatusMethodNotAllowed, "fetch: an ftp URL answers GET and HEAD, not "+req.Method+"\n")
	resp.Header.Set("Allow", "GET, HEAD")
	return resp, nil
}

// requestURL converts the request's URL for Open: through
// ftpurl.FromURL, back to a string.
func requestURL(v *url.URL) (*ftpurl.URL, string, error) {
	u, err := ftpurl.FromURL(v)
	if err != nil {
		return nil, "", err
	}
	return u, u.String(), nil
}

// loginOptions gives the password of a Basic Authorization header to a
// URL that names its user without one.
func loginOptions(req *http.Request, u *ftpurl.URL) []Option {
	if u.User == nil {
		return nil
	}
	if _, has := u.User.Password(); has {
		return nil
	}
	user, password, ok := req.BasicAuth()
	if !ok || password == "" || user != u.User.Username() {
		return nil
	}
	return []Option{WithPassword(password)}
}

func (c *Client) roundTripGet(req *http.Request, u *ftpurl.URL, rawURL string) (*http.Response, error) {
	ctx := req.Context()
	opts := loginOptions(req, u)
	off, ranged := rangeStart(req.Header)
	if u.Name == "" || u.Type != ftpurl.TypeNone && u.Type != ftpurl.TypeImage {
		ranged = false // a listing, or an offset that would count other bytes than TYPE I's
	}
	var r *Response
	var err error
	if ranged && off > 0 {
		r, err = c.Open(ctx, rawURL, append(opts[:len(opts):len(opts)], WithOffset(off))...)
		var e *Error
		if err != nil && errors.As(err, &e) && e.Code != 0 && e.Code != 530 && !errors.Is(err, ErrNotFound) {
			// The server refused REST, or RETR at that offset: fetch
			// the whole file and let it decide (200, 416 or the error).
			r, err = c.Open(ctx, rawURL, opts...)
			if err == nil && r.Action == ftpurl.Retrieve && (r.Size < 0 || off < r.Size) {
				ranged = false
			}
		} else if err == nil && r.Action == ftpurl.Retrieve && r.Size < 0 {
			// No size: no Content-Range can be written. Start again
			// from byte 0.
			r.Close()
			r, err = c.Open(ctx, rawURL, opts...)
			ranged = false
		}
	} else {
		r, err = c.Open(ctx, rawURL, opts...)
	}
	if err != nil {
		return errorResponse(req, err)
	}

	if r.Action != ftpurl.Retrieve {
		lines := r.Lines
		if r.Action == ftpurl.NameList {
			lines = r.Names
		}
		r.Close()
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		resp := textResponse(req, http.StatusOK, b.String())
		return resp, nil
	}

	size := r.Size
	if r.Plan.Type != ftpurl.TypeImage {
		size = -1 // TYPE A changes the count (RFC 959 §3.1.1.1)
	}
	if ranged && size < 0 {
		ranged = false // only with off == 0: the file is whole
	}
	if ranged && off >= size {
		r.Close()
		resp := textResponse(req, http.StatusRequestedRangeNotSatisfiable, "")
		resp.Header.Set("Content-Range", "bytes */"+strconv.FormatInt(size, 10))
		return resp, nil
	}
	resp := newResponse(req, http.StatusOK)
	resp.Header.Set("Content-Type", contentType(u))
	resp.Body = r
	resp.ContentLength = size
	if ranged {
		resp.StatusCode, resp.Status = http.StatusPartialContent, statusLine(http.StatusPartialContent)
		resp.ContentLength = size - off
		resp.Header.Set("Content-Range", "bytes "+strconv.FormatInt(off, 10)+"-"+strconv.FormatInt(size-1, 10)+"/"+strconv.FormatInt(size, 10))
	}
	if resp.ContentLength >= 0 {
		resp.Header.Set("Content-Length", strconv.FormatInt(resp.ContentLength, 10))
	}
	return resp, nil
}

func (c *Client) roundTripHead(req *http.Request, u *ftpurl.URL, rawURL string) (*http.Response, error) {
	fi, err := c.Stat(req.Context(), rawURL, loginOptions(req, u)...)
	if err != nil {
		return errorResponse(req, err)
	}
	resp := newResponse(req, http.StatusOK)
	resp.Body = http.NoBody
	if fi.IsDir() || u.Type == ftpurl.TypeDirectory {
		resp.Header.Set("Content-Type", "text/plain; charset=utf-8")
	} else {
		resp.Header.Set("Content-Type", contentType(u))
		if (u.Type == ftpurl.TypeNone || u.Type == ftpurl.TypeImage) && fi.Size() >= 0 {
			resp.ContentLength = fi.Size()
			resp.Header.Set("Content-Length", strconv.FormatInt(fi.Size(), 10))
		}
	}
	if t := fi.ModTime(); !t.IsZero() {
		resp.Header.Set("Last-Modified", t.UTC().Format(http.TimeFormat))
	}
	return resp, nil
}

// rangeStart reads a Range header of the one form RoundTrip serves,
// "bytes=N-" (RFC 9110 §14.2), without If-Range.
func rangeStart(h http.Header) (int64, bool) {
	vs := h.Values("Range")
	if len(vs) != 1 || h.Get("If-Range") != "" {
		return 0, false
	}
	unit, spec, ok := strings.Cut(strings.TrimSpace(vs[0]), "=")
	if !ok || !strings.EqualFold(unit, "bytes") {
		return 0, false
	}
	first, ok := strings.CutSuffix(strings.TrimSpace(spec), "-")
	if !ok || first == "" || strings.Trim(first, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}

// contentType is the media type of the file u names: by its
// extension, else by its typecode.
func contentType(u *ftpurl.URL) string {
	if t := mime.TypeByExtension(path.Ext(u.Name)); t != "" {
		return t
	}
	if u.Type == ftpurl.TypeASCII {
		return "text/plain"
	}
	return "application/octet-stream"
}

// errorResponse answers an Open or Stat that failed: a response for a
// refusal, RoundTrip's error for the rest.
func errorResponse(req *http.Request, err error) (*http.Response, error) {
	var e *Error
	code := 0
	switch {
	case errors.Is(err, ErrPasswordRequired):
		code = http.StatusUnauthorized
	case errors.Is(err, ErrNotFound):
		code = http.StatusNotFound
	case errors.As(err, &e) && e.Code == 530:
		code = http.StatusForbidden
	case errors.As(err, &e) && e.Code != 0:
		code = http.StatusBadGateway
	default:
		return nil, err
	}
	resp := textResponse(req, code, err.Error()+"\n")
	if code == http.StatusUnauthorized {
		resp.Header.Set("WWW-Authenticate", `Basic realm="`+strings.ReplaceAll(req.URL.Host, `"`, "")+`"`)
	}
	return resp, nil
}

func statusLine(code int) string {
	return strconv.Itoa(code) + " " + http.StatusText(code)
}

func newResponse(req *http.Request, code int) *http.Response {
	return &http.Response{
		Status:        statusLine(code),
		StatusCode:    code,
		Proto:         "HTTP/1.0",
		ProtoMajor:    1,
		Header:        make(http.Header),
		ContentLength: -1,
		Request:       req,
	}
}

// textResponse is a response whose body is text, "text/plain;
// charset=utf-8"; for HEAD the body is empty and Content-Length says
// the text's.
func textResponse(req *http.Request, code int, text string) *http.Response {
	resp := newResponse(req, code)
	resp.ContentLength = int64(len(text))
	resp.Header.Set("Content-Length", strconv.Itoa(len(text)))
	resp.Header.Set("Content-Type", "text/plain; charset=utf-8")
	if req.Method == http.MethodHead {
		resp.Body = http.NoBody
	} else {
		resp.Body = io.NopCloser(strings.NewReader(text))
	}
	return resp
}
