package ftpurl_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ftpurl/ftpurl"
)

// Parse an ftp URL, log in as it says, and send the commands of its
// Plan: the 2011 draft §3.2.2 and §3.2.3, step by step.
func Example() {
	u, err := ftpurl.Parse("ftp://ftp.example.com/pub/gnu/hello-2.12.tar.gz;type=i")
	if err != nil {
		fmt.Println(err)
		return
	}
	user, pass, _ := u.Login()
	fmt.Println("dial", u.Address())
	fmt.Println("USER", user)
	fmt.Println("PASS", pass)
	p, err := u.Plan()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range p.Commands() {
		fmt.Println(line)
	}
	// Output:
	// dial ftp.example.com:21
	// USER anonymous
	// PASS anonymous@
	// CWD pub
	// CWD gnu
	// TYPE I
	// RETR hello-2.12.tar.gz
}

// A URL holds the parts that an FTP client uses, decoded: Dirs are the
// CWD arguments (a "%2F" is a "/" inside one, RFC 1738 §3.2.2), Name
// the file, Type the final ";type=". Port 0 means the URL has none.
func ExampleURL() {
	u := ftpurl.MustParse("ftp://Alice:s3cret@FTP.Example.com/a%20b/%2Fetc/motd;type=A?v=1#top")
	fmt.Printf("user %q, host %q, port %d\n", u.User.Username(), u.Host, u.Port)
	fmt.Printf("dirs %q, name %q, type %q\n", u.Dirs, u.Name, u.Type)
	fmt.Printf("query %q, fragment %q\n", u.RawQuery, u.Fragment)
	fmt.Println(u.Redacted())
	// Output:
	// user "Alice", host "ftp.example.com", port 0
	// dirs ["a b" "/etc"], name "motd", type "a"
	// query "v=1", fragment "top"
	// ftp://Alice:xxxxx@ftp.example.com/a%20b/%2Fetc/motd;type=a?v=1#top
}

// RFC 1738 §3.2.2: "%2F" is a "/" inside one directory name, so this
// URL means "CWD /etc", then "RETR motd".
func ExampleParse() {
	u, err := ftpurl.Parse("ftp://myname@host.dom/%2Fetc/motd;type=a")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("user %q, host %q, port %d\n", u.User.Username(), u.Host, u.Port)
	fmt.Printf("dirs %q, name %q, type %q\n", u.Dirs, u.Name, u.Type)
	// Output:
	// user "myname", host "host.dom", port 0
	// dirs ["/etc"], name "motd", type "a"
}

// Lenient, the default grammar, takes an IRI as people paste it and
// writes it back as a URI (2011 draft §4.1).
func ExampleParse_iri() {
	u, err := ftpurl.Parse("ftp://ĉat.example.com/weather/☃/snow.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u.Host)
	fmt.Printf("%q\n", u.Dirs)
	fmt.Println(u)
	// Output:
	// xn--at-0la.example.com
	// ["weather" "☃"]
	// ftp://xn--at-0la.example.com/weather/%E2%98%83/snow.txt
}

func ExampleMustParse() {
	u := ftpurl.MustParse("FTP://FTP.Example.COM:21/pub/README")
	fmt.Println(u)
	// Output:
	// ftp://ftp.example.com/pub/README
}

// The grammars differ on "?": RFC 1738 has no query, so "?" is part of
// the file name; RFC 3986 starts a query with it; the 1997 draft, as
// Regexp::Common reads it, refuses it.
func ExampleGrammar_Parse() {
	const raw = "ftp://host/file?v=2"
	for _, g := range []ftpurl.Grammar{ftpurl.RFC1738, ftpurl.RFC2396, ftpurl.RFC3986} {
		u, err := g.Parse(raw)
		if err != nil {
			fmt.Printf("%s: %v\n", g, errors.Unwrap(err))
			continue
		}
		fmt.Printf("%s: name %q, query %q\n", g, u.Name, u.RawQuery)
	}
	// Output:
	// rfc1738: name "file?v=2", query ""
	// rfc2396: invalid path
	// rfc3986: name "file", query "v=2"
}

// A Grammar selects the document that Parse follows. They differ on
// ";" in a segment (data only in Lenient; RFC 1738 §3.2.2 keeps it for
// ";type="), on an empty user name (RFC3986 is the 2011 draft §3.1,
// whose user is not empty), on "_" in a host name (not in the hostname
// of RFC 1738 §3.1 or RFC 2396 §3.2.2), and on raw text outside ASCII
// (Lenient only, which reads IRIs as the 2011 draft §4.1 describes).
func ExampleGrammar() {
	grammars := []ftpurl.Grammar{ftpurl.Lenient, ftpurl.RFC1738, ftpurl.RFC2396, ftpurl.RFC3986}
	for _, raw := range []string{"ftp://h/a;b", "ftp://@h/", "ftp://my_host/", "ftp://h/ĉ"} {
		fmt.Printf("%-15s", raw)
		for _, g := range grammars {
			if _, err := g.Parse(raw); err != nil {
				fmt.Printf(" %s:%v", g, errors.Unwrap(err))
			} else {
				fmt.Printf(" %s:ok", g)
			}
		}
		fmt.Println()
	}
	// Output:
	// ftp://h/a;b     lenient:ok rfc1738:invalid path rfc2396:invalid path rfc3986:invalid path
	// ftp://@h/       lenient:ok rfc1738:ok rfc2396:ok rfc3986:invalid userinfo
	// ftp://my_host/  lenient:ok rfc1738:invalid host rfc2396:invalid host rfc3986:ok
	// ftp://h/ĉ       lenient:ok rfc1738:invalid path rfc2396:invalid path rfc3986:invalid path
}

// A Grammar marshals to its name, so it can be a configuration value.
func ExampleGrammar_MarshalText() {
	b, err := json.Marshal(struct{ Grammar ftpurl.Grammar }{ftpurl.RFC1738})
	fmt.Println(string(b), err)
	_, err = ftpurl.Grammar(9).MarshalText()
	fmt.Println(err)
	// Output:
	// {"Grammar":"rfc1738"} <nil>
	// ftpurl: unknown grammar 9
}

func ExampleGrammar_String() {
	fmt.Println(ftpurl.Lenient, ftpurl.RFC1738, ftpurl.RFC2396, ftpurl.RFC3986)
	// Output:
	// lenient rfc1738 rfc2396 rfc3986
}

// A Grammar reads its name in any case, so it can be a flag
// (flag.TextVar) or a configuration value.
func ExampleGrammar_UnmarshalText() {
	var g ftpurl.Grammar
	if err := g.UnmarshalText([]byte("RFC3986")); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(g)
	fmt.Println(g.UnmarshalText([]byte("rfc1808")))
	// Output:
	// rfc3986
	// ftpurl: unknown grammar "rfc1808" (want lenient, rfc1738, rfc2396 or rfc3986)
}

// String writes the one normalized form, also for a URL built by hand:
// lower-case A-label host, no default port, each segment escaped on its
// own, lower-case typecode.
func ExampleURL_String() {
	u := ftpurl.URL{
		User: ftpurl.User("anonymous"),
		Host: "Bücher.Example",
		Port: 21,
		Dirs: []string{"/pub", "a;b"},
		Name: "read me.txt",
		Type: 'I',
	}
	fmt.Println(u.String())
	fmt.Printf("%q\n", ftpurl.URL{}.String())
	// Output:
	// ftp://anonymous@xn--bcher-kva.example/%2Fpub/a%3Bb/read%20me.txt;type=i
	// ""
}

func ExampleURL_Redacted() {
	u := ftpurl.MustParse("ftp://fellow:bad-guy@203.0.113.42/%2Fetc/motd")
	fmt.Println(u.Redacted())
	// Output:
	// ftp://fellow:xxxxx@203.0.113.42/%2Fetc/motd
}

// Address is what net.Dial takes: port 21 unless the URL says otherwise
// (RFC 1738 §3.2), 990 for ftps, IPv6 in brackets.
func ExampleURL_Address() {
	for _, raw := range []string{
		"ftp://ftp.example.com/",
		"ftp://example.com:49557/",
		"ftp://[2001:DB8::1]/pub/",
		"ftps://ftp.example.com/",
	} {
		fmt.Println(ftpurl.MustParse(raw).Address())
	}
	// Output:
	// ftp.example.com:21
	// example.com:49557
	// [2001:db8::1]:21
	// ftp.example.com:990
}

func ExampleUser() {
	u := ftpurl.URL{User: ftpurl.User("jamesc"), Host: "ftp.harlequin.com", Name: "foo.html"}
	fmt.Println(u.String())
	// Output:
	// ftp://jamesc@ftp.harlequin.com/foo.html
}

// A ":" or "@" in a password is escaped, and Redacted hides it.
func ExampleUserPassword() {
	u := ftpurl.URL{User: ftpurl.UserPassword("user1", "p@ss:word"), Host: "example.net"}
	fmt.Println(u.String())
	fmt.Println(u.Redacted())
	// Output:
	// ftp://user1:p%40ss%3Aword@example.net/
	// ftp://user1:xxxxx@example.net/
}

// A Userinfo is decoded (RFC 1738 §3.2.1), and a nil one, as in a URL
// without userinfo, has an empty name and no password.
func ExampleUserinfo() {
	for _, raw := range []string{"ftp://jo%40home:p%3Ass@h/", "ftp://h/"} {
		ui := ftpurl.MustParse(raw).User
		p, ok := ui.Password()
		fmt.Printf("nil %v, name %q, password %q set %v\n", ui == nil, ui.Username(), p, ok)
	}
	// Output:
	// nil false, name "jo@home", password "p:ss" set true
	// nil true, name "", password "" set false
}

// RFC 1738 §3.2.1: "ftp://@host.com/" has an empty user name, while
// "ftp://host.com/" has no userinfo at all.
func ExampleUserinfo_Username() {
	for _, raw := range []string{"ftp://@host.com/", "ftp://host.com/", "ftp://myname@host.dom/"} {
		u := ftpurl.MustParse(raw)
		fmt.Printf("%q has userinfo: %v, user name %q\n", raw, u.User != nil, u.User.Username())
	}
	// Output:
	// "ftp://@host.com/" has userinfo: true, user name ""
	// "ftp://host.com/" has userinfo: false, user name ""
	// "ftp://myname@host.dom/" has userinfo: true, user name "myname"
}

// RFC 1738 §3.2.1: "ftp://foo:@host.com/" has an empty password, which
// is not the same as none.
func ExampleUserinfo_Password() {
	for _, raw := range []string{"ftp://foo:@host.com/", "ftp://foo@host.com/", "ftp://foo:b%40r@host.com/"} {
		p, ok := ftpurl.MustParse(raw).User.Password()
		fmt.Printf("%q: password %q, set %v\n", raw, p, ok)
	}
	// Output:
	// "ftp://foo:@host.com/": password "", set true
	// "ftp://foo@host.com/": password "", set false
	// "ftp://foo:b%40r@host.com/": password "b@r", set true
}

// The typecode is the final ";type=" of the path, in any case; Type
// holds its lower-case letter (2011 draft §3.2.3.1).
func ExampleTypecode() {
	for _, raw := range []string{
		"ftp://h/pub/file.tar;TYPE=I",
		"ftp://h/pub/;type=d",
		"ftp://h/pub/notes.txt",
	} {
		u := ftpurl.MustParse(raw)
		fmt.Printf("%q directory listing: %v\n", u.Type, u.Type == ftpurl.TypeDirectory)
	}
	// Output:
	// "i" directory listing: false
	// "d" directory listing: true
	// "" directory listing: false
}

// Every error is an *Error: errors.Is finds its sentinel, errors.As its
// offset; the password never appears in it.
func ExampleError() {
	_, err := ftpurl.Parse("ftp://fellow:bad-guy@example.com:70000/")
	var e *ftpurl.Error
	if errors.As(err, &e) {
		fmt.Println(e.Op, e.URL, e.Offset)
	}
	fmt.Println(errors.Is(err, ftpurl.ErrPort))
	fmt.Println(err)
	// Output:
	// parse ftp://fellow:xxxxx@example.com:70000/ 33
	// true
	// ftpurl: parse "ftp://fellow:xxxxx@example.com:70000/": invalid port at offset 33: port is greater than 65535
}

// A Typecode's String is its letter as URL.String writes it, in lower
// case; "" for none; and the byte in hex for a value that is no letter.
func ExampleTypecode_String() {
	fmt.Printf("%q %q %q\n", ftpurl.TypeImage, ftpurl.MustParse("ftp://h/;TYPE=D").Type, ftpurl.TypeNone)
	fmt.Println(ftpurl.Typecode('\n'))
	// Output:
	// "i" "d" ""
	// Typecode(0x0a)
}

// The message says the operation, the redacted URL, the fault and its
// byte offset, and what is wrong in plain words.
func ExampleError_Error() {
	// Two faults in the path: the earlier, the ";", is reported.
	_, err := ftpurl.RFC3986.Parse("ftp://h/a;b c/d")
	fmt.Println(err)
	// Output:
	// ftpurl: parse "ftp://h/a;b c/d": invalid path at offset 9: ";" is allowed only in the final ";type=" (RFC 1738 §3.2.2)
}

// Unwrap returns exactly one sentinel, so errors.Is tells the kind of
// fault and a switch on it needs no string matching.
func ExampleError_Unwrap() {
	for _, raw := range []string{"ftp://h:99999/", "ftp://h/a%zz", "ftp://h/f%0D%0ADELE%20x", "ftp://h/f;type=xx"} {
		_, err := ftpurl.Parse(raw)
		var e *ftpurl.Error
		if errors.As(err, &e) {
			fmt.Printf("%s: %v, is ErrControl: %v\n", raw, e.Unwrap(), errors.Is(err, ftpurl.ErrControl))
		}
	}
	// Output:
	// ftp://h:99999/: invalid port, is ErrControl: false
	// ftp://h/a%zz: invalid percent-escape, is ErrControl: false
	// ftp://h/f%0D%0ADELE%20x: control character, is ErrControl: true
	// ftp://h/f;type=xx: invalid typecode, is ErrControl: false
}

// A Typecode is its letter in JSON (and in flags and configuration
// files), not its byte value; TypeNone is "".
func ExampleTypecode_MarshalText() {
	b, _ := json.Marshal(struct {
		Type, None ftpurl.Typecode
	}{ftpurl.TypeImage, ftpurl.TypeNone})
	fmt.Println(string(b))

	var v struct{ Type ftpurl.Typecode }
	err := json.Unmarshal([]byte(`{"Type":"D"}`), &v)
	fmt.Println(v.Type == ftpurl.TypeDirectory, err)
	// Output:
	// {"Type":"i","None":""}
	// true <nil>
}

// ParseInto reuses one URL value for a stream of URLs, as a crawler or
// a log reader would: no allocation for a URL without escapes whose
// host needs no IDNA.
func ExampleGrammar_ParseInto() {
	var u ftpurl.URL
	for _, raw := range []string{
		"ftp://ftp.freebsd.org/pub/FreeBSD/README.TXT",
		"ftp://ftp.example.com:2121/a/b/c/",
		"ftp://bad host/",
	} {
		if err := ftpurl.Lenient.ParseInto(&u, raw); err != nil {
			fmt.Println(err, u.String() == "")
			continue
		}
		fmt.Printf("%s %q %q\n", u.Address(), u.Dirs, u.Name)
	}
	// Output:
	// ftp.freebsd.org:21 ["pub" "FreeBSD"] "README.TXT"
	// ftp.example.com:2121 ["a" "b" "c"] ""
	// ftpurl: parse "ftp://bad host/": invalid host at offset 9: character ' ' not allowed in the host true
}

// A URL without a port refers to DefaultPort (RFC 1738 §3.2): Port stays
// 0, so String writes none, and Address supplies 21.
func ExampleDefaultPort() {
	u := ftpurl.MustParse("ftp://ftp.example.com/pub/")
	fmt.Println(u.Port, u.Address(), ftpurl.DefaultPort)
	// Output:
	// 0 ftp.example.com:21 21
}

// An ftps URL (FTP over TLS; the 2011 draft §5 and §7.2 name the
// scheme) without a port refers to DefaultFTPSPort, 990: String leaves
// out 990 and keeps 21, which is ftp's default, not ftps'.
func ExampleDefaultFTPSPort() {
	u := ftpurl.MustParse("ftps://ftp.example.com:990/pub/")
	fmt.Println(u.Scheme, u.Port, u.Address(), ftpurl.DefaultFTPSPort)
	fmt.Println(u)
	fmt.Println(ftpurl.MustParse("FTPS://ftp.example.com:21/pub/"))
	// Output:
	// ftps 990 ftp.example.com:990 990
	// ftps://ftp.example.com/pub/
	// ftps://ftp.example.com:21/pub/
}

// Scheme is "ftp" or "ftps", in lower case, in a URL that Parse returns.
// Lenient and RFC3986 read ftps (2011 draft §5); RFC 1738 and the 1997
// draft predate it, so RFC1738 and RFC2396 refuse it with ErrScheme.
// In a URL built by hand, an empty Scheme means ftp.
func ExampleURL_scheme() {
	u := ftpurl.MustParse("FTPS://h/pub/f.txt")
	fmt.Println(u.Scheme, u.Address())
	_, err := ftpurl.RFC1738.Parse("ftps://h/pub/f.txt")
	fmt.Println(errors.Is(err, ftpurl.ErrScheme), err)
	fmt.Println(ftpurl.URL{Host: "h", Name: "f.txt"})
	// Output:
	// ftps h:990
	// true ftpurl: parse "ftps://h/pub/f.txt": not an ftp URL at offset 0: scheme "ftps" is not ftp: RFC 1738 (1994) predates ftps (2011 draft §5)
	// ftp://h/f.txt
}

// PortOrDefault is the port a client connects to: the URL's, or its
// scheme's default.
func ExampleURL_PortOrDefault() {
	for _, raw := range []string{"ftp://h/", "ftps://h/", "ftps://h:2121/"} {
		fmt.Println(ftpurl.MustParse(raw).PortOrDefault())
	}
	// Output:
	// 21
	// 990
	// 2121
}

// The 2011 draft's typecodes a, e, i and u each choose a TYPE (RFC 959
// §3.1.1); d asks for a listing instead.
func ExampleTypecode_letters() {
	for _, t := range []ftpurl.Typecode{ftpurl.TypeASCII, ftpurl.TypeEBCDIC, ftpurl.TypeImage, ftpurl.TypeUnicode, ftpurl.TypeDirectory} {
		u := ftpurl.MustParse("ftp://h/f;type=" + t.String())
		p, err := u.Plan(ftpurl.WithMethod(ftpurl.NoCWD))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(t, p.Commands())
	}
	// Output:
	// a [TYPE A RETR f]
	// e [TYPE E RETR f]
	// i [TYPE I RETR f]
	// u [TYPE U RETR f]
	// d [TYPE A NLST f]
}

// AppendText appends the letter to a buffer, as encoding.TextAppender
// asks: nothing for TypeNone, an error for a value that is no letter.
func ExampleTypecode_AppendText() {
	b := []byte("type=")
	b, err := ftpurl.TypeImage.AppendText(b)
	fmt.Println(string(b), err)
	b, err = ftpurl.TypeNone.AppendText(b)
	fmt.Println(string(b), err)
	_, err = ftpurl.Typecode('\n').AppendText(nil)
	fmt.Println(err)
	// Output:
	// type=i <nil>
	// type=i <nil>
	// ftpurl: Typecode(0x0a) is not a typecode letter
}

// UnmarshalText takes one ASCII letter in either case and stores it in
// lower case, as Parse does; "" is TypeNone. Other text is an error
// and leaves t as it was.
func ExampleTypecode_UnmarshalText() {
	var t ftpurl.Typecode
	for _, text := range []string{"I", "ii", ""} {
		err := t.UnmarshalText([]byte(text))
		fmt.Printf("%q %q %v\n", text, t, err)
	}
	// Output:
	// "I" "i" <nil>
	// "ii" "i" ftpurl: typecode "ii" is not one ASCII letter
	// "" "" <nil>
}

// Each fault of the syntax has its sentinel, for errors.Is: the URL's
// part, an escape, or a control character (which ranks before the part).
func ExampleError_sentinels() {
	sentinels := []error{
		ftpurl.ErrScheme, ftpurl.ErrUserinfo, ftpurl.ErrHost, ftpurl.ErrPort,
		ftpurl.ErrPath, ftpurl.ErrTypecode, ftpurl.ErrEscape, ftpurl.ErrControl,
	}
	for _, raw := range []string{
		"http://h/",
		"ftp://a b@h/",
		"ftp://h..example/",
		"ftp://h:0/",
		"ftp://h/a#b#c",
		"ftp://h/f;type=ab",
		"ftp://h/%G0",
		"ftp://h/a%00",
	} {
		_, err := ftpurl.RFC3986.Parse(raw)
		for _, s := range sentinels {
			if errors.Is(err, s) {
				fmt.Printf("%-18s %v\n", raw, s)
			}
		}
	}
	// Output:
	// http://h/          not an ftp URL
	// ftp://a b@h/       invalid userinfo
	// ftp://h..example/  invalid host
	// ftp://h:0/         invalid port
	// ftp://h/a#b#c      invalid path
	// ftp://h/f;type=ab  invalid typecode
	// ftp://h/%G0        invalid percent-escape
	// ftp://h/a%00       control character
}

// Redact hides a password in input that may not parse, as an error
// message does, for a log line.
func ExampleRedact() {
	fmt.Println(ftpurl.Redact("ftp://alice:s3cret@ftp.example.com:99999/"))
	fmt.Println(ftpurl.Redact("ftp://ftp.example.com/pub/"))
	// Output:
	// ftp://alice:xxxxx@ftp.example.com:99999/
	// ftp://ftp.example.com/pub/
}
