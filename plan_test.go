package ftpurl

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// planOpts returns the options for method m, with WithAbsolutePaths when
// abs is set.
func planOpts(m Method, abs bool) []PlanOption {
	opts := []PlanOption{WithMethod(m)}
	if abs {
		opts = append(opts, WithAbsolutePaths())
	}
	return opts
}

// mustPlan parses raw and returns its plan's commands, failing the test
// on any error.
func mustPlan(t *testing.T, raw string, opts ...PlanOption) *Plan {
	t.Helper()
	u, err := Parse(raw)
	if err != nil {
		t.Fatalf("Parse(%q): %v", raw, err)
	}
	p, err := u.Plan(opts...)
	if err != nil {
		t.Fatalf("Parse(%q).Plan: %v", raw, err)
	}
	return p
}

// wantPlanError checks that err is the *Error that Plan returns for u:
// Op "plan", URL u.Redacted(), Offset -1, and Err exactly sentinel
// (Error's doc: one sentinel; Plan's doc: Offset -1).
func wantPlanError(t *testing.T, u *URL, err, sentinel error) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Plan(%#v) = %v, want an *Error with %v", u, err, sentinel)
	}
	if e.Err != sentinel || !errors.Is(err, sentinel) {
		t.Errorf("Plan(%#v): Err = %v, want %v", u, e.Err, sentinel)
	}
	if e.Op != "plan" || e.Offset != -1 {
		t.Errorf("Plan(%#v): Op %q Offset %d, want \"plan\" and -1", u, e.Op, e.Offset)
	}
	if want := redactInput(u.Redacted()); e.URL != want {
		t.Errorf("Plan(%#v): URL %q, want %q", u, e.URL, want)
	}
}

// Login's doc, 2011 draft §3.2.2, 1997 draft §2.1,
// RFC 1635 (anonymous FTP).
func TestLoginFollowsTheAnonymousConventionAndTheURLsCredentials(t *testing.T) {
	tests := []struct {
		raw            string
		user, password string
		ok             bool
	}{
		// No userinfo: anonymous FTP (2011 draft §3.2.2, third case).
		{"ftp://example.com/", "anonymous", "anonymous@", true},
		// User and password (first case), also an empty password.
		{"ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd", "fellow", "bad-guy", true},
		{"ftp://foo:@example.com/", "foo", "", true},
		{"ftp://use%3fr:pass%3fword@example.com/191", "use?r", "pass?word", true},
		{"ftp://u:p%3Aq%40r@example.com/", "u", "p:q@r", true},
		// User only (second case): the caller must ask for a password.
		{"ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u", "oh-no", "", false},
		{"ftp://myname@host.dom/%2Fetc/motd", "myname", "", false},
		// The anonymous user names without a password, in any ASCII case.
		{"ftp://anonymous@example.com/", "anonymous", "anonymous@", true},
		{"ftp://ftp@example.com/", "ftp", "anonymous@", true},
		{"ftp://ANONYMOUS@example.com/", "ANONYMOUS", "anonymous@", true},
		{"ftp://Ftp@example.com/", "Ftp", "anonymous@", true},
		// ... and with a password, the URL's password.
		{"ftp://anonymous:me%40example.org@example.com/", "anonymous", "me@example.org", true},
		// Not anonymous: the long s (U+017F) folds to "s" in Unicode only.
		{"ftp://anonymou%C5%BF@example.com/", "anonymouſ", "", false},
		{"ftp://ftps@example.com/", "ftps", "", false},
		// An empty user name means anonymous, with the URL's password.
		{"ftp://@example.com/", "anonymous", "anonymous@", true},
		{"ftp://:secret@example.com/", "anonymous", "secret", true},
		{"ftp://:@example.com/", "anonymous", "", true},
	}
	for _, tt := range tests {
		u, err := Parse(tt.raw)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.raw, err)
		}
		user, password, ok := u.Login()
		if user != tt.user || password != tt.password || ok != tt.ok {
			t.Errorf("Parse(%q).Login() = %q, %q, %v; want %q, %q, %v",
				tt.raw, user, password, ok, tt.user, tt.password, tt.ok)
		}
		// A parsed URL can always send its userinfo: ok false means
		// a password is needed, and only then (NeedsPassword's doc).
		if got := u.NeedsPassword(); got != !tt.ok {
			t.Errorf("Parse(%q).NeedsPassword() = %v, want %v", tt.raw, got, !tt.ok)
		}
	}
}

// Login's doc: a user or password holding CR, LF or NUL
// (only a hand-built URL can) gives "", "", false; RFC 959 §4.1.3.
func TestLoginRefusesLineBreaksInHandBuiltUserinfo(t *testing.T) {
	for _, ui := range []*Userinfo{
		User("foo\r\nDELE x"),
		User("foo\nDELE x"),
		User("foo\rDELE x"),
		User("foo\x00"),
		User("anonymous\r\n"),
		UserPassword("foo", "bar\r\nINJECTED"),
		UserPassword("foo", "bar\x00"),
		UserPassword("", "bar\nINJECTED"),
		UserPassword("\n", "bar"),
	} {
		u := &URL{User: ui, Host: "example.net", Name: "file.png"}
		if user, password, ok := u.Login(); user != "" || password != "" || ok {
			t.Errorf("Login() of user %q = %q, %q, %v; want \"\", \"\", false",
				ui.Username(), user, password, ok)
		}
		// Login's other ok false: no password helps here.
		if u.NeedsPassword() {
			t.Errorf("NeedsPassword() of user %q = true, want false: the userinfo cannot be sent", ui.Username())
		}
	}
	// Other control characters are not line breaks: RFC 959 §5.3.2
	// allows them in a <string>; Parse refuses them, Login does not.
	u := &URL{User: UserPassword("tab\tuser", "p"), Host: "example.net"}
	if user, password, ok := u.Login(); user != "tab\tuser" || password != "p" || !ok {
		t.Errorf("Login() = %q, %q, %v; want the hand-built tab kept", user, password, ok)
	}
	var nilURL *URL
	if user, password, ok := nilURL.Login(); user != "" || password != "" || ok {
		t.Errorf("(*URL)(nil).Login() = %q, %q, %v", user, password, ok)
	}
	if nilURL.NeedsPassword() {
		t.Errorf("(*URL)(nil).NeedsPassword() = true")
	}
}

// 2011 draft §3.2.3 (2) and (4a)-(4d); RFC 1738 §3.2.2 for d;
// URL.Plan's doc: the Action and TYPE of every typecode.
func TestActionAndTypeFollowTheTypecode(t *testing.T) {
	tests := []struct {
		raw    string
		typ    Typecode
		action Action
		name   string
		lines  []string
	}{
		// (4a): a null last segment lists the directory, whatever the
		// typecode; TYPE is the typecode's for a, e, i, u per (2), and
		// otherwise A, since a listing is text (RFC 959 §3.1.1.1).
		{"ftp://h/", 'a', List, "", []string{"TYPE A", "LIST"}},
		{"ftp://h", 'a', List, "", []string{"TYPE A", "LIST"}},
		{"ftp://h/dir/", 'a', List, "", []string{"CWD dir", "TYPE A", "LIST"}},
		{"ftp://h/dir/;type=a", 'a', List, "", []string{"CWD dir", "TYPE A", "LIST"}},
		{"ftp://h/dir/;type=x", 'a', List, "", []string{"CWD dir", "TYPE A", "LIST"}},
		// (4a) with d: NLST of the current directory (4b, "or the
		// current directory, if <last-segment> is null").
		{"ftp://h/dir/;type=d", 'a', NameList, "", []string{"CWD dir", "TYPE A", "NLST"}},
		// (4b)
		{"ftp://h/dir/sub;type=d", 'a', NameList, "sub", []string{"CWD dir", "TYPE A", "NLST sub"}},
		{"ftp://h/sub;TYPE=D", 'a', NameList, "sub", []string{"TYPE A", "NLST sub"}},
		// (4c): TYPE upper-case (RFC 959 §5.3.2: TYPE A, E, I, U).
		{"ftp://h/f;type=a", 'a', Retrieve, "f", []string{"TYPE A", "RETR f"}},
		{"ftp://h/f;type=e", 'e', Retrieve, "f", []string{"TYPE E", "RETR f"}},
		{"ftp://h/f;type=i", 'i', Retrieve, "f", []string{"TYPE I", "RETR f"}},
		{"ftp://h/f;type=u", 'u', Retrieve, "f", []string{"TYPE U", "RETR f"}},
		{"ftp://h/f;Type=I", 'i', Retrieve, "f", []string{"TYPE I", "RETR f"}},
		// (4d): no typecode, or one not defined (§3.2.3.1: ignored);
		// TYPE I, the guess that changes no byte of a file (RFC 1738
		// §3.2.2 leaves the guess to the client).
		{"ftp://h/f", 'i', RetrieveOrList, "f", []string{"TYPE I", "RETR f"}},
		{"ftp://h/f;type=x", 'i', RetrieveOrList, "f", []string{"TYPE I", "RETR f"}},
		{"ftp://h/f;type=Z", 'i', RetrieveOrList, "f", []string{"TYPE I", "RETR f"}},
		// A ";" that is not the final typecode is data in Lenient.
		{"ftp://h/f;x=1", 'i', RetrieveOrList, "f;x=1", []string{"TYPE I", "RETR f;x=1"}},
		{"ftp://h/f;type=a/g", 'i', RetrieveOrList, "g", []string{"CWD f;type=a", "TYPE I", "RETR g"}},
	}
	for _, tt := range tests {
		p := mustPlan(t, tt.raw)
		if p.Type != tt.typ || p.Action != tt.action || p.Name != tt.name {
			t.Errorf("%s: Type %q Action %v Name %q; want %q %v %q",
				tt.raw, p.Type, p.Action, p.Name, tt.typ, tt.action, tt.name)
		}
		if diff := cmp.Diff(tt.lines, p.Commands()); diff != "" {
			t.Errorf("%s: Commands (-want +got):\n%s", tt.raw, diff)
		}
	}
}

// 2011 draft §3.2.3 (1), Note: null <cwd> parts MUST NOT cause sending
// CWD commands.
func TestNullCWDSegmentsSendNoCWD(t *testing.T) {
	for raw, want := range map[string][]string{
		"ftp://h//f;type=i":      {"TYPE I", "RETR f"},
		"ftp://h/a//b/f;type=i":  {"CWD a", "CWD b", "TYPE I", "RETR f"},
		"ftp://h////":            {"TYPE A", "LIST"},
		"ftp://h/a///":           {"CWD a", "TYPE A", "LIST"},
		"ftp://h/%2F/f;type=i":   {"CWD /", "TYPE I", "RETR f"},
		"ftp://h/./../f;type=i":  {"CWD .", "CWD ..", "TYPE I", "RETR f"},
		"ftp://h/a%20b/%20/f":    {"CWD a b", "CWD  ", "TYPE I", "RETR f"},
		"ftp://h/%E9t%E9/x.txt":  {"CWD \xe9t\xe9", "TYPE I", "RETR x.txt"},
		"ftp://h/a%3Bb/c%3Fd%23": {"CWD a;b", "TYPE I", "RETR c?d#"},
	} {
		if diff := cmp.Diff(want, mustPlan(t, raw).Commands()); diff != "" {
			t.Errorf("%s: Commands (-want +got):\n%s", raw, diff)
		}
	}
}

// URL.Plan's doc: SingleCWD and NoCWD join the non-null
// Dirs (and, for NoCWD, Name) with "/", an element beginning with "/"
// discarding what came before; WithAbsolutePaths per the 1997 draft
// §3.1. Each row gives the lines for MultiCWD, SingleCWD and NoCWD,
// relative and absolute.
func TestMethodsAndAbsolutePathsReachTheSameResource(t *testing.T) {
	type lines = []string
	tests := []struct {
		raw                 string
		multi, single, none lines
		absMulti, absSingle lines
		absNone             lines
	}{
		{
			raw:   "ftp://h/a/b/c.txt",
			multi: lines{"CWD a", "CWD b", "TYPE I", "RETR c.txt"}, single: lines{"CWD a/b", "TYPE I", "RETR c.txt"}, none: lines{"TYPE I", "RETR a/b/c.txt"},
			absMulti: lines{"CWD /", "CWD a", "CWD b", "TYPE I", "RETR c.txt"}, absSingle: lines{"CWD /a/b", "TYPE I", "RETR c.txt"}, absNone: lines{"TYPE I", "RETR /a/b/c.txt"},
		},
		{
			// %2F: a directory that begins with "/" drops the CWDs before
			// it in every Method, so /etc/motd is reached even where a
			// does not exist.
			raw:   "ftp://h/a/%2Fetc/motd",
			multi: lines{"CWD /etc", "TYPE I", "RETR motd"}, single: lines{"CWD /etc", "TYPE I", "RETR motd"}, none: lines{"TYPE I", "RETR /etc/motd"},
			absMulti: lines{"CWD /etc", "TYPE I", "RETR motd"}, absSingle: lines{"CWD /etc", "TYPE I", "RETR motd"}, absNone: lines{"TYPE I", "RETR /etc/motd"},
		},
		{
			// A Name that begins with "/" needs no CWD before its RETR.
			raw:   "ftp://h/a/%2Fetc%2Fmotd",
			multi: lines{"TYPE I", "RETR /etc/motd"}, single: lines{"TYPE I", "RETR /etc/motd"}, none: lines{"TYPE I", "RETR /etc/motd"},
			absMulti: lines{"TYPE I", "RETR /etc/motd"}, absSingle: lines{"TYPE I", "RETR /etc/motd"}, absNone: lines{"TYPE I", "RETR /etc/motd"},
		},
		{
			// Null segments are dropped before joining; an element ending
			// in "/" gets no second "/".
			raw:   "ftp://h//a%2F//b/f;type=i",
			multi: lines{"CWD a/", "CWD b", "TYPE I", "RETR f"}, single: lines{"CWD a/b", "TYPE I", "RETR f"}, none: lines{"TYPE I", "RETR a/b/f"},
			absMulti: lines{"CWD /", "CWD a/", "CWD b", "TYPE I", "RETR f"}, absSingle: lines{"CWD /a/b", "TYPE I", "RETR f"}, absNone: lines{"TYPE I", "RETR /a/b/f"},
		},
		{
			// A file at the top: the absolute plans start at the root.
			raw:   "ftp://h/f",
			multi: lines{"TYPE I", "RETR f"}, single: lines{"TYPE I", "RETR f"}, none: lines{"TYPE I", "RETR f"},
			absMulti: lines{"CWD /", "TYPE I", "RETR f"}, absSingle: lines{"CWD /", "TYPE I", "RETR f"}, absNone: lines{"TYPE I", "RETR /f"},
		},
		{
			// Listings: NoCWD puts the directory in LIST / NLST.
			raw:   "ftp://h/pub/linux/",
			multi: lines{"CWD pub", "CWD linux", "TYPE A", "LIST"}, single: lines{"CWD pub/linux", "TYPE A", "LIST"}, none: lines{"TYPE A", "LIST pub/linux"},
			absMulti: lines{"CWD /", "CWD pub", "CWD linux", "TYPE A", "LIST"}, absSingle: lines{"CWD /pub/linux", "TYPE A", "LIST"}, absNone: lines{"TYPE A", "LIST /pub/linux"},
		},
		{
			raw:   "ftp://h/pub/linux;type=d",
			multi: lines{"CWD pub", "TYPE A", "NLST linux"}, single: lines{"CWD pub", "TYPE A", "NLST linux"}, none: lines{"TYPE A", "NLST pub/linux"},
			absMulti: lines{"CWD /", "CWD pub", "TYPE A", "NLST linux"}, absSingle: lines{"CWD /pub", "TYPE A", "NLST linux"}, absNone: lines{"TYPE A", "NLST /pub/linux"},
		},
		{
			raw:   "ftp://h/",
			multi: lines{"TYPE A", "LIST"}, single: lines{"TYPE A", "LIST"}, none: lines{"TYPE A", "LIST"},
			absMulti: lines{"CWD /", "TYPE A", "LIST"}, absSingle: lines{"CWD /", "TYPE A", "LIST"}, absNone: lines{"TYPE A", "LIST /"},
		},
		{
			// 1997 draft §3.1: a first "~" is the login directory.
			raw:   "ftp://h/~/foo/bar.html",
			multi: lines{"CWD ~", "CWD foo", "TYPE I", "RETR bar.html"}, single: lines{"CWD ~/foo", "TYPE I", "RETR bar.html"}, none: lines{"TYPE I", "RETR ~/foo/bar.html"},
			absMulti: lines{"CWD foo", "TYPE I", "RETR bar.html"}, absSingle: lines{"CWD foo", "TYPE I", "RETR bar.html"}, absNone: lines{"TYPE I", "RETR foo/bar.html"},
		},
		{
			raw:   "ftp://user:pass@h/~/",
			multi: lines{"CWD ~", "TYPE A", "LIST"}, single: lines{"CWD ~", "TYPE A", "LIST"}, none: lines{"TYPE A", "LIST ~"},
			absMulti: lines{"TYPE A", "LIST"}, absSingle: lines{"TYPE A", "LIST"}, absNone: lines{"TYPE A", "LIST"},
		},
		{
			// Only a first "~" is special; "%7E" decodes to it. A later
			// "~" that an argument begins with is sent as "./~" (URL.Plan's
			// doc: the "./~" rule); a joined argument that begins with
			// the first segment keeps it.
			raw:   "ftp://h/%7E/a/~/f;type=a",
			multi: lines{"CWD ~", "CWD a", "CWD ./~", "TYPE A", "RETR f"}, single: lines{"CWD ~/a/~", "TYPE A", "RETR f"}, none: lines{"TYPE A", "RETR ~/a/~/f"},
			absMulti: lines{"CWD a", "CWD ./~", "TYPE A", "RETR f"}, absSingle: lines{"CWD a/~", "TYPE A", "RETR f"}, absNone: lines{"TYPE A", "RETR a/~/f"},
		},
		{
			// A null first segment is not "~": the path stays absolute,
			// and the "~" after it is not the first segment, so it is
			// sent as "./~" wherever an argument begins with it.
			raw:   "ftp://h//~/f;type=i",
			multi: lines{"CWD ./~", "TYPE I", "RETR f"}, single: lines{"CWD ./~", "TYPE I", "RETR f"}, none: lines{"TYPE I", "RETR ./~/f"},
			absMulti: lines{"CWD /", "CWD ./~", "TYPE I", "RETR f"}, absSingle: lines{"CWD /~", "TYPE I", "RETR f"}, absNone: lines{"TYPE I", "RETR /~/f"},
		},
	}
	for _, tt := range tests {
		u, err := Parse(tt.raw)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.raw, err)
		}
		for _, c := range []struct {
			m    Method
			abs  bool
			want []string
		}{
			{MultiCWD, false, tt.multi}, {SingleCWD, false, tt.single}, {NoCWD, false, tt.none},
			{MultiCWD, true, tt.absMulti}, {SingleCWD, true, tt.absSingle}, {NoCWD, true, tt.absNone},
		} {
			p, err := u.Plan(planOpts(c.m, c.abs)...)
			if err != nil {
				t.Errorf("%s %v abs=%v: %v", tt.raw, c.m, c.abs, err)
				continue
			}
			if diff := cmp.Diff(c.want, p.Commands()); diff != "" {
				t.Errorf("%s %v abs=%v: Commands (-want +got):\n%s", tt.raw, c.m, c.abs, diff)
			}
		}
	}
}

// URL.Plan's doc: MultiCWD is the default, and a nil
// option is ignored; the last WithMethod wins.
func TestPlanDefaultsToMultiCWDRelative(t *testing.T) {
	u := MustParse("ftp://h/a/b/f;type=i")
	want := []string{"CWD a", "CWD b", "TYPE I", "RETR f"}
	for _, opts := range [][]PlanOption{nil, {nil}, {WithMethod(NoCWD), WithMethod(MultiCWD)}} {
		p, err := u.Plan(opts...)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, p.Commands()); diff != "" {
			t.Errorf("Plan(%d options): (-want +got):\n%s", len(opts), diff)
		}
	}
}

// The Plan's Dirs are its own: changing them does not change the URL.
func TestPlanDirsDoNotAliasTheURL(t *testing.T) {
	u := MustParse("ftp://h/a/b/f")
	p, err := u.Plan()
	if err != nil {
		t.Fatal(err)
	}
	p.Dirs[0] = "changed"
	if u.Dirs[0] != "a" {
		t.Errorf("u.Dirs[0] = %q after changing the plan", u.Dirs[0])
	}
}

// 2011 draft §3.2.1: HOST takes the <host>; §6.3.1: in A-labels; the
// Plan's Host keeps IPv6 in brackets (URL.Plan's doc).
func TestPlanHostIsTheHOSTArgument(t *testing.T) {
	for raw, want := range map[string]string{
		"ftp://example.com:49557/":             "example.com",
		"ftp://EXAMPLE.com/":                   "example.com",
		"ftp://203.0.113.42/":                  "203.0.113.42",
		"ftp://[2001:DB8::0:1]:2121/":          "[2001:db8::1]",
		"ftp://[::ffff:192.0.2.1]/":            "[::ffff:192.0.2.1]",
		"ftp://ĉat.example.com/":               "xn--at-0la.example.com",
		"ftp://%C4%A5ost.example.com/":         "xn--ost-4sa.example.com",
		"ftp://xn--ost-4sa.example.com/":       "xn--ost-4sa.example.com",
		"ftp://mirror.example.org./pub/":       "mirror.example.org.",
		"ftp://user:pass@ftp.example.net/pub/": "ftp.example.net",
	} {
		if got := mustPlan(t, raw).Host; got != want {
			t.Errorf("Parse(%q).Plan().Host = %q, want %q", raw, got, want)
		}
	}
	// A host set by hand is normalized as Parse would do it.
	for host, want := range map[string]string{
		"Example.COM":      "example.com",
		"::1":              "[::1]",
		"[2001:db8:0::1]":  "[2001:db8::1]",
		"bücher.example":   "xn--bcher-kva.example",
		"192.0.2.1":        "192.0.2.1",
		"XN--BCHER-KVA.ex": "xn--bcher-kva.ex",
	} {
		p, err := (&URL{Host: host}).Plan()
		if err != nil {
			t.Errorf("Plan of host %q: %v", host, err)
			continue
		}
		if p.Host != want {
			t.Errorf("Plan of host %q: Host %q, want %q", host, p.Host, want)
		}
	}
}

// Plan's doc: a hand-built URL that Parse would refuse for its host or
// typecode is refused, not guessed at (URL.Plan's doc: refused "as
// Parse would refuse it").
func TestPlanRefusesHandBuiltURLsThatParseWouldRefuse(t *testing.T) {
	tests := []struct {
		u    *URL
		want error
	}{
		{&URL{}, ErrHost},
		{&URL{Name: "f"}, ErrHost},
		{&URL{Host: "exa mple.com"}, ErrHost},
		{&URL{Host: "a..b"}, ErrHost},
		{&URL{Host: "host.123"}, ErrHost},
		{&URL{Host: "010.1.1.1"}, ErrHost},
		{&URL{Host: "fe80::1%eth0"}, ErrHost},
		{&URL{Host: "1:2"}, ErrHost},
		{&URL{Host: "h", Name: "f", Type: '1'}, ErrTypecode},
		{&URL{Host: "h", Name: "f", Type: ';'}, ErrTypecode},
		{&URL{Host: "h", Name: "f", Type: 0xE9}, ErrTypecode},
	}
	for _, tt := range tests {
		_, err := tt.u.Plan()
		wantPlanError(t, tt.u, err, tt.want)
	}
	// A Type in upper case is a letter: it is lowered, as String does.
	p, err := (&URL{Host: "h", Name: "f", Type: 'A'}).Plan()
	if err != nil || p.Type != TypeASCII || p.Action != Retrieve {
		t.Errorf("Plan with Type 'A' = %+v, %v; want Type a, Retrieve", p, err)
	}
}

// A nil *URL and a Method other than the three are programming errors,
// not faults of a URL: the *Error wraps none of the sentinels, so no
// errors.Is(err, ErrX) check mistakes them for a bad URL.
func TestPlanProgrammingErrorsWrapNoSentinel(t *testing.T) {
	u := MustParse("ftp://h/a/f")
	check := func(what string, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Op != "plan" || e.Offset != -1 {
			t.Fatalf("%s: error %#v, want an *Error with Op plan and Offset -1", what, err)
		}
		for _, s := range []error{ErrScheme, ErrUserinfo, ErrHost, ErrPort, ErrEscape, ErrPath, ErrTypecode, ErrControl} {
			if errors.Is(err, s) {
				t.Errorf("%s: %v wraps %v", what, err, s)
			}
		}
	}
	for _, m := range []Method{-1, 3, 100} {
		_, err := u.Plan(WithMethod(m))
		check(m.String(), err)
		if want := `ftpurl: plan "ftp://h/a/f": invalid argument: unknown ` + m.String() + `: want MultiCWD, SingleCWD or NoCWD`; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	}
	var nilURL *URL
	_, err := nilURL.Plan()
	check("nil", err)
}

// 2011 draft §3.2.3 (4a), (4b): Plan refuses with ErrPath a LIST or
// NLST argument beginning with "-", which vsftpd and Pure-FTPd read as
// options of ls. RETR and CWD are not ls: their arguments may begin
// with "-", and the RetrieveOrList Fallback lists with CWD and a bare
// LIST, so a name beginning with "-" is retrieved or listed safely.
func TestPlanRefusesDashLedListingArguments(t *testing.T) {
	refused := []struct {
		raw  string
		opts []PlanOption
	}{
		{"ftp://h/-la;type=d", nil},
		{"ftp://h/dir/-R;type=d", nil},
		{"ftp://h/dir/-R;type=d", planOpts(SingleCWD, false)},
		{"ftp://h/-R/", planOpts(NoCWD, false)},
		{"ftp://h/-R/;type=d", planOpts(NoCWD, false)},
	}
	for _, tt := range refused {
		u := MustParse(tt.raw)
		p, err := u.Plan(tt.opts...)
		if err == nil {
			t.Errorf("%s: Plan = %q, want ErrPath", tt.raw, p.Commands())
			continue
		}
		wantPlanError(t, u, err, ErrPath)
	}
	accepted := []struct {
		raw   string
		opts  []PlanOption
		lines []string
	}{
		// A CWD or RETR argument is not read as options.
		{"ftp://h/-R/", nil, []string{"CWD -R", "TYPE A", "LIST"}},
		{"ftp://h/-x", nil, []string{"TYPE I", "RETR -x"}},
		{"ftp://h/-x;type=q", nil, []string{"TYPE I", "RETR -x"}},
		{"ftp://h/~/-x", planOpts(NoCWD, true), []string{"TYPE I", "RETR -x"}},
		{"ftp://h/%2D-help", nil, []string{"TYPE I", "RETR --help"}},
		{"ftp://h/-R/;type=d", planOpts(SingleCWD, false), []string{"CWD -R", "TYPE A", "NLST"}},
		{"ftp://h/-x;type=i", nil, []string{"TYPE I", "RETR -x"}},
		// A path before the "-" makes it harmless.
		{"ftp://h/-x", planOpts(NoCWD, true), []string{"TYPE I", "RETR /-x"}},
		{"ftp://h/dir/-x;type=d", planOpts(NoCWD, false), []string{"TYPE A", "NLST dir/-x"}},
		{"ftp://h/a-b;type=d", nil, []string{"TYPE A", "NLST a-b"}},
	}
	for _, tt := range accepted {
		p := mustPlan(t, tt.raw, tt.opts...)
		if diff := cmp.Diff(tt.lines, p.Commands()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.raw, diff)
		}
		if p.Fallback != nil {
			if got, want := p.Fallback.Commands(), []string{"CWD " + p.Name, "TYPE A", "LIST"}; !slices.Equal(got, want) {
				t.Errorf("%s: Fallback %q, want %q", tt.raw, got, want)
			}
		}
	}
}

// The 2011 draft's dialogs, as the seed shows them: every "C> " line
// after the URL, verbatim, in order.
type draftDialog struct {
	section string
	seedURL string // the URL as the seed writes it, between "<" and ">"
	url     string // the URL as Parse takes it
	client  []string
	// What the dialog shows of the login: the URL's user, and its
	// password when the URL has one (later USER/PASS lines are
	// credentials the user typed after a 530).
	loginOK bool
	action  Action
}

// The readings compared: data-connection and FEAT lines dropped; TYPE
// in upper case (RFC 959 §5.3.2); for (4d) only the RETR attempt; a
// listing line (MLSD, LIST, NLST) is compared with our listing line by
// its argument; the draft's "<e2.98.83>" octet notation is decoded, and
// the line that §4.1's second example shows without its verb is the CWD
// it lost. It returns HOST's argument, the first USER and PASS
// arguments, and the lines from CWD onward.
func readDraftDialog(client []string) (host, user, pass string, lines []string) {
	octets := regexp.MustCompile(`<([0-9a-f]{2}(?:\.[0-9a-f]{2})*)>`)
	hasRETR := false
	for _, l := range client {
		if strings.HasPrefix(l, "RETR ") {
			hasRETR = true
		}
	}
	sawUser, sawPass := false, false
	for _, l := range client {
		l = octets.ReplaceAllStringFunc(l, func(m string) string {
			b, _ := hex.DecodeString(strings.ReplaceAll(m[1:len(m)-1], ".", ""))
			return string(b)
		})
		verb, arg, _ := strings.Cut(l, " ")
		switch verb {
		case "HOST":
			host = arg
		case "USER":
			if !sawUser {
				user, sawUser = arg, true
			}
		case "PASS":
			if !sawPass {
				pass, sawPass = arg, true
			}
		case "PASV", "PORT", "EPSV", "EPRT", "FEAT":
		case "TYPE":
			lines = append(lines, "TYPE "+strings.ToUpper(arg))
		case "MLSD", "LIST", "NLST":
			if !hasRETR {
				lines = append(lines, listingLine(arg))
			}
		case "CWD", "RETR":
			lines = append(lines, l)
		default:
			lines = append(lines, "CWD "+l) // §4.1: the lost CWD
		}
	}
	return host, user, pass, lines
}

// withoutType drops the TYPE lines.
func withoutType(lines []string) []string {
	return slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return strings.HasPrefix(l, "TYPE ") })
}

// listingLine is how a listing is compared: by its argument only.
func listingLine(arg string) string { return "<listing> " + arg }

// readOurLines puts our listing line in listingLine's form.
func readOurLines(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		verb, arg, _ := strings.Cut(l, " ")
		if verb == "LIST" || verb == "NLST" {
			l = listingLine(arg)
		}
		out[i] = l
	}
	return out
}

var draft2011Dialogs = []draftDialog{
	{
		section: "§4 first example", loginOK: true, action: NameList,
		seedURL: "ftp://example.com:49557/%2Fsomedir/seconddir;type=d",
		url:     "ftp://example.com:49557/%2Fsomedir/seconddir;type=d",
		client: []string{
			"HOST example.com", "USER anonymous", "PASS bad-guy@example.com",
			"CWD /somedir", "PASV", "NLST seconddir",
		},
	},
	{
		section: "§4 second example", loginOK: true, action: RetrieveOrList,
		seedURL: "ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
		url:     "ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd?some=thing",
		client: []string{
			"HOST 203.0.113.42", "USER fellow", "PASS bad-guy",
			"CWD /etc", "PASV", "LIST motd", "RETR motd",
		},
	},
	{
		section: "§4 third example", loginOK: true, action: NameList,
		seedURL: "ftp://user1:invalid-pass@example.net:4916/;type=d",
		url:     "ftp://user1:invalid-pass@example.net:4916/;type=d",
		client: []string{
			"HOST example.net", "USER user1", "PASS invalid-pass",
			"USER right-user", "PASS right-pass", "FEAT", "PASV", "MLSD",
		},
	},
	{
		section: "§4 fourth example", loginOK: true, action: Retrieve,
		seedURL: "ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
		url:     "ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
		client: []string{
			"HOST example.org", "USER anonymous",
			"CWD ?foo", "CWD #bar", "TYPE a", "PORT 198,51,100,2,65,123", "RETR file.txt",
		},
	},
	{
		section: "§4 fifth example", loginOK: false, action: Retrieve,
		seedURL: "ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u",
		url:     "ftp://oh-no@example.org:7634/foo//bar/foobar/bad-file.doc;type=u",
		client: []string{
			"HOST example.org", "USER oh-no", "PASS some-pass",
			"USER cool-man", "PASS cool-pass",
			"CWD foo", "CWD bar", "CWD foobar", "TYPE u", "PORT 192,0,2,14,64,695", "RETR bad-file.doc",
		},
	},
	{
		section: "§4.1 first example", loginOK: true, action: RetrieveOrList,
		seedURL: "ftp://&#x0109;at.example.com/weather/&#x2603;/snow.txt",
		url:     "ftp://ĉat.example.com/weather/☃/snow.txt",
		client: []string{
			"HOST xn--at-0la.example.com", "USER anonymous", "PASS foo@example.org", "FEAT",
			"CWD weather", "CWD <e2.98.83>", "PORT 198,51,100,20,49,562", "RETR snow.txt",
		},
	},
	{
		section: "§4.1 second example", loginOK: true, action: RetrieveOrList,
		seedURL: "ftp://%C4%A5ost.example.com/music/%F0%9D%84%A0/clef.pdf",
		url:     "ftp://%C4%A5ost.example.com/music/%F0%9D%84%A0/clef.pdf",
		client: []string{
			"HOST xn--ost-4sa.example.com", "USER anonymous", "FEAT",
			"CWD music", "<f0.9d.84.a0>", "PASV", "RETR clef.pdf",
		},
	},
}

// Every FTP dialog of the 2011 draft's §4 and §4.1, from CWD onward,
// after the readings of readDraftDialog; also HOST (§3.2.1), USER and,
// when the URL has one, PASS (§3.2.2).
func TestDraft2011DialogsFromCWDOnward(t *testing.T) {
	for _, d := range draft2011Dialogs {
		u, err := Parse(d.url)
		if err != nil {
			t.Fatalf("%s: Parse(%q): %v", d.section, d.url, err)
		}
		p, err := u.Plan()
		if err != nil {
			t.Fatalf("%s: Plan: %v", d.section, err)
		}
		host, user, pass, want := readDraftDialog(d.client)
		ours := readOurLines(p.Commands())
		// TYPE is the typecode's letter (§3.2.3 (2)), compared where
		// the URL has one. Without one the dialogs guess (§4's second
		// example TYPE A before RETR, its third none before MLSD);
		// Plan's guess is TYPE I before RETR and TYPE A before a
		// listing, which changes no byte (RFC 1738 §3.2.2), a named
		// difference.
		if !sendsType(u.Type) {
			want, ours = withoutType(want), withoutType(ours)
			wantType := TypeImage
			if p.Action == List || p.Action == NameList {
				wantType = TypeASCII
			}
			if p.Type != wantType {
				t.Errorf("%s: Type %q without a typecode, want %q", d.section, p.Type, wantType)
			}
		}
		if diff := cmp.Diff(want, ours); diff != "" {
			t.Errorf("%s %s: lines from CWD onward (-draft +ours):\n%s", d.section, d.url, diff)
		}
		if p.Action != d.action {
			t.Errorf("%s: Action %v, want %v", d.section, p.Action, d.action)
		}
		if p.Host != host {
			t.Errorf("%s: Host %q, want HOST %q", d.section, p.Host, host)
		}
		gotUser, gotPass, ok := u.Login()
		if gotUser != user || ok != d.loginOK {
			t.Errorf("%s: Login() = %q, _, %v; want USER %q, ok %v", d.section, gotUser, ok, user, d.loginOK)
		}
		if _, has := u.User.Password(); has && gotPass != pass {
			t.Errorf("%s: Login() password %q, want PASS %q", d.section, gotPass, pass)
		}
	}
}

// The listing verbs: the first example's NLST (4b) is ours exactly; the
// third example's MLSD (4a with d) is our NLST (RFC 1738 §3.2.2).
func TestDraft2011ListingLinesAreNLSTForTypecodeD(t *testing.T) {
	for raw, want := range map[string][]string{
		draft2011Dialogs[0].url: {"CWD /somedir", "TYPE A", "NLST seconddir"},
		draft2011Dialogs[2].url: {"TYPE A", "NLST"},
	} {
		if diff := cmp.Diff(want, mustPlan(t, raw).Commands()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", raw, diff)
		}
	}
}

// 2011 draft §4, after the second example: "Such URI is different from
// one with <ftp-path> equal to "/etc/motd" or "//etc/motd", since both
// such URI will result in sending "CWD etc" instead of <CWD /etc>."
func TestDraft2011EtcMotdIsNotSlashEtc(t *testing.T) {
	for _, raw := range []string{"ftp://203.0.113.42/etc/motd", "ftp://203.0.113.42//etc/motd"} {
		if diff := cmp.Diff([]string{"CWD etc", "TYPE I", "RETR motd"}, mustPlan(t, raw).Commands()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", raw, diff)
		}
	}
}

// The dialogs above are the 2011 draft's, verbatim: each "C> " line
// after the URL, up to the next URL or section (testdata holds the
// draft's text).
func TestDraft2011DialogsAreTheSeeds(t *testing.T) {
	seed, err := os.ReadFile("testdata/draft-yevstifeyev-ftp-uri-scheme-06.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := string(seed)
	start := strings.Index(text, "\n4. Examples\n")
	if start < 0 {
		t.Fatal(`no "4. Examples" section in the seed`)
	}
	clientLine := regexp.MustCompile(`^\s+C> (.*)$`)
	for _, d := range draft2011Dialogs {
		i := strings.Index(text[start:], "<"+d.seedURL+">")
		if i < 0 {
			t.Errorf("%s: <%s> not in the seed", d.section, d.seedURL)
			continue
		}
		var got []string
		for _, line := range strings.Split(text[start+i+len(d.seedURL)+2:], "\n") {
			if strings.Contains(line, "<ftp://") || line != "" && line[0] >= '0' && line[0] <= '9' {
				break
			}
			if m := clientLine.FindStringSubmatch(line); m != nil {
				got = append(got, m[1])
			}
		}
		if diff := cmp.Diff(d.client, got); diff != "" {
			t.Errorf("%s: C> lines (-ours +seed):\n%s", d.section, diff)
		}
	}
}

// The 1997 draft §2.5's three examples, from CWD onward. The third one
// is a named difference (URL.Plan's doc): the 1997 draft
// sends "CWD " with a null argument for the null segment; ftpurl
// follows the 2011 draft §3.2.3 (1), Note, and sends nothing.
func TestDraft1997Section25Dialogs(t *testing.T) {
	tests := []struct {
		url   string
		draft []string // the commands the 1997 draft §2.5 names
		ours  []string
	}{
		{"ftp://myname@host.dom/%2Fetc/motd", []string{"CWD /etc", "RETR motd"}, nil},
		{"ftp://myname@host.dom/etc/motd", []string{"CWD etc", "RETR motd"}, nil},
		// Named difference: the null "CWD ".
		{"ftp://myname@host.dom//etc/motd", []string{"CWD ", "CWD etc", "RETR motd"}, []string{"CWD etc", "RETR motd"}},
	}
	for _, tt := range tests {
		u := MustParse(tt.url)
		p, err := u.Plan()
		if err != nil {
			t.Fatal(err)
		}
		want := tt.draft
		if tt.ours != nil {
			if cmp.Equal(tt.draft, tt.ours) {
				t.Fatalf("%s: a named difference that is no difference", tt.url)
			}
			want = tt.ours
		}
		// §2.5 names the CWD and RETR; the type is the client's guess
		// (§2.3), TYPE I before RETR.
		if diff := cmp.Diff(want, withoutType(p.Commands())); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.url, diff)
		}
		if p.Type != TypeImage {
			t.Errorf("%s: Type %q, want i", tt.url, p.Type)
		}
		// "logging in as "myname" (prompting for a password if it is
		// asked for)"
		if user, _, ok := u.Login(); user != "myname" || ok {
			t.Errorf("%s: Login() = %q, _, %v; want myname and a prompt", tt.url, user, ok)
		}
	}
	// The 1997 draft says so (testdata holds its text).
	seed, err := os.ReadFile("testdata/draft-casey-url-ftp-00.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(seed)), " ")
	for _, s := range []string{
		`<URL:ftp://myname@host.dom/%2Fetc/motd> is interpreted`,
		`executing "CWD /etc" and then "RETR motd"`,
		`<URL:ftp://myname@host.dom/etc/motd> which would "CWD etc" and then "RETR motd"`,
		`<URL:ftp://myname@host.dom//etc/motd>, would "CWD " with a null argument, then "CWD etc", and then "RETR motd"`,
	} {
		if !strings.Contains(text, s) {
			t.Errorf("the 1997 draft does not say %q", s)
		}
	}
}

// The 1997 draft §3.1: browsers send "CWD /foo" and "RETR bar.html" for
// ftp://host/foo/bar.html, which WithAbsolutePaths and SingleCWD
// reproduce; "ftp://host/~/foo/bar.html" is foo/bar.html in the login
// directory, and "ftp://user:pass@host/~/" that directory itself.
func TestDraft1997Section31AbsolutePaths(t *testing.T) {
	tests := []struct {
		url  string
		opts []PlanOption
		want []string
	}{
		{"ftp://host/foo/bar.html", planOpts(SingleCWD, true), []string{"CWD /foo", "TYPE I", "RETR bar.html"}},
		{"ftp://host/foo/bar.html", nil, []string{"CWD foo", "TYPE I", "RETR bar.html"}},
		{"ftp://host/foo/bar.html", []PlanOption{WithAbsolutePaths()}, []string{"CWD /", "CWD foo", "TYPE I", "RETR bar.html"}},
		{"ftp://host/~/foo/bar.html", []PlanOption{WithAbsolutePaths()}, []string{"CWD foo", "TYPE I", "RETR bar.html"}},
		{"ftp://user:pass@host/~/", []PlanOption{WithAbsolutePaths()}, []string{"TYPE A", "LIST"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, mustPlan(t, tt.url, tt.opts...).Commands()); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", tt.url, diff)
		}
	}
}

// Injection through Parse: every control character that could end or
// cut a command (CR, LF, NUL), raw or percent-encoded, in the user,
// the password, the host, every path position and the typecode, is
// ErrControl at the offset where it begins, in every grammar
// (Grammar's doc: no part holds a control character, raw or
// decoded; RFC 959 §4.1.3).
func TestParseRefusesInjectionAtTheRightOffset(t *testing.T) {
	attacks := []string{
		"%0d%0a", "%0D%0A", "%0a", "%0d", "%00",
		"%0d%0aDELE%20x", "%0D%0APORT%20127,0,0,1,0,25",
		"\r\n", "\n", "\r", "\x00", "\r\nDELE x",
	}
	// "@@" marks where the attack goes.
	positions := []string{
		"ftp://@@foo:bar@example.net/dir/file.png",    // user, start
		"ftp://foo@@:bar@example.net/dir/file.png",    // user, end
		"ftp://foo@@@example.net/dir/file.png",        // user without password
		"ftp://foo:@@bar@example.net/dir/file.png",    // password, start
		"ftp://foo:bar@@@example.net/dir/file.png",    // password, end
		"ftp://exa@@mple.net/dir/file.png",            // host
		"ftp://example.net/@@dir/sub/file.png",        // first directory
		"ftp://example.net/dir/s@@ub/file.png",        // middle directory
		"ftp://example.net/dir/sub@@/file.png",        // last directory
		"ftp://example.net/dir/sub/file.png@@",        // name
		"ftp://example.net/dir/sub/@@",                // name of a listing
		"ftp://example.net/dir/sub/file.png@@;type=i", // name before a typecode
		"ftp://example.net/dir/sub/file.png;type=@@",  // typecode, alone
		"ftp://example.net/dir/sub/file.png;type=i@@", // typecode, after the letter
		"ftp://example.net/@@",                        // the whole path
	}
	grammars := []Grammar{Lenient, RFC1738, RFC2396, RFC3986}
	n := 0
	for _, pos := range positions {
		off := strings.Index(pos, "@@")
		for _, a := range attacks {
			raw := pos[:off] + a + pos[off+2:]
			for _, g := range grammars {
				_, err := g.Parse(raw)
				var e *Error
				if !errors.As(err, &e) || e.Err != ErrControl || e.Offset != off || e.Op != "parse" {
					t.Errorf("%v.Parse(%q) = %v; want ErrControl at offset %d", g, raw, err, off)
					continue
				}
				if strings.ContainsAny(e.Error(), "\r\n\x00") {
					t.Errorf("%v.Parse(%q): the message holds a control character: %q", g, raw, e.Error())
				}
				n++
			}
		}
	}
	if want := len(positions) * len(attacks) * len(grammars); n != want {
		t.Errorf("%d of %d attacks refused", n, want)
	}
}

// The 2017 shape of the Python (bpo-30119) and Java (CVE-2017-3544)
// FTP injections, and curl's tests 225 and 226, refused at the escape,
// with the password and the injected text kept out of the error.
func TestParseRefusesKnownInjectionURLs(t *testing.T) {
	tests := []struct {
		raw     string
		off     int
		wantURL string
	}{
		{"ftp://foo:bar%0d%0aINJECTED@example.net/file.png", 13, "ftp://foo:xxxxx@example.net/file.png"},
		{"ftp://foo:bar%0D%0AINJECTED@example.net/file.png", 13, "ftp://foo:xxxxx@example.net/file.png"},
		{"ftp://foo:bar\r\nINJECTED@example.net/file.png", 13, "ftp://foo:xxxxx@example.net/file.png"},
		{"ftp://example.net/file.png%0d%0aDELE%20file.png", 26, "ftp://example.net/file.png%0d%0aDELE%20file.png"},
		{"ftp://example.net/%0d%0aPORT%20127,0,0,1,0,25/x", 18, "ftp://example.net/%0d%0aPORT%20127,0,0,1,0,25/x"},
		{"ftp://bad%0auser:passwd@127.0.0.1:8992/225%0a", 9, "ftp://bad%0auser:xxxxx@127.0.0.1:8992/225%0a"},
		{"ftp://127.0.0.1:8992/226%0d", 24, "ftp://127.0.0.1:8992/226%0d"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.raw)
		var e *Error
		if !errors.As(err, &e) || e.Err != ErrControl || e.Offset != tt.off {
			t.Errorf("Parse(%q) = %v; want ErrControl at offset %d", tt.raw, err, tt.off)
			continue
		}
		if e.URL != tt.wantURL {
			t.Errorf("Parse(%q): Error.URL %q, want %q", tt.raw, e.URL, tt.wantURL)
		}
		if msg := e.Error(); strings.Contains(tt.raw, "INJECTED") && (strings.Contains(msg, "INJECTED") || strings.Contains(msg, "bar")) {
			t.Errorf("Parse(%q): the message quotes the password: %s", tt.raw, msg)
		}
	}
}

// Injection through a URL built by hand: Plan refuses any argument
// holding CR, LF or NUL with ErrControl, with every method and with or
// without WithAbsolutePaths (URL.Plan's doc), and Commands
// renders nothing for a Plan built by hand that holds one.
func TestPlanRefusesHandBuiltInjection(t *testing.T) {
	base := func() *URL {
		return &URL{Host: "example.net", Dirs: []string{"dir", "sub"}, Name: "file.png", Type: TypeImage}
	}
	for _, a := range []string{"\r\n", "\n", "\r", "\x00", "\r\nDELE x", "x\nPORT 127,0,0,1,0,25"} {
		urls := map[string]*URL{}
		u := base()
		u.Host = "example.net" + a
		urls["host"] = u
		for i := range 2 {
			u := base()
			u.Dirs = append([]string(nil), u.Dirs...)
			u.Dirs[i] += a
			urls["dir"+string(rune('0'+i))] = u
		}
		u = base()
		u.Dirs = []string{"dir", "", a}
		urls["dir after a null one"] = u
		u = base()
		u.Name = a + "file.png"
		urls["name"] = u
		u = base()
		u.Name = ""
		u.Dirs = []string{a}
		urls["listed dir"] = u
		for where, u := range urls {
			for _, m := range []Method{MultiCWD, SingleCWD, NoCWD} {
				for _, abs := range []bool{false, true} {
					p, err := u.Plan(planOpts(m, abs)...)
					if err == nil {
						t.Errorf("%s %q %v abs=%v: Plan = %q, want ErrControl", where, a, m, abs, p.Commands())
						continue
					}
					wantPlanError(t, u, err, ErrControl)
				}
			}
		}
	}
	// The typecode: a Type of CR or LF.
	for _, typ := range []Typecode{'\r', '\n'} {
		u := base()
		u.Type = typ
		_, err := u.Plan()
		wantPlanError(t, u, err, ErrControl)
	}
	// A password in the URL is redacted in the error.
	u := base()
	u.User = UserPassword("foo", "secret")
	u.Name = "x\r\nDELE y"
	_, err := u.Plan()
	if err == nil || strings.Contains(err.Error(), "secret") || !strings.Contains(err.Error(), "xxxxx") {
		t.Errorf("Plan error %v: want the password redacted", err)
	}
	// Commands of a hand-built Plan.
	for _, p := range []*Plan{
		{Dirs: []string{"a\r\nDELE x"}, Action: List},
		{Dirs: []string{"a", "b\x00"}, Action: List},
		{Name: "f\nDELE x", Action: Retrieve},
		{Name: "f\r", Action: NameList},
	} {
		if lines := p.Commands(); lines != nil {
			t.Errorf("Commands of %+v = %q, want nil", p, lines)
		}
	}
	var nilPlan *Plan
	if lines := nilPlan.Commands(); lines != nil {
		t.Errorf("(*Plan)(nil).Commands() = %q", lines)
	}
}

// Plan.Commands' doc: an empty Dirs element sends nothing (2011 draft
// §3.2.3 (1), Note), TYPE is sent in upper case (RFC 959 §5.3.2); and a
// hand-built Plan gets Plan's own checks: exactly one TYPE of a, e, i or
// u (§3.2.3 (2)), a known Action, no LIST or NLST argument beginning
// with "-", a Fallback only on RetrieveOrList and none on a Fallback.
// A ChangeDir renders its CWD lines alone, with no TYPE (Plan's doc:
// Verify), and a Verify is checked too: a ChangeDir into the Name of a
// List or NameList, with no Fallback or Verify of its own (DESIGN's
// "Login and Plan").
func TestCommandsOfAHandBuiltPlan(t *testing.T) {
	fallback := &Plan{Dirs: []string{"f"}, Type: 'a', Action: List}
	verify := func(dir string) *Plan { return &Plan{Dirs: []string{dir}, Action: ChangeDir} }
	tests := []struct {
		p    Plan
		want []string
	}{
		{Plan{Dirs: []string{"", "a", ""}, Type: 'a', Action: List}, []string{"CWD a", "TYPE A", "LIST"}},
		{Plan{Type: 'I', Action: Retrieve, Name: "f"}, []string{"TYPE I", "RETR f"}},
		{Plan{Type: 'u', Action: NameList, Name: "f"}, []string{"TYPE U", "NLST f"}},
		{Plan{Type: 'a', Action: List, Name: "sub"}, []string{"TYPE A", "LIST sub"}},
		{Plan{Type: 'i', Action: RetrieveOrList, Name: "-f", Fallback: fallback}, []string{"TYPE I", "RETR -f"}},
		// Verify is not among the lines; a ChangeDir is its CWD lines.
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: verify("sub")}, []string{"TYPE A", "LIST sub"}},
		{Plan{Dirs: []string{"d"}, Type: 'a', Action: NameList, Name: "x", Verify: verify("x")}, []string{"CWD d", "TYPE A", "NLST x"}},
		{*verify("sub"), []string{"CWD sub"}},
		{Plan{Dirs: []string{"a", "", "./~"}, Action: ChangeDir}, []string{"CWD a", "CWD ./~"}},
		{Plan{Type: 'i', Action: RetrieveOrList, Name: "f", Fallback: &Plan{Type: 'a', Action: List, Name: "f", Verify: verify("f")}}, []string{"TYPE I", "RETR f"}},
		// Refused: nil.
		{Plan{Action: List}, nil},                           // no TYPE
		{Plan{Type: 'd', Action: NameList, Name: "f"}, nil}, // d is no TYPE argument
		{Plan{Type: 'x', Action: RetrieveOrList, Name: "f"}, nil},
		{Plan{Dirs: []string{"a"}, Type: 'i', Action: Action(9), Name: "f"}, nil},
		{Plan{Type: 'a', Action: List, Name: "-la"}, nil},
		{Plan{Type: 'a', Action: NameList, Name: "-R"}, nil},
		{Plan{Type: 'i', Action: Retrieve, Name: "f", Fallback: fallback}, nil},
		{Plan{Type: 'i', Action: RetrieveOrList, Name: "f", Fallback: &Plan{Type: 'a', Action: List, Fallback: fallback}}, nil},
		{Plan{Type: 'i', Action: RetrieveOrList, Name: "f", Fallback: &Plan{Dirs: []string{"f\r\nDELE x"}, Type: 'a', Action: List}}, nil},
		{Plan{Host: "h\r\nDELE x", Type: 'i', Action: Retrieve, Name: "f"}, nil},
		{Plan{}, nil},
		// A ChangeDir sends no TYPE, names nothing, and changes into
		// at least one directory.
		{Plan{Action: ChangeDir}, nil},
		{Plan{Dirs: []string{""}, Action: ChangeDir}, nil},
		{Plan{Dirs: []string{"a"}, Type: 'a', Action: ChangeDir}, nil},
		{Plan{Dirs: []string{"a"}, Action: ChangeDir, Name: "f"}, nil},
		{Plan{Dirs: []string{"a\r\nDELE x"}, Action: ChangeDir}, nil},
		// A Verify belongs to a LIST or NLST with an argument, is CWD
		// of that argument, and has no Fallback or Verify.
		{Plan{Type: 'a', Action: List, Verify: verify("sub")}, nil},
		{Plan{Type: 'i', Action: Retrieve, Name: "sub", Verify: verify("sub")}, nil},
		{Plan{Type: 'i', Action: RetrieveOrList, Name: "sub", Fallback: fallback, Verify: verify("sub")}, nil},
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: verify("other")}, nil},
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: &Plan{Dirs: []string{"sub", "x"}, Action: ChangeDir}}, nil},
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: &Plan{Dirs: []string{"sub"}, Type: 'a', Action: List}}, nil},
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: &Plan{Dirs: []string{"sub"}, Action: ChangeDir, Verify: verify("sub")}}, nil},
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: &Plan{Dirs: []string{"sub"}, Action: ChangeDir, Fallback: fallback}}, nil},
		{Plan{Type: 'a', Action: List, Name: "sub", Verify: &Plan{Host: "h\r\nDELE x", Dirs: []string{"sub"}, Action: ChangeDir}}, nil},
		{Plan{Type: 'i', Action: RetrieveOrList, Name: "f", Fallback: &Plan{Type: 'a', Action: List, Name: "f", Verify: verify("g")}}, nil},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, tt.p.Commands()); diff != "" {
			t.Errorf("Commands of %+v (-want +got):\n%s", tt.p, diff)
		}
		checkStepsAreCommands(t, &tt.p)
	}
}

// Plan.Steps' doc: the lines of Commands, each split at its first space
// into the command and its argument (RFC 959 §4.1); nil where Commands
// is nil; a LIST or NLST of the directory reached has no argument and
// renders without a trailing space.
func TestStepsAreCommandsApart(t *testing.T) {
	tests := []struct {
		raw  string
		opts []PlanOption
		want []Step
	}{
		{"ftp://h/pub/f.txt", nil, []Step{{"CWD", "pub"}, {"TYPE", "I"}, {"RETR", "f.txt"}}},
		{"ftp://h/pub/", nil, []Step{{"CWD", "pub"}, {"TYPE", "A"}, {"LIST", ""}}},
		{"ftp://h/pub/;type=d", nil, []Step{{"CWD", "pub"}, {"TYPE", "A"}, {"NLST", ""}}},
		{"ftp://h/a%20b/c%20d;type=d", nil, []Step{{"CWD", "a b"}, {"TYPE", "A"}, {"NLST", "c d"}}},
		{"ftp://h/pub/doc;type=e", nil, []Step{{"CWD", "pub"}, {"TYPE", "E"}, {"RETR", "doc"}}},
		{"ftp://h/a/b/", []PlanOption{WithMethod(NoCWD)}, []Step{{"TYPE", "A"}, {"LIST", "a/b"}}},
		{"ftp://h/a/b/f", []PlanOption{WithMethod(SingleCWD), WithAbsolutePaths()}, []Step{{"CWD", "/a/b"}, {"TYPE", "I"}, {"RETR", "f"}}},
		{"ftp://h/odd/~", nil, []Step{{"CWD", "odd"}, {"TYPE", "I"}, {"RETR", "./~"}}},
	}
	for _, tt := range tests {
		p := mustPlan(t, tt.raw, tt.opts...)
		if diff := cmp.Diff(tt.want, p.Steps()); diff != "" {
			t.Errorf("%s: Steps (-want +got):\n%s", tt.raw, diff)
		}
		checkStepsAreCommands(t, p)
		checkStepsAreCommands(t, p.Fallback)
		checkStepsAreCommands(t, p.Verify)
	}
	if got := mustPlan(t, "ftp://h/sub;type=d").Verify.Steps(); !slices.Equal(got, []Step{{"CWD", "sub"}}) {
		t.Errorf("Verify.Steps() = %q, want [{CWD sub}]", got)
	}
	var nilPlan *Plan
	if got := nilPlan.Steps(); got != nil {
		t.Errorf("(*Plan)(nil).Steps() = %q, want nil", got)
	}
	for _, s := range []struct {
		step Step
		want string
	}{
		{Step{"LIST", ""}, "LIST"},
		{Step{"NLST", ""}, "NLST"},
		{Step{"CWD", "a b"}, "CWD a b"},
		{Step{"TYPE", "A"}, "TYPE A"},
	} {
		if got := s.step.String(); got != s.want {
			t.Errorf("%#v.String() = %q, want %q", s.step, got, s.want)
		}
	}
}

// checkStepsAreCommands checks that p's Steps render Commands line for
// line, nil for nil, and that each Step is a known command whose
// argument holds no CR, LF or NUL.
func checkStepsAreCommands(t *testing.T, p *Plan) {
	t.Helper()
	steps, lines := p.Steps(), p.Commands()
	if (steps == nil) != (lines == nil) || len(steps) != len(lines) {
		t.Fatalf("Steps %q and Commands %q differ", steps, lines)
	}
	for i, s := range steps {
		if s.String() != lines[i] {
			t.Fatalf("Steps[%d] = %q renders %q, Commands has %q", i, s, s.String(), lines[i])
		}
		switch s.Command {
		case "CWD", "TYPE", "RETR":
			if s.Arg == "" {
				t.Fatalf("Steps[%d] = %q: %s without an argument", i, s, s.Command)
			}
		case "LIST", "NLST":
		default:
			t.Fatalf("Steps[%d] = %q: unknown command", i, s)
		}
		if hasLineBreak(s.Arg) {
			t.Fatalf("Steps[%d] = %q holds CR, LF or NUL", i, s)
		}
	}
}

// Method.String gives curl's --ftp-method names; MarshalText and
// UnmarshalText make a Method a flag.TextVar value. Action.String names
// the (4a)-(4d) cases.
func TestMethodAndActionNames(t *testing.T) {
	for m, name := range map[Method]string{MultiCWD: "multicwd", SingleCWD: "singlecwd", NoCWD: "nocwd", Method(7): "Method(7)"} {
		if m.String() != name {
			t.Errorf("Method(%d).String() = %q, want %q", int(m), m.String(), name)
		}
	}
	for _, text := range []string{"multicwd", "SingleCWD", "NOCWD"} {
		var m Method
		if err := m.UnmarshalText([]byte(text)); err != nil || !equalFoldASCII(text, m.String()) {
			t.Errorf("UnmarshalText(%q) = %v, %v", text, m, err)
		}
		b, err := m.MarshalText()
		if err != nil || string(b) != m.String() {
			t.Errorf("%v.MarshalText() = %q, %v", m, b, err)
		}
	}
	var m Method
	for _, bad := range []string{"", "multi", "nocwd ", "noCWſ"} {
		if err := m.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("UnmarshalText(%q) = nil error", bad)
		}
	}
	if _, err := Method(-1).MarshalText(); err == nil {
		t.Error("Method(-1).MarshalText() = nil error")
	}

	for a, name := range map[Action]string{
		Retrieve: "retrieve", List: "list", NameList: "name-list", RetrieveOrList: "retrieve-or-list",
		ChangeDir: "change-dir", Action(0): "Action(0)", Action(6): "Action(6)",
	} {
		if a.String() != name {
			t.Errorf("Action(%d).String() = %q, want %q", int(a), a.String(), name)
		}
	}
	// A Plan encodes to JSON with a readable action, and back.
	p := mustPlan(t, "ftp://h/pub/f;type=i")
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(b, &fields); err != nil || fields["Action"] != "retrieve" {
		t.Errorf("json.Marshal(plan) = %s: want \"Action\":\"retrieve\"", b)
	}
	var q Plan
	if err := json.Unmarshal(b, &q); err != nil || !cmp.Equal(*p, q) {
		t.Errorf("json round trip = %+v, %v; want %+v", q, err, *p)
	}
	// A Verify's Action is "change-dir", and it survives the trip.
	p = mustPlan(t, "ftp://h/pub/d;type=d")
	if b, err = json.Marshal(p); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"Verify":{"Host":"h","Dirs":["d"],"Type":"","Action":"change-dir","Name":"","Fallback":null,"Verify":null}`) {
		t.Errorf("json.Marshal(plan) = %s: want the Verify with \"Action\":\"change-dir\"", b)
	}
	q = Plan{}
	if err := json.Unmarshal(b, &q); err != nil || !cmp.Equal(*p, q) {
		t.Errorf("json round trip = %+v, %v; want %+v", q, err, *p)
	}
	if _, err := Action(0).MarshalText(); err == nil {
		t.Error("Action(0).MarshalText() = nil error")
	}
	var a Action
	if err := a.UnmarshalText([]byte("Action(0)")); err == nil {
		t.Error(`UnmarshalText("Action(0)") = nil error`)
	}
}

// 2011 draft §3.2.3 (4d): a name that may be a file or a directory is
// retrieved, and when the server refuses the RETR, Fallback changes into
// it and lists it. CWD fails for a missing name, where "LIST name"
// answers 226 with nothing on vsftpd and Pure-FTPd and reads as an empty
// directory. With NoCWD the CWD takes the whole path.
func TestRetrieveOrListFallsBackToCWDAndLIST(t *testing.T) {
	tests := []struct {
		raw  string
		opts []PlanOption
		cwd  string // the Fallback's CWD argument
	}{
		{"ftp://h/pub/x", nil, "x"},
		{"ftp://h/pub/x", planOpts(SingleCWD, false), "x"},
		{"ftp://h/pub/x", planOpts(NoCWD, false), "pub/x"},
		{"ftp://h/pub/x", planOpts(NoCWD, true), "/pub/x"},
		{"ftp://h/pub/x;type=q", nil, "x"}, // an unknown letter is ignored (§3.2.3.1)
		{"ftp://h/a/%2Fetc%2Fmotd", planOpts(NoCWD, false), "/etc/motd"},
		{"ftp://h/-x", nil, "-x"},
	}
	for _, tt := range tests {
		p := mustPlan(t, tt.raw, tt.opts...)
		if p.Action != RetrieveOrList || p.Fallback == nil {
			t.Fatalf("%s: Action %v Fallback %v, want RetrieveOrList with a Fallback", tt.raw, p.Action, p.Fallback)
		}
		f := p.Fallback
		want := Plan{Host: "h", Dirs: []string{tt.cwd}, Type: TypeASCII, Action: List}
		if diff := cmp.Diff(want, *f); diff != "" {
			t.Errorf("%s: Fallback (-want +got):\n%s", tt.raw, diff)
		}
		if got, want := f.Commands(), []string{"CWD " + tt.cwd, "TYPE A", "LIST"}; !slices.Equal(got, want) {
			t.Errorf("%s: Fallback.Commands() = %q, want %q", tt.raw, got, want)
		}
	}
	// Every other Action has no Fallback.
	for _, raw := range []string{"ftp://h/pub/", "ftp://h/f;type=i", "ftp://h/f;type=a", "ftp://h/d;type=d", "ftp://h/;type=d"} {
		if p := mustPlan(t, raw); p.Fallback != nil {
			t.Errorf("%s: %v has a Fallback %+v", raw, p.Action, p.Fallback)
		}
	}
}

// 2011 draft §3.2.3 (2) and RFC 1738 §3.2.2: without a typecode the
// client guesses the type, and a server's ASCII default (RFC 959 §3.1.1.1)
// turns every LF of a binary file into CRLF. Plan guesses TYPE I before
// RETR and TYPE A before a listing, so kernel.tar arrives byte for byte.
func TestEveryPlanSendsExactlyOneType(t *testing.T) {
	for raw, want := range map[string]string{
		"ftp://h/pub/linux/kernel.tar":        "TYPE I",
		"ftp://h/pub/linux/":                  "TYPE A",
		"ftp://h/pub/linux;type=d":            "TYPE A",
		"ftp://h/pub/linux/README;type=a":     "TYPE A",
		"ftp://h/pub/linux/README;type=E":     "TYPE E",
		"ftp://h/pub/linux/README;type=u":     "TYPE U",
		"ftp://h/pub/linux/kernel.tar;type=z": "TYPE I",
	} {
		n := 0
		for _, l := range mustPlan(t, raw).Commands() {
			if strings.HasPrefix(l, "TYPE ") {
				n++
				if l != want {
					t.Errorf("%s: %q, want %q", raw, l, want)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s: %d TYPE lines, want 1", raw, n)
		}
	}
}

// 1997 draft §3.1: with WithAbsolutePaths a first segment "~" is the
// login directory, also when it is the name: ftp://h/~ and ftp://h/~/
// list the login directory, never "RETR /~".
func TestAbsolutePathsDropATildeName(t *testing.T) {
	for _, raw := range []string{"ftp://h/~", "ftp://h/~/", "ftp://h/%7E"} {
		for _, m := range []Method{MultiCWD, SingleCWD, NoCWD} {
			p := mustPlan(t, raw, planOpts(m, true)...)
			if got := p.Commands(); !slices.Equal(got, []string{"TYPE A", "LIST"}) {
				t.Errorf("%s %v absolute: %q, want TYPE A and LIST", raw, m, got)
			}
		}
	}
	// Without the option "~" is sent as it is: servers that expand it
	// (vsftpd, ProFTPD, Pure-FTPd) do so.
	if got := mustPlan(t, "ftp://h/~").Commands(); !slices.Equal(got, []string{"TYPE I", "RETR ~"}) {
		t.Errorf("ftp://h/~: %q, want TYPE I and RETR ~", got)
	}
	// Only a first "~": in a directory it is a name like any other.
	if got := mustPlan(t, "ftp://h/a/~", planOpts(NoCWD, true)...).Commands(); !slices.Equal(got, []string{"TYPE I", "RETR /a/~"}) {
		t.Errorf("ftp://h/a/~: %q", got)
	}
}

// RFC 959 §4.1.3: a CR, LF or NUL in USER's or PASS's argument would
// inject a command. Only a hand-built URL can hold one, and Plan refuses
// it with ErrControl, so that a nil error vouches for every argument a
// client sends; the message never quotes or describes the password.
func TestPlanRefusesLineBreaksInHandBuiltUserinfo(t *testing.T) {
	const secret = "s3cret\r\nDELE x"
	for _, u := range []*URL{
		{User: User("alice\r\nDELE x"), Host: "h", Name: "f"},
		{User: User("alice\x00"), Host: "h", Name: "f"},
		{User: UserPassword("alice", secret), Host: "h", Name: "f"},
		{User: UserPassword("", "\n"), Host: "h", Name: "f"},
	} {
		_, err := u.Plan()
		wantPlanError(t, u, err, ErrControl)
		if _, has := u.User.Password(); has {
			if msg := err.Error(); strings.Contains(msg, "s3cret") || !strings.HasSuffix(msg, ": the password holds CR, LF or NUL") {
				t.Errorf("Plan error %q: want it to say the password holds CR, LF or NUL, and nothing of it", msg)
			}
		}
	}
}

// URL.Plan's doc, the "./~" rule: an argument that begins with "~" from
// a segment that is not the path's first is sent as "./~...", since
// vsftpd, ProFTPD and Pure-FTPd expand a leading "~" of any argument to
// a home directory. The rule holds for every argument as sent: each
// CWD, the joined CWD (SingleCWD), RETR, NLST, the joined RETR, LIST or
// NLST (NoCWD), the Fallback's CWD and the Verify's CWD; a joined
// argument that does not begin with "~" is sent as it is. The first
// segment keeps its meaning: sent as it is without WithAbsolutePaths;
// with it, a first "~" is the login directory and is dropped (1997
// draft §3.1), any other is a name below the root. Each row gives, for
// MultiCWD, SingleCWD and NoCWD, relative then absolute, the Commands,
// then the Fallback's and the Verify's ("-" for none).
func TestTildeBeyondTheFirstSegmentIsSentAsDotSlash(t *testing.T) {
	type want struct{ lines, fallback, verify string } // lines joined by "|"
	combos := [6]struct {
		m   Method
		abs bool
	}{{MultiCWD, false}, {SingleCWD, false}, {NoCWD, false}, {MultiCWD, true}, {SingleCWD, true}, {NoCWD, true}}
	tests := []struct {
		raw  string
		why  string
		want [6]want
	}{
		{"ftp://h/odd/~;type=i", "the name is not the first segment", [6]want{
			{"CWD odd|TYPE I|RETR ./~", "-", "-"},
			{"CWD odd|TYPE I|RETR ./~", "-", "-"},
			{"TYPE I|RETR odd/~", "-", "-"}, // NoCWD: the argument begins with "odd"
			{"CWD /|CWD odd|TYPE I|RETR ./~", "-", "-"},
			{"CWD /odd|TYPE I|RETR ./~", "-", "-"},
			{"TYPE I|RETR /odd/~", "-", "-"},
		}},
		{"ftp://h/odd/~/f;type=i", "a directory that is not the first segment", [6]want{
			{"CWD odd|CWD ./~|TYPE I|RETR f", "-", "-"},
			{"CWD odd/~|TYPE I|RETR f", "-", "-"},
			{"TYPE I|RETR odd/~/f", "-", "-"},
			{"CWD /|CWD odd|CWD ./~|TYPE I|RETR f", "-", "-"},
			{"CWD /odd/~|TYPE I|RETR f", "-", "-"},
			{"TYPE I|RETR /odd/~/f", "-", "-"},
		}},
		{"ftp://h/odd/~", "RetrieveOrList: the Fallback's CWD takes the same argument as RETR", [6]want{
			{"CWD odd|TYPE I|RETR ./~", "CWD ./~|TYPE A|LIST", "-"},
			{"CWD odd|TYPE I|RETR ./~", "CWD ./~|TYPE A|LIST", "-"},
			{"TYPE I|RETR odd/~", "CWD odd/~|TYPE A|LIST", "-"},
			{"CWD /|CWD odd|TYPE I|RETR ./~", "CWD ./~|TYPE A|LIST", "-"},
			{"CWD /odd|TYPE I|RETR ./~", "CWD ./~|TYPE A|LIST", "-"},
			{"TYPE I|RETR /odd/~", "CWD /odd/~|TYPE A|LIST", "-"},
		}},
		{"ftp://h/odd/~;type=d", "NLST of a name that is not the first segment, and its Verify", [6]want{
			{"CWD odd|TYPE A|NLST ./~", "-", "CWD ./~"},
			{"CWD odd|TYPE A|NLST ./~", "-", "CWD ./~"},
			{"TYPE A|NLST odd/~", "-", "CWD odd/~"},
			{"CWD /|CWD odd|TYPE A|NLST ./~", "-", "CWD ./~"},
			{"CWD /odd|TYPE A|NLST ./~", "-", "CWD ./~"},
			{"TYPE A|NLST /odd/~", "-", "CWD /odd/~"},
		}},
		{"ftp://h//~/", "a null segment is a segment: the \"~\" after it is not first", [6]want{
			{"CWD ./~|TYPE A|LIST", "-", "-"},
			{"CWD ./~|TYPE A|LIST", "-", "-"},
			{"TYPE A|LIST ./~", "-", "CWD ./~"},
			{"CWD /|CWD ./~|TYPE A|LIST", "-", "-"},
			{"CWD /~|TYPE A|LIST", "-", "-"},
			{"TYPE A|LIST /~", "-", "CWD /~"},
		}},
		{"ftp://h/~user/~/", "the first segment keeps its meaning; the second is an entry", [6]want{
			{"CWD ~user|CWD ./~|TYPE A|LIST", "-", "-"},
			{"CWD ~user/~|TYPE A|LIST", "-", "-"},
			{"TYPE A|LIST ~user/~", "-", "CWD ~user/~"},
			{"CWD /|CWD ./~user|CWD ./~|TYPE A|LIST", "-", "-"}, // below the root: /~user, as SingleCWD
			{"CWD /~user/~|TYPE A|LIST", "-", "-"},
			{"TYPE A|LIST /~user/~", "-", "CWD /~user/~"},
		}},
		{"ftp://h/~x;type=d", "a first segment that is the name", [6]want{
			{"TYPE A|NLST ~x", "-", "CWD ~x"},
			{"TYPE A|NLST ~x", "-", "CWD ~x"},
			{"TYPE A|NLST ~x", "-", "CWD ~x"},
			{"CWD /|TYPE A|NLST ./~x", "-", "CWD ./~x"},
			{"CWD /|TYPE A|NLST ./~x", "-", "CWD ./~x"},
			{"TYPE A|NLST /~x", "-", "CWD /~x"},
		}},
		{"ftp://h/~/~;type=d", "absolute: the first \"~\" is dropped, the second is an entry of the login directory", [6]want{
			{"CWD ~|TYPE A|NLST ./~", "-", "CWD ./~"},
			{"CWD ~|TYPE A|NLST ./~", "-", "CWD ./~"},
			{"TYPE A|NLST ~/~", "-", "CWD ~/~"},
			{"TYPE A|NLST ./~", "-", "CWD ./~"},
			{"TYPE A|NLST ./~", "-", "CWD ./~"},
			{"TYPE A|NLST ./~", "-", "CWD ./~"},
		}},
		{"ftp://h/~", "a first \"~\" name: sent as it is, or the login directory", [6]want{
			{"TYPE I|RETR ~", "CWD ~|TYPE A|LIST", "-"},
			{"TYPE I|RETR ~", "CWD ~|TYPE A|LIST", "-"},
			{"TYPE I|RETR ~", "CWD ~|TYPE A|LIST", "-"},
			{"TYPE A|LIST", "-", "-"},
			{"TYPE A|LIST", "-", "-"},
			{"TYPE A|LIST", "-", "-"},
		}},
		{"ftp://h/a/%2F~b/~c;type=d", "an argument that begins with \"/\" is sent as it is", [6]want{
			{"CWD /~b|TYPE A|NLST ./~c", "-", "CWD ./~c"},
			{"CWD /~b|TYPE A|NLST ./~c", "-", "CWD ./~c"},
			{"TYPE A|NLST /~b/~c", "-", "CWD /~b/~c"},
			{"CWD /~b|TYPE A|NLST ./~c", "-", "CWD ./~c"},
			{"CWD /~b|TYPE A|NLST ./~c", "-", "CWD ./~c"},
			{"TYPE A|NLST /~b/~c", "-", "CWD /~b/~c"},
		}},
		{"ftp://h/odd/~%2Fx;type=i", "a name that begins with \"~\" and holds a \"/\" (%2F)", [6]want{
			{"CWD odd|TYPE I|RETR ./~/x", "-", "-"},
			{"CWD odd|TYPE I|RETR ./~/x", "-", "-"},
			{"TYPE I|RETR odd/~/x", "-", "-"},
			{"CWD /|CWD odd|TYPE I|RETR ./~/x", "-", "-"},
			{"CWD /odd|TYPE I|RETR ./~/x", "-", "-"},
			{"TYPE I|RETR /odd/~/x", "-", "-"},
		}},
	}
	render := func(p *Plan) string {
		if p == nil {
			return "-"
		}
		return strings.Join(p.Commands(), "|")
	}
	for _, tt := range tests {
		for i, c := range combos {
			p := mustPlan(t, tt.raw, planOpts(c.m, c.abs)...)
			got := want{render(p), render(p.Fallback), render(p.Verify)}
			if got != tt.want[i] {
				t.Errorf("%s %v abs=%v (%s):\n got %+v\nwant %+v", tt.raw, c.m, c.abs, tt.why, got, tt.want[i])
			}
		}
	}
}

// Plan's doc and DESIGN's "Login and Plan": a LIST or NLST with an
// argument lists nothing both for an empty directory and for a missing
// name (vsftpd and Pure-FTPd answer "LIST vault/absent" and "NLST
// absent" with 150, nothing, 226), so the Plan carries Verify: CWD of
// that same argument, a ChangeDir with no TYPE, no Name, and neither
// Fallback nor Verify of its own. Commands does not include it. A
// listing without an argument, a RETR and a Fallback (whose LIST has no
// argument) carry none.
func TestListingWithAnArgumentCarriesVerify(t *testing.T) {
	tests := []struct {
		raw     string
		opts    []PlanOption
		listing string // the last line of Commands
		cwd     string // Verify's one argument
	}{
		{"ftp://h/vault/absent/", planOpts(NoCWD, false), "LIST vault/absent", "vault/absent"},
		{"ftp://h/vault/absent/", planOpts(NoCWD, true), "LIST /vault/absent", "/vault/absent"},
		{"ftp://h/absent;type=d", nil, "NLST absent", "absent"},
		{"ftp://h/pub/absent;type=d", planOpts(SingleCWD, false), "NLST absent", "absent"},
		{"ftp://h/pub/absent;type=d", planOpts(NoCWD, false), "NLST pub/absent", "pub/absent"},
		{"ftp://h/pub/absent/;type=d", planOpts(NoCWD, false), "NLST pub/absent", "pub/absent"},
		{"ftp://h/a/%2Fetc%2Fx;type=d", nil, "NLST /etc/x", "/etc/x"},
		{"ftp://h/a%20b/;type=d", planOpts(NoCWD, false), "NLST a b", "a b"},
		{"ftp://h/dir/-x;type=d", planOpts(NoCWD, false), "NLST dir/-x", "dir/-x"},
		{"ftp://[2001:db8::1]/x;type=d", nil, "NLST x", "x"},
	}
	for _, tt := range tests {
		p := mustPlan(t, tt.raw, tt.opts...)
		lines := p.Commands()
		if lines[len(lines)-1] != tt.listing {
			t.Errorf("%s: Commands %q, want it to end with %q", tt.raw, lines, tt.listing)
		}
		if slices.Contains(lines, "CWD "+tt.cwd) {
			t.Errorf("%s: Commands %q hold the Verify line", tt.raw, lines)
		}
		want := &Plan{Host: p.Host, Dirs: []string{tt.cwd}, Type: TypeNone, Action: ChangeDir}
		if diff := cmp.Diff(want, p.Verify); diff != "" {
			t.Errorf("%s: Verify (-want +got):\n%s", tt.raw, diff)
			continue
		}
		if got := p.Verify.Commands(); !slices.Equal(got, []string{"CWD " + tt.cwd}) {
			t.Errorf("%s: Verify.Commands() = %q, want [CWD %s]", tt.raw, got, tt.cwd)
		}
	}
	if p := mustPlan(t, "ftp://[2001:db8::1]/x;type=d"); p.Verify.Host != "[2001:db8::1]" {
		t.Errorf("Verify.Host = %q, want the Plan's HOST argument", p.Verify.Host)
	}
	for _, tt := range []struct {
		raw  string
		opts []PlanOption
	}{
		{"ftp://h/pub/", nil},                       // LIST
		{"ftp://h/pub/", planOpts(SingleCWD, true)}, // LIST
		{"ftp://h/", planOpts(NoCWD, false)},        // LIST
		{"ftp://h/~/", planOpts(NoCWD, true)},       // LIST: "~" is the login directory
		{"ftp://h/;type=d", nil},                    // NLST
		{"ftp://h/pub/;type=d", nil},                // NLST
		{"ftp://h/f;type=i", nil},                   // RETR
		{"ftp://h/pub/f", planOpts(NoCWD, false)},   // RETR, then the Fallback's bare LIST
	} {
		p := mustPlan(t, tt.raw, tt.opts...)
		if p.Verify != nil || p.Fallback != nil && p.Fallback.Verify != nil {
			t.Errorf("%s: %v %q carries a Verify: %+v", tt.raw, p.Action, p.Commands(), p.Verify)
		}
	}
}
