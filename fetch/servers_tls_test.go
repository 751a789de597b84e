package fetch_test

// Checks of the TLS servers themselves, with jlaffaye/ftp alone: each
// listener serves the test tree over TLS to anonymous and to testUser,
// and refuses a session without TLS. A failure here is the test
// servers' fault, not fetch's.

import (
	"bytes"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/jlaffaye/ftp"
)

// tlsListener is one TLS address of one server.
type tlsListener struct {
	mode tlsMode
	addr string
}

func (s *tlsServer) listeners() []tlsListener {
	var ls []tlsListener
	if s.explicitAddr != "" {
		ls = append(ls, tlsListener{explicitTLS, s.explicitAddr})
	}
	if s.implicitAddr != "" {
		ls = append(ls, tlsListener{implicitTLS, s.implicitAddr})
	}
	return ls
}

// dialTLS logs in to l over TLS as user. Each session has a session
// cache of its own (testTLSConfig), which vsftpd and ProFTPD need.
func dialTLS(t *testing.T, l tlsListener, user, password string) *ftp.ServerConn {
	t.Helper()
	opt := ftp.DialWithExplicitTLS(testTLSConfig())
	if l.mode == implicitTLS {
		opt = ftp.DialWithTLS(testTLSConfig())
	}
	c, err := ftp.Dial(l.addr, opt, ftp.DialWithTimeout(10*time.Second), ftp.DialWithDisabledMLSD(true))
	if err != nil {
		t.Fatalf("dial %s: %v", l.addr, err)
	}
	if err := c.Login(user, password); err != nil {
		_ = c.Quit()
		t.Fatalf("login as %s: %v", user, err)
	}
	return c
}

func TestTLSServersServeTheTree(t *testing.T) {
	users := []struct{ user, password string }{{"anonymous", "ftpurl@example.com"}, {testUser, testPassword}}
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := needTLS(t, name)
			for _, l := range srv.listeners() {
				for _, u := range users {
					t.Run(l.mode.String()+"/"+u.user, func(t *testing.T) {
						t.Parallel()
						c := dialTLS(t, l, u.user, u.password)
						defer c.Quit()
						r, err := c.Retr("binary.bin")
						if err != nil {
							t.Fatalf("RETR: %v", err)
						}
						got, err := io.ReadAll(r)
						if cerr := r.Close(); err == nil {
							err = cerr
						}
						if err != nil || !bytes.Equal(got, binaryFile()) {
							t.Fatalf("RETR binary.bin: %d bytes, %v; want the 256 byte values", len(got), err)
						}
						// A second transfer on the same session: its data
						// connection resumes the TLS session again.
						entries, err := c.List("a")
						if err != nil {
							t.Fatalf("LIST a: %v", err)
						}
						var names []string
						for _, e := range entries {
							names = append(names, e.Name)
						}
						slices.Sort(names)
						if !slices.Equal(names, []string{"b", "top.txt"}) {
							t.Fatalf("LIST a: %q, want b and top.txt", names)
						}
					})
				}
			}
		})
	}
}

// TestTLSServersRefuseClearText: a session that does not start TLS gets
// no login on an explicit listener (and no greeting on an implicit
// one), so a client that forgot TLS fails instead of sending the
// password in clear.
func TestTLSServersRefuseClearText(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := needTLS(t, name)
			if srv.explicitAddr == "" {
				t.Skip("no explicit TLS")
			}
			c, err := ftp.Dial(srv.explicitAddr, ftp.DialWithTimeout(10*time.Second))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Quit()
			if err := c.Login("anonymous", "ftpurl@example.com"); err == nil {
				t.Fatal("anonymous logged in without TLS")
			} else {
				t.Logf("login without TLS: %v", err)
			}
		})
	}
}
