package fetch

import (
	"context"
	"errors"
	"strings"

	"github.com/ftpurl/ftpurl"
)

// Quote: one command of the caller's, as curl's -Q (--quote) sends it,
// on a session of the Client (issue 33).

// Quote sends line, one FTP command of the caller's ("DELE old.txt",
// "SITE CHMOD 644 f"), on a logged-in session of the server rawURL
// names, and returns the code and text of the server's final reply
// (RFC 959 §4.2; the lines of a multi-line reply joined with "\n"). The
// URL gives the server and the login, as for [Client.Open]; its path is
// not entered: a new session sends line in the login directory (where
// curl sends -Q's commands, after PWD), a reused one goes back there
// first unless the session is there.
//
// A reply of 400 or more is an *[Error] of Op "quote" whose Command is
// line, with the code and text. A line that holds CR, LF or NUL (RFC
// 959 §4.1.3: a command is one line) or is empty fails before
// connecting, with an *Error of Op "quote" and Code 0. Once line went
// out it is never sent again, whatever happens to the session; the
// session is kept for the next call, but where it stands (its
// directory, its TYPE) is forgotten, since line may have changed it.
// A line of a command that opens a data connection (RETR, LIST) is the
// caller's error: its 1xx reply is no final one, and Quote fails with
// the session closed.
func (c *Client) Quote(ctx context.Context, rawURL, line string, opts ...Option) (code int, text string, err error) {
	r, err := parseRequest(rawURL, opts)
	if err != nil {
		return 0, "", err
	}
	switch {
	case strings.TrimSpace(line) == "":
		return 0, "", &Error{Op: "quote", URL: r.redacted, Err: errors.New("an empty command")}
	case strings.ContainsAny(line, "\r\n\x00"):
		return 0, "", &Error{Op: "quote", URL: r.redacted, Command: clip(line), Err: errors.New("the command holds CR, LF or NUL (RFC 959 §4.1.3: a command is one line)")}
	}
	ctx, cancel := r.withTimeout(ctx)
	defer cancel()
	x := c.newExchange(ctx, r)
	err = x.run(func() error {
		if _, e := x.goHome(&ftpurl.Plan{}); e != nil {
			return e
		}
		x.sent = true
		rep, e := x.cmd("quote", 0, line)
		// The command may have moved the session or changed its TYPE.
		x.s.cwdKnown, x.s.typ = false, 0
		if e != nil {
			return e
		}
		code, text = rep.code, rep.text
		if rep.code >= 400 {
			return x.fail("quote", line, rep.err())
		}
		return nil
	})
	return code, text, err
}

// Quote sends line on a session of [DefaultClient]; see [Client.Quote].
func Quote(ctx context.Context, rawURL, line string, opts ...Option) (code int, text string, err error) {
	return DefaultClient.Quote(ctx, rawURL, line, opts...)
}
