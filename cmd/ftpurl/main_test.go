package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/ftpurl/ftpurl"
)

// result is what one run of the command gives.
type result struct {
	stdout, stderr string
	status         int
}

func runCmd(args []string, stdin string) result {
	var stdout, stderr bytes.Buffer
	status := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return result{stdout.String(), stderr.String(), status}
}

// usage is the usage text that -h prints, which flag errors repeat.
func usage(t *testing.T) string {
	t.Helper()
	r := runCmd([]string{"-h"}, "")
	if r.status != 0 || r.stdout != "" || !strings.HasPrefix(r.stderr, "Usage: ftpurl [flags] [URL ...]\n") {
		t.Fatalf("ftpurl -h = %+v, want status 0 and the usage on stderr", r)
	}
	return r.stderr
}

type cmdTest struct {
	name   string
	args   []string
	stdin  string
	want   result
	prefix bool // want.stdout and want.stderr are prefixes (the rest is plan.go's wording)
}

func runTable(t *testing.T, tests []cmdTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runCmd(tt.args, tt.stdin)
			if tt.prefix && !strings.HasPrefix(got.stdout, tt.want.stdout) ||
				!tt.prefix && got.stdout != tt.want.stdout {
				t.Errorf("ftpurl %q stdout:\n%s\nwant:\n%s", tt.args, got.stdout, tt.want.stdout)
			}
			if tt.prefix && !strings.HasPrefix(got.stderr, tt.want.stderr) ||
				!tt.prefix && got.stderr != tt.want.stderr {
				t.Errorf("ftpurl %q stderr:\n%s\nwant:\n%s", tt.args, got.stderr, tt.want.stderr)
			}
			if got.status != tt.want.status {
				t.Errorf("ftpurl %q exit status = %d, want %d", tt.args, got.status, tt.want.status)
			}
		})
	}
}

// URL.String's doc and the command's doc: each URL,
// from the arguments or from stdin one a line, is printed normalized.
func TestPrintsEachURLNormalized(t *testing.T) {
	runTable(t, []cmdTest{{
		name: "arguments",
		args: []string{
			"ftp://user@example.com/%2Fetc/motd;type=a", // RFC 1738 §3.2.2: %2F stays in its segment
			"FTP://Ftp.Example.COM:21/pub/a%2fb;TYPE=I", // scheme, host, hex and typecode case; port 21 left out
			"ftp://[2001:DB8:0:0::1]/",                  // IPv6 in RFC 5952 form
			"ftp://ĉat.example.com/weather/☃/snow.txt",  // 2011 draft §4.1 IRI: A-labels, UTF-8 escaped
			`ftp://h/a\b`,             // Lenient: "\" is data, not "/"
			"ftp://alice:p%40ss:w@h/", // a ":" in the password is escaped
		},
		want: result{stdout: "ftp://user@example.com/%2Fetc/motd;type=a\n" +
			"ftp://ftp.example.com/pub/a%2Fb;type=i\n" +
			"ftp://[2001:db8::1]/\n" +
			"ftp://xn--at-0la.example.com/weather/%E2%98%83/snow.txt\n" +
			"ftp://h/a%5Cb\n" +
			"ftp://alice:p%40ss%3Aw@h/\n"},
	}, {
		// the command's doc: one a line, white space and CR trimmed,
		// empty lines skipped.
		name:  "stdin lines trimmed",
		stdin: "ftp://a/b\r\n\n   \r\n\t ftp://B/c  \nftp://d/e",
		want:  result{stdout: "ftp://a/b\nftp://b/c\nftp://d/e\n"},
	}, {
		name:  "empty stdin",
		stdin: "",
		want:  result{},
	}, {
		// Arguments are taken as given: Parse never trims white space
		// (Lenient's doc).
		name: "argument not trimmed",
		args: []string{" ftp://h/"},
		want: result{
			stderr: `ftpurl: parse " ftp://h/": not an ftp URL at offset 0: white space before the scheme` + "\n",
			status: 1,
		},
	}})
}

// the command's doc: an invalid URL prints its error on standard
// error, the next URL is still processed, and the exit status is 1.
func TestInvalidURLPrintsErrorAndExitsOne(t *testing.T) {
	runTable(t, []cmdTest{{
		name: "arguments",
		args: []string{"ftp://a/", "http://x/", "ftp://x:99999/", "ftp://b/"},
		want: result{
			stdout: "ftp://a/\nftp://b/\n",
			stderr: `ftpurl: parse "http://x/": not an ftp URL at offset 0: scheme "http" is not ftp or ftps` + "\n" +
				`ftpurl: parse "ftp://x:99999/": invalid port at offset 8: port is greater than 65535` + "\n",
			status: 1,
		},
	}, {
		name:  "stdin",
		stdin: "ftp://a/\nftp://h/a;type=xx\nftp://b/\n",
		want: result{
			stdout: "ftp://a/\nftp://b/\n",
			stderr: `ftpurl: parse "ftp://h/a;type=xx": invalid typecode at offset 9: typecode must be one letter, not "xx"` + "\n",
			status: 1,
		},
	}, {
		// the sentinels' doc: a "%" not followed by two hex
		// digits is ErrEscape, also at the very end of the input; the
		// URLs after it are still processed.
		name: "truncated escape at the end",
		args: []string{"ftp://h/a%2", "ftp://b/"},
		want: result{
			stdout: "ftp://b/\n",
			stderr: `ftpurl: parse "ftp://h/a%2": invalid percent-escape at offset 9: "%" is not followed by two hexadecimal digits` + "\n",
			status: 1,
		},
	}, {
		// The 2017 Python/Java injection shape (bpo-30119): refused,
		// and the error hides the password (ftpurl.Error's
		// doc).
		name: "injection in the password",
		args: []string{"-json", "ftp://foo:bar%0d%0aINJECTED@example.net/file.png"},
		want: result{
			stdout: `{"input":"ftp://foo:xxxxx@example.net/file.png","error":"ftpurl: parse \"ftp://foo:xxxxx@example.net/file.png\": control character at offset 13: percent-encoded control character in the password"}` + "\n",
			stderr: `ftpurl: parse "ftp://foo:xxxxx@example.net/file.png": control character at offset 13: percent-encoded control character in the password` + "\n",
			status: 1,
		},
	}, {
		name: "injection in the path",
		args: []string{"-plan", "ftp://h/f%0D%0ADELE%20x"},
		want: result{
			stderr: `ftpurl: parse "ftp://h/f%0D%0ADELE%20x": control character at offset 9: percent-encoded control character %0D in the path` + "\n",
			status: 1,
		},
	}})
}

// Grammar's doc: -grammar selects the grammar (flag.TextVar on
// ftpurl.Grammar).
func TestGrammarFlagSelectsGrammar(t *testing.T) {
	runTable(t, []cmdTest{{
		// RFC 1738 §5: "?" is an ordinary fsegment character.
		name: "rfc1738 reads ? as path data",
		args: []string{"-grammar", "rfc1738", "ftp://h/a?b"},
		want: result{stdout: "ftp://h/a%3Fb\n"},
	}, {
		// Lenient reads "?" the RFC 3986 way: a query.
		name: "lenient reads ? as a query",
		args: []string{"ftp://h/a?b"},
		want: result{stdout: "ftp://h/a?b\n"},
	}, {
		name: "name in any case",
		args: []string{"-grammar=RFC1738", "ftp://h/a?b"},
		want: result{stdout: "ftp://h/a%3Fb\n"},
	}, {
		// The 1997 draft §2.3: typecodes a and i only.
		name: "rfc2396 refuses type d",
		args: []string{"-grammar", "rfc2396", "ftp://h/d;type=d"},
		want: result{
			stderr: `ftpurl: parse "ftp://h/d;type=d": invalid typecode at offset 9: typecode "d" is not allowed: the 1997 draft §2.3 allows a and i` + "\n",
			status: 1,
		},
	}})
}

// Usage errors exit with 2 and say what is wrong; -h exits with 0.
func TestUsageErrorsExitTwo(t *testing.T) {
	u := usage(t)
	for _, want := range []string{"-json", "-plan", "-get TEMPLATE", "-find", "-grammar name", "-method name", "{fragment}", "Examples:", "Exit status:"} {
		if !strings.Contains(u, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	const hint = "Run 'ftpurl -h' for usage.\n"
	runTable(t, []cmdTest{{
		name: "unknown grammar",
		args: []string{"-grammar", "rfc822", "ftp://h/"},
		want: result{
			stderr: `invalid value "rfc822" for flag -grammar: ftpurl: unknown grammar "rfc822" (want lenient, rfc1738, rfc2396 or rfc3986)` + "\n" + u,
			status: 2,
		},
	}, {
		name: "unknown method",
		args: []string{"-method", "cwd", "ftp://h/"},
		want: result{
			stderr: `invalid value "cwd" for flag -method: ftpurl: unknown method "cwd" (want multicwd, singlecwd or nocwd)` + "\n" + u,
			status: 2,
		},
	}, {
		// Method.UnmarshalText folds ASCII case only: the long s (U+017F),
		// which strings.EqualFold takes for "s", is no method name.
		name: "method with a long s",
		args: []string{"-method", "ſinglecwd", "ftp://h/"},
		want: result{
			stderr: `invalid value "ſinglecwd" for flag -method: ftpurl: unknown method "ſinglecwd" (want multicwd, singlecwd or nocwd)` + "\n" + u,
			status: 2,
		},
	}, {
		name: "modes combined",
		args: []string{"-json", "-plan", "ftp://h/"},
		want: result{stderr: "ftpurl: -json, -plan, -get and -find cannot be combined\n" + hint, status: 2},
	}, {
		name: "find with arguments",
		args: []string{"-find", "ftp://h/"},
		want: result{stderr: "ftpurl: -find reads text on standard input and takes no arguments\n" + hint, status: 2},
	}, {
		// Unknown names are an error that lists the known ones;
		// nothing is printed for any URL.
		name: "unknown template name",
		args: []string{"-get", "{host}:{prot}", "ftp://h/"},
		want: result{
			stderr: "ftpurl: -get: unknown name {prot}; known names: {url} {scheme} {user} {password} {host} {port} {address} {path} {dirs} {name} {type} {query} {fragment}\n" + hint,
			status: 2,
		},
	}, {
		name: "unclosed template name",
		args: []string{"-get", "{host", "ftp://h/"},
		want: result{
			stderr: `ftpurl: -get: "{host" has a "{" without a closing "}" (write {{ for a literal {); known names: {url} {scheme} {user} {password} {host} {port} {address} {path} {dirs} {name} {type} {query} {fragment}` + "\n" + hint,
			status: 2,
		},
	}})
}

// "-get TEMPLATE": parts by name, each as String writes it; the
// port is 21 when absent (RFC 1738 §3.2); the password is xxxxx.
func TestGetPrintsPartsByName(t *testing.T) {
	const all = "{url}|{scheme}|{user}|{password}|{host}|{port}|{address}|{path}|{dirs}|{name}|{type}|{query}|{fragment}"
	runTable(t, []cmdTest{{
		name: "host and port",
		args: []string{"-get", "{host}:{port}", "ftp://Example.COM/", "ftp://h:2121/", "ftp://h:021/"},
		want: result{stdout: "example.com:21\nh:2121\nh:21\n"},
	}, {
		name: "every part",
		args: []string{"-get", all, "ftp://us%20er:pw@[2001:DB8::1]:2121/a/b%2Fc/d%20e.txt;type=I?q=1#frag"},
		want: result{stdout: "ftp://us%20er:xxxxx@[2001:db8::1]:2121/a/b%2Fc/d%20e.txt;type=i?q=1#frag|ftp|us%20er|xxxxx|2001:db8::1|2121|[2001:db8::1]:2121|/a/b%2Fc/d%20e.txt|a/b%2Fc|d%20e.txt|i|q=1|frag\n"},
	}, {
		name: "absent parts are empty",
		args: []string{"-get", all, "ftp://h"},
		want: result{stdout: "ftp://h/|ftp|||h|21|h:21|/|||||\n"},
	}, {
		// ftps (2011 draft §5): its default port is 990, not 21.
		name: "scheme and the scheme's default port",
		args: []string{"-get", "{scheme} {port} {address}", "FTPS://h/", "ftps://h:21/", "ftp://h/"},
		want: result{stdout: "ftps 990 h:990\nftps 21 h:21\nftp 21 h:21\n"},
	}, {
		// RFC 1738 §3.2.1: "ftp://@h/" has an empty user name and no
		// password; "ftp://u:@h/" an empty password, which is set.
		name: "empty user and empty password",
		args: []string{"-get", "[{user}][{password}]", "ftp://@h/", "ftp://u:@h/"},
		want: result{stdout: "[][]\n[u][xxxxx]\n"},
	}, {
		// Draft 2011 §3.2.3 (1): null segments are kept in dirs.
		name: "null segments",
		args: []string{"-get", "{dirs}|{name}", "ftp://h//etc/motd", "ftp://h/a//b/"},
		want: result{stdout: "/etc|motd\na//b|\n"},
	}, {
		// 2011 draft §3.1: user is usp-char, so ":" and "@" are escaped;
		// a segment is pchar-nsc, so ";" is "%3B" and "/" is "%2F". The
		// parts read exactly as they do inside String.
		name: "escaped as String writes them",
		args: []string{"-get", "{user}|{path}|{dirs}|{name}", "ftp://a%3Ab%40c@h/x%3By/%2F/%3B;type=a", "ftp://@h//"},
		want: result{stdout: "a%3Ab%40c|/x%3By/%2F/%3B|x%3By/%2F|%3B\n|//||\n"},
	}, {
		name: "literal braces",
		args: []string{"-get", "{{host}} } {host}", "ftp://h/"},
		want: result{stdout: "{host}} } h\n"},
	}, {
		name: "empty template",
		args: []string{"-get", "", "ftp://h/"},
		want: result{stdout: "\n"},
	}})
}

// URL.Plan's doc: -plan prints the login lines,
// never the password, then Plan.Commands().
func TestPlanPrintsCommands(t *testing.T) {
	runTable(t, []cmdTest{{
		// URL.Plan's doc: %2F makes one CWD argument /etc; a user
		// without a password must be asked for one ("PASS ?").
		name: "user without password, %2F",
		args: []string{"-plan", "ftp://user@example.com/%2Fetc/motd;type=a"},
		want: result{stdout: "USER user\nPASS ?\nCWD /etc\nTYPE A\nRETR motd\n"},
	}, {
		// Login: no userinfo is anonymous; a blank line between URLs.
		// 2011 draft §3.2.3 (4a): an empty name lists; (4b) type d is NLST,
		// whose argument the Verify's CWD checks when it lists nothing
		// (Plan's doc).
		name: "anonymous listing and NLST",
		args: []string{"-plan", "ftp://ftp.example.com/pub/", "ftp://alice:s3cret@h/pub;type=d"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nCWD pub\nTYPE A\nLIST\n\nUSER alice\nPASS xxxxx\nTYPE A\nNLST pub\n" +
			"# when the listing is empty, tell an empty directory (250) from a missing name (550):\nCWD pub\n"},
	}, {
		// Plan's doc: NoCWD's "LIST vault/absent" lists nothing for a
		// missing name too, so its Verify is printed as the Fallback is.
		name: "nocwd listing with its verify",
		args: []string{"-plan", "-method", "nocwd", "ftp://h/vault/absent/"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nTYPE A\nLIST vault/absent\n" +
			"# when the listing is empty, tell an empty directory (250) from a missing name (550):\nCWD vault/absent\n"},
	}, {
		// URL.Plan's doc, the "./~" rule: a "~" after the first segment
		// is sent as "./~", in RETR and in the Fallback's CWD alike.
		name: "tilde after the first segment",
		args: []string{"-plan", "ftp://h/odd/~"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nCWD odd\nTYPE I\nRETR ./~\n" +
			"# when RETR is refused (550), list the name instead:\nCWD ./~\nTYPE A\nLIST\n"},
	}, {
		// URL.Plan's doc: SingleCWD and NoCWD join the non-null Dirs.
		name: "singlecwd",
		args: []string{"-plan", "-method", "singlecwd", "ftp://h/a/b/c.txt;type=i"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nCWD a/b\nTYPE I\nRETR c.txt\n"},
	}, {
		// 2011 draft §3.2.3 (4d): no typecode, so TYPE I and RETR, and
		// the Fallback that lists the name when RETR is refused.
		name: "nocwd reaches /etc/motd through %2F",
		args: []string{"-plan", "-method", "nocwd", "ftp://h/a/%2Fetc/motd"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nTYPE I\nRETR /etc/motd\n" +
			"# when RETR is refused (550), list the name instead:\nCWD /etc/motd\nTYPE A\nLIST\n"},
	}, {
		// The 1997 draft §3.1 via WithAbsolutePaths: CWD / first.
		name: "absolute",
		args: []string{"-plan", "-absolute", "ftp://h/pub/f"},
		want: result{stdout: "USER anonymous\nPASS xxxxx\nCWD /\nCWD pub\nTYPE I\nRETR f\n" +
			"# when RETR is refused (550), list the name instead:\nCWD f\nTYPE A\nLIST\n"},
	}, {
		// URL.Plan's doc: Plan refuses with ErrPath a LIST or NLST
		// argument beginning with "-": the URL fails, the next one is planned.
		name:   "plan error",
		args:   []string{"-plan", "ftp://h/-la;type=d", "ftp://h/f"},
		want:   result{stdout: "USER anonymous\nPASS xxxxx\nTYPE I\nRETR f\n" + "# when RETR is refused (550), list the name instead:\nCWD f\nTYPE A\nLIST\n", stderr: `ftpurl: plan "ftp://h/-la;type=d": invalid path`, status: 1},
		prefix: true,
	}})
}

// -json prints one object a URL with its parts, login and
// plan; the password appears only as xxxxx.
func TestJSONPrintsPartsLoginAndPlan(t *testing.T) {
	runTable(t, []cmdTest{{
		name: "user without password",
		args: []string{"-json", "ftp://user@example.com/%2Fetc/motd;type=a"},
		want: result{stdout: `{"input":"ftp://user@example.com/%2Fetc/motd;type=a","url":"ftp://user@example.com/%2Fetc/motd;type=a","scheme":"ftp","user":"user","host":"example.com","port":21,"address":"example.com:21","path":"/%2Fetc/motd","dirs":["/etc"],"name":"motd","type":"a",` +
			`"login":{"user":"user","ok":false},"plan":{"host":"example.com","dirs":["/etc"],"type":"a","action":"retrieve","name":"motd","commands":["CWD /etc","TYPE A","RETR motd"]}}` + "\n"},
	}, {
		name: "ftps: the scheme and its default port (2011 draft §5)",
		args: []string{"-json", "ftps://h:990/f;type=i"},
		want: result{stdout: `{"input":"ftps://h:990/f;type=i","url":"ftps://h/f;type=i","scheme":"ftps","host":"h","port":990,"address":"h:990","path":"/f","dirs":[],"name":"f","type":"i",` +
			`"login":{"user":"anonymous","password":"xxxxx","ok":true},"plan":{"host":"h","dirs":[],"type":"i","action":"retrieve","name":"f","commands":["TYPE I","RETR f"]}}` + "\n"},
	}, {
		name: "anonymous, no path, IPv6, port, query",
		args: []string{"-json", "ftp://[2001:DB8::1]:2121?q&a#f"},
		want: result{stdout: `{"input":"ftp://[2001:DB8::1]:2121?q&a#f","url":"ftp://[2001:db8::1]:2121/?q&a#f","scheme":"ftp","host":"2001:db8::1","port":2121,"address":"[2001:db8::1]:2121","path":"/","dirs":[],"name":"",` +
			`"query":"q&a","fragment":"f","login":{"user":"anonymous","password":"xxxxx","ok":true},"plan":{"host":"[2001:db8::1]","dirs":[],"type":"a","action":"list","commands":["TYPE A","LIST"]}}` + "\n"},
	}, {
		// The action is Action.MarshalText's name (Action's
		// doc): NLST for type d (2011 draft §3.2.3 (4b)), with its
		// Verify, a change-dir with no type (Plan's doc); RETR-or-LIST
		// without a typecode (4d); -method reads its name in any ASCII
		// case (Method.UnmarshalText), NoCWD joining the path.
		name: "name-list and retrieve-or-list, method in upper case",
		args: []string{"-json", "-method", "NOCWD", "ftp://h/a/b;type=d", "ftp://h/a/b"},
		want: result{stdout: `{"input":"ftp://h/a/b;type=d","url":"ftp://h/a/b;type=d","scheme":"ftp","host":"h","port":21,"address":"h:21","path":"/a/b","dirs":["a"],"name":"b","type":"d","login":{"user":"anonymous","password":"xxxxx","ok":true},"plan":{"host":"h","dirs":[],"type":"a","action":"name-list","name":"a/b","commands":["TYPE A","NLST a/b"],` +
			`"verify":{"host":"h","dirs":["a/b"],"action":"change-dir","commands":["CWD a/b"]}}}` + "\n" +
			`{"input":"ftp://h/a/b","url":"ftp://h/a/b","scheme":"ftp","host":"h","port":21,"address":"h:21","path":"/a/b","dirs":["a"],"name":"b","login":{"user":"anonymous","password":"xxxxx","ok":true},"plan":{"host":"h","dirs":[],"type":"i","action":"retrieve-or-list","name":"a/b","commands":["TYPE I","RETR a/b"],` +
			`"fallback":{"host":"h","dirs":["a/b"],"type":"a","action":"list","commands":["CWD a/b","TYPE A","LIST"]}}}` + "\n"},
	}, {
		name: "password and plan error",
		args: []string{"-json", "ftp://alice:s3cret@h/a%3Cb/-x;type=d"},
		want: result{stdout: `{"input":"ftp://alice:xxxxx@h/a%3Cb/-x;type=d","url":"ftp://alice:xxxxx@h/a%3Cb/-x;type=d","scheme":"ftp","user":"alice","password":"xxxxx","host":"h","port":21,"address":"h:21","path":"/a%3Cb/-x","dirs":["a<b"],"name":"-x","type":"d",` +
			`"login":{"user":"alice","password":"xxxxx","ok":true},"plan_error":"ftpurl: plan \"ftp://alice:xxxxx@h/a%3Cb/-x;type=d\": invalid path`},
		prefix: true,
	}, {
		name: "one object a line",
		args: []string{"-json", "ftp://a/", "ftp://b/f;type=i"},
		want: result{stdout: `{"input":"ftp://a/","url":"ftp://a/","scheme":"ftp","host":"a","port":21,"address":"a:21","path":"/","dirs":[],"name":"","login":{"user":"anonymous","password":"xxxxx","ok":true},"plan":{"host":"a","dirs":[],"type":"a","action":"list","commands":["TYPE A","LIST"]}}` + "\n" +
			`{"input":"ftp://b/f;type=i","url":"ftp://b/f;type=i","scheme":"ftp","host":"b","port":21,"address":"b:21","path":"/f","dirs":[],"name":"f","type":"i","login":{"user":"anonymous","password":"xxxxx","ok":true},"plan":{"host":"b","dirs":[],"type":"i","action":"retrieve","name":"f","commands":["TYPE I","RETR f"]}}` + "\n"},
	}})
}

// The "password and plan error" case above checks a prefix of stdout,
// since the Plan message's wording belongs to plan.go; this checks the
// rest of that line is a closed JSON object.
func TestJSONPlanErrorIsOneObject(t *testing.T) {
	r := runCmd([]string{"-json", "ftp://h/-x;type=d"}, "")
	if r.status != 0 || r.stderr != "" || !strings.HasSuffix(r.stdout, "\"}\n") || strings.Count(r.stdout, "\n") != 1 ||
		!strings.Contains(r.stdout, `"plan_error":"ftpurl: plan `) || strings.Contains(r.stdout, `"plan":`) {
		t.Errorf("ftpurl -json ftp://h/-x;type=d = %+v, want status 0, one line with plan_error and no plan", r)
	}
}

// FindAll's doc: -find prints each URL
// found with its byte offset.
func TestFindPrintsURLsWithOffsets(t *testing.T) {
	const text = "Mirrors: ftp://ftp.example.org/pub/ and <FTP://Host.Example/a%2Fb;type=I>.\n" +
		"sftp://not/this ftp://bad:99999/x then (ftp://last/file.txt).\n"
	runTable(t, []cmdTest{{
		// "<" and ">" end a URL; sftp:// is not a candidate; a candidate
		// that fails a semantic check (port) is skipped; Lenient strips
		// the final "." and the unbalanced ")".
		name:  "lenient",
		args:  []string{"-find"},
		stdin: text,
		want:  result{stdout: "9\tftp://ftp.example.org/pub/\n41\tftp://host.example/a%2Fb;type=i\n115\tftp://last/file.txt\n"},
	}, {
		// A line whose only URL is an ftps one is read too; sftps:// is
		// no candidate; RFC1738 predates ftps.
		name:  "ftps",
		args:  []string{"-find"},
		stdin: "no\nsecure: ftps://h:990/a, sftps://x/\n",
		want:  result{stdout: "11\tftps://h/a\n"},
	}, {
		name:  "ftps in RFC1738",
		args:  []string{"-find", "-grammar", "rfc1738"},
		stdin: "secure: ftps://h/a\n",
		want:  result{},
	}, {
		name:  "none",
		args:  []string{"-find"},
		stdin: "no URL here, sftp://x/ neither\n",
		want:  result{},
	}, {
		name:  "password shown as String shows it",
		args:  []string{"-find"},
		stdin: "at ftp://alice:s3cret@h/f",
		want:  result{stdout: "3\tftp://alice:s3cret@h/f\n"},
	}, {
		name:  "password hidden with -redact",
		args:  []string{"-find", "-redact"},
		stdin: "at ftp://alice:s3cret@h/f",
		want:  result{stdout: "3\tftp://alice:xxxxx@h/f\n"},
	}})
}

// -find reads its input a line at a time (a URL never spans white space
// or a control character, RFC 3986 Appendix C), yet finds what FindAll
// finds in the whole text, at the same byte offsets in the whole input:
// also across CRLF line ends and in lines longer than its read buffer.
func TestFindReadsLinesButReportsOffsetsInTheWholeInput(t *testing.T) {
	long := strings.Repeat("x", 200<<10) + " ftp://long.example/" + strings.Repeat("a", 100<<10) + " ftp://after/"
	text := "a ftp://one/f\r\n\n" + long + "\nftp://two/;type=d (ftp://three/x).\nlast ftp://four/"
	var want strings.Builder
	for _, m := range ftpurl.Lenient.FindAll(text, -1) {
		fmt.Fprintf(&want, "%d\t%s\n", m.Start, m.URL)
	}
	if n := strings.Count(want.String(), "\n"); n != 6 {
		t.Fatalf("FindAll found %d URLs in the test text, want 6", n)
	}
	r := runCmd([]string{"-find"}, text)
	if r.status != 0 || r.stdout != want.String() {
		t.Errorf("ftpurl -find = %+v; want FindAll's:\n%s", r, want.String())
	}
}

// lines is an io.Reader of n copies of line, made as they are read.
type lines struct {
	line string
	n    int
	off  int
}

func (l *lines) Read(p []byte) (int, error) {
	if l.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, l.line[l.off:])
	if l.off += k; l.off == len(l.line) {
		l.off, l.n = 0, l.n-1
	}
	return k, nil
}

// -find's memory does not grow with its input: 64 MiB of log lines, one
// URL in each thousand, allocate a small fraction of that.
func TestFindRunsInBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 64 MiB")
	}
	line := "2026-11-23 12:00:00 GET /index.html 200 1234 Mozilla/5.0 (X11) \n"
	hit := "2026-11-23 12:00:01 fetch ftp://ftp.example.org/pub/f.tar.gz ok\n"
	if len(line) != 64 || len(hit) != 64 {
		t.Fatalf("lines of %d and %d bytes, want 64", len(line), len(hit))
	}
	const blocks = 1 << 10 // of 1024 lines: 64 MiB
	block := hit + strings.Repeat(line, 1023)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var out bytes.Buffer
	status := run([]string{"-find"}, &lines{line: block, n: blocks}, &out, io.Discard)
	runtime.ReadMemStats(&after)
	if want := "ftp://ftp.example.org/pub/f.tar.gz\n"; status != 0 || strings.Count(out.String(), want) != blocks {
		t.Fatalf("status %d, %d URLs found, want %d", status, strings.Count(out.String(), want), blocks)
	}
	if !strings.HasPrefix(out.String(), "26\tftp://") || !strings.Contains(out.String(), "\n65562\tftp://") {
		t.Errorf("offsets are not in the whole input: %q", out.String()[:60])
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("-find of %d MiB allocated %d bytes, want under 4 MiB", blocks*len(block)>>20, alloc)
	}
}

// The command's doc: -json, -plan, -get and every error
// message show a password only as xxxxx; so do the default output and
// -find with -redact.
func TestNoOutputContainsPassword(t *testing.T) {
	urls := []string{
		"ftp://alice:s3cret@ftp.example.com/pub/f.txt;type=i",
		"ftp://alice:s3cr%65t@h/",               // decoded: s3cret
		"ftp://:s3cret@h/d/",                    // empty user name with a password
		"ftp://alice:s3cret@h/-x;type=d",        // Plan refuses it
		"ftp://alice:s3cret@h:0/",               // invalid port
		"ftp://alice:s3cret@h/%0D%0APASS%20x",   // control character
		"ftp://alice:s3cret@h/a%zz",             // bad escape
		"ftp://alice:s3cret%0A@h/",              // control character in the password
		"ftp://alice:s3cret@bad..host/",         // bad host
		"http://alice:s3cret@h/",                // wrong scheme
		"ftp://alice:s3cret@h/f;type=dd",        // bad typecode
		"ftp://alice:s3cret:s3cret@h/f",         // ":" in the password
		"ftp://alice:s3cret@h@h/f",              // "@" in the userinfo
		"ftp://alice:s3cret@[2001:db8::1]:21/f", // IPv6
	}
	const all = "{url}{scheme}{user}{password}{host}{port}{address}{path}{dirs}{name}{type}{query}{fragment}"
	modes := [][]string{
		{"-json"},
		{"-json", "-method", "nocwd", "-absolute"},
		{"-plan"},
		{"-plan", "-method", "singlecwd"},
		{"-get", all},
		{"-redact"},
		{"-redact", "-grammar", "rfc3986"},
		{"-redact", "-grammar", "rfc1738"},
		{"-redact", "-grammar", "rfc2396"},
	}
	for _, mode := range modes {
		for _, stdin := range []bool{false, true} {
			args, in := append([]string(nil), mode...), ""
			if stdin {
				in = strings.Join(urls, "\n")
			} else {
				args = append(args, urls...)
			}
			r := runCmd(args, in)
			for _, out := range []string{r.stdout, r.stderr} {
				if strings.Contains(out, "s3cr") {
					t.Errorf("ftpurl %q (stdin %v) printed a password:\n%s", mode, stdin, out)
				}
			}
			if r.status != 1 || !strings.Contains(r.stdout, "xxxxx") {
				t.Errorf("ftpurl %q (stdin %v) = status %d, stdout %q; want 1 and some xxxxx", mode, stdin, r.status, r.stdout)
			}
		}
	}
	r := runCmd([]string{"-find", "-redact"}, strings.Join(urls, " "))
	if strings.Contains(r.stdout, "s3cr") || strings.Contains(r.stderr, "s3cr") || r.status != 0 {
		t.Errorf("ftpurl -find -redact = %+v; want status 0 and no password", r)
	}
}

// The default output is String, which keeps the password: it is what a
// script passes on to a client. -redact hides it.
func TestDefaultOutputKeepsPasswordRedactHidesIt(t *testing.T) {
	runTable(t, []cmdTest{{
		name: "default",
		args: []string{"ftp://alice:s3cr%65t@h/"},
		want: result{stdout: "ftp://alice:s3cret@h/\n"},
	}, {
		name: "redact",
		args: []string{"-redact", "ftp://alice:s3cr%65t@h/"},
		want: result{stdout: "ftp://alice:xxxxx@h/\n"},
	}})
}

// An output that cannot be written is an error, exit status 1.
func TestWriteErrorExitsOne(t *testing.T) {
	var stderr bytes.Buffer
	status := run([]string{"ftp://h/"}, strings.NewReader(""), failWriter{}, &stderr)
	if status != 1 || stderr.String() != "ftpurl: writing output: disk full\n" {
		t.Errorf("run with a failing stdout = %d, %q; want 1 and the error", status, stderr.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

var errDiskFull = errors.New("disk full")
