package ftpurl_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/url"

	"github.com/ftpurl/ftpurl"
)

func ExampleURL_ResolveReference() {
	base := ftpurl.MustParse("ftp://ftp.example.com/pub/linux/kernel/README;type=a")
	for _, ref := range []string{
		"v6.x/linux-6.1.tar.xz",  // relative: the base's last segment and typecode go
		"../../doc/",             // dot segments are removed (RFC 3986 §5.2.4)
		"/%2Fetc/motd",           // %2F stays inside its segment
		"my notes.txt;type=i",    // raw space accepted, as Lenient does
		"?q",                     // the base path, typecode included, stays
		"//mirror.example/pub/.", // another host
		"http://example.com/",    // another scheme
	} {
		u, err := base.ResolveReference(ref)
		if err != nil {
			fmt.Println(errors.Is(err, ftpurl.ErrScheme), err)
			continue
		}
		fmt.Println(u)
	}
	// Output:
	// ftp://ftp.example.com/pub/linux/kernel/v6.x/linux-6.1.tar.xz
	// ftp://ftp.example.com/pub/doc/
	// ftp://ftp.example.com/%2Fetc/motd
	// ftp://ftp.example.com/pub/linux/kernel/my%20notes.txt;type=i
	// ftp://ftp.example.com/pub/linux/kernel/README;type=a?q
	// ftp://mirror.example/pub/
	// true ftpurl: parse "http://example.com/": not an ftp URL at offset 0: scheme "http" is not ftp or ftps
}

func ExampleFromURL() {
	// net/url keeps "%2F" only in RawPath, and leaves ";type=i" in Path.
	v, err := url.Parse("ftp://anonymous@ftp.example.com/%2Fetc/motd;type=i")
	if err != nil {
		panic(err)
	}
	fmt.Printf("net/url: Path %q, RawPath %q\n", v.Path, v.RawPath)

	u, err := ftpurl.FromURL(v)
	if err != nil {
		panic(err)
	}
	fmt.Printf("ftpurl: Dirs %q, Name %q, Type %q\n", u.Dirs, u.Name, u.Type)

	_, err = ftpurl.FromURL(&url.URL{Scheme: "https", Host: "example.com"})
	fmt.Println(errors.Is(err, ftpurl.ErrScheme))
	// Output:
	// net/url: Path "//etc/motd;type=i", RawPath "/%2Fetc/motd;type=i"
	// ftpurl: Dirs ["/etc"], Name "motd", Type "i"
	// true
}

func ExampleURL_URL() {
	u := ftpurl.MustParse("ftp://user:pa%40ss@[2001:db8::1]:2121/pub/a%2Fb;type=d#top")
	v := u.URL()
	fmt.Println(v.Hostname(), v.Port())
	fmt.Println(v.User.Username())
	fmt.Printf("%q %q\n", v.Path, v.RawPath)
	fmt.Println(v.Redacted())

	back, _ := ftpurl.FromURL(v)
	fmt.Println(back.Equal(u))
	// Output:
	// 2001:db8::1 2121
	// user
	// "/pub/a/b;type=d" "/pub/a%2Fb;type=d"
	// ftp://user:xxxxx@[2001:db8::1]:2121/pub/a%2Fb;type=d#top
	// true
}

func ExampleURL_AppendText() {
	u := ftpurl.MustParse("FTP://Ftp.Example.COM:21/pub/README;TYPE=A")
	b := []byte("mirror = ")
	b, _ = u.AppendText(b)
	fmt.Println(string(b))
	// Output:
	// mirror = ftp://ftp.example.com/pub/README;type=a
}

func ExampleURL_MarshalText() {
	type config struct {
		Mirror ftpurl.URL  `json:"mirror"`
		Backup *ftpurl.URL `json:"backup"`
		Unset  ftpurl.URL  `json:"unset"`
	}
	c := config{
		Mirror: *ftpurl.MustParse("ftp://ftp.example.com/pub/my file.iso"),
		Backup: ftpurl.MustParse("ftp://Bücher.example/pub/"),
	}
	b, _ := json.Marshal(c)
	fmt.Println(string(b))
	// Output:
	// {"mirror":"ftp://ftp.example.com/pub/my%20file.iso","backup":"ftp://xn--bcher-kva.example/pub/","unset":""}
}

func ExampleURL_UnmarshalText() {
	var c struct {
		Mirror ftpurl.URL  `json:"mirror"`
		Backup *ftpurl.URL `json:"backup"`
	}
	err := json.Unmarshal([]byte(`{"mirror":"ftp://ftp.example.com/pub/;type=d","backup":""}`), &c)
	fmt.Println(c.Mirror.Name == "", c.Mirror.Type, err)
	fmt.Printf("%q\n", c.Backup.String()) // "" is the zero URL

	err = json.Unmarshal([]byte(`{"mirror":"ftp://ftp.example.com:0/"}`), &c)
	fmt.Println(errors.Is(err, ftpurl.ErrPort))
	// Output:
	// true d <nil>
	// ""
	// true
}

func ExampleURL_UnmarshalText_flag() {
	fs := flag.NewFlagSet("mirror", flag.ContinueOnError)
	var mirror ftpurl.URL
	fs.TextVar(&mirror, "mirror", ftpurl.MustParse("ftp://ftp.example.com/pub/"), "the `URL` to fetch from")
	_ = fs.Parse([]string{"-mirror", "ftp://Mirror.Example/pub/linux/;type=d"})
	fmt.Println(mirror.Host, mirror.Dirs, mirror.Type)
	// Output:
	// mirror.example [pub linux] d
}

func ExampleURL_Equal() {
	a := ftpurl.MustParse("ftp://FTP.Example.com:21/pub/%7Euser/")
	b := ftpurl.MustParse("ftp://ftp.example.com/pub/~user/")
	c := ftpurl.MustParse("ftp://ftp.example.com/pub%2F~user/")
	fmt.Println(a.Equal(b)) // port 21, host case and escapes do not matter
	fmt.Println(a.Equal(c)) // %2F is not /
	d := ftpurl.MustParse("ftps://ftp.example.com:990/pub/~user/")
	e := ftpurl.MustParse("ftps://ftp.example.com/pub/~user/")
	fmt.Println(d.Equal(e)) // 990 is ftps' default port
	fmt.Println(d.Equal(b)) // ftps is not ftp
	// Output:
	// true
	// false
	// true
	// false
}
