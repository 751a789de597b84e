package main

// One URL's run: its options, its login, -Q's commands around it, and
// --retry's tries of it.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// exitQuote is curl's CURLE_QUOTE_ERROR: a -Q command refused.
const exitQuote = 21

// get runs the URL's transfer, with its retries; it returns the exit
// status.
func (g *getter) get() int {
	o := g.o
	g.start = time.Now()
	u, err := ftpurl.Parse(g.t.url)
	if err != nil {
		return g.fail(err, false)
	}
	g.u = u
	if o.listOnly && o.upload == "" && (u.Type == 0 || u.Type == 'd') {
		// -l: the names of the URL's directory (NLST, RFC 959 §4.1.3),
		// as ;type=d asks (RFC 1738 §3.2.2); a URL that names a file
		// lists its directory, as curl 7.88 does (its ftp.c lists
		// whenever list_only is set).
		u.Name, u.Type = "", 'd'
		g.t.url = u.String()
	}
	if o.upload == "" {
		if g.name, err = g.outputName(); err != nil {
			g.printf("%v", err)
			return exitWrite
		}
	}
	if g.client, err = g.command.client(u); err != nil {
		return g.fail(err, false)
	}
	g.opts = []fetch.Option{fetch.WithMethod(o.method), fetch.WithTimeout(o.timeout)}
	g.opts = append(g.opts, o.segmentOptions.fetchOptions()...)
	if o.connectTimeout > 0 {
		g.opts = append(g.opts, fetch.WithDialTimeout(o.connectTimeout))
	}
	if o.tls {
		g.opts = append(g.opts, fetch.WithTLS())
	}
	if o.absolute {
		g.opts = append(g.opts, fetch.WithAbsolutePaths())
	}
	if o.verbose || o.writeOut != "" {
		g.opts = append(g.opts, fetch.WithTrace(g.trace()))
	}
	if err := g.setLogin(); err != nil {
		g.printf("%v", err)
		return exitUsage
	}
	if g.password != nil {
		g.opts = append(g.opts, fetch.WithPassword(*g.password))
	} else if u.User != nil {
		g.mu.Lock()
		pw, ok := g.passwords[u.User.Username()+"@"+u.Address()]
		g.mu.Unlock()
		if ok {
			g.opts = append(g.opts, fetch.WithPassword(pw))
		}
	}
	if gw := g.gateway(); gw != nil {
		return g.viaGateway(gw)
	}
	if o.mirror.up {
		return g.deploy()
	}
	if o.mirror.on() {
		return g.mirror()
	}
	g.exit = g.retry(g.once)
	if o.writeOut != "" {
		g.writeOut(o.writeOut)
	}
	return g.exit
}

// once runs the transfer once: the -Q commands before it, the
// transfer, and the -Q -CMD commands after it when it worked.
func (g *getter) once() int {
	o := g.o
	if code := g.quote(o.quoteBefore); code != exitOK {
		return code
	}
	var code int
	switch {
	case o.upload != "":
		code = g.upload()
	case o.head:
		code = g.head()
	default:
		code = g.fetch()
	}
	if code != exitOK {
		return code
	}
	return g.quote(o.quoteAfter)
}

// quote sends -Q's commands, in order (curl(1), "--quote"); a refusal
// fails the run with exit 21 (CURLE_QUOTE_ERROR), unless the command
// began with "*".
func (g *getter) quote(cmds []string) int {
	for _, cmd := range cmds {
		line := cmd
		optional := line[0] == '*'
		if optional {
			line = line[1:]
		}
		err := g.login(func(opts []fetch.Option) error {
			_, _, err := g.client.Quote(context.Background(), g.t.url, line, opts...)
			return err
		})
		var fe *fetch.Error
		switch {
		case err == nil:
		case optional && errors.As(err, &fe) && fe.Op == "quote" && fe.Code != 0:
		case errors.As(err, &fe) && fe.Op == "quote" && fe.Code != 0:
			g.lastErr = err
			g.printf("the server refused -Q's command %q (%s)", line, dialog(fe))
			return exitQuote
		default:
			return g.fail(err, false)
		}
	}
	return exitOK
}

// retry runs try, and again on a transient failure, as --retry asks
// (curl(1), "--retry": "a timeout, an FTP 4xx response code"): never
// after a 5xx (a missing file is missing the next time too), nor once
// bytes went to standard output, which cannot be taken back, nor for an
// upload of standard input (-T -), which cannot be read again. The wait
// is --retry-delay, else 1 second doubled each time up to 10 minutes;
// no try begins after --retry-max-time.
func (g *getter) retry(try func() int) int {
	start := time.Now()
	delay := time.Second
	for left := g.o.retries; ; left-- {
		g.lastErr, g.got, g.total = nil, 0, -1
		code := try()
		if code == exitOK || left <= 0 || !transient(g.lastErr) || g.wroteStdout || g.o.upload == "-" {
			// Standard input, once read, cannot be sent again.
			return code
		}
		wait := delay
		if g.o.retryDelay > 0 {
			wait = g.o.retryDelay
		}
		if m := g.o.retryMaxTime; m > 0 && time.Since(start)+wait > m {
			return code
		}
		g.notef("a transient failure: trying again in %v, %d %s left", wait, left, plural(left, "try", "tries"))
		time.Sleep(wait)
		delay = min(delay*2, 10*time.Minute)
	}
}

// transient reports whether err is one that --retry tries again: a
// timeout, or a 4xx reply (RFC 959 §4.2: "Transient Negative
// Completion reply"; 421 too).
func transient(err error) bool {
	if err == nil {
		return false
	}
	var fe *fetch.Error
	var t interface{ Timeout() bool }
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &t) && t.Timeout():
		return true
	case errors.As(err, &fe):
		return fe.Code >= 400 && fe.Code < 500
	}
	return false
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// dialog is the dialog part of a message: "COMMAND: CODE TEXT", or the
// cause where the server gave no reply.
func dialog(fe *fetch.Error) string {
	cause := fmt.Sprint(fe.Err)
	if fe.Code != 0 {
		cause = fmt.Sprintf("%d %s", fe.Code, fe.Msg)
	}
	if fe.Command == "" {
		return cause
	}
	return fe.Command + ": " + cause
}
