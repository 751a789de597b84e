package main

// Messages in words first, the dialog after (DESIGN, "The command, as
// familiar as curl"): "ftp://h/f: the file does not exist (RETR f: 550
// No such file)", not a log of every command tried.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/ftpurl/ftpurl/fetch"
)

// describe is the message of err: for a *fetch.Error, the URL, what
// went wrong in words, and the command and reply that show it; any
// other error as its own text says it. reading tells a failure of the
// transfer from one of Open.
func (g *getter) describe(err error, reading bool) string {
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		return err.Error()
	}
	var words string
	d := dialog(fe)
	switch {
	case errors.Is(err, fetch.ErrNotFound) && fe.Retr() != nil:
		// RETR refused, and the name is no directory either.
		words, d = "the file does not exist", dialog(fe.Retr())
	case errors.Is(err, fetch.ErrNotFound) && fe.Op == "cwd":
		words = "a directory of the URL does not exist"
	case errors.Is(err, fetch.ErrNotFound):
		words = "the name does not exist on the server"
	case fe.Op == "cwd" && fe.Code >= 500:
		words = "the server refused to enter a directory of the URL"
	case fe.Op == "login" && fe.Code == 530 && strings.HasPrefix(fe.Command, "PASS"):
		words = "the server refused the password"
	case fe.Op == "login" && fe.Code == 530:
		words = "the server refused the user"
	case fe.Timeout() || errors.Is(err, context.DeadlineExceeded):
		words = g.timeoutWords(fe)
	case fe.Op == "dial" && fe.Code == 0:
		words = "no connection to the server"
	case fe.Op == "dial":
		words = "the server turned the connection away"
	case reading && errors.Is(err, io.ErrUnexpectedEOF):
		words = "the transfer ended before the file did"
		d = err.Error()
	case fe.Op == "retr" && fe.Code >= 400 && reading:
		words = "the server ended the transfer with an error"
	case (fe.Op == "stor" || fe.Op == "appe") && fe.Code != 0:
		words = "the server refused the upload"
	case fe.Op == "mkd" && fe.Code != 0:
		words = "the server refused to make a directory"
	case fe.Op == "tls":
		words = "TLS could not be set up"
	case reading && isRecvError(err):
		words = "the transfer was cut"
	default:
		return err.Error()
	}
	if n := noteOf(fe); n != "" {
		d += "; " + n
	}
	return fmt.Sprintf("%s: %s (%s)", fe.URL, words, d)
}

// noteOf is what fetch says the reply means, where it can tell ("the
// name is a file, not a directory"): the parenthesis that ends the
// *fetch.Error's message after the reply, or "".
func noteOf(fe *fetch.Error) string {
	if fe.Code == 0 {
		return ""
	}
	msg := fe.Error()
	cause := fmt.Sprintf("%d %s (", fe.Code, fe.Msg)
	i := strings.LastIndex(msg, cause)
	if i < 0 || !strings.HasSuffix(msg, ")") {
		return ""
	}
	return msg[i+len(cause) : len(msg)-1]
}

// timeoutWords says which limit a timeout met, and how many bytes of
// how many had arrived: -m (or --timeout) for the whole transfer,
// --connect-timeout for a connection, else the server's silence.
func (g *getter) timeoutWords(fe *fetch.Error) string {
	o := g.o
	var limit string
	switch {
	case errors.Is(fe, context.DeadlineExceeded) && o.timeout > 0:
		flag := o.timeoutFlag
		if flag == "" {
			flag = "-m"
		}
		limit = fmt.Sprintf("the transfer took longer than %s %v", flag, o.timeout)
	case fe.Op == "dial" && o.connectTimeout > 0:
		return fmt.Sprintf("no connection within --connect-timeout %v", o.connectTimeout)
	default:
		limit = "the server stopped answering (nothing for the stall timeout)"
	}
	switch {
	case g.total >= 0 && g.got > 0 || g.total > 0:
		return fmt.Sprintf("%s: %d of %d bytes arrived", limit, g.got, g.total)
	case g.got > 0:
		return fmt.Sprintf("%s: %d bytes arrived", limit, g.got)
	}
	return limit + ", before the transfer began"
}
