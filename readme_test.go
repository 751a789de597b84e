package ftpurl_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every ```go block of README.md and docs/*.md is code that runs: it is
// a run of lines of an Example function's body (less the body's one tab
// of indentation), so go test compiles it, runs it and checks its
// output. A block that uses package fetch is in
// fetch/example_readme_test.go, any other in example_readme_test.go.
// cmd/ftpurl's and fetch/cmd/ftpget's readme_test.go run the console
// examples.
func TestREADMEGoBlocksAreExamples(t *testing.T) {
	if _, err := os.Stat("go.work"); err != nil {
		t.Skip("not in the repository (no go.work): fetch/ is another module")
	}
	examples := map[string][]string{
		"ftpurl": exampleBodies(t, "example_readme_test.go"),
		"fetch":  exampleBodies(t, filepath.Join("fetch", "example_readme_test.go")),
	}
	files := []string{"README.md"}
	docs, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, docs...)
	n := 0
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, block := range goBlocks(string(b)) {
			n++
			pkg := "ftpurl"
			if strings.Contains(block, "fetch.") {
				pkg = "fetch"
			}
			if !containsBlock(examples[pkg], block) {
				t.Errorf("%s: this ```go block is in no Example function of package %s's example_readme_test.go; copy it there, with its // Output:\n%s", name, pkg, block)
			}
		}
	}
	if n < 3 {
		t.Errorf("found %d ```go blocks in README.md and docs/*.md, want at least 3", n)
	}
}

// goBlocks returns the ```go blocks of a Markdown text, each as its
// lines joined with "\n".
func goBlocks(md string) []string {
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case !in && line == "```go":
			in, cur = true, nil
		case in && line == "```":
			blocks = append(blocks, strings.Join(cur, "\n"))
			in = false
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}

// exampleBodies returns the body of each Example function in file, one
// string each: the lines between the braces, less one leading tab.
func exampleBodies(t *testing.T, file string) []string {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var bodies []string
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Example") {
			continue
		}
		body := string(src[fset.Position(fn.Body.Lbrace).Offset+1 : fset.Position(fn.Body.Rbrace).Offset])
		var lines []string
		for _, l := range strings.Split(strings.Trim(body, "\n"), "\n") {
			lines = append(lines, strings.TrimPrefix(l, "\t"))
		}
		bodies = append(bodies, strings.Join(lines, "\n"))
	}
	if len(bodies) == 0 {
		t.Fatalf("%s has no Example function", file)
	}
	return bodies
}

// containsBlock reports whether block is a run of whole lines of one of
// bodies.
func containsBlock(bodies []string, block string) bool {
	for _, b := range bodies {
		if strings.Contains("\n"+b+"\n", "\n"+block+"\n") {
			return true
		}
	}
	return false
}
