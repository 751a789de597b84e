package ftpurl

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Login and Plan turn a URL into what an FTP client sends: the USER and
// PASS arguments, then the commands of the 2011 draft §3.2.3 (CWD, TYPE,
// and RETR, LIST or NLST). Neither ever hands back an argument that holds
// CR, LF or NUL, whatever built the URL value: RFC 959 §4.1.3 ends a
// command at CRLF, so such an argument would smuggle in a command of its
// own, and a NUL cuts a C server's argument short.

// hasLineBreak reports whether s holds CR, LF or NUL: the bytes that
// end or cut short an FTP command (RFC 959 §4.1.3, §5.3.2).
func hasLineBreak(s string) bool {
	return strings.ContainsAny(s, "\r\n\x00")
}

// lineBreakName names the first CR, LF or NUL in s, for messages.
func lineBreakName(s string) string {
	switch s[strings.IndexAny(s, "\r\n\x00")] {
	case '\r':
		return "a carriage return (CR)"
	case '\n':
		return "a line feed (LF)"
	}
	return "a NUL byte"
}

// A Method is how a Plan walks the directories of the path; its names are
// curl's --ftp-method values.
type Method int

const (
	// MultiCWD, the default, sends one CWD per non-null directory, in order
	// (2011 draft §3.2.3 (1), RFC 1738 §3.2.2).
	MultiCWD Method = iota

	// SingleCWD sends one CWD of the non-null directories joined by "/"
	// (adding none after one that ends with "/"); the server must take "/" as
	// its separator.
	SingleCWD

	// NoCWD sends no CWD: the joined directories and Name are the argument of
	// RETR, LIST or NLST. The 1997 draft §2.5 says clients "MUST NOT rely
	// upon it".
	NoCWD
)

var methodNames = names[Method]{
	MultiCWD:  "multicwd",
	SingleCWD: "singlecwd",
	NoCWD:     "nocwd",
}

func (m Method) valid() bool { return methodNames.valid(m) }

// String returns "multicwd", "singlecwd" or "nocwd", and "Method(n)" for
// any other value.
func (m Method) String() string {
	return methodNames.str(m, "Method")
}

// MarshalText returns the name that String returns, so that a [Method] can
// be a flag ([flag.TextVar]); an unknown Method is an error.
func (m Method) MarshalText() ([]byte, error) {
	return methodNames.marshal(m, "Method")
}

// UnmarshalText sets m to the method that String names, in any ASCII case.
// Other text is an error that lists the names, and leaves m unchanged.
func (m *Method) UnmarshalText(text []byte) error {
	v, err := methodNames.unmarshal(text, "Method")
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// A PlanOption changes how [URL.Plan] builds a Plan: [WithMethod] or
// [WithAbsolutePaths]. A nil PlanOption is ignored.
type PlanOption func(*planConfig)

type planConfig struct {
	method   Method
	absolute bool
}

// WithMethod selects how the Plan changes directory: [MultiCWD] (the
// default), [SingleCWD] or [NoCWD]. Plan refuses any other [Method] with an
// *[Error] that wraps no sentinel.
func WithMethod(m Method) PlanOption { return func(c *planConfig) { c.method = m } }

// WithAbsolutePaths reads the path from the root (1997 draft §3.1), not
// from the login directory (RFC 1738 §3.2.2): the Plan starts with "CWD /",
// or the joined path with "/". A first directory "~" is the login
// directory and is dropped: ftp://host/~/foo/f sends "CWD foo", "RETR f".
func WithAbsolutePaths() PlanOption { return func(c *planConfig) { c.absolute = true } }

// An Action is what a Plan does in the directory it reached, as the 2011
// draft §3.2.3 step (4) decides it from Name and the typecode.
type Action int

const (
	_ Action = iota

	// Retrieve: RETR Name; the typecode is a, e, i or u (4c).
	Retrieve

	// List: LIST of the directory reached; no Name, no typecode d (4a).
	List

	// NameList: NLST, or NLST Name; typecode d (4b, RFC 1738 §3.2.2).
	NameList

	// RetrieveOrList: RETR Name, with a Fallback that lists Name; no typecode
	// or an undefined one (4d, §3.2.3.1).
	RetrieveOrList

	// ChangeDir: only the CWD lines of Dirs; the Action of a Verify, never of
	// a Plan that [URL.Plan] returns.
	ChangeDir
)

var actionNames = names[Action]{
	Retrieve:       "retrieve",
	List:           "list",
	NameList:       "name-list",
	RetrieveOrList: "retrieve-or-list",
	ChangeDir:      "change-dir",
}

func (a Action) valid() bool { return actionNames.valid(a) }

// String returns "retrieve", "list", "name-list", "retrieve-or-list" or
// "change-dir", and "Action(n)" for any other value.
func (a Action) String() string {
	return actionNames.str(a, "Action")
}

// MarshalText returns the name that String returns, so that a Plan's JSON
// has a readable action; an unknown Action is an error.
func (a Action) MarshalText() ([]byte, error) {
	return actionNames.marshal(a, "Action")
}

// UnmarshalText sets a to the action that String names, in any ASCII case.
// Other text is an error that lists the names, and leaves a unchanged.
func (a *Action) UnmarshalText(text []byte) error {
	v, err := actionNames.unmarshal(text, "Action")
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// A Plan is what an FTP client sends for a URL after login ([URL.Login]):
// the arguments of HOST (2011 draft §3.2.1) and of the §3.2.3 commands, as
// decoded octets (§3.3), which [Plan.Commands] renders. Fallback runs after
// a 550 to RETR: CWD Name (NoCWD: the whole path), TYPE A, LIST. Verify
// runs when a listing with an argument is empty: a [ChangeDir] into it,
// whose 550 means a missing name.
type Plan struct {
	Host     string   // argument of HOST (2011 draft §3.2.1); IPv6 in brackets
	Dirs     []string // CWD arguments in order
	Type     Typecode // argument of TYPE: one of a, e, i, u; TypeNone for ChangeDir, which sends no TYPE
	Action   Action
	Name     string // argument of RETR, LIST or NLST; "" for none
	Fallback *Plan  // RetrieveOrList only: what to run when RETR is refused
	Verify   *Plan  // a LIST or NLST with an argument: the CWD to run when it lists nothing
}

// Commands renders [Plan.Steps] as lines without CRLF (RFC 959 §4.1.3):
// "CWD dir" for each non-empty element of Dirs, "TYPE X" (none for a
// [ChangeDir]), then "RETR name", "LIST [name]" or "NLST [name]" (2011
// draft §3.2.3). It returns nil for a nil Plan, or one built by hand that
// [URL.Plan] would not return (an argument holding CR, LF or NUL, a LIST
// or NLST argument that begins with "-", a wrong Type, Action, Fallback or
// Verify): it never renders an injected command.
func (p *Plan) Commands() []string {
	steps := p.Steps()
	if steps == nil {
		return nil
	}
	lines := make([]string, len(steps))
	for i, s := range steps {
		lines[i] = s.String()
	}
	return lines
}

// A Step is one command of a Plan, code and argument apart (RFC 959 §4.1).
type Step struct {
	// Command is "CWD", "TYPE", "RETR", "LIST" or "NLST".
	Command string
	// Arg is the argument, decoded as in the Plan; "" for none.
	Arg string
}

// String returns the command line without its CRLF (RFC 959 §4.1.3):
// Command, then a space and Arg when Arg is not "", so "LIST", never "LIST ".
func (s Step) String() string {
	if s.Arg == "" {
		return s.Command
	}
	return s.Command + " " + s.Arg
}

// Steps returns the commands of [Plan.Commands], one [Step] each: {CWD,
// dir}, {TYPE, X}, then {RETR, Name}, {LIST, Name} or {NLST, Name}, Arg ""
// when Name is. It returns nil where Commands does.
func (p *Plan) Steps() []Step {
	if p == nil || p.check() != nil {
		return nil
	}
	steps := make([]Step, 0, len(p.Dirs)+2)
	for _, d := range p.Dirs {
		if d != "" { // a null segment sends nothing (§3.2.3 (1), Note)
			steps = append(steps, Step{"CWD", d})
		}
	}
	if p.Action == ChangeDir {
		return steps
	}
	t, _ := p.Type.lower()
	steps = append(steps, Step{"TYPE", string(rune(t - 'a' + 'A'))})
	return append(steps, Step{p.Action.verb(), p.Name})
}

// verb returns the command of a valid Action (2011 draft §3.2.3 (4)).
func (a Action) verb() string {
	switch a {
	case List:
		return "LIST"
	case NameList:
		return "NLST"
	case ChangeDir:
		return "CWD"
	}
	return "RETR"
}

// sendsType reports whether the lower-case typecode t is an FTP data
// type that the 2011 draft §3.2.3 (2) sends with TYPE.
func sendsType(t Typecode) bool {
	return t == TypeASCII || t == TypeEBCDIC || t == TypeImage || t == TypeUnicode
}

// valueFault returns the fault of a URL or Plan value, which has no
// input to point into (Offset -1): why its arguments cannot be sent,
// in plain words that never quote an argument.
func valueFault(err error, detail string) *fault {
	return &fault{err: err, off: -1, detail: detail}
}

// check is the one argument check of a Plan, shared by URL.Plan and
// Commands: no argument holds CR, LF or NUL (RFC 959 §4.1.3), the type
// is one that TYPE takes (none for ChangeDir), the action is known, a
// LIST or NLST argument does not begin with "-", a ChangeDir changes
// into a directory and names nothing, only a RetrieveOrList Plan has a
// Fallback, which has none of its own, and a Verify is a ChangeDir into
// the argument of a List or NameList, with no Fallback or Verify. A
// Fallback and a Verify are checked too, so a Plan that passes can be
// run to its end.
func (p *Plan) check() *fault {
	if f := lineBreakFault("the host", p.Host); f != nil {
		return f
	}
	for i, d := range p.Dirs {
		// The label is built only for a fault: a plan of millions of
		// directories costs no string a directory.
		if hasLineBreak(d) {
			return lineBreakFault("directory "+strconv.Itoa(i+1), d)
		}
	}
	if f := lineBreakFault("the name", p.Name); f != nil {
		return f
	}
	if !p.Action.valid() {
		return valueFault(ErrPath, "unknown "+p.Action.String())
	}
	if p.Action == ChangeDir {
		if p.Type != TypeNone || p.Name != "" || !slices.ContainsFunc(p.Dirs, func(d string) bool { return d != "" }) {
			return valueFault(ErrPath, "a change-dir plan sends CWD lines alone: no type, no name, and at least one directory")
		}
	} else if t, _ := p.Type.lower(); !sendsType(t) {
		return valueFault(ErrTypecode, fmt.Sprintf("type %q is not one that TYPE takes (a, e, i or u; RFC 959 §3.1.1)", p.Type))
	}
	if (p.Action == List || p.Action == NameList) && strings.HasPrefix(p.Name, "-") {
		return valueFault(ErrPath, fmt.Sprintf(`the %s argument begins with "-", which servers read as options of ls`, p.Action.verb()))
	}
	if v := p.Verify; v != nil {
		if (p.Action != List && p.Action != NameList) || p.Name == "" ||
			v.Action != ChangeDir || len(v.Dirs) != 1 || v.Dirs[0] != p.Name || v.Fallback != nil || v.Verify != nil {
			return valueFault(ErrPath, "a Verify belongs to a LIST or NLST with an argument, is CWD of that argument, and has no Fallback or Verify")
		}
		if f := v.check(); f != nil {
			return f
		}
	}
	if p.Fallback != nil {
		if p.Action != RetrieveOrList || p.Fallback.Fallback != nil {
			return valueFault(ErrPath, "a Fallback belongs to a RetrieveOrList plan and has none of its own")
		}
		return p.Fallback.check()
	}
	return nil
}

// verify returns the Verify of a Plan whose LIST or NLST has an
// argument: CWD of that argument, which fails (550) for a missing name
// where the listing answered 226 with nothing; nil for any other Plan.
func (p *Plan) verify() *Plan {
	if (p.Action != List && p.Action != NameList) || p.Name == "" {
		return nil
	}
	return &Plan{Host: p.Host, Dirs: []string{p.Name}, Action: ChangeDir}
}

// lineBreakFault reports the first CR, LF or NUL in s, the argument
// called what; nil when there is none.
func lineBreakFault(what, s string) *fault {
	if !hasLineBreak(s) {
		return nil
	}
	return valueFault(ErrControl, what+" holds "+lineBreakName(s))
}

// Plan returns the commands that retrieve what u names, step by step as the
// 2011 draft §3.2.3 says, with [MultiCWD] from the login directory unless
// opts say otherwise:
//
//   - Dirs: the non-null directories, dot segments too (step (1)); one that
//     begins with "/" (from "%2F") drops those before it, as a Name does.
//   - Type: exactly one TYPE: a, e, i or u from the typecode (step (2));
//     otherwise i before RETR and a before LIST and NLST (RFC 1738 §3.2.2).
//   - Action: no Name is [List], or [NameList] with typecode d; a Name is
//     NameList with d, [Retrieve] with a, e, i or u, and [RetrieveOrList]
//     otherwise (step (4)), with a Fallback.
//
// An argument from a segment other than the path's first that begins with
// "~" is sent as "./~...". Plan refuses a URL that could inject a command:
// a part holding CR, LF or NUL is [ErrControl], a LIST or NLST argument
// that begins with "-" [ErrPath], a bad host [ErrHost], a Type that is not
// a letter [ErrTypecode]. The *[Error] has Offset -1; for a nil u or an
// unknown [Method] it wraps no sentinel.
func (u *URL) Plan(opts ...PlanOption) (*Plan, error) {
	if u == nil {
		return nil, newPlanError(nil, valueFault(errUsage, "Plan of a nil *URL"))
	}
	var c planConfig
	for _, opt := range opts {
		if opt != nil {
			opt(&c)
		}
	}
	if !c.method.valid() {
		return nil, newPlanError(u, valueFault(errUsage, fmt.Sprintf("unknown %v: want MultiCWD, SingleCWD or NoCWD", c.method)))
	}
	if f := u.checkPlannable(); f != nil {
		return nil, newPlanError(u, f)
	}
	host, ipv6, detail := normalizeHost(u.Host)
	if detail != "" {
		return nil, newPlanError(u, valueFault(ErrHost, detail))
	}
	if ipv6 {
		host = "[" + host + "]"
	}
	p := &Plan{Host: host}
	name := p.route(u.Dirs, u.Name, c)
	t, _ := u.Type.lower()
	p.Action, p.Type = decide(name, t)
	if p.Action == RetrieveOrList {
		p.Fallback = &Plan{Host: host, Dirs: []string{p.Name}, Type: TypeASCII, Action: List}
	}
	p.Verify = p.verify()
	if f := p.check(); f != nil {
		return nil, newPlanError(u, f)
	}
	return p, nil
}

// checkPlannable refuses the parts of a URL value that Plan's own
// arguments do not show: a user or password (the USER and PASS
// arguments) with CR, LF or NUL, and a typecode that is not an ASCII
// letter. Faults come in the order that Parse ranks them.
func (u *URL) checkPlannable() *fault {
	if u.User != nil {
		if f := lineBreakFault("the user name", u.User.username); f != nil {
			return f
		}
		if hasLineBreak(u.User.password) {
			// Never say which byte: the password is a secret, and
			// its length is none of the message's business.
			return valueFault(ErrControl, "the password holds CR, LF or NUL")
		}
	}
	if f := lineBreakFault("the host", u.Host); f != nil {
		return f
	}
	for i, d := range u.Dirs {
		// The label is built only for a fault: a plan of millions of
		// directories costs no string a directory.
		if hasLineBreak(d) {
			return lineBreakFault("directory "+strconv.Itoa(i+1), d)
		}
	}
	if f := lineBreakFault("the name", u.Name); f != nil {
		return f
	}
	switch _, letter := u.Type.lower(); {
	case u.Type == '\r' || u.Type == '\n':
		return valueFault(ErrControl, "the typecode is "+lineBreakName(string(rune(u.Type))))
	case u.Type != TypeNone && !letter:
		return valueFault(ErrTypecode, fmt.Sprintf("typecode %#02x is not a letter (2011 draft §3.1)", byte(u.Type)))
	}
	return nil
}

// decide returns the Action of the 2011 draft §3.2.3 step (4) for the
// argument name and the lower-case typecode t, and the type that TYPE
// sends (step (2)): t itself when TYPE takes it, else the guess that
// changes no byte, image for RETR and ASCII for a listing.
func decide(name string, t Typecode) (Action, Typecode) {
	var a Action
	switch {
	case t == TypeDirectory:
		a = NameList // (4a) with RFC 1738 §3.2.2's NLST, or (4b)
	case name == "":
		a = List // (4a)
	case sendsType(t):
		a = Retrieve // (4c)
	default:
		a = RetrieveOrList // (4d)
	}
	switch {
	case sendsType(t):
		return a, t
	case a == List || a == NameList:
		return a, TypeASCII
	}
	return a, TypeImage
}

// route sets p.Dirs and p.Name from the URL's directories and name, as
// the Method and the absolute-path convention say, each argument with
// the "./~" rule of tildeArg. It returns the name that step (4) decides
// on: the URL's, or "" when it was a "~" that WithAbsolutePaths dropped.
func (p *Plan) route(dirs []string, name string, c planConfig) string {
	root := c.absolute
	// first: the first element of dirs, then name, is the path's first
	// segment sent as it is, so a "~" it begins with keeps its meaning.
	// With WithAbsolutePaths it never is: the path starts at "/" (after
	// "CWD /", "~user" is the entry /~user, as SingleCWD's "CWD /~user"
	// says), or its first segment was a "~" that is dropped.
	first := !c.absolute
	if root {
		// 1997 draft §3.1: a first segment "~" is the login
		// directory, so ftp://host/~/foo/bar.html is foo/bar.html
		// there, and ftp://host/~ lists it.
		switch {
		case len(dirs) > 0 && dirs[0] == "~":
			dirs, root = dirs[1:], false
		case len(dirs) == 0 && name == "~":
			name, root = "", false
		}
	}
	switch c.method {
	case MultiCWD:
		p.Dirs = make([]string, 0, len(dirs)+1)
		if root {
			p.Dirs = append(p.Dirs, "/")
		}
		for i, d := range dirs {
			if strings.HasPrefix(d, "/") {
				p.Dirs = p.Dirs[:0] // an absolute path: what came before is moot
			}
			if d != "" { // null segments send no CWD (§3.2.3 (1))
				p.Dirs = append(p.Dirs, tildeArg(d, first && i == 0))
			}
		}
		p.Name = tildeArg(name, first && len(dirs) == 0)
	case SingleCWD:
		if d, start := joinPath(root, dirs, ""); d != "" {
			p.Dirs = []string{tildeArg(d, first && start == 0)}
		}
		p.Name = tildeArg(name, first && len(dirs) == 0)
	case NoCWD:
		j, start := joinPath(root, dirs, name)
		p.Name = tildeArg(j, first && start == 0)
	}
	if strings.HasPrefix(p.Name, "/") {
		p.Dirs = nil // RETR /etc/motd needs no CWD before it
	}
	if len(p.Dirs) == 0 {
		p.Dirs = nil
	}
	return name
}

// joinPath joins the non-null elements of dirs, then name, with "/"
// (SingleCWD, NoCWD). An element that begins with "/" is an absolute
// path and discards what came before it; no "/" is added after an
// element that ends with one. With root the path starts at "/". It
// also returns the index, in dirs then name, of the element that the
// result begins with: -1 when it begins with root's "/" or is empty.
func joinPath(root bool, dirs []string, name string) (string, int) {
	var b strings.Builder
	n := len(name) + len(dirs) + 1
	for _, d := range dirs {
		n += len(d)
	}
	b.Grow(n) // once, however many directories
	start := -1
	if root {
		b.WriteByte('/')
	}
	add := func(i int, e string) {
		if e == "" {
			return
		}
		if e[0] == '/' {
			b.Reset()
		} else if s := b.String(); s != "" && s[len(s)-1] != '/' {
			b.WriteByte('/')
		}
		if b.Len() == 0 {
			start = i
		}
		b.WriteString(e)
	}
	for i, d := range dirs {
		add(i, d)
	}
	add(len(dirs), name)
	return b.String(), start
}

// tildeArg returns arg as a client sends it: with "./" before it when it
// begins with "~" and does not begin with the path's first segment
// (first false). vsftpd, ProFTPD and Pure-FTPd expand a leading "~" of
// any argument to a home directory; "./~" names the entry "~" itself on
// every server. The first segment keeps its meaning (URL.Plan's doc).
func tildeArg(arg string, first bool) string {
	if first || !strings.HasPrefix(arg, "~") {
		return arg
	}
	return "./" + arg
}
