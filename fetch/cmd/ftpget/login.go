package main

// The login: the password asked on the terminal, -u, .netrc.

import (
	"errors"
	"fmt"
	"io"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
	"golang.org/x/term"
)

// login runs try with the options; when the URL has a user and no
// password (fetch.ErrPasswordRequired, before connecting), it asks for
// the password on the terminal, as RFC 1738 §3.2.1 says a client
// should, and runs try once more.
func (g *getter) login(try func(opts []fetch.Option) error) error {
	err := try(g.opts)
	if !errors.Is(err, fetch.ErrPasswordRequired) {
		return err
	}
	pw, err := g.askPassword()
	if err != nil {
		return &promptError{err}
	}
	g.mu.Lock()
	g.passwords[g.u.User.Username()+"@"+g.u.Address()] = pw
	g.mu.Unlock()
	g.opts = append(g.opts, fetch.WithPassword(pw))
	return try(g.opts)
}

// A promptError is a password that could not be asked for: a usage
// error.
type promptError struct{ err error }

func (e *promptError) Error() string { return e.err.Error() }

var errNoTerminal = errors.New("no terminal to ask for the password on: give it with --password-file")

// askPassword reads the password from the terminal without echo.
func (g *getter) askPassword() (string, error) {
	if g.tty == nil || !term.IsTerminal(int(g.tty.Fd())) {
		return "", fmt.Errorf("the URL names the user %q without a password, and there is %w", g.u.User.Username(), errNoTerminal)
	}
	prompt := fmt.Sprintf("Password for %s@%s: ", g.u.User.Username(), g.u.Address())
	if _, err := io.WriteString(g.tty, prompt); err != nil {
		io.WriteString(g.stderr, prompt)
	}
	pw, err := term.ReadPassword(int(g.tty.Fd()))
	io.WriteString(g.tty, "\n")
	if err != nil {
		return "", fmt.Errorf("reading the password: %w", err)
	}
	return string(pw), nil
}

// setLogin applies -u and .netrc to the URL: the user goes into g.u
// (and g.t.url), the password into the options. -u wins over the URL
// and .netrc (curl's order); with -n, --netrc-optional or --netrc-file,
// a URL without a password takes the entry of its host (and of its
// user, when it names one). Without any of them, a URL without a user
// logs in anonymously, and ftpget says so once when ~/.netrc has an
// entry for the host, which curl would not read either. It returns an
// error for a .netrc that cannot be read.
func (g *getter) setLogin() error {
	o, u := g.o, g.u
	setUser := func(name string) {
		u.User = ftpurl.User(name)
		g.t.url = u.String()
	}
	if o.userSet {
		setUser(o.user)
		if o.userHasPw {
			g.opts = append(g.opts, fetch.WithPassword(o.userPass))
		}
		return nil
	}
	if u.User != nil {
		if _, has := u.User.Password(); has {
			return nil
		}
	}
	file := o.netrcFile
	if file == "" {
		file = defaultNetrc()
	}
	if file == "" {
		return nil
	}
	if o.netrc == netrcOff {
		if u.User == nil && !o.silent {
			if _, ok, _ := lookupNetrc(file, u.Host, ""); ok {
				g.noteOnce("netrc", "logging in to %s anonymously: %s has an entry for it, which ftpget reads only with -n (--netrc), as curl does", u.Host, file)
			}
		}
		return nil
	}
	user := ""
	if u.User != nil {
		user = u.User.Username()
	}
	entry, ok, err := lookupNetrc(file, u.Host, user)
	if err != nil {
		return &netrcReadError{err}
	}
	if !ok {
		return nil
	}
	if netrcReadableByOthers(file) && !o.silent {
		g.noteOnce("netrc-mode", "warning: %s may be read by other users, and it holds passwords (chmod 600 it)", file)
	}
	if entry.login != "" && u.User == nil {
		setUser(entry.login)
	}
	if entry.hasPassword && u.User != nil {
		g.opts = append(g.opts, fetch.WithPassword(entry.password))
	}
	return nil
}

// A netrcReadError is a .netrc that could not be read or parsed: a
// usage error (exit 2), since nothing was tried.
type netrcReadError struct{ err error }

func (e *netrcReadError) Error() string { return "netrc: " + e.err.Error() }
func (e *netrcReadError) Unwrap() error { return e.err }
