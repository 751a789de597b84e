package ftpurl_test

import (
	"fmt"
	"log"

	"github.com/ftpurl/ftpurl"
)

// The README's parse, as it shows it (readme_test.go checks that every
// ```go block of the README is in an Example function of this file or
// of fetch/example_readme_test.go).
func Example_readmeParse() {
	u, err := ftpurl.Parse("ftp://alice@ftp.example.org/pub/a%2Fb/notes.txt;type=a")
	if err != nil {
		log.Fatal(err) // *ftpurl.Error: the part at fault and its byte offset
	}
	fmt.Println(u.Address(), u.Dirs, u.Name, u.Type) // ftp.example.org:21 [pub a/b] notes.txt a
	if p, err := u.Plan(); err == nil {
		fmt.Println(p.Commands()) // [CWD pub CWD a/b TYPE A RETR notes.txt]
	}
	// Output:
	// ftp.example.org:21 [pub a/b] notes.txt a
	// [CWD pub CWD a/b TYPE A RETR notes.txt]
}
