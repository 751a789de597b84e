package fetch_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
	"github.com/jlaffaye/ftp"
)

// want is what one fetch must give.
type want struct {
	action   ftpurl.Action // Retrieve, List or NameList; 0 when it fails
	fallback bool          // the RetrieveOrList fallback ran (or, with errOp, failed)
	body     string        // Retrieve: every byte
	has      []string      // List, NameList: base names that must be present
	hasNot   []string      // and names that must not
	none     bool          // the listing holds nothing but "." and ".."
	errOp    string        // the *fetch.Error step that fails
	errCode  int           // and the server's reply code (0: any)
	planErr  error         // an ftpurl sentinel that Open returns before connecting
}

func file(body string) want { return want{action: ftpurl.Retrieve, body: body} }

func list(has ...string) want { return want{action: ftpurl.List, has: has} }

func fallbackList(has ...string) want {
	return want{action: ftpurl.List, fallback: true, has: has}
}

func nlst(has ...string) want { return want{action: ftpurl.NameList, has: has} }

func fails(op string, code int) want { return want{errOp: op, errCode: code} }

func fallbackFails(op string, code int) want {
	return want{errOp: op, errCode: code, fallback: true}
}

var (
	methods = []ftpurl.Method{ftpurl.MultiCWD, ftpurl.SingleCWD, ftpurl.NoCWD}
	both    = []bool{false, true}
)

// fetchCase is one URL path, run with every Method, with and without
// WithAbsolutePaths (unless abs says otherwise), on every server.
type fetchCase struct {
	name string // the rule
	path string // the URL after "ftp://127.0.0.1:port/"
	abs  []bool // nil: both
	want want
	// differ holds the named differences: what a server answers
	// instead of want. Keys, most specific first:
	// "server/method/abs" (or "/rel"), "server/method", "server/abs"
	// (or "/rel"), "server".
	differ map[string]want
}

// crlf is textFile in TYPE A as RFC 959 §3.1.1.1 sends it: lines end
// in CRLF on the wire, and jlaffaye/ftp hands the bytes over as they
// come.
var crlf = strings.ReplaceAll(textFile, "\n", "\r\n")

var rootNames = []string{"text.txt", "binary.bin", "empty.txt", "a", "with space", "ünïcödé.txt", "semi;colon.txt", "-dash.txt", "emptydir", "walk"}

var fetchCases = []fetchCase{
	{name: "NoTypecodeRetrievesTextFileByteForByte", path: "text.txt", want: file(textFile)},
	{name: "NoTypecodeRetrievesEveryByteValueInTypeI", path: "binary.bin", want: file(string(binaryFile()))},
	{name: "TypecodeIRetrievesEveryByteValue", path: "binary.bin;type=i", want: file(string(binaryFile()))},
	{
		name: "TypecodeASendsTypeAAndTheServerConvertsLFToCRLF", path: "text.txt;type=a", want: file(crlf),
		differ: map[string]want{"vsftpd": file(textFile)}, // vsftpd does no ASCII conversion
	},
	{name: "EmptyFileIsAFileNotARefusal", path: "empty.txt", want: file("")},
	{name: "EveryDirectoryIsOneCWD", path: "a/b/deep.txt", want: file("deep\n")},
	{name: "NullSegmentsSendNoCWD", path: "a//b/deep.txt", want: file("deep\n")},
	{name: "EncodedSlashDirectoryIsAbsolute", path: "%2Fa/b/deep.txt", want: file("deep\n")},
	{name: "EncodedSlashDirectoryDropsTheDirectoriesBeforeIt", path: "missing/%2Fa/b/deep.txt", want: file("deep\n")},
	{name: "EncodedSlashNameIsAbsolute", path: "a/%2Ftext.txt", want: file(textFile)},
	{
		name: "TildeIsSentAsItIsWithoutAbsolutePaths", path: "~/text.txt", abs: []bool{false}, want: file(textFile),
		differ: map[string]want{
			// pyftpdlib and ftpserverlib do not expand "~".
			// ProFTPD expands "~" for anonymous only followed by a
			// path ("RETR ~/text.txt"), not "CWD ~"; Pure-FTPd in
			// CWD, not in RETR.
			"proftpd/multicwd":       fails("cwd", 550),
			"proftpd/singlecwd":      fails("cwd", 550),
			"pure-ftpd/nocwd":        fallbackFails("cwd", 550),
			"pyftpdlib/multicwd":     fails("cwd", 550),
			"pyftpdlib/singlecwd":    fails("cwd", 550),
			"pyftpdlib/nocwd":        fallbackFails("cwd", 550),
			"ftpserverlib/multicwd":  fails("cwd", 550),
			"ftpserverlib/singlecwd": fails("cwd", 550),
			"ftpserverlib/nocwd":     fallbackFails("cwd", 550),
		},
	},
	{name: "AbsolutePathsDropAFirstTilde", path: "~/text.txt", abs: []bool{true}, want: file(textFile)},
	{
		name: "TildeNameWithoutAbsolutePathsIsRETRThenCWDTilde", path: "~", abs: []bool{false},
		want: fallbackList(rootNames...),
		differ: map[string]want{
			// "CWD ~" as anonymous: ProFTPD refuses it; pyftpdlib and
			// ftpserverlib do not expand "~".
			"proftpd":      fallbackFails("cwd", 550),
			"pyftpdlib":    fallbackFails("cwd", 550),
			"ftpserverlib": fallbackFails("cwd", 550),
		},
	},
	{name: "AbsolutePathsDropATildeName", path: "~", abs: []bool{true}, want: list(rootNames...)},
	// 2011 draft §3.2.3 sends each segment as it is, but vsftpd,
	// ProFTPD and Pure-FTPd expand a leading "~" of any argument: a
	// "~" beyond the path's first segment is sent as "./~".
	{name: "TildeBeyondTheFirstSegmentIsSentAsDotSlash", path: "odd/~", want: file("tilde\n")},
	{name: "TildeDirectoryBeyondTheFirstSegmentIsSentAsDotSlash", path: "odd/~dir/x.txt", want: file("x\n")},
	{name: "TildeDirectoryListingBeyondTheFirstSegment", path: "odd/~dir/", want: list("x.txt")},
	{name: "TildeNLSTBeyondTheFirstSegment", path: "odd/~dir;type=d", want: nlst("x.txt")},
	{name: "EncodedSpacesInDirectoryAndName", path: "with%20space/file%20name.txt", want: file("spaces\n")},
	{
		name: "DirectoryWithASpaceLists", path: "with%20space/", want: list("file name.txt"),
		differ: map[string]want{
			// Pure-FTPd splits "LIST with space" at the space.
			"pure-ftpd/nocwd": {action: ftpurl.List, none: true},
		},
	},
	{name: "UTF8NameIsSentAsOctets", path: "%C3%BCn%C3%AFc%C3%B6d%C3%A9.txt", want: file("utf-8\n")},
	{name: "SemicolonThatIsNotATypecodeIsData", path: "semi;colon.txt", want: file("semicolon\n")},
	{name: "RETRNameMayBeginWithDash", path: "-dash.txt;type=i", want: file("dash\n")},
	{name: "NoTypecodeNameMayBeginWithDash", path: "-dash.txt", want: file("dash\n")},
	{name: "EmptyPathListsTheLoginDirectory", path: "", want: list(rootNames...)},
	{name: "TrailingSlashLists", path: "a/", want: list("b", "top.txt")},
	{name: "EmptyDirectoryListsNothing", path: "emptydir/", want: want{action: ftpurl.List, none: true}},
	{name: "DirectoryWithoutTypecodeFallsBackToList", path: "a", want: fallbackList("b", "top.txt")},
	{name: "EmptyDirectoryWithoutTypecodeFallsBackToAnEmptyList", path: "emptydir", want: want{action: ftpurl.List, fallback: true, none: true}},
	{name: "TypecodeDOfTheDirectoryIsNLST", path: ";type=d", want: nlst(rootNames...)},
	{name: "TypecodeDOfASubdirectoryIsNLSTThere", path: "a/;type=d", want: nlst("b", "top.txt")},
	{name: "TypecodeDWithANameIsNLSTName", path: "a/b;type=d", want: nlst("deep.txt")},
	{
		name: "TypecodeDOfAFileIsNLSTOfTheFile", path: "text.txt;type=d", want: nlst("text.txt"),
		differ: map[string]want{"pure-ftpd": fails("nlst", 550)},
	},
	{
		name: "MissingNameFailsRETRThenTheFallbackCWD", path: "missing.txt", want: fallbackFails("cwd", 550),
	},
	{name: "MissingFileWithTypecodeFailsRETR", path: "missing.txt;type=i", want: fails("retr", 550)},
	{
		name: "MissingDirectoryFailsCWD", path: "missing/text.txt", want: fails("cwd", 550),
		differ: map[string]want{"*/nocwd": fallbackFails("cwd", 550)},
	},
	{
		name: "MissingDirectoryListingFailsCWD", path: "missing/", want: fails("cwd", 550),
		differ: map[string]want{
			// NoCWD lists "LIST missing": some servers answer 226 with
			// nothing, the reason the plan's fallback uses CWD.
			// vsftpd and Pure-FTPd answer 226 with nothing, so the
			// plan's Verify ("CWD missing") runs and is refused.
			"*/nocwd":         fails("list", 0),
			"vsftpd/nocwd":    fails("verify", 550),
			"pure-ftpd/nocwd": fails("verify", 550),
		},
	},
}

// lookup returns the want of c on srv with method m.
func (c *fetchCase) lookup(srv string, m ftpurl.Method, abs bool) want {
	a := "rel"
	if abs {
		a = "abs"
	}
	for _, s := range []string{srv, "*"} {
		for _, k := range []string{s + "/" + m.String() + "/" + a, s + "/" + m.String(), s + "/" + a, s} {
			if w, ok := c.differ[k]; ok {
				return w
			}
		}
	}
	return c.want
}

func TestPlansOnServers(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			// One Client runs the whole table, so every plan also runs
			// on a session that an earlier plan left elsewhere.
			logins := countLogins(srv.addr)
			cl := &fetch.Client{MaxConnsPerHost: 6, DialContext: logins.dial}
			fetches := 0
			t.Cleanup(func() {
				cl.CloseIdleConnections()
				t.Logf("%d fetches, %d logins", fetches, logins.n.Load())
				if n := logins.n.Load(); n > int64(fetches/4) {
					t.Errorf("%d fetches took %d logins, want at most a quarter", fetches, n)
				}
			})
			fetches = runPlanTable(t, cl, name, "ftp://"+srv.addr+"/", 6, 20*time.Second)
		})
	}
}

// runPlanTable runs every case of fetchCases with every Method, with
// and without WithAbsolutePaths, on server srv at base (a URL ending in
// "/"), with cl, at most parallel at once, and extra options after the
// case's own. It returns how many fetches it started.
func runPlanTable(t *testing.T, cl *fetch.Client, srv, base string, parallel int, timeout time.Duration, extra ...fetch.Option) int {
	sem := make(chan struct{}, parallel)
	fetches := 0
	for _, c := range fetchCases {
		abss := c.abs
		if abss == nil {
			abss = both
		}
		for _, m := range methods {
			for _, abs := range abss {
				sub := c.name + "/" + m.String()
				opts := append([]fetch.Option{fetch.WithMethod(m), fetch.WithTimeout(timeout)}, extra...)
				if abs {
					sub += "/abs"
					opts = append(opts, fetch.WithAbsolutePaths())
				}
				fetches++
				t.Run(sub, func(t *testing.T) {
					t.Parallel()
					sem <- struct{}{}
					defer func() { <-sem }()
					check(t, cl, srv, base+c.path, c.lookup(srv, m, abs), opts...)
				})
			}
		}
	}
	return fetches
}

// check fetches rawURL and compares the outcome with w.
func check(t *testing.T, cl *fetch.Client, srv, rawURL string, w want, opts ...fetch.Option) {
	t.Helper()
	if cl == nil {
		cl = fetch.DefaultClient
	}
	resp, err := cl.Open(context.Background(), rawURL, opts...)
	if err != nil {
		if strings.Contains(err.Error(), testPassword) {
			t.Errorf("the error shows the password: %v", err)
		}
		if w.planErr != nil {
			if !errors.Is(err, w.planErr) {
				t.Fatalf("Open(%s) = %v, want an error wrapping %v", rawURL, err, w.planErr)
			}
			return
		}
		var fe *fetch.Error
		if w.errOp == "" || !errors.As(err, &fe) {
			t.Fatalf("Open(%s) on %s: %v", rawURL, srv, err)
		}
		if fe.Op != w.errOp || (w.errCode != 0 && fe.Code != w.errCode) || fe.Fallback != w.fallback {
			t.Fatalf("Open(%s) on %s: %v; want step %q (fallback %v), code %d; got step %q (fallback %v), code %d",
				rawURL, srv, err, w.errOp, w.fallback, w.errCode, fe.Op, fe.Fallback, fe.Code)
		}
		// A 550 to CWD, to RETR or to a listing's Verify means the URL
		// names nothing (RFC 959 §4.2); NLST of a file is refused
		// otherwise.
		if wantNotFound := fe.Code == 550 && fe.Op != "nlst"; errors.Is(err, fetch.ErrNotFound) != wantNotFound {
			t.Errorf("Open(%s) on %s: %v; errors.Is(err, ErrNotFound) = %v, want %v", rawURL, srv, err, !wantNotFound, wantNotFound)
		}
		return
	}
	defer resp.Close()
	if w.errOp != "" || w.planErr != nil {
		t.Fatalf("Open(%s) on %s succeeded with %v, want step %q to fail with %d", rawURL, srv, resp.Action, w.errOp, w.errCode)
	}
	if resp.Action != w.action || resp.Fallback != w.fallback {
		t.Fatalf("Open(%s) on %s: action %v fallback %v, want %v fallback %v", rawURL, srv, resp.Action, resp.Fallback, w.action, w.fallback)
	}
	switch resp.Action {
	case ftpurl.Retrieve:
		got, err := io.ReadAll(resp)
		if err != nil {
			t.Fatalf("reading %s on %s: %v", rawURL, srv, err)
		}
		if !bytes.Equal(got, []byte(w.body)) {
			t.Fatalf("%s on %s: got %d bytes %q, want %d bytes %q", rawURL, srv, len(got), got, len(w.body), w.body)
		}
		if err := resp.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	case ftpurl.List, ftpurl.NameList:
		var names []string
		for _, e := range resp.Entries {
			names = append(names, e.Name)
		}
		for _, n := range resp.Names {
			names = append(names, path.Base(strings.TrimSuffix(n, "/")))
		}
		for _, n := range w.has {
			if !slices.Contains(names, n) {
				t.Errorf("%s on %s: listing %q lacks %q", rawURL, srv, names, n)
			}
		}
		for _, n := range w.hasNot {
			if slices.Contains(names, n) {
				t.Errorf("%s on %s: listing %q holds %q", rawURL, srv, names, n)
			}
		}
		if w.none {
			for _, n := range names {
				if n != "." && n != ".." {
					t.Errorf("%s on %s: listing %q, want none", rawURL, srv, names)
					break
				}
			}
		}
	}
}

// TestLogins logs in with a password from the URL, with WithPassword,
// and anonymously under every name the servers take for it.
func TestLogins(t *testing.T) {
	userinfo := url.UserPassword(testUser, testPassword).String()
	cases := []struct {
		name     string
		userinfo string
		path     string // "": text.txt
		opts     []fetch.Option
		want     want
		differ   map[string]want
	}{
		{name: "UserAndPasswordFromTheURL", userinfo: userinfo + "@", want: file(textFile)},
		{name: "FailedStepAfterAPasswordLoginHidesThePassword", userinfo: userinfo + "@", path: "missing/text.txt", want: fails("cwd", 550)},
		{name: "UserWithoutPasswordTakesWithPassword", userinfo: testUser + "@", opts: []fetch.Option{fetch.WithPassword(testPassword)}, want: file(textFile)},
		{name: "NoUserinfoIsAnonymous", want: file(textFile)},
		{name: "EmptyUserIsAnonymous", userinfo: "@", want: file(textFile)},
		{
			name: "UserFtpIsAnonymous", userinfo: "ftp@", want: file(textFile),
			differ: map[string]want{
				// pyftpdlib and ftpserverlib know no user "ftp".
				"pyftpdlib":    fails("login", 530),
				"ftpserverlib": fails("login", 530),
			},
		},
		{
			name: "UpperCaseAnonymousIsSentAsItIs", userinfo: "ANONYMOUS@", want: file(textFile),
			differ: map[string]want{
				// Only vsftpd and Pure-FTPd take the anonymous name
				// in any case. A refused login is slow (3 s or more).
				"proftpd":      fails("login", 530),
				"pyftpdlib":    fails("login", 530),
				"ftpserverlib": fails("login", 530),
			},
		},
	}
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					w := c.want
					if d, ok := c.differ[name]; ok {
						w = d
					}
					p := c.path
					if p == "" {
						p = "text.txt"
					}
					check(t, nil, name, "ftp://"+c.userinfo+srv.addr+"/"+p, w, c.opts...)
				})
			}
		})
	}
}

// TestTypecodesEAndU records what each server answers to TYPE E
// (EBCDIC) and TYPE U (the 2011 draft's Unicode type), which a
// typecode e or u sends (§3.2.3 (2)).
func TestTypecodesEAndU(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			for _, tc := range []string{"e", "u"} {
				t.Run(tc, func(t *testing.T) {
					w := fails("type", 504)
					if d, ok := typeEU[name+"/"+tc]; ok {
						w = d
					}
					check(t, nil, name, "ftp://"+srv.addr+"/text.txt;type="+tc, w)
				})
			}
		})
	}
}

// typeEU holds each server's answer to TYPE E and TYPE U, where it is
// not 504 ("Command not implemented for that parameter", RFC 959 §4.2).
var typeEU = map[string]want{
	// vsftpd answers 500 "Unrecognised TYPE command." to both.
	"vsftpd/e": fails("type", 500),
	"vsftpd/u": fails("type", 500),
}

// TestUserWithoutPasswordFailsBeforeConnecting needs no server: the
// port is one nothing listens on.
func TestUserWithoutPasswordFailsBeforeConnecting(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	_, err = fetch.Open(context.Background(), fmt.Sprintf("ftp://alice@127.0.0.1:%d/x", port))
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "login" || !errors.Is(err, fetch.ErrPasswordRequired) {
		t.Fatalf("Open = %v, want a login *Error wrapping ErrPasswordRequired", err)
	}
}

func TestWrongPasswordIsALoginErrorWithoutThePassword(t *testing.T) {
	srv := need(t, "ftpserverlib")
	const secret = "wrong-s3cret"
	_, err := fetch.Open(context.Background(), "ftp://"+testUser+":"+secret+"@"+srv.addr+"/text.txt")
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "login" {
		t.Fatalf("Open = %v, want a login *Error", err)
	}
	if strings.Contains(err.Error(), secret) || strings.Contains(fe.URL, secret) || strings.Contains(fe.Command, secret) {
		t.Fatalf("the error shows the password: %v (%#v)", err, fe)
	}
}

func TestParseErrorPassesThroughAsFtpurlError(t *testing.T) {
	_, err := fetch.Open(context.Background(), "ftp://h:99999/x")
	var pe *ftpurl.Error
	if !errors.As(err, &pe) || !errors.Is(err, ftpurl.ErrPort) {
		t.Fatalf("Open = %v, want an *ftpurl.Error wrapping ErrPort", err)
	}
	_, err = fetch.Open(context.Background(), "ftp://h/a;b", fetch.WithGrammar(ftpurl.RFC3986))
	if !errors.As(err, &pe) {
		t.Fatalf("Open with RFC3986 = %v, want an *ftpurl.Error", err)
	}
}

func TestCancelledContextFailsBeforeDialing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := fetch.Open(ctx, "ftp://127.0.0.1:1/x")
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "dial" || !errors.Is(err, context.Canceled) {
		t.Fatalf("Open = %v, want a dial *Error wrapping context.Canceled", err)
	}
}

func TestResponseCloseTwiceAndEarlyIsSafe(t *testing.T) {
	srv := need(t, "ftpserverlib")
	resp, err := fetch.Open(context.Background(), "ftp://"+srv.addr+"/binary.bin")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := io.ReadFull(resp, buf); err != nil {
		t.Fatal(err)
	}
	if err := resp.Close(); err != nil {
		t.Errorf("first Close: %v", err)
	}
	if err := resp.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := resp.Read(buf); err == nil {
		t.Errorf("Read after Close succeeded")
	}
}

// TestReadAfterClose holds Read to its doc: a Read that ended keeps its
// io.EOF after Close (a listing and an empty file included), and one
// that had not ended gets a plain error, not an *Error.
func TestReadAfterClose(t *testing.T) {
	srv := need(t, "ftpserverlib")
	buf := make([]byte, 10)
	for _, p := range []string{"a/", "a/;type=d", "empty.txt"} {
		resp, err := fetch.Open(context.Background(), "ftp://"+srv.addr+"/"+p)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := resp.Read(buf); n != 0 || err != io.EOF {
			t.Errorf("%s: Read = %d, %v; want 0, io.EOF", p, n, err)
		}
		if err := resp.Close(); err != nil {
			t.Errorf("%s: Close: %v", p, err)
		}
		if n, err := resp.Read(buf); n != 0 || err != io.EOF {
			t.Errorf("%s: Read after Close = %d, %v; want 0, io.EOF", p, n, err)
		}
	}

	resp, err := fetch.Open(context.Background(), "ftp://"+srv.addr+"/binary.bin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadFull(resp, buf); err != nil {
		t.Fatal(err)
	}
	if err := resp.Close(); err != nil {
		t.Fatal(err)
	}
	var fe *fetch.Error
	n, err := resp.Read(buf)
	if n != 0 || err == nil || errors.As(err, &fe) || err.Error() != "fetch: read from a closed Response" {
		t.Errorf("Read after an early Close = %d, %v; want 0 and a plain closed error", n, err)
	}
}

// WithTimeout ends a fetch whose server accepts the connection and never
// greets (RFC 959 §5.4: the client waits for the 220): Open returns the
// dial step's *Error. The server never answers, so only the timeout can
// end Open; the test's own limit is far above it, so that a slow machine
// does not fail it.
func TestContextEndsAStalledFetch(t *testing.T) {
	// A listener that accepts and never greets.
	var wg sync.WaitGroup
	defer wg.Wait()
	l, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	done := make(chan struct{})
	defer close(done)
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := l.Accept()
		if err == nil {
			<-done
			c.Close()
		}
	}()
	opened := make(chan error, 1)
	go func() {
		_, err := fetch.Open(context.Background(), "ftp://"+l.Addr().String()+"/x", fetch.WithTimeout(200*time.Millisecond))
		opened <- err
	}()
	select {
	case err = <-opened:
	case <-time.After(time.Minute):
		t.Fatal("Open did not return a minute after a 200ms timeout")
	}
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "dial" {
		t.Fatalf("Open = %v, want a dial *Error", err)
	}
}

// TestNLSTNamesAsTheServerSendsThem records the NLST replies, which
// RFC 959 §4.1.3 leaves to the server: whether NLST of a directory
// prefixes the names with it, and whether "." and ".." are among them.
func TestNLSTNamesAsTheServerSendsThem(t *testing.T) {
	top := []string{"-dash.txt", "a", "bench", "binary.bin", "empty.txt", "emptydir", "fs", "odd", "semi;colon.txt", "text.txt", "walk", "with space", "ünïcödé.txt"}
	topDots := append([]string{".", ".."}, top...)
	cases := []struct {
		name, path string
		want       []string
		differ     map[string][]string
	}{
		{
			name: "NLSTOfTheLoginDirectory", path: ";type=d", want: top,
			differ: map[string][]string{"pure-ftpd": topDots},
		},
		{
			name: "NLSTOfASubdirectoryPrefixesItsName", path: "a/b;type=d", want: []string{"b/deep.txt"},
			differ: map[string][]string{
				"pure-ftpd": {"b/.", "b/..", "b/deep.txt"},
				"pyftpdlib": {"deep.txt"},
			},
		},
		{
			name: "NLSTOfAnEmptyDirectory", path: "emptydir/;type=d", want: nil,
			differ: map[string][]string{"pure-ftpd": {".", ".."}},
		},
	}
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) {
					w := c.want
					if d, ok := c.differ[name]; ok {
						w = d
					}
					resp, err := fetch.Open(context.Background(), "ftp://"+srv.addr+"/"+c.path)
					if err != nil {
						t.Fatal(err)
					}
					defer resp.Close()
					got := slices.Sorted(slices.Values(resp.Names))
					if !slices.Equal(got, slices.Sorted(slices.Values(w))) {
						t.Errorf("NLST names %q, want %q", got, w)
					}
				})
			}
		})
	}
}

// TestEmptyCWDIsWhyNullSegmentsSendNothing records the answers to
// "CWD " with an empty argument, which the 1997 draft §2.5 sent for a
// null segment and the plan never sends (2011 draft §3.2.3 (1)). It
// drives jlaffaye/ftp directly, after "CWD a".
func TestEmptyCWDIsWhyNullSegmentsSendNothing(t *testing.T) {
	type answer struct {
		code int    // the refusal; 0 when accepted
		pwd  string // the directory after an accepted "CWD "
	}
	wants := map[string]answer{
		"vsftpd":       {code: 550},
		"proftpd":      {code: 501},
		"pure-ftpd":    {pwd: "/"},
		"pyftpdlib":    {pwd: "/"},
		"ftpserverlib": {pwd: "/a"},
	}
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := need(t, name)
			c, err := ftp.Dial(srv.addr, ftp.DialWithTimeout(10*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Quit()
			if err := c.Login("anonymous", "anonymous@"); err != nil {
				t.Fatal(err)
			}
			if err := c.ChangeDir("a"); err != nil {
				t.Fatal(err)
			}
			var got answer
			if err := c.ChangeDir(""); err != nil {
				var tp *textproto.Error
				if !errors.As(err, &tp) {
					t.Fatal(err)
				}
				got.code = tp.Code
			} else if got.pwd, err = c.CurrentDir(); err != nil {
				t.Fatal(err)
			}
			if got != wants[name] {
				t.Errorf(`"CWD " after "CWD a": got %+v, want %+v`, got, wants[name])
			}
		})
	}
}

// TestCancellingTheContextEndsARead cancels the context in the middle
// of a file far larger than the socket buffers: the next reads fail
// instead of waiting, and never end in io.EOF.
func TestCancellingTheContextEndsARead(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, 64<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	addr, stop, err := newFtpserverlib(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp, err := fetch.Open(ctx, "ftp://"+addr+"/big.bin")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Close()
	if _, err := io.ReadFull(resp, make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	cancel()
	n, err := io.Copy(io.Discard, resp)
	if err == nil || errors.Is(err, io.EOF) {
		t.Fatalf("reading on after cancel: %d more bytes, err %v; want an error", n, err)
	}
	var fe *fetch.Error
	if !errors.As(err, &fe) || fe.Op != "retr" || !errors.Is(err, context.Canceled) {
		t.Fatalf("reading on after cancel: %v, want a retr *Error wrapping context.Canceled", err)
	}
}

// loginCounter counts the connections dialed to one address: the
// control connections, one a login.
type loginCounter struct {
	addr string
	n    atomic.Int64
}

func countLogins(addr string) *loginCounter { return &loginCounter{addr: addr} }

func (c *loginCounter) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	if addr == c.addr {
		c.n.Add(1)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}
