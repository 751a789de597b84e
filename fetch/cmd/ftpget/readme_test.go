package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
)

// The README (and docs/*.md) show ftpget's output; this test runs every
// "$ go run ./fetch/cmd/ftpget ARGS" line of a ```console block, in
// process, and compares what it prints with the lines after it, up to
// the next "$ " line or the end of the block: standard output and
// standard error as a terminal shows them, then the "exit status N"
// line that go run prints when the status is not 0. It runs in an
// empty directory of its own (for -O), with no terminal.
//
// The examples fetch from ftp.example.org: the test serves readmeFiles
// with ftpserverlib on 127.0.0.1, puts its address in place of
// "ftp.example.org" in the arguments, and puts "ftp.example.org" back
// in the output. fetch/example_readme_test.go serves the same files to
// the README's Go examples.
var readmeFiles = map[string]string{
	"pub/README":       "Welcome to ftp.example.org.\n",
	"pub/linux/README": "Linux mirrors moved to /mirror/linux.\n",
}

// readmeModTime is the time of every file, for a fixed Last-Modified.
var readmeModTime = time.Date(2024, time.May, 1, 12, 0, 0, 0, time.UTC)

const readmeHost = "ftp.example.org"

func TestREADMEExamplesAreReal(t *testing.T) {
	docs := readmeDocs(t)
	if docs == nil {
		t.Skip("not in the repository: no ../../../README.md")
	}
	addr := readmeServer(t)
	n := 0
	for _, doc := range docs {
		for _, ex := range ftpgetExamples(doc.text) {
			n++
			t.Run(doc.name+": "+ex.command, func(t *testing.T) {
				words, err := splitWords(ex.command)
				if err != nil {
					t.Fatal(err)
				}
				args := words[3:]
				for i := range args {
					args[i] = strings.ReplaceAll(args[i], readmeHost, addr)
				}
				t.Chdir(t.TempDir())
				var out bytes.Buffer // one buffer: the order a terminal shows
				code := run(args, strings.NewReader(""), &out, &out, nil)
				got := strings.ReplaceAll(out.String(), addr, readmeHost)
				if code != 0 {
					got += fmt.Sprintf("exit status %d\n", code)
				}
				if got != ex.output {
					t.Errorf("$ %s\ngot:\n%s\n%s shows:\n%s", ex.command, got, doc.name, ex.output)
				}
			})
		}
	}
	if n < 3 {
		t.Errorf("found %d ftpget examples in README.md and docs/*.md, want at least 3: is the format still \"$ go run ./fetch/cmd/ftpget\"?", n)
	}
}

type readmeDoc struct{ name, text string }

// readmeDocs reads README.md and docs/*.md at the repository's root;
// nil when there is no README there (a module zip holds fetch/ alone).
func readmeDocs(t *testing.T) []readmeDoc {
	root := filepath.Join("..", "..", "..")
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if os.IsNotExist(err) {
		if _, werr := os.Stat(filepath.Join(root, "go.work")); werr == nil {
			t.Fatal(err) // the repository without its README
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	docs := []readmeDoc{{"README.md", string(b)}}
	names, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, readmeDoc{"docs/" + filepath.Base(name), string(b)})
	}
	return docs
}

// readmeServer serves readmeFiles and returns its address.
func readmeServer(t *testing.T) string {
	dir := t.TempDir()
	for name, text := range readmeFiles {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, readmeModTime, readmeModTime); err != nil {
			t.Fatal(err)
		}
	}
	srv := ftpserver.NewFtpServer(&driver{root: dir, settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30}})
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	t.Cleanup(func() { _ = srv.Stop(); <-done })
	return srv.Addr()
}

type ftpgetExample struct {
	command string // after "$ "
	output  string
}

// ftpgetExamples finds the "$ go run ./fetch/cmd/ftpget" lines of the
// ```console blocks in doc, each with the lines that follow it. Other
// "$ " lines (cmd/ftpurl's readme_test.go runs those) end an example.
func ftpgetExamples(doc string) []ftpgetExample {
	var examples []ftpgetExample
	inBlock := false
	var cur *ftpgetExample
	flush := func() {
		if cur != nil {
			examples = append(examples, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case !inBlock:
			inBlock = line == "```console"
		case line == "```":
			flush()
			inBlock = false
		case strings.HasPrefix(line, "$ "):
			flush()
			if strings.HasPrefix(line, "$ go run ./fetch/cmd/ftpget ") {
				cur = &ftpgetExample{command: strings.TrimPrefix(line, "$ ")}
			}
		case cur != nil:
			cur.output += line + "\n"
		}
	}
	return examples
}

// splitWords splits a command line at spaces, with the shell's '...'
// quoting; it refuses what it does not read (other quotes, pipes,
// redirections), so that an example never runs other than it reads.
func splitWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"', '\\', '|', '<', '>', '&', ';', '$', '`', '*', '?':
			return nil, fmt.Errorf("%q: unquoted %c is not read here; quote it with '...'", s, c)
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	if len(words) < 3 || words[0] != "go" || words[1] != "run" || words[2] != "./fetch/cmd/ftpget" {
		return nil, fmt.Errorf("not a go run ./fetch/cmd/ftpget command: %q", s)
	}
	return words, nil
}

func TestSplitWords(t *testing.T) {
	got, err := splitWords(`go run ./fetch/cmd/ftpget -I 'ftp://h/a;type=d' x`)
	if err != nil || strings.Join(got, "|") != "go|run|./fetch/cmd/ftpget|-I|ftp://h/a;type=d|x" {
		t.Errorf("splitWords = %q, %v", got, err)
	}
	for _, bad := range []string{`go run ./fetch/cmd/ftpget 'x`, `go run ./fetch/cmd/ftpget a;b`, `ftpget x`, `go run ./fetch/cmd/ftpget x > f`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q) succeeded, want an error", bad)
		}
	}
}
