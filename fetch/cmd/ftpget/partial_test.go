package main

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
)

// How the RETR of shortServer ends, after 10 of the 1000 bytes that its
// 150 reply announces.
type retrEnd int

const (
	endConfirmed    retrEnd = iota // the data connection closed, then 226
	endAborted                     // the data connection closed, then 426
	endReset                       // the data connection reset (RST), no reply
	endControlReset                // the control connection reset, the data one open
)

// shortServer is a scripted FTP server whose transfer of any file ends
// after 10 of the 1000 bytes that its 150 reply announces, as end says.
func shortServer(t *testing.T, end retrEnd) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	acceptEach(t, l, func(c net.Conn) { serveShort(c, end) })
	return l.Addr().String()
}

func serveShort(c net.Conn, end retrEnd) {
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func(s string) { fmt.Fprintf(c, "%s\r\n", s) }
	reply("220 short server")
	var data net.Listener
	defer func() {
		if data != nil {
			data.Close()
		}
	}()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		verb, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch strings.ToUpper(verb) {
		case "USER":
			reply("331 password")
		case "PASS":
			reply("230 in")
		case "FEAT":
			reply("211 no features")
		case "TYPE":
			reply("200 type")
		case "PWD":
			reply(`257 "/"`)
		case "CWD":
			reply("250 ok")
		case "EPSV":
			if data, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
				reply("425 no")
				continue
			}
			reply(fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)", data.Addr().(*net.TCPAddr).Port))
		case "RETR":
			reply("150 Opening BINARY mode data connection for f (1000 bytes)")
			d, err := data.Accept()
			if err != nil {
				return
			}
			d.Write([]byte("0123456789"))
			switch end {
			case endControlReset:
				// The client's watch of the control connection sees
				// the RST while the data connection is still open.
				c.(*net.TCPConn).SetLinger(0)
				c.Close()
				d.Close()
				return
			case endReset:
				// SO_LINGER 0: Close sends a RST, not a FIN.
				d.(*net.TCPConn).SetLinger(0)
				d.Close()
			case endAborted:
				d.Close()
				reply("426 Connection closed; transfer aborted.")
			default:
				d.Close()
				reply("226 Transfer complete")
			}
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

// A transfer that ends short is curl's exit status for it (curl(1),
// EXIT CODES): 18, CURLE_PARTIAL_FILE, for one the server confirms
// with fewer bytes than it announced, or ends with a reply other than
// 226 (curl's ftp_done: "server did not report OK, got 426"); 56,
// CURLE_RECV_ERROR, for a data connection reset mid-file.
func TestPartialFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  retrEnd
		code int
		why  string // in stderr
	}{
		{"confirmed short", endConfirmed, 18, "10 of 1000 bytes"},
		{"aborted with 426", endAborted, 18, "426 Connection closed; transfer aborted."},
		{"reset", endReset, 56, "connection reset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr := shortServer(t, tc.end)
			r := runIn(t, "", "ftp://"+addr+"/f.bin")
			if r.code != tc.code || r.stdout != "0123456789" || !strings.Contains(r.stderr, tc.why) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, the 10 bytes, and %q", r.code, r.stdout, r.stderr, tc.code, tc.why)
			}
		})
	}
}

// A control connection reset while the file flows is 56 too: the
// transfer cannot be confirmed.
func TestTransferControlReset(t *testing.T) {
	addr := shortServer(t, endControlReset)
	r := runIn(t, "", "ftp://"+addr+"/f.bin")
	// The watch may close the data connection before its 10 bytes are
	// read: stdout holds a prefix of them.
	if r.code != 56 || !strings.HasPrefix("0123456789", r.stdout) || !strings.Contains(r.stderr, "connection reset") {
		t.Errorf("a control connection reset: exit %d, stdout %q, stderr %q; want 56, the bytes read, and why", r.code, r.stdout, r.stderr)
	}
}
