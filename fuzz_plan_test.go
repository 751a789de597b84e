package ftpurl

import (
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// FuzzPlan checks, for every input that parses in the grammar its
// second argument picks, with every Method and with and without
// WithAbsolutePaths:
//   - Plan succeeds, or refuses with ErrPath (Op "plan", Offset -1) a
//     LIST or NLST argument that begins with "-" (DESIGN.md "Login and
//     Plan");
//   - no line of Commands holds CR, LF or NUL (RFC 959 §4.1.3), and every
//     line is a CWD, TYPE, RETR, LIST or NLST line;
//   - with MultiCWD, each CWD argument equals the decoded segment it came
//     from, found by a reference split of the raw input on "/" (2011
//     draft §3.2.3 (1): null segments send nothing), after "CWD /" with
//     WithAbsolutePaths unless the first segment is "~" (1997 draft
//     §3.1); Name is the decoded last segment without its typecode;
//   - SingleCWD sends at most one CWD, NoCWD none, and the Action follows
//     the typecode (§3.2.3 (4a)-(4d)).
//
// Login never returns a user or password with CR, LF or NUL.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		"ftp://example.com:49557/%2Fsomedir/seconddir;type=d",
		"ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
		"ftp://user1:invalid-pass@example.net:4916/;type=d",
		"ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
		"ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u",
		"ftp://ĉat.example.com/weather/☃/snow.txt",
		"ftp://%C4%A5ost.example.com/music/%F0%9D%84%A0/clef.pdf",
		"ftp://myname@host.dom//etc/motd",
		"ftp://host/~/foo/bar.html",
		"ftp://h/a/%2Fetc/motd",
		"ftp://h/-R/;type=d",
		"ftp://h/%2D-help",
		"ftp://[2001:db8::1]:2121/a%2F/b/",
		"ftp://foo:bar%0d%0aINJECTED@example.net/file.png",
		"ftp://h/a%00b",
		"FTP://H/A;TYPE=I",
		"ftp://h/dir?x/y;type=i",
	} {
		for g := range 4 {
			f.Add(s, uint8(g))
		}
	}
	f.Fuzz(func(t *testing.T, raw string, gb uint8) {
		g := Grammar(gb % 4)
		u, err := parseNoPanic(t, g, raw)
		if err != nil {
			return
		}
		if user, pass, _ := u.Login(); hasLineBreak(user) || hasLineBreak(pass) {
			t.Fatalf("%v %q: Login = %q, %q", g, raw, user, pass)
		}
		dirs, name, err := planReferenceSplit(g, raw)
		if err != nil {
			t.Fatalf("%v %q: Parse accepted an escape that net/url refuses: %v", g, raw, err)
		}
		for _, m := range []Method{MultiCWD, SingleCWD, NoCWD} {
			for _, abs := range []bool{false, true} {
				checkPlan(t, g, raw, u, dirs, name, m, abs)
			}
		}
	})
}

// parseNoPanic is g.Parse, with a panic (which the brief forbids on any
// input) reported as this input's failure rather than ending the test
// binary.
func parseNoPanic(t *testing.T, g Grammar, raw string) (u *URL, err error) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%v.Parse(%q) panicked: %v", g, raw, r)
		}
	}()
	return g.Parse(raw)
}

func checkPlan(t *testing.T, g Grammar, raw string, u *URL, dirs []string, name string, m Method, abs bool) {
	t.Helper()
	p, err := u.Plan(planOpts(m, abs)...)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) || e.Err != ErrPath || e.Op != "plan" || e.Offset != -1 {
			t.Fatalf("%v %q %v abs=%v: Plan: %v", g, raw, m, abs, err)
		}
		// Never for RETR of a file (4c).
		if sendsType(u.Type) && u.Name != "" {
			t.Fatalf("%v %q %v abs=%v: Retrieve refused: %v", g, raw, m, abs, err)
		}
		// The refused argument: Name, or for NoCWD the joined path,
		// which begins with the last element that begins with "/", or
		// else with the first element.
		arg := u.Name
		if m == NoCWD {
			var elems []string
			rest := dirs
			if abs && len(dirs) > 0 && dirs[0] == "~" {
				rest = dirs[1:]
			} else if abs {
				elems = append(elems, "/")
			}
			for _, d := range append(rest[:len(rest):len(rest)], name) {
				if d != "" {
					elems = append(elems, d)
				}
			}
			arg = ""
			for _, e := range elems {
				if arg == "" || e[0] == '/' {
					arg = e
				}
			}
		}
		if !strings.HasPrefix(arg, "-") {
			t.Fatalf("%v %q %v abs=%v: ErrPath, but %q does not begin with \"-\": %v", g, raw, m, abs, arg, err)
		}
		return
	}
	lines := p.Commands()
	if lines == nil {
		t.Fatalf("%v %q %v abs=%v: Commands = nil", g, raw, m, abs)
	}
	cwds := 0
	for _, l := range lines {
		if strings.ContainsAny(l, "\r\n\x00") {
			t.Fatalf("%v %q %v abs=%v: line %q holds CR, LF or NUL", g, raw, m, abs, l)
		}
		switch verb, _, _ := strings.Cut(l, " "); verb {
		case "CWD":
			cwds++
		case "TYPE", "RETR", "LIST", "NLST":
		default:
			t.Fatalf("%v %q %v abs=%v: unexpected line %q", g, raw, m, abs, l)
		}
	}

	// The Action follows the typecode (2011 draft §3.2.3 (4a)-(4d)).
	var want Action
	switch typ := u.Type; {
	case typ == TypeDirectory:
		want = NameList
	case u.Name == "":
		want = List
	case sendsType(typ):
		want = Retrieve
	default:
		want = RetrieveOrList
	}
	if p.Action != want {
		t.Fatalf("%v %q: Action %v, want %v", g, raw, p.Action, want)
	}

	switch m {
	case MultiCWD:
		var wantDirs []string
		rest := dirs
		if abs {
			if len(dirs) > 0 && dirs[0] == "~" {
				rest = dirs[1:]
			} else {
				wantDirs = append(wantDirs, "/")
			}
		}
		for _, d := range rest {
			if d != "" {
				wantDirs = append(wantDirs, d)
			}
		}
		if !slices.Equal(p.Dirs, wantDirs) {
			t.Fatalf("%v %q abs=%v: CWD arguments %q, want the decoded segments %q", g, raw, abs, p.Dirs, wantDirs)
		}
		for i, d := range wantDirs {
			if lines[i] != "CWD "+d {
				t.Fatalf("%v %q abs=%v: line %d is %q, want %q", g, raw, abs, i, lines[i], "CWD "+d)
			}
		}
		if p.Name != name {
			t.Fatalf("%v %q abs=%v: Name %q, want the decoded last segment %q", g, raw, abs, p.Name, name)
		}
	case SingleCWD:
		if cwds > 1 {
			t.Fatalf("%v %q abs=%v: SingleCWD sent %d CWD lines: %q", g, raw, abs, cwds, lines)
		}
		if p.Name != name {
			t.Fatalf("%v %q abs=%v: Name %q, want %q", g, raw, abs, p.Name, name)
		}
	case NoCWD:
		if cwds != 0 {
			t.Fatalf("%v %q abs=%v: NoCWD sent CWD: %q", g, raw, abs, lines)
		}
		if !strings.HasSuffix(p.Name, name) {
			t.Fatalf("%v %q abs=%v: NoCWD argument %q does not end with the name %q", g, raw, abs, p.Name, name)
		}
	}
}

// planReferenceSplit is a slow, obviously correct reading of an input that
// g.Parse accepted: the path runs from the first "/", "?" or "#" after
// "//" (RFC 3986 §3.2; "?" is path data in RFC 1738) to the first "#"
// or "?"; it is split on raw "/" only, each segment decoded on its own
// (RFC 1738 §3.2.2), and a final ";type=X" (any case) is taken off the
// last one (2011 draft §3.1).
func planReferenceSplit(g Grammar, raw string) (dirs []string, name string, err error) {
	ends := "/?#"
	pathEnds := "?#"
	if g == RFC1738 {
		ends, pathEnds = "/#", "#"
	}
	rest := raw[len("ftp://"):]
	i := strings.IndexAny(rest, ends)
	if i < 0 {
		return nil, "", nil
	}
	path := rest[i:]
	if j := strings.IndexAny(path, pathEnds); j >= 0 {
		path = path[:j]
	}
	if path == "" {
		return nil, "", nil
	}
	segs := strings.Split(path[1:], "/")
	last := segs[len(segs)-1]
	for k := len(last) - len(";type="); k >= 0; k-- {
		if strings.EqualFold(last[k:k+len(";type=")], ";type=") {
			last = last[:k]
			break
		}
	}
	for _, s := range segs[:len(segs)-1] {
		d, err := url.PathUnescape(s)
		if err != nil {
			return nil, "", err
		}
		dirs = append(dirs, d)
	}
	name, err = url.PathUnescape(last)
	return dirs, name, err
}
