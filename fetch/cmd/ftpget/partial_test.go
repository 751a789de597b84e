package main

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"testing"
)

// shortServer is a scripted FTP server whose transfer of any file ends
// after 10 of the 1000 bytes that its 150 reply announces.
func shortServer(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go serveShort(c)
		}
	}()
	return l.Addr().String()
}

func serveShort(c net.Conn) {
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
			d.Close()
			reply("226 Transfer complete")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not implemented")
		}
	}
}

func TestPartialFile(t *testing.T) {
	addr := shortServer(t)
	r := runIn(t, "", "ftp://"+addr+"/f.bin")
	if r.code != 18 || r.stdout != "0123456789" || !strings.Contains(r.stderr, "10 of 1000 bytes") {
		t.Errorf("a short transfer: exit %d, stdout %q, stderr %q; want 18, the 10 bytes, and why", r.code, r.stdout, r.stderr)
	}
}
