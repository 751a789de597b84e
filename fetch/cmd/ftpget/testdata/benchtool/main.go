// Command benchtool is what bench-mirror.sh needs beside the tools it
// times: a delaying FTP proxy, and fetch.Client.Walk timed.
//
//	benchtool proxy LISTEN UPSTREAM DELAY
//	benchtool walk URL
//
// proxy forwards the FTP control connections that LISTEN accepts to
// UPSTREAM, and each passive data connection too: it rewrites the
// port of every 227 (PASV) and 229 (EPSV) reply to a listener of its
// own, which forwards that one connection to the server's. Every chunk
// of bytes, either way, on control and data connections alike, is
// written DELAY after it was read (10ms: 20 ms RTT), and each
// connection to the server is opened DELAY after the client's, for the
// SYN. It is the stand-in for tc netem where the kernel has none; it
// takes plain FTP only (a TLS control connection cannot be rewritten).
//
// walk walks URL with fetch.Client.Walk and prints the entries and the
// seconds it took.
package main

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

func main() {
	switch {
	case len(os.Args) == 5 && os.Args[1] == "proxy":
		d, err := time.ParseDuration(os.Args[4])
		if err != nil {
			fail(err)
		}
		fail(proxy(os.Args[2], os.Args[3], d))
	case len(os.Args) == 3 && os.Args[1] == "walk":
		start := time.Now()
		n := 0
		err := (&fetch.Client{}).Walk(context.Background(), os.Args[2], func(p string, e fetch.Entry, err error) error {
			n++
			return nil
		})
		if err != nil {
			fail(err)
		}
		fmt.Printf("%d entries %.3f s\n", n, time.Since(start).Seconds())
	default:
		fail(fmt.Errorf("usage: benchtool proxy LISTEN UPSTREAM DELAY | benchtool walk URL"))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchtool:", err)
	os.Exit(1)
}

func proxy(listen, upstream string, delay time.Duration) error {
	l, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		go func() {
			time.Sleep(delay)
			s, err := net.Dial("tcp", upstream)
			if err != nil {
				c.Close()
				return
			}
			host, _, _ := net.SplitHostPort(upstream)
			done := make(chan struct{})
			go func() { pump(s, c, delay, logLines("> ")); close(done) }()
			logIn := logLines("< ")
			pump(c, s, delay, func(line string) string {
				line = rewritePassive(line, host, delay)
				if logIn != nil {
					logIn(line)
				}
				return line
			})
			<-done
			c.Close()
			s.Close()
		}()
	}
}

// logLines prints each control line on standard error when
// BENCHTOOL_LOG=1, to see what a client sends; nil otherwise.
func logLines(prefix string) func(string) string {
	if os.Getenv("BENCHTOOL_LOG") != "1" {
		return nil
	}
	start := time.Now()
	return func(line string) string {
		fmt.Fprintf(os.Stderr, "%6d %s%s", time.Since(start).Milliseconds(), prefix, line)
		return line
	}
}

var (
	pasvRE = regexp.MustCompile(`^227 .*?(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)`)
	epsvRE = regexp.MustCompile(`^229 .*\(\|\|\|(\d+)\|\)`)
)

// rewritePassive gives a passive reply the port of a new forwarder.
func rewritePassive(line, host string, delay time.Duration) string {
	var port int
	if m := pasvRE.FindStringSubmatch(line); m != nil {
		hi, _ := strconv.Atoi(m[5])
		lo, _ := strconv.Atoi(m[6])
		port = hi*256 + lo
	} else if m := epsvRE.FindStringSubmatch(line); m != nil {
		port, _ = strconv.Atoi(m[1])
	} else {
		return line
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return line
	}
	go func() {
		defer l.Close()
		l.(*net.TCPListener).SetDeadline(time.Now().Add(30 * time.Second))
		c, err := l.Accept()
		if err != nil {
			return
		}
		time.Sleep(delay)
		s, err := net.Dial("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
		if err != nil {
			c.Close()
			return
		}
		done := make(chan struct{})
		go func() { pump(s, c, delay, nil); close(done) }()
		pump(c, s, delay, nil)
		<-done
		c.Close()
		s.Close()
	}()
	p := l.Addr().(*net.TCPAddr).Port
	if strings.HasPrefix(line, "227") {
		return fmt.Sprintf("227 Entering Passive Mode (127,0,0,1,%d,%d).\r\n", p/256, p%256)
	}
	return fmt.Sprintf("229 Entering Extended Passive Mode (|||%d|)\r\n", p)
}

type chunk struct {
	b  []byte
	at time.Time
}

// pump copies src to dst, each chunk delay after it was read; with
// lines, src is read line by line and each line goes through lines.
func pump(dst, src net.Conn, delay time.Duration, lines func(string) string) {
	q := make(chan chunk, 4096)
	go func() {
		defer close(q)
		if lines != nil {
			r := bufio.NewReader(src)
			for {
				line, err := r.ReadString('\n')
				if line != "" {
					q <- chunk{[]byte(lines(line)), time.Now()}
				}
				if err != nil {
					return
				}
			}
		}
		for {
			b := make([]byte, 32<<10)
			n, err := src.Read(b)
			if n > 0 {
				q <- chunk{b[:n], time.Now()}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range q {
		time.Sleep(time.Until(c.at.Add(delay)))
		if _, err := dst.Write(c.b); err != nil {
			break
		}
	}
	// Half-closes, each way on its own: a side that ended its writing
	// still reads what the other sends, as on a real network. Closing
	// src whole here told the client that the server had closed a data
	// connection it was still reading (ftpget then sent SIZE during
	// ProFTPD's transfer). The caller closes both once both ways end.
	if tc, ok := dst.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	for range q {
	}
	if tc, ok := src.(*net.TCPConn); ok {
		tc.CloseRead()
	} else {
		src.Close()
	}
}
