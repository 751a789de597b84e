package fetch_test

import (
	"bufio"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jlaffaye/ftp"
)

// listServer is a scripted FTP server on 127.0.0.1 that answers every
// LIST with the bytes of its listing: enough of RFC 959 (USER, PASS,
// FEAT, TYPE, EPSV, PASV, LIST, QUIT) to drive jlaffaye/ftp's List, so
// that its parser (unexported) can be measured beside ParseListLine.
type listServer struct {
	ln net.Listener

	mu      sync.Mutex
	listing []byte
}

func newListServer(tb testing.TB) *listServer {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &listServer{ln: ln}
	go s.serve()
	tb.Cleanup(func() { ln.Close() })
	return s
}

// set makes the next LIST send listing.
func (s *listServer) set(listing []byte) {
	s.mu.Lock()
	s.listing = listing
	s.mu.Unlock()
}

func (s *listServer) serve() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		go s.session(c)
	}
}

func (s *listServer) session(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	reply := func(format string, a ...any) { fmt.Fprintf(c, format+"\r\n", a...) }
	reply("220 listing test server")
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
		cmd, _, _ := strings.Cut(strings.TrimRight(line, "\r\n"), " ")
		switch strings.ToUpper(cmd) {
		case "USER":
			reply("331 password")
		case "PASS":
			reply("230 logged in")
		case "FEAT":
			reply("211-Features:\r\n SIZE\r\n211 End")
		case "TYPE":
			reply("200 type set")
		case "EPSV", "PASV":
			if data != nil {
				data.Close()
			}
			data, err = net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				reply("425 no data listener")
				continue
			}
			port := data.Addr().(*net.TCPAddr).Port
			if strings.EqualFold(cmd, "EPSV") {
				reply("229 Entering Extended Passive Mode (|||%d|)", port)
			} else {
				reply("227 Entering Passive Mode (127,0,0,1,%d,%d)", port>>8, port&255)
			}
		case "LIST":
			if data == nil {
				reply("425 use EPSV first")
				continue
			}
			reply("150 here it comes")
			dc, err := data.Accept()
			data.Close()
			data = nil
			if err != nil {
				reply("425 no data connection")
				continue
			}
			s.mu.Lock()
			listing := s.listing
			s.mu.Unlock()
			dc.Write(listing)
			dc.Close()
			reply("226 done")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 not here")
		}
	}
}

// dialList logs in to s with jlaffaye/ftp.
func (s *listServer) dialList(tb testing.TB) *ftp.ServerConn {
	tb.Helper()
	c, err := ftp.Dial(s.ln.Addr().String(), ftp.DialWithTimeout(5*time.Second))
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Login("anonymous", "test@"); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Quit() })
	return c
}
