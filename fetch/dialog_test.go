package fetch_test

// The whole dialog of each plan, as the fake server records it: what
// goes on the wire is exactly the login, the plan's steps as
// ftpurl.Step.String renders them, in order, each once, and the few
// commands DESIGN names (FEAT, PWD, SIZE, EPSV, QUIT; the fallback's and
// the Verify's steps where they run), for every Method, with and
// without absolute paths.

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// wantDialog builds the dialog a plan must make on the fake: the login
// (RFC 959 §5.4: USER, PASS; RFC 2389 FEAT; PWD for the login
// directory), the plan's steps with SIZE (RFC 3659 §4) before a RETR
// in TYPE I and EPSV (RFC 2428 §3) before each transfer, the
// Fallback's steps when RETR is refused, the Verify's when a listing
// is empty, and QUIT.
func wantDialog(p *ftpurl.Plan, retrRefused, listingEmpty bool) []string {
	d := []string{"USER anonymous", "PASS anonymous@", "FEAT", "PWD"}
	steps := func(p *ftpurl.Plan) {
		for _, st := range p.Steps() {
			switch st.Command {
			case "RETR":
				d = append(d, "SIZE "+st.Arg)
				fallthrough
			case "LIST", "NLST":
				d = append(d, "EPSV")
			}
			d = append(d, st.String())
		}
	}
	steps(p)
	if retrRefused {
		steps(p.Fallback)
		p = p.Fallback
	}
	if listingEmpty && p.Verify != nil {
		d = append(d, p.Verify.Commands()...)
	}
	return append(d, "QUIT")
}

func TestDialogIsThePlan(t *testing.T) {
	body := "hello"
	file := transfer(body, "150 Opening BINARY mode data connection (5 bytes)", "226 Done")
	empty := transfer("", "150 Here comes the listing", "226 Done")
	oneLine := transfer("-rw-r--r-- 1 ftp ftp 5 Jan 02 2024 f.txt\r\n", "150 Here comes the listing", "226 Done")
	cases := []struct {
		name         string
		path         string
		sc           script
		retrRefused  bool // the Fallback runs
		listingEmpty bool // the Verify runs, where the plan has one
	}{
		{"file", "a/b/f.txt", script{"RETR": file}, false, false},
		{"file with a typecode", "a/b/f.txt;type=i", script{"RETR": file}, false, false},
		{"file from the root", "%2Fa/b/f.txt", script{"RETR": file}, false, false},
		{"directory by fallback", "a/b/dir", script{"LIST": oneLine}, true, false},
		{"empty directory by fallback", "a/b/dir", script{"LIST": empty}, true, true},
		{"directory listing", "a/b/", script{"LIST": oneLine}, false, false},
		{"empty directory listing, verified", "a/b/", script{"LIST": empty}, false, true},
		{"name list", "a/b;type=d", script{"NLST": transfer("f.txt\r\n", "150 Here", "226 Done")}, false, false},
		{"empty name list, verified", "a/b;type=d", script{"NLST": empty}, false, true},
	}
	methods := map[string]ftpurl.Method{"multicwd": ftpurl.MultiCWD, "singlecwd": ftpurl.SingleCWD, "nocwd": ftpurl.NoCWD}
	for _, tc := range cases {
		for mname, m := range methods {
			for _, abs := range []bool{false, true} {
				name := tc.name + "/" + mname
				opts := []fetch.Option{fetch.WithMethod(m)}
				planOpts := []ftpurl.PlanOption{ftpurl.WithMethod(m)}
				if abs {
					name += "/abs"
					opts = append(opts, fetch.WithAbsolutePaths())
					planOpts = append(planOpts, ftpurl.WithAbsolutePaths())
				}
				t.Run(name, func(t *testing.T) {
					f := newFake(t, tc.sc)
					u, err := ftpurl.Parse(f.url(tc.path))
					if err != nil {
						t.Fatal(err)
					}
					p, err := u.Plan(planOpts...)
					if err != nil {
						t.Fatal(err)
					}
					c := testClient(t)
					var got []byte
					within(t, 30*time.Second, func() {
						got, _, err = openAndRead(context.Background(), c, f.url(tc.path), opts...)
					})
					if err != nil {
						t.Fatalf("Open: %v; commands %q", err, f.commands())
					}
					if p.Action != ftpurl.List && p.Action != ftpurl.NameList && !tc.retrRefused && string(got) != body {
						t.Errorf("got %q, want %q", got, body)
					}
					c.CloseIdleConnections()
					want := wantDialog(p, tc.retrRefused, tc.listingEmpty)
					waitFor(t, func() bool { return slices.Contains(f.commands(), "QUIT") })
					if got := f.commands(); !slices.Equal(got, want) {
						t.Errorf("dialog\n got %s\nwant %s", strings.Join(got, " | "), strings.Join(want, " | "))
					}
				})
			}
		}
	}
}

// waitFor polls cond for up to 5 seconds.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
}
