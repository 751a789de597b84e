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

// A Method is how a Plan walks the directories of the path to the
// resource. Its names are curl's --ftp-method values.
type Method int

const (
	// MultiCWD, the default, sends one CWD per non-null directory, in
	// order: the 2011 draft §3.2.3 (1), RFC 1738 §3.2.2, and curl's
	// default.
	MultiCWD Method = iota

	// SingleCWD sends one CWD with the non-null directories joined by
	// "/" (curl's --ftp-method singlecwd). It saves round trips, but
	// the server must take "/" as its separator.
	SingleCWD

	// NoCWD sends no CWD: the joined directories and Name go in the
	// argument of RETR, LIST or NLST (curl's --ftp-method nocwd). The
	// 1997 draft §2.5 warns that this "may work on some systems, but
	// clients MUST NOT rely upon it", and that it is the only way to
	// reach a file below a directory the user may not enter.
	NoCWD
)

var methodNames = names[Method]{
	MultiCWD:  "multicwd",
	SingleCWD: "singlecwd",
	NoCWD:     "nocwd",
}

func (m Method) valid() bool { return methodNames.valid(m) }

// String returns "multicwd", "singlecwd" or "nocwd", the names curl's
// --ftp-method option takes, and "Method(n)" for any other value.
func (m Method) String() string {
	return methodNames.str(m, "Method")
}

// MarshalText returns the name that String returns, so that a [Method]
// can be a flag ([flag.TextVar]) or a configuration value. An unknown
// Method is an error.
func (m Method) MarshalText() ([]byte, error) {
	return methodNames.marshal(m, "Method")
}

// UnmarshalText sets m to the method named by text, one of the names
// that String returns, in any ASCII case. Any other text is an error
// that lists the names, and leaves m unchanged.
func (m *Method) UnmarshalText(text []byte) error {
	v, err := methodNames.unmarshal(text, "Method")
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// A PlanOption changes how Plan builds a Plan. The options are
// [WithMethod] and [WithAbsolutePaths]; a nil PlanOption is ignored.
type PlanOption func(*planConfig)

type planConfig struct {
	method   Method
	absolute bool
}

// WithMethod selects how the Plan changes directory: [MultiCWD] (the
// default), [SingleCWD] or [NoCWD]. Plan refuses a [Method] other than these
// three, rather than guess, with an *[Error] that wraps no sentinel: it is
// a programming error, not a fault of the URL.
func WithMethod(m Method) PlanOption { return func(c *planConfig) { c.method = m } }

// WithAbsolutePaths reads the path from the root of the server's file
// system, the convention that the 1997 draft §3.1 describes and that
// browsers follow, instead of from the login directory as RFC 1738
// §3.2.2 and the 2011 draft §3.2.3 do. The Plan then starts with
// "CWD /" ([MultiCWD]), or the joined path gets a leading "/" ([SingleCWD],
// [NoCWD]). As that section proposes, a first directory "~" stands for
// the login directory: it is dropped, and the path stays relative, so
// ftp://host/~/foo/bar.html sends "CWD foo" and "RETR bar.html", and
// ftp://host/~ and ftp://host/~/ list the login directory.
func WithAbsolutePaths() PlanOption { return func(c *planConfig) { c.absolute = true } }

// An Action is what a Plan does once it has reached the directory, as
// the 2011 draft §3.2.3 step (4) decides it from Name and the typecode.
type Action int

const (
	_ Action = iota

	// Retrieve: RETR Name. The typecode is a, e, i or u, so Name is a
	// file (4c).
	Retrieve

	// List: LIST, a listing of the directory reached. Name is empty
	// and the typecode is not d (4a).
	List

	// NameList: NLST, or NLST Name when Name is not empty. The typecode
	// is d (4b; RFC 1738 §3.2.2: "the client should obtain a list of
	// file names using NLST").
	NameList

	// RetrieveOrList: Name may be a file or a directory (4d): there is
	// no typecode, or one that is not defined (the draft's §3.2.3.1 says
	// to ignore it). Commands renders RETR Name; when the server answers
	// 550, the client runs the Plan's Fallback, which changes into Name
	// and lists it.
	RetrieveOrList

	// ChangeDir: only the CWD lines of Dirs, with no TYPE (Type is
	// TypeNone) and no transfer (Name is ""). It is the Action of a
	// Plan's Verify, which CWD's into the argument of a listing that
	// came back empty: 250 says the directory is empty indeed, 550 that
	// the name does not exist. [URL.Plan] never returns it at the top.
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

// MarshalText returns the name that String returns, so that a Plan
// encodes to JSON with a readable action. An unknown Action is an error.
func (a Action) MarshalText() ([]byte, error) {
	return actionNames.marshal(a, "Action")
}

// UnmarshalText sets a to the action named by text, one of the names
// that String returns, in any ASCII case. Any other text is an error
// that lists the names, and leaves a unchanged.
func (a *Action) UnmarshalText(text []byte) error {
	v, err := actionNames.unmarshal(text, "Action")
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// A Plan is what an FTP client sends for a URL after it has logged in
// (see [URL.Login]): the arguments of the 2011 draft §3.2's HOST and
// §3.2.3's commands. Commands renders them as lines. A Plan holds
// decoded octets: an argument may hold "/" (from "%2F") and need not be
// UTF-8 (the draft's §3.3 sends octets outside ASCII as they are).
//
// Two plans hang off a Plan, each run only on the server's answer, never
// among Commands: Fallback when a RETR is refused (2011 draft §3.2.3
// (4d)), and Verify when a LIST or NLST with an argument lists nothing.
// A listing can not tell a missing name from an empty directory: vsftpd
// and Pure-FTPd answer "LIST dir/absent" and "NLST absent" with 150,
// nothing, 226. Verify is "CWD" of that same argument: its Action is
// [ChangeDir], its Dirs the one argument, its Type [TypeNone] (it sends
// no TYPE) and its Name "". Its 250 means the directory is empty
// indeed; its 550 means the name does not exist, an error and never an
// empty listing. Neither a Fallback nor a Verify has a Verify or
// Fallback of its own, but for a Fallback whose LIST has an argument,
// which carries a Verify like any other.
type Plan struct {
	Host     string   // argument of HOST (2011 draft §3.2.1); IPv6 in brackets
	Dirs     []string // CWD arguments in order
	Type     Typecode // argument of TYPE: one of a, e, i, u; TypeNone for ChangeDir, which sends no TYPE
	Action   Action
	Name     string // argument of RETR, LIST or NLST; "" for none
	Fallback *Plan  // RetrieveOrList only: what to run when RETR is refused
	Verify   *Plan  // a LIST or NLST with an argument: the CWD to run when it lists nothing
}

// Commands renders the lines a client sends after login, in order,
// without the CRLF that ends each one (RFC 959 §4.1.3):
//
//   - "CWD dir" for each element of Dirs (an empty element sends
//     nothing: 2011 draft §3.2.3 (1), Note);
//   - "TYPE A", "TYPE E", "TYPE I" or "TYPE U" (§3.2.3 (2)), the
//     argument in upper case as RFC 959 §5.3.2 writes it;
//   - "RETR name" for [Retrieve] and [RetrieveOrList], "LIST" or "LIST name"
//     for [List], "NLST" or "NLST name" for [NameList] (§3.2.3 (4a)-(4d)).
//
// A [ChangeDir] Plan, such as a Verify, renders its CWD lines alone: no
// TYPE and no transfer, so a Verify's Commands is ["CWD name"].
//
// The lines of Fallback and Verify are not among them: a client sends
// them, from Fallback.Commands and Verify.Commands, only when the server
// refuses the RETR or the listing comes back empty. HOST, which a
// client sends before login (§3.2.1), and the commands that set up the
// data connection (PASV, EPSV, PORT, EPRT; §3.2.3 (3)) are the client's
// business and not among the lines either.
//
// A Plan that [URL.Plan] returned always renders. A Plan built or changed
// by hand gets the checks that URL.Plan applies to its own: Commands
// returns nil when an argument (Host included) holds CR, LF or NUL, when
// Type is not a, e, i or u (in either case; TypeNone, and only it, for
// ChangeDir), when Action is not one of the five, when a LIST or NLST
// argument begins with "-", when a ChangeDir has a Name or no directory
// to change into, when a Fallback is on a Plan that is not
// RetrieveOrList or has a Fallback of its own, or when a Verify is not
// a ChangeDir into the Name of a List or NameList Plan, with neither
// Fallback nor Verify of its own. So it never renders a line that
// injects a command. A nil *Plan has no lines: Commands returns nil.
//
// Commands is [Plan.Steps], each rendered by [Step.String].
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

// A Step is one command of a Plan, as an FTP client sends it after
// login: the command and its argument, apart (RFC 959 §4.1: a command
// is a four-letter code, a space and its argument, if it takes one).
// A client that runs a Plan sends each Step and reads its reply, so it
// can tell which one a server refused without parsing a line back.
type Step struct {
	// Command is the command's code in upper case (RFC 959 §4.1):
	// "CWD", "TYPE", "RETR", "LIST" or "NLST".
	Command string
	// Arg is the argument, decoded octets as the Plan holds them: a
	// directory for CWD (2011 draft §3.2.3 (1)), the upper-case type
	// for TYPE ("A", "E", "I" or "U"; §3.2.3 (2), RFC 959 §5.3.2), the
	// name for RETR, LIST and NLST (§3.2.3 (4)). "" for none: a LIST
	// or NLST of the directory reached.
	Arg string
}

// String returns the step as a command line without its CRLF (RFC 959
// §4.1.3): Command, then a space and Arg when Arg is not empty, so
// "CWD pub", "TYPE I" and "LIST", never "LIST " with a trailing space.
func (s Step) String() string {
	if s.Arg == "" {
		return s.Command
	}
	return s.Command + " " + s.Arg
}

// Steps returns the commands a client sends after login, in order, one
// Step a command, as Commands describes them (2011 draft §3.2.3):
// {CWD, dir} for each non-empty element of Dirs (step (1)), {TYPE, X}
// with X the upper-case letter of Type (step (2); none for a
// [ChangeDir] Plan), then {RETR, Name}, {LIST, Name} or {NLST, Name}
// (step (4)), whose Arg is "" when Name is. The steps of Fallback and
// Verify are not among them; a client takes them from Fallback.Steps
// and Verify.Steps when the server's answer calls for them.
//
// Steps returns nil for a nil *Plan and for a Plan that fails the
// checks that Commands applies, so that it never hands back an argument
// that injects a command (RFC 959 §4.1.3).
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

// Plan returns the arguments of the commands that retrieve the resource
// that u names, following the 2011 draft §3.2.3 step by step, with
// [MultiCWD] and a path relative to the login directory unless options
// say otherwise:
//
//   - Host is u's host as HOST takes it (§3.2.1): A-labels (§6.3.1), an
//     IPv6 address in brackets.
//   - Dirs: each non-null directory of u.Dirs, in order (§3.2.3 (1));
//     null segments send nothing, where the 1997 draft §2.5 sent "CWD "
//     with an empty argument, which servers answer four different ways.
//     Dot segments are sent as they are. A directory that begins with
//     "/" (from "%2F") is an absolute path, and the directories before
//     it are not sent, in every [Method]: ftp://h/a/%2Fetc/motd sends
//     "CWD /etc", never a "CWD a" that fails where a does not exist. A
//     Name that begins with "/" drops them all the same.
//   - Type: every Plan sends exactly one TYPE. The typecodes a, e, i and
//     u send their letter (§3.2.3 (2)). Otherwise the client must guess
//     (RFC 1738 §3.2.2, 1997 draft §2.3), and Plan guesses the way that
//     never changes a byte: i (image) before RETR, a (ASCII, RFC 959's
//     default) before LIST and NLST, whose listings are text. curl makes
//     the same choice. A server left in its ASCII default would turn
//     every LF of a binary file into CRLF.
//   - Action: Name "" lists the directory reached: [List] (4a), or
//     [NameList] with typecode d; typecode d with a Name is NameList of
//     Name (4b); a, e, i, u is [Retrieve] (4c); no typecode or an
//     undefined letter is [RetrieveOrList] (4d).
//   - Fallback, for RetrieveOrList only: when the server refuses the
//     RETR with 550 (also a 550 that comes after the 150 that opened the
//     transfer), the client runs Fallback from where the Plan left it:
//     "CWD Name" (with [NoCWD], CWD of the whole path), "TYPE A" and
//     "LIST". A CWD fails for a missing name, where "LIST name" would
//     answer 226 with nothing and look like an empty directory.
//   - Verify, for a LIST or NLST with an argument ("LIST dir/absent"
//     with NoCWD, "NLST absent" with typecode d): vsftpd and Pure-FTPd
//     answer it with 150, nothing, 226 for a missing name too, so when
//     the listing comes back empty the client sends Verify's one line,
//     "CWD" of the same argument: 250 means the directory is empty,
//     550 that the name does not exist. See [Plan] and [ChangeDir].
//
// WithMethod([SingleCWD]) and WithMethod(NoCWD) join the non-null
// directories (and, for NoCWD, Name) with "/", where an element that
// begins with "/" discards what came before it; no "/" is added after
// an element that already ends with one. [WithAbsolutePaths] starts the
// path at the root (1997 draft §3.1).
//
// An argument that begins with "~" from a segment that is not the
// path's first is sent as "./~...": ftp://h/odd/~ sends "CWD odd" and
// "RETR ./~". vsftpd, ProFTPD and Pure-FTPd expand a leading "~" of any
// argument to a home directory, which made a file named "~" below the
// top unreachable; "./~" reaches it on every server. The rule applies
// to each argument as it is sent, CWD, RETR, LIST, NLST and those of
// Fallback and Verify alike: a joined argument (SingleCWD, NoCWD) gets
// "./" only when it begins with "~", so NoCWD sends "RETR odd/~" as it
// is. A null segment is a segment: in ftp://h//~/f the "~" is not
// first. The path's first segment keeps its meaning: without
// WithAbsolutePaths a "~" there is sent as it is, for the servers that
// expand it (the 2011 draft §3.2.3 (1) sends each segment as it is);
// with it, a first "~" is the login directory and is dropped (1997
// draft §3.1), and any other first segment is a name below the root,
// so MultiCWD's "CWD /" is followed by "CWD ./~user", the directory
// that SingleCWD reaches with "CWD /~user".
//
// Plan never lets a URL value inject a command, however it was built:
// it refuses with an *[Error] whose Err is [ErrControl] a user, password,
// host, directory, name or typecode that holds CR, LF or NUL ([Parse]
// refuses every control character, so only a URL built by hand gets
// there). So a nil error means that every argument a client sends, USER
// and PASS included, is safe. It refuses with [ErrPath] a LIST or NLST
// argument that begins with "-", which servers read as options of ls
// (RETR and CWD arguments may begin with "-"). A URL built by hand is
// also refused with [ErrHost] when its host is empty or not a valid host
// (as Parse would refuse it), and with [ErrTypecode] when its Type is not
// an ASCII letter. The error's Op is "plan", its URL is u.Redacted()
// (cut to 256 bytes), and its Offset is -1: a URL value has no input to
// point into.
//
// A nil *URL and a Method other than the three are programming errors,
// not faults of a URL: the *Error then wraps no sentinel.
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
		p.Fallback.Verify = p.Fallback.verify() // nil: its LIST has no argument
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
