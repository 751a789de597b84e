package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ftpurl/ftpurl"
)

// A piece of a -get template: literal text, or a part of the URL.
type piece struct {
	lit  string
	part func(*ftpurl.URL) string // nil for literal text
}

// parts are the names a -get template may use, in the order the usage
// text and the error for an unknown name list them. Every part prints
// ASCII without a password: user, path, dirs and name are escaped as
// String writes them, so that "{dirs}/{name}" keeps a "%2F" apart from
// the "/" between directories.
var parts = []struct {
	name string
	get  func(*ftpurl.URL) string
}{
	{"url", func(u *ftpurl.URL) string { return u.Redacted() }},
	{"scheme", func(u *ftpurl.URL) string { return u.Scheme }},
	{"user", func(u *ftpurl.URL) string {
		if u.User == nil {
			return ""
		}
		return escapeUser(u.User.Username())
	}},
	{"password", func(u *ftpurl.URL) string {
		if _, ok := u.User.Password(); ok {
			return redacted
		}
		return ""
	}},
	{"host", func(u *ftpurl.URL) string { return u.Host }},
	{"port", func(u *ftpurl.URL) string { return strconv.Itoa(int(u.PortOrDefault())) }},
	{"address", func(u *ftpurl.URL) string { return u.Address() }},
	{"path", escapedPath},
	{"dirs", func(u *ftpurl.URL) string {
		dirs := make([]string, len(u.Dirs))
		for i, d := range u.Dirs {
			dirs[i] = escapeSegment(d)
		}
		return strings.Join(dirs, "/")
	}},
	{"name", func(u *ftpurl.URL) string { return escapeSegment(u.Name) }},
	{"type", func(u *ftpurl.URL) string { return u.Type.String() }},
	{"query", func(u *ftpurl.URL) string { return u.RawQuery }},
	{"fragment", func(u *ftpurl.URL) string { return u.Fragment }},
}

// knownNames lists the template names for error messages.
func knownNames() string {
	names := make([]string, len(parts))
	for i, p := range parts {
		names[i] = "{" + p.name + "}"
	}
	return strings.Join(names, " ")
}

// compileTemplate splits a -get template into pieces. "{name}" is a
// part, "{{" a literal "{"; any other text, a lone "}" included, is
// literal. An unknown name or an unclosed "{" is an error that lists the
// known names.
func compileTemplate(t string) ([]piece, error) {
	pieces := []piece{}
	var lit strings.Builder
	for i := 0; i < len(t); {
		if t[i] != '{' {
			j := strings.IndexByte(t[i:], '{')
			if j < 0 {
				j = len(t) - i
			}
			lit.WriteString(t[i : i+j])
			i += j
			continue
		}
		if strings.HasPrefix(t[i:], "{{") {
			lit.WriteByte('{')
			i += 2
			continue
		}
		j := strings.IndexByte(t[i:], '}')
		if j < 0 {
			return nil, fmt.Errorf("-get: %q has a %q without a closing %q (write {{ for a literal {); known names: %s",
				t, "{", "}", knownNames())
		}
		name := t[i+1 : i+j]
		get := lookupPart(name)
		if get == nil {
			return nil, fmt.Errorf("-get: unknown name {%s}; known names: %s", name, knownNames())
		}
		if lit.Len() > 0 {
			pieces = append(pieces, piece{lit: lit.String()})
			lit.Reset()
		}
		pieces = append(pieces, piece{part: get})
		i += j + 1
	}
	if lit.Len() > 0 {
		pieces = append(pieces, piece{lit: lit.String()})
	}
	return pieces, nil
}

func lookupPart(name string) func(*ftpurl.URL) string {
	for _, p := range parts {
		if p.name == name {
			return p.get
		}
	}
	return nil
}

// template prints u through the -get template.
func (p *printer) template(u *ftpurl.URL) {
	for _, pc := range p.cfg.get {
		if pc.part == nil {
			p.out.WriteString(pc.lit)
		} else {
			p.out.WriteString(pc.part(u))
		}
	}
	p.out.WriteByte('\n')
}

// escapeUser returns a user name escaped as String writes it (the 2011
// draft §3.1 usp-char: so ":" and "@" are escaped). A URL with only User
// set is written "ftp://" + the escaped name + "@/".
func escapeUser(name string) string {
	s := ftpurl.URL{User: ftpurl.User(name)}.String()
	return strings.TrimSuffix(strings.TrimPrefix(s, "ftp://"), "@/")
}

// escapeSegment returns a path segment escaped as String writes it (the
// 2011 draft §3.1 pchar-nsc: so "/" is "%2F" and ";" is "%3B"). A URL
// with only Name set is written "ftp:///" + the escaped name, and the
// zero URL, Name "", is written "".
func escapeSegment(seg string) string {
	return strings.TrimPrefix(ftpurl.URL{Name: seg}.String(), "ftp:///")
}

// escapedPath returns u's path as String writes it, without the
// typecode: "/", then each directory and "/", then the name.
func escapedPath(u *ftpurl.URL) string {
	var b strings.Builder
	b.WriteByte('/')
	for _, d := range u.Dirs {
		b.WriteString(escapeSegment(d))
		b.WriteByte('/')
	}
	b.WriteString(escapeSegment(u.Name))
	return b.String()
}
