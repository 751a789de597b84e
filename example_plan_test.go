package ftpurl_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"

	"github.com/ftpurl/ftpurl"
)

func ExampleURL_Login() {
	for _, raw := range []string{
		"ftp://ftp.example.com/pub/",
		"ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd",
		"ftp://myname@host.example/file",
		"ftp://ftp@ftp.example.com/pub/",
	} {
		u := ftpurl.MustParse(raw)
		user, password, ok := u.Login()
		if !ok {
			fmt.Printf("USER %s, then ask for a password\n", user)
			continue
		}
		fmt.Printf("USER %s, PASS %s\n", user, password)
	}
	// Output:
	// USER anonymous, PASS anonymous@
	// USER fellow, PASS bad-guy
	// USER myname, then ask for a password
	// USER ftp, PASS anonymous@
}

func ExampleURL_NeedsPassword() {
	for _, u := range []*ftpurl.URL{
		ftpurl.MustParse("ftp://myname@host.example/file"),
		ftpurl.MustParse("ftp://myname:secret@host.example/file"),
		{User: ftpurl.User("me\r\nDELE x"), Host: "host.example"}, // built by hand
	} {
		user, _, ok := u.Login()
		fmt.Printf("ok=%v user=%q needs a password: %v\n", ok, user, u.NeedsPassword())
	}
	// Output:
	// ok=false user="myname" needs a password: true
	// ok=true user="myname" needs a password: false
	// ok=false user="" needs a password: false
}

func ExampleURL_Plan() {
	u, err := ftpurl.Parse("ftp://ftp.example.com/pub/linux/README;type=a")
	if err != nil {
		panic(err)
	}
	p, err := u.Plan()
	if err != nil {
		panic(err)
	}
	fmt.Println("HOST", p.Host)
	fmt.Printf("%q %q %v %q\n", p.Dirs, p.Type, p.Action, p.Name)
	for _, line := range p.Commands() {
		fmt.Println(line)
	}
	// Output:
	// HOST ftp.example.com
	// ["pub" "linux"] "a" retrieve "README"
	// CWD pub
	// CWD linux
	// TYPE A
	// RETR README
}

// Plan refuses what would inject a command, however the URL was built.
func ExampleURL_Plan_injection() {
	_, err := ftpurl.Parse("ftp://foo:bar%0d%0aINJECTED@example.net/file.png")
	var e *ftpurl.Error
	if errors.As(err, &e) {
		fmt.Println(e.Op, e.URL, e.Offset, e.Err)
	}

	u := &ftpurl.URL{Host: "example.net", Name: "file.png\r\nDELE file.png"}
	_, err = u.Plan()
	fmt.Println(errors.Is(err, ftpurl.ErrControl))

	u = ftpurl.MustParse("ftp://example.net/-R;type=d")
	_, err = u.Plan()
	fmt.Println(err)
	// Output:
	// parse ftp://foo:xxxxx@example.net/file.png 13 control character
	// true
	// ftpurl: plan "ftp://example.net/-R;type=d": invalid path: the NLST argument begins with "-", which servers read as options of ls
}

func ExamplePlan_Commands() {
	for _, raw := range []string{
		"ftp://example.com:49557/%2Fsomedir/seconddir;type=d", // 2011 draft §4
		"ftp://example.org/%3Ffoo/%23bar/file.txt;type=a#char=500",
		"ftp://example.net/pub//",
		"ftp://example.net/file.tar.gz",
	} {
		p, err := ftpurl.MustParse(raw).Plan()
		if err != nil {
			panic(err)
		}
		fmt.Printf("%q\n", p.Commands())
	}
	// Output:
	// ["CWD /somedir" "TYPE A" "NLST seconddir"]
	// ["CWD ?foo" "CWD #bar" "TYPE A" "RETR file.txt"]
	// ["CWD pub" "TYPE A" "LIST"]
	// ["TYPE I" "RETR file.tar.gz"]
}

func ExamplePlan_Steps() {
	p, err := ftpurl.MustParse("ftp://example.com/pub/%2Fetc/motd").Plan()
	if err != nil {
		panic(err)
	}
	for _, s := range p.Steps() {
		fmt.Printf("%-4s %q\n", s.Command, s.Arg)
	}
	for _, s := range p.Fallback.Steps() {
		fmt.Printf("fallback: %v\n", s)
	}
	// Output:
	// CWD  "/etc"
	// TYPE "I"
	// RETR "motd"
	// fallback: CWD motd
	// fallback: TYPE A
	// fallback: LIST
}

func ExampleStep_String() {
	fmt.Println(ftpurl.Step{Command: "CWD", Arg: "pub"})
	fmt.Printf("%q\n", ftpurl.Step{Command: "LIST"}.String())
	// Output:
	// CWD pub
	// "LIST"
}

func ExampleWithMethod() {
	u := ftpurl.MustParse("ftp://example.com/pub/linux/kernel/README")
	for _, m := range []ftpurl.Method{ftpurl.MultiCWD, ftpurl.SingleCWD, ftpurl.NoCWD} {
		p, err := u.Plan(ftpurl.WithMethod(m))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-9s %q\n", m, p.Commands())
	}
	// Output:
	// multicwd  ["CWD pub" "CWD linux" "CWD kernel" "TYPE I" "RETR README"]
	// singlecwd ["CWD pub/linux/kernel" "TYPE I" "RETR README"]
	// nocwd     ["TYPE I" "RETR pub/linux/kernel/README"]
}

// MultiCWD, the default, sends one CWD per directory, "%2F" staying
// inside its directory; a directory that begins with "/" is an absolute
// path, so the CWDs before it are not sent.
func ExampleWithMethod_multiCWD() {
	p, _ := ftpurl.MustParse("ftp://h/a/%2Fetc/motd").Plan(ftpurl.WithMethod(ftpurl.MultiCWD))
	fmt.Printf("%q\n", p.Commands())
	// Output: ["CWD /etc" "TYPE I" "RETR motd"]
}

// SingleCWD joins the directories; one that begins with "/" starts a
// new absolute path.
func ExampleWithMethod_singleCWD() {
	p, _ := ftpurl.MustParse("ftp://h/a/%2Fetc/motd").Plan(ftpurl.WithMethod(ftpurl.SingleCWD))
	fmt.Printf("%q\n", p.Commands())
	// Output: ["CWD /etc" "TYPE I" "RETR motd"]
}

// NoCWD puts the whole path in RETR, LIST or NLST.
func ExampleWithMethod_noCWD() {
	p, _ := ftpurl.MustParse("ftp://h/a/%2Fetc/motd").Plan(ftpurl.WithMethod(ftpurl.NoCWD))
	fmt.Printf("%q\n", p.Commands())
	p, _ = ftpurl.MustParse("ftp://h/pub/linux/").Plan(ftpurl.WithMethod(ftpurl.NoCWD))
	fmt.Printf("%q\n", p.Commands())
	// Output:
	// ["TYPE I" "RETR /etc/motd"]
	// ["TYPE A" "LIST pub/linux"]
}

func ExampleWithAbsolutePaths() {
	for _, raw := range []string{
		"ftp://host/foo/bar.html",
		"ftp://host/~/foo/bar.html", // 1997 draft §3.1: "~" is the login directory
	} {
		u := ftpurl.MustParse(raw)
		multi, _ := u.Plan(ftpurl.WithAbsolutePaths())
		single, _ := u.Plan(ftpurl.WithAbsolutePaths(), ftpurl.WithMethod(ftpurl.SingleCWD))
		fmt.Printf("%q %q\n", multi.Commands(), single.Commands())
	}
	// Output:
	// ["CWD /" "CWD foo" "TYPE I" "RETR bar.html"] ["CWD /foo" "TYPE I" "RETR bar.html"]
	// ["CWD foo" "TYPE I" "RETR bar.html"] ["CWD foo" "TYPE I" "RETR bar.html"]
}

func ExampleAction() {
	for _, raw := range []string{
		"ftp://h/pub/",           // (4a)
		"ftp://h/pub;type=d",     // (4b)
		"ftp://h/f.txt;type=a",   // (4c)
		"ftp://h/f.txt",          // (4d)
		"ftp://h/pub/;type=d",    // (4a) with d
		"ftp://h/f.txt;type=zip", // not a typecode: ErrTypecode
	} {
		u, err := ftpurl.Parse(raw)
		if err != nil {
			fmt.Println(errors.Is(err, ftpurl.ErrTypecode))
			continue
		}
		p, _ := u.Plan()
		fmt.Printf("%-16v %q\n", p.Action, p.Commands())
	}
	// Output:
	// list             ["CWD pub" "TYPE A" "LIST"]
	// name-list        ["TYPE A" "NLST pub"]
	// retrieve         ["TYPE A" "RETR f.txt"]
	// retrieve-or-list ["TYPE I" "RETR f.txt"]
	// name-list        ["CWD pub" "TYPE A" "NLST"]
	// true
}

func ExampleAction_String() {
	fmt.Println(ftpurl.Retrieve, ftpurl.List, ftpurl.NameList, ftpurl.RetrieveOrList)
	// Output: retrieve list name-list retrieve-or-list
}

func ExampleAction_MarshalText() {
	b, err := ftpurl.NameList.MarshalText()
	fmt.Println(string(b), err)
	// Output: name-list <nil>
}

func ExampleAction_UnmarshalText() {
	var a ftpurl.Action
	err := a.UnmarshalText([]byte("retrieve-or-list"))
	fmt.Println(a == ftpurl.RetrieveOrList, err)
	// Output: true <nil>
}

func ExampleMethod_String() {
	fmt.Println(ftpurl.MultiCWD, ftpurl.SingleCWD, ftpurl.NoCWD)
	// Output: multicwd singlecwd nocwd
}

func ExampleMethod_MarshalText() {
	b, err := ftpurl.SingleCWD.MarshalText()
	fmt.Println(string(b), err)
	// Output: singlecwd <nil>
}

// A Method is a flag.TextVar value, named as curl's --ftp-method.
func ExampleMethod_UnmarshalText() {
	var m ftpurl.Method
	if err := m.UnmarshalText([]byte("NoCWD")); err != nil {
		panic(err)
	}
	fmt.Println(m == ftpurl.NoCWD)
	fmt.Println(m.UnmarshalText([]byte("cwd")))
	// Output:
	// true
	// ftpurl: unknown method "cwd" (want multicwd, singlecwd or nocwd)
}

// A Method is a command-line flag, named as curl's --ftp-method.
func ExampleMethod() {
	fs := flag.NewFlagSet("ftpget", flag.ContinueOnError)
	method := ftpurl.MultiCWD
	fs.TextVar(&method, "ftp-method", ftpurl.MultiCWD, "multicwd, singlecwd or nocwd")
	if err := fs.Parse([]string{"-ftp-method", "singlecwd"}); err != nil {
		panic(err)
	}
	p, _ := ftpurl.MustParse("ftp://h/a/b/f").Plan(ftpurl.WithMethod(method))
	fmt.Printf("%v %q\n", method, p.Commands())
	// Output: singlecwd ["CWD a/b" "TYPE I" "RETR f"]
}

// Options are values: a program can gather them before it plans.
func ExamplePlanOption() {
	opts := []ftpurl.PlanOption{ftpurl.WithMethod(ftpurl.NoCWD)}
	browserLike := true
	if browserLike {
		opts = append(opts, ftpurl.WithAbsolutePaths())
	}
	p, _ := ftpurl.MustParse("ftp://h/pub/f.txt").Plan(opts...)
	fmt.Printf("%q\n", p.Commands())
	// Output: ["TYPE I" "RETR /pub/f.txt"]
}

// A Plan is plain data: here as JSON, with the action by name.
func ExamplePlan() {
	p, _ := ftpurl.MustParse("ftp://[2001:db8::1]/pub/;type=d").Plan()
	b, _ := json.Marshal(struct {
		Host   string
		Dirs   []string
		Action ftpurl.Action
		Name   string
	}{p.Host, p.Dirs, p.Action, p.Name})
	fmt.Println(string(b))
	// Output: {"Host":"[2001:db8::1]","Dirs":["pub"],"Action":"name-list","Name":""}
}

// A name without a typecode may be a file or a directory (2011 draft
// §3.2.3 (4d)): the Plan retrieves it, and when the server refuses the
// RETR with 550, the client runs the Fallback, which changes into the
// name and lists it.
func ExamplePlan_fallback() {
	p, err := ftpurl.MustParse("ftp://ftp.example.com/pub/linux").Plan()
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Action, p.Commands())
	fmt.Println(p.Fallback.Action, p.Fallback.Commands())
	// Output:
	// retrieve-or-list [CWD pub TYPE I RETR linux]
	// list [CWD linux TYPE A LIST]
}

// A listing with an argument can not tell a missing name from an empty
// directory: vsftpd and Pure-FTPd answer both with 150, nothing, 226.
// So the Plan carries a Verify, CWD of the same argument, that a
// client runs only when the listing came back empty: 250 means the
// directory is empty indeed, 550 that the name does not exist.
func ExamplePlan_verify() {
	for _, raw := range []string{
		"ftp://ftp.example.com/vault/absent;type=d", // NLST with typecode d (2011 draft §3.2.3 (4b))
		"ftp://ftp.example.com/vault/absent/",       // NoCWD: LIST vault/absent
	} {
		p, err := ftpurl.MustParse(raw).Plan(ftpurl.WithMethod(ftpurl.NoCWD))
		if err != nil {
			panic(err)
		}
		fmt.Println(p.Action, p.Commands())
		fmt.Println(p.Verify.Action, p.Verify.Commands())
	}
	// A listing without an argument lists the directory that the CWDs
	// reached, which exists: no Verify.
	p, _ := ftpurl.MustParse("ftp://ftp.example.com/vault/absent/").Plan()
	fmt.Println(p.Action, p.Commands(), p.Verify == nil)
	// Output:
	// name-list [TYPE A NLST vault/absent]
	// change-dir [CWD vault/absent]
	// list [TYPE A LIST vault/absent]
	// change-dir [CWD vault/absent]
	// list [CWD vault CWD absent TYPE A LIST] true
}

// A "~" that an argument begins with, from a segment after the first,
// is sent as "./~": vsftpd, ProFTPD and Pure-FTPd would expand it to a
// home directory. The first segment's "~" is sent as it is.
func ExampleURL_Plan_tilde() {
	for _, raw := range []string{"ftp://h/odd/~", "ftp://h/~/file"} {
		u := ftpurl.MustParse(raw)
		multi, _ := u.Plan()
		none, _ := u.Plan(ftpurl.WithMethod(ftpurl.NoCWD))
		fmt.Printf("%q %q\n", multi.Commands(), none.Commands())
	}
	// Output:
	// ["CWD odd" "TYPE I" "RETR ./~"] ["TYPE I" "RETR odd/~"]
	// ["CWD ~" "TYPE I" "RETR file"] ["TYPE I" "RETR ~/file"]
}
