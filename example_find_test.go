package ftpurl_test

import (
	"fmt"
	"regexp"

	"github.com/ftpurl/ftpurl"
)

// Lenient finds URLs in prose: the sentence's punctuation and the
// brackets around a URL stay out, "sftp://" is another scheme, and an
// invalid candidate is skipped without hiding the URLs after it.
func ExampleGrammar_FindAll() {
	text := `Release 1.2 is on ftp://ftp.example.org/pub/release-1.2.tar.gz.
Mirrors: <ftp://mirror.example.net/pub/> (or ftp://192.0.2.7/pub), not sftp://host/x.
The old server ftp://old.example:99999/ is gone; see FTP://Archive.Example/Old_(1995)!`
	for _, m := range ftpurl.Lenient.FindAll(text, -1) {
		fmt.Printf("%d-%d %s\n", m.Start, m.End, m.URL)
	}
	// Output:
	// 18-62 ftp://ftp.example.org/pub/release-1.2.tar.gz
	// 74-103 ftp://mirror.example.net/pub/
	// 109-128 ftp://192.0.2.7/pub
	// 203-235 ftp://archive.example/Old_(1995)
}

// A Match holds where the URL is in the text and the URL that Parse
// returns for that text.
func ExampleMatch() {
	text := "Get ftp://anonymous@ftp.example.com/pub/%2Fetc/motd;type=a."
	for _, m := range ftpurl.Lenient.FindAll(text, 1) {
		fmt.Println(text[m.Start:m.End])
		fmt.Println(m.URL.Host, m.URL.Dirs, m.URL.Name, m.URL.Type)
	}
	// Output:
	// ftp://anonymous@ftp.example.com/pub/%2Fetc/motd;type=a
	// ftp.example.com [pub /etc] motd a
}

// The pattern of the RFC2396 grammar is Regexp::Common's $RE{URI}{FTP}
// with its -keep groups, plus the checks that Parse makes.
func ExampleGrammar_Pattern() {
	re := regexp.MustCompile("^(?:" + ftpurl.RFC2396.Pattern() + ")$")
	m := re.FindStringSubmatch("ftp://abigail:secret@ftp.example.com:21/some/file;type=A")
	for _, name := range []string{"user", "password", "host", "port", "path", "type"} {
		fmt.Printf("%s=%s\n", name, m[re.SubexpIndex(name)])
	}
	fmt.Println(re.MatchString("FTP://ftp.example.com/some/path;type=I"))
	fmt.Println(re.MatchString("ftp://ftp.example.com:65536/"))     // port out of range
	fmt.Println(re.MatchString("ftp://ftp.example.com/some/path?")) // no query in RFC 2396 ftp URLs
	// Output:
	// user=abigail
	// password=secret
	// host=ftp.example.com
	// port=21
	// path=some/file
	// type=A
	// true
	// false
	// false
}
