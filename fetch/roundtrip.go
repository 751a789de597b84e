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
// [http.RoundTripper] to register on an *http.Transport:
//
//	t := http.DefaultTransport.(*http.Transport).Clone()
//	t.RegisterProtocol("ftp", fetch.DefaultClient)
//	t.RegisterProtocol("ftps", fetch.DefaultClient)
//	resp, err := (&http.Client{Transport: t}).Get("ftp://ftp.example.org/pub/README")
//
// The URL goes through [ftpurl.FromURL]; for a user without a password, a
// Basic Authorization header for that user with a non-empty password gives
// one. req.Context() bounds the whole fetch, reading the body included.
//
//   - GET runs [Client.Open]: 200, the Body the *Response, Content-Length
//     from Response.Size in TYPE I, Content-Type from the name's extension
//     ([mime.TypeByExtension]), else "text/plain" for ";type=a", else
//     "application/octet-stream"; no Last-Modified. A listing is
//     "text/plain; charset=utf-8", the server's lines each ended by "\n".
//   - HEAD runs [Client.Stat]: GET's Content-Type, Last-Modified when the
//     server gives it, and Content-Length for a file GET fetches in TYPE I.
//   - PUT runs [Client.Put] with the request's body: 201 Created, with an
//     empty body (Content-Length: 0). A body that does not hold the
//     request's ContentLength (when it is above 0) fails the Put as a
//     reader that fails does. A refusal of STOR, APPE, RNTO or MKD with
//     550, 553 or 532 is 403; other errors are answered as for GET.
//   - Any other method is 405 with "Allow: GET, HEAD, PUT" (RFC 9110
//     §15.5.6).
//
// "Range: bytes=N-" (RFC 9110 §14.2) without If-Range runs Open
// [WithOffset](N): 206 with "Content-Range: bytes N-L/S" (§14.4), or 416
// with "bytes */S" when N is at or past the size S. Anything else is 200
// with the whole file: an unknown size, a refused REST (fetched again from
// byte 0), ";type=a", another Range, If-Range, a listing.
//
// [ErrNotFound] is 404, [ErrPasswordRequired] 401 with "WWW-Authenticate:
// Basic", a 530 reply 403 and any other reply 502, each with a text/plain
// body holding the *[Error]'s message. What gave no reply (a URL that does
// not parse or plan, the network, a timeout, the context's end) is
// RoundTrip's error, with a nil response. Proto is "HTTP/1.0", as for
// [http.NewFileTransport]. More: docs/http.md in the repository.
func (c *Client) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		// A RoundTripper closes the request body, even on errors.
		defer req.Body.Close()
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
	case http.MethodPut:
		return c.roundTripPut(req, u, rawURL)
	}
	resp := textResponse(req, http.StatusMethodNotAllowed, "fetch: an ftp URL answers GET, HEAD and PUT, not "+req.Method+"\n")
	resp.Header.Set("Allow", "GET, HEAD, PUT")
	return resp, nil
}

// roundTripPut runs Put with the request's body: 201 Created, or the
// error's response. A body that ends before or goes past the request's
// ContentLength fails the Put, as a reader that fails does.
func (c *Client) roundTripPut(req *http.Request, u *ftpurl.URL, rawURL string) (*http.Response, error) {
	body := io.Reader(http.NoBody)
	if req.Body != nil {
		body = req.Body
	}
	if req.ContentLength > 0 {
		body = &exactReader{r: io.LimitReader(body, req.ContentLength+1), left: req.ContentLength}
	}
	_, err := c.Put(req.Context(), rawURL, body, loginOptions(req, u)...)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && (e.Op == "stor" || e.Op == "appe" || e.Op == "rename" || e.Op == "mkd") && (e.Code == 550 || e.Code == 553 || e.Code == 532) {
			resp := textResponse(req, http.StatusForbidden, err.Error()+"\n")
			return resp, nil
		}
		return errorResponse(req, err)
	}
	resp := newResponse(req, http.StatusCreated)
	resp.Body = http.NoBody
	resp.ContentLength = 0
	resp.Header.Set("Content-Length", "0")
	return resp, nil
}

// exactReader fails when r ends before left bytes, or holds more.
type exactReader struct {
	r    io.Reader
	left int64
}

var errBodyLength = errors.New("the request body does not hold ContentLength bytes")

func (e *exactReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.left -= int64(n)
	switch {
	case e.left < 0:
		return 0, errBodyLength
	case err == io.EOF && e.left > 0:
		return n, errBodyLength
	}
	return n, err
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
