package main

// .netrc, as curl reads it (curl(1), "--netrc"; curl's lib/netrc.c):
// the login of a host from ~/.netrc, or from --netrc-file.
//
// The file is words apart by spaces, tabs and line ends; a word may be
// quoted ("a b", with \" \\ \n \r \t inside). "machine NAME" begins the
// entry of the host NAME (compared without case, without the port);
// "default" begins the entry of every host, and is taken only when no
// machine entry is; "login NAME" and "password WORD" are its login;
// "macdef NAME" begins a macro, skipped to the next empty line; a line
// whose first word begins with "#" is a comment. The first entry that
// matches is taken. A URL that names a user takes that user's entry, or
// none (curl 7.88 then takes another entry's password: not here). A
// login or password holding CR, LF or NUL is refused: it would end a
// command (RFC 959 §4.1.3).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// netrcMode is what the flags ask of .netrc.
type netrcMode int

const (
	netrcOff      netrcMode = iota // no flag: .netrc is not read
	netrcOptional                  // --netrc-optional, --netrc-file
	netrcRequired                  // -n, --netrc
)

// netrcIf is mode when on, else netrcOff (--no-netrc).
func netrcIf(on bool, mode netrcMode) netrcMode {
	if on {
		return mode
	}
	return netrcOff
}

// A netrcLogin is an entry's login.
type netrcLogin struct {
	login, password string
	hasPassword     bool
}

// A netrcError is a .netrc that cannot be read as curl reads it: the
// file and the line, and what is wrong there.
type netrcError struct {
	file string
	line int
	msg  string
}

func (e *netrcError) Error() string {
	return fmt.Sprintf("%s:%d: %s", e.file, e.line, e.msg)
}

// defaultNetrc is ~/.netrc, or "" when there is no home directory.
func defaultNetrc() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".netrc")
}

// lookupNetrc reads the .netrc file name and returns the login of host
// for user ("": any), and whether an entry matched. A missing file is
// no entry and no error, as curl has it.
func lookupNetrc(name, host, user string) (netrcLogin, bool, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return netrcLogin{}, false, nil
	}
	if err != nil {
		return netrcLogin{}, false, err
	}
	return parseNetrc(name, string(b), host, user)
}

// parseNetrc is lookupNetrc of text, the content of the file name.
func parseNetrc(name, text, host, user string) (netrcLogin, bool, error) {
	toks, err := tokenizeNetrc(name, text)
	if err != nil {
		return netrcLogin{}, false, err
	}
	type entry struct {
		netrcLogin
		isDefault bool
	}
	var entries []*entry // host's and the default ones, in order
	var cur *entry       // the entry being read, when it is one of them
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		value := func() (string, error) {
			if i+1 >= len(toks) {
				return "", &netrcError{name, t.line, fmt.Sprintf("%q at the end of the file, without its value", t.word)}
			}
			i++
			v := toks[i]
			if strings.ContainsAny(v.word, "\r\n\x00") {
				return "", &netrcError{name, v.line, fmt.Sprintf("the %s holds CR, LF or NUL, which would end the FTP command (RFC 959 §4.1.3)", t.word)}
			}
			return v.word, nil
		}
		switch t.word {
		case "machine":
			h, err := value()
			if err != nil {
				return netrcLogin{}, false, err
			}
			cur = nil
			if strings.EqualFold(h, host) {
				cur = &entry{}
				entries = append(entries, cur)
			}
		case "default":
			cur = &entry{isDefault: true}
			entries = append(entries, cur)
		case "login", "password", "account", "macdef":
			v, err := value()
			if err != nil {
				return netrcLogin{}, false, err
			}
			switch {
			case t.word == "macdef":
				// The macro's lines, to the first empty line.
				for i+1 < len(toks) && !toks[i+1].afterBlank {
					i++
				}
			case cur == nil:
			case t.word == "login":
				cur.login = v
			case t.word == "password":
				cur.password, cur.hasPassword = v, true
			}
		}
	}
	for _, isDefault := range []bool{false, true} {
		for _, e := range entries {
			if e.isDefault == isDefault && (user == "" || e.login == user) {
				return e.netrcLogin, true, nil
			}
		}
	}
	return netrcLogin{}, false, nil
}

// A netrcToken is one word of a .netrc, with its line, and whether an
// empty line comes before it (which ends a macdef).
type netrcToken struct {
	word       string
	line       int
	afterBlank bool
}

// tokenizeNetrc splits text into its words: quoted ones unquoted, the
// comment lines left out.
func tokenizeNetrc(name, text string) ([]netrcToken, error) {
	var toks []netrcToken
	line, blank, lineStart := 1, false, true
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			if lineStart {
				blank = true
			}
			line++
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#' && lineStart:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			continue
		}
		var b strings.Builder
		if c == '"' {
			i++
			closed := false
			for i < len(text) {
				c := text[i]
				i++
				if c == '"' {
					closed = true
					break
				}
				if c == '\\' && i < len(text) {
					switch e := text[i]; e {
					case 'n':
						c = '\n'
					case 'r':
						c = '\r'
					case 't':
						c = '\t'
					default:
						c = e
					}
					i++
				} else if c == '\n' {
					line++
				}
				b.WriteByte(c)
			}
			if !closed {
				return nil, &netrcError{name, line, "a quoted word that does not end"}
			}
		} else {
			for i < len(text) && !strings.ContainsRune(" \t\r\n", rune(text[i])) {
				b.WriteByte(text[i])
				i++
			}
		}
		toks = append(toks, netrcToken{word: b.String(), line: line, afterBlank: blank})
		blank, lineStart = false, false
	}
	return toks, nil
}

// netrcReadableByOthers reports whether the file name may be read by
// other users (its group or the world): curl's warning, since it holds
// passwords.
func netrcReadableByOthers(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.Mode().Perm()&0o044 != 0
}
