package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README and the pages of docs/ show the tool's output; this test
// runs every example there and compares, so that the front door never
// shows output the tool does not print. An example is a
// "$ go run ./cmd/ftpurl ARGS" line in a ```console block, optionally fed
// by "printf 'TEXT' |" or "echo 'TEXT' |", and its output is the lines
// after it, up to the next "$ " line or the end of the block: standard
// output and standard error as a terminal shows them, then the
// "exit status N" line that go run prints when the status is not 0.
// The "$ go run ./fetch/cmd/ftpget" examples are fetch/cmd/ftpget's
// readme_test.go's to run.
func TestREADMEExamplesAreReal(t *testing.T) {
	docs := []string{"../../README.md"}
	more, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, more...)
	n := 0
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(doc, "../../")
		for _, ex := range readmeExamples(string(b)) {
			n++
			t.Run(name+": "+ex.command, func(t *testing.T) {
				args, stdin, err := parseCommand(ex.command)
				if err != nil {
					t.Fatal(err)
				}
				var out bytes.Buffer // one buffer: run flushes stdout before it writes an error
				status := run(args, strings.NewReader(stdin), &out, &out)
				got := out.String()
				if status != 0 {
					got += fmt.Sprintf("exit status %d\n", status)
				}
				if got != ex.output {
					t.Errorf("$ %s\ngot:\n%s\n%s shows:\n%s", ex.command, got, name, ex.output)
				}
			})
		}
	}
	if n < 8 {
		t.Errorf("found %d examples in README.md and docs/*.md, want at least 8: is the format still \"$ go run ./cmd/ftpurl\"?", n)
	}
}

type readmeExample struct {
	command string // after "$ "
	output  string
}

func readmeExamples(readme string) []readmeExample {
	var examples []readmeExample
	inBlock := false
	var cur *readmeExample
	flush := func() {
		if cur != nil {
			examples = append(examples, *cur)
			cur = nil
		}
	}
	for _, line := range strings.Split(readme, "\n") {
		switch {
		case !inBlock:
			inBlock = line == "```console"
		case line == "```":
			flush()
			inBlock = false
		case strings.HasPrefix(line, "$ go run ./fetch/cmd/ftpget "):
			flush() // fetch/cmd/ftpget's readme_test.go runs it
		case strings.HasPrefix(line, "$ "):
			flush()
			cur = &readmeExample{command: strings.TrimPrefix(line, "$ ")}
		case cur != nil:
			cur.output += line + "\n"
		}
	}
	return examples
}

// parseCommand reads "[printf 'TEXT' | ]go run ./cmd/ftpurl ARGS" with
// the shell's quoting rules for '...' and "..." (only \" and \\ are
// escapes inside double quotes).
func parseCommand(cmd string) (args []string, stdin string, err error) {
	words, err := shellWords(cmd)
	if err != nil {
		return nil, "", err
	}
	if i := indexOf(words, "|"); i >= 0 {
		feed := words[:i]
		words = words[i+1:]
		switch {
		case len(feed) == 2 && feed[0] == "printf":
			stdin = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(feed[1])
		case len(feed) >= 1 && feed[0] == "echo":
			stdin = strings.Join(feed[1:], " ") + "\n"
		default:
			return nil, "", fmt.Errorf("unknown input command %q", feed)
		}
	}
	if len(words) < 3 || words[0] != "go" || words[1] != "run" || words[2] != "./cmd/ftpurl" {
		return nil, "", fmt.Errorf("not a go run ./cmd/ftpurl command: %q", words)
	}
	return words[3:], stdin, nil
}

// shellWords splits s into words; an unquoted "|" is a word of its own.
func shellWords(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '|':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
			words = append(words, "|")
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unclosed ' in %q", s)
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, fmt.Errorf("unclosed \" in %q", s)
			}
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if x == w {
			return i
		}
	}
	return -1
}

// The parser above is itself code; these are the forms the README uses.
func TestParseCommandReadsShellQuoting(t *testing.T) {
	tests := []struct {
		cmd   string
		args  []string
		stdin string
	}{
		{`go run ./cmd/ftpurl 'ftp://h/a;type=a' -x`, []string{"ftp://h/a;type=a", "-x"}, ""},
		{`go run ./cmd/ftpurl -get '{host} {port}' "a\"b" c'd'e`, []string{"-get", "{host} {port}", `a"b`, "cde"}, ""},
		{`printf 'a\tb ftp://h/ |x\n' | go run ./cmd/ftpurl -find`, []string{"-find"}, "a\tb ftp://h/ |x\n"},
		{`echo 'see ftp://h/f.' | go run ./cmd/ftpurl -find`, []string{"-find"}, "see ftp://h/f.\n"},
	}
	for _, tt := range tests {
		args, stdin, err := parseCommand(tt.cmd)
		if err != nil || strings.Join(args, "\x00") != strings.Join(tt.args, "\x00") || stdin != tt.stdin {
			t.Errorf("parseCommand(%q) = %q, %q, %v; want %q, %q", tt.cmd, args, stdin, err, tt.args, tt.stdin)
		}
	}
	for _, bad := range []string{`go run ./cmd/ftpurl 'x`, `ftpurl x`, `cat f | go run ./cmd/ftpurl -find`} {
		if _, _, err := parseCommand(bad); err == nil {
			t.Errorf("parseCommand(%q) succeeded, want an error", bad)
		}
	}
}
