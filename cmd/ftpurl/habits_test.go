package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// The command's doc: flags may come before, between or after the URLs,
// as with trurl and curl, and apply to every URL; "--" ends the flags.
func TestFlagsMayFollowURLs(t *testing.T) {
	u := usage(t)
	const hint = "Run 'ftpurl -h' for usage.\n"
	runTable(t, []cmdTest{{
		name: "a flag after the URL",
		args: []string{"ftp://Example.COM/a", "-get", "{host}"},
		want: result{stdout: "example.com\n"},
	}, {
		name: "a flag between URLs applies to all of them",
		args: []string{"ftp://alice:s3cret@a/", "-redact", "ftp://bob:s3cret@b/"},
		want: result{stdout: "ftp://alice:xxxxx@a/\nftp://bob:xxxxx@b/\n"},
	}, {
		name: "flags before and after",
		args: []string{"-plan", "ftp://h/a/b/c.txt;type=i", "-method", "singlecwd"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nCWD a/b\nTYPE I\nRETR c.txt\n"},
	}, {
		name: "a flag with two dashes and a value after =",
		args: []string{"ftp://h/a?b", "--grammar=rfc1738"},
		want: result{stdout: "ftp://h/a%3Fb\n"},
	}, {
		// flag package: "--" ends the flags; what follows is a URL
		// even when it looks like a flag.
		name: "-- ends the flags",
		args: []string{"ftp://h/", "--", "-json"},
		want: result{
			stdout: "ftp://h/\n",
			stderr: `ftpurl: parse "-json": not an ftp URL at offset 0: missing "ftp://"` + "\n",
			status: 1,
		},
	}, {
		name: "-- first",
		args: []string{"--", "-plan", "ftp://h/"},
		want: result{
			stdout: "ftp://h/\n",
			stderr: `ftpurl: parse "-plan": not an ftp URL at offset 0: missing "ftp://"` + "\n",
			status: 1,
		},
	}, {
		// A "--" that is a flag's value ends nothing.
		name: "-- as the value of -get",
		args: []string{"-get", "--", "ftp://h/", "-redact"},
		want: result{stdout: "--\n"},
	}, {
		name: "-- after a bool flag",
		args: []string{"-redact", "--", "ftp://u:s3cret@h/"},
		want: result{stdout: "ftp://u:xxxxx@h/\n"},
	}, {
		// Every flag is read before any URL is printed: an unknown flag
		// after URLs is a usage error and nothing is printed.
		name: "an unknown flag after a URL",
		args: []string{"ftp://h/", "-x"},
		want: result{stderr: "flag provided but not defined: -x\n" + u, status: 2},
	}, {
		name: "modes combined across URLs",
		args: []string{"-json", "ftp://h/", "-plan"},
		want: result{stderr: "ftpurl: -json, -plan, -get and -find cannot be combined\n" + hint, status: 2},
	}, {
		name: "-find after a URL",
		args: []string{"ftp://h/", "-find"},
		want: result{stderr: "ftpurl: -find reads text on standard input and takes no arguments\n" + hint, status: 2},
	}, {
		name: "-h after a URL",
		args: []string{"ftp://h/", "-h"},
		want: result{stderr: u},
	}, {
		// The flag package: "-" alone is no flag, so it is a URL.
		name: "a lone -",
		args: []string{"-", "-redact"},
		want: result{
			stderr: `ftpurl: parse "-": not an ftp URL at offset 0: missing "ftp://"` + "\n",
			status: 1,
		},
	}})
}

// terminal is a standard input that says it is a terminal, as an
// *os.File on a tty does: a character device.
type terminal struct{ io.Reader }

func (terminal) Stat() (os.FileInfo, error) { return ttyInfo{}, nil }

type ttyInfo struct{}

func (ttyInfo) Name() string       { return "tty" }
func (ttyInfo) Size() int64        { return 0 }
func (ttyInfo) Mode() os.FileMode  { return os.ModeDevice | os.ModeCharDevice | 0o620 }
func (ttyInfo) ModTime() time.Time { return time.Time{} }
func (ttyInfo) IsDir() bool        { return false }
func (ttyInfo) Sys() any           { return nil }

// The command's doc: with no URL arguments and a terminal on standard
// input, it says on standard error that it reads standard input, rather
// than wait in silence; then it reads it. Arguments, a file, a pipe or
// the null device (a character device too) get no such line.
func TestTerminalStdinIsAnnounced(t *testing.T) {
	const urls = "ftpurl: reading URLs from standard input, one a line; end with Ctrl-D (ftpurl -h for usage)\n"
	const text = "ftpurl: -find: reading text from standard input; end it with Ctrl-D (ftpurl -h for usage)\n"
	pipeR, pipeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		pipeW.WriteString("ftp://pipe/\n")
		pipeW.Close()
	}()
	defer pipeR.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	tests := []struct {
		name  string
		args  []string
		stdin io.Reader
		want  result
	}{
		{"terminal", nil, terminal{strings.NewReader("ftp://H/\n")}, result{stdout: "ftp://h/\n", stderr: urls}},
		{"terminal with a mode", []string{"-json"}, terminal{strings.NewReader("")}, result{stderr: urls}},
		{"terminal with -find", []string{"-find"}, terminal{strings.NewReader("see ftp://h/\n")}, result{stdout: "4\tftp://h/\n", stderr: text}},
		{"terminal with arguments", []string{"ftp://a/"}, terminal{strings.NewReader("")}, result{stdout: "ftp://a/\n"}},
		{"terminal with only flags after --", []string{"-redact", "--"}, terminal{strings.NewReader("")}, result{stderr: urls}},
		{"no terminal", nil, strings.NewReader("ftp://a/\n"), result{stdout: "ftp://a/\n"}},
		{"pipe", nil, pipeR, result{stdout: "ftp://pipe/\n"}},
		{"null device", nil, null, result{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, tt.stdin, &stdout, &stderr)
			if got := (result{stdout.String(), stderr.String(), status}); got != tt.want {
				t.Errorf("ftpurl %q = %+v, want %+v", tt.args, got, tt.want)
			}
		})
	}
}

// The command's doc: -json prints one object a URL, in the order of
// the input, each with "input", the URL as given (the argument, or the
// line trimmed) with its password hidden as ftpurl.Error's URL hides it;
// an invalid URL is an object with "input" and "error", the message
// that standard error shows too, and the exit status is 1.
func TestJSONHasAnObjectWithInputForEveryURL(t *testing.T) {
	const badPort = `{"input":"ftp://u:xxxxx@h:0/","error":"ftpurl: parse \"ftp://u:xxxxx@h:0/\": invalid port at offset 17: port 0 is not a port one can connect to"}` + "\n"
	const badPortErr = `ftpurl: parse "ftp://u:xxxxx@h:0/": invalid port at offset 17: port 0 is not a port one can connect to` + "\n"
	const good = `{"input":"FTP://U:xxxxx@H:21/f;TYPE=I","url":"ftp://U:xxxxx@h/f;type=i","scheme":"ftp","user":"U","password":"xxxxx","host":"h","port":21,"address":"h:21","path":"/f","dirs":[],"name":"f","type":"i",` +
		`"login":{"user":"U","password":"xxxxx","ok":true},"plan":{"host":"h","dirs":[],"type":"i","action":"retrieve","name":"f","commands":["TYPE I","RETR f"]}}` + "\n"
	runTable(t, []cmdTest{{
		// "input" is the input, not the normalized "url".
		name: "arguments, good and bad, in order",
		args: []string{"-json", "ftp://u:s3cret@h:0/", "FTP://U:s3cret@H:21/f;TYPE=I", "http://h/"},
		want: result{
			stdout: badPort + good +
				`{"input":"http://h/","error":"ftpurl: parse \"http://h/\": not an ftp URL at offset 0: scheme \"http\" is not ftp or ftps"}` + "\n",
			stderr: badPortErr + `ftpurl: parse "http://h/": not an ftp URL at offset 0: scheme "http" is not ftp or ftps` + "\n",
			status: 1,
		},
	}, {
		// The command's doc: a line is trimmed and empty lines skipped,
		// so "input" is the trimmed line.
		name:  "stdin lines",
		stdin: "  ftp://u:s3cret@h:0/\r\n\n\tFTP://U:s3cret@H:21/f;TYPE=I \n",
		args:  []string{"-json"},
		want:  result{stdout: badPort + good, stderr: badPortErr, status: 1},
	}, {
		// Error's doc: everything from the first ":" after "//" to the
		// last "@" is hidden, even past the userinfo.
		name: "hidden to the last @",
		args: []string{"-json", "ftp://u:s3cret@h:0/a@b"},
		want: result{
			stdout: `{"input":"ftp://u:xxxxx@b","error":"ftpurl: parse \"ftp://u:xxxxx@b\": invalid port at offset 17: port 0 is not a port one can connect to"}` + "\n",
			stderr: `ftpurl: parse "ftp://u:xxxxx@b": invalid port at offset 17: port 0 is not a port one can connect to` + "\n",
			status: 1,
		},
	}})
}

// Error.URL is cut to 256 bytes with "…"; "input" is not, so that it
// matches the input.
func TestJSONInputIsNotCut(t *testing.T) {
	long := "ftp://h/" + strings.Repeat("a", 300) + "%"
	r := runCmd([]string{"-json", long}, "")
	want := `{"input":"` + long + `","error":"ftpurl: parse \"ftp://h/` + strings.Repeat("a", 248) + `…\": invalid percent-escape at offset 308: \"%\" is not followed by two hexadecimal digits"}` + "\n"
	if r.stdout != want || r.status != 1 {
		t.Errorf("ftpurl -json LONG = %+v, want stdout %q and status 1", r, want)
	}
}

// The command's doc: -h lists every mode and option with an example
// under it, and each example runs (a "< FILE" is read as empty input).
func TestHelpHasARunningExampleForEachMode(t *testing.T) {
	lines := strings.Split(usage(t), "\n")
	examples := map[string]string{} // mode or option -> its example
	var all []string
	for i, line := range lines {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(line, "  ") && strings.HasPrefix(trimmed, "ftpurl ") {
			all = append(all, trimmed)
		}
		if !strings.HasPrefix(line, "  (none)") && !strings.HasPrefix(line, "  -") {
			continue
		}
		mode := strings.Fields(line)[0]
		for _, next := range lines[i+1:] {
			if strings.HasPrefix(next, "  ") && !strings.HasPrefix(next, "   ") || next == "" {
				break // the next mode, or the end of the list
			}
			if s := strings.TrimSpace(next); strings.HasPrefix(s, "ftpurl ") {
				examples[mode] = s
				break
			}
		}
	}
	for _, mode := range []string{"(none)", "-json", "-plan", "-get", "-find", "-grammar", "-method", "-absolute", "-redact"} {
		ex, ok := examples[mode]
		switch {
		case !ok:
			t.Errorf("-h has no example for %s", mode)
		case mode == "(none)" && strings.Contains(ex, " -"),
			mode != "(none)" && !strings.Contains(ex, " "+mode+" "):
			t.Errorf("-h's example for %s is %q", mode, ex)
		}
	}
	if len(all) < 12 {
		t.Errorf("-h has %d examples, want at least 12", len(all))
	}
	for _, ex := range all {
		words, err := shellWords(ex)
		if err != nil {
			t.Errorf("%q: %v", ex, err)
			continue
		}
		if i := indexOf(words, "<"); i >= 0 {
			words = append(words[:i], words[i+2:]...)
		}
		if r := runCmd(words[1:], ""); r.status != 0 || r.stdout == "" && !strings.Contains(ex, "<") {
			t.Errorf("-h's example %q = %+v, want status 0 and output", ex, r)
		}
	}
}
