package fetch_test

import (
	"fmt"
	"io"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// benchListing generates a listing of n lines of its own: Unix ls
// lines of directories, files and links, recent and old dates, and one
// DOS line in fifty.
func benchListing(n int) string {
	var b strings.Builder
	months := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}
	for i := 0; i < n; i++ {
		m, d := months[i%12], 1+i%28
		switch {
		case i%50 == 49:
			fmt.Fprintf(&b, "%02d-%02d-24  %02d:%02dPM %14d dos file %d.txt\r\n", 1+i%12, d, 1+i%12, i%60, i*7, i)
		case i%10 == 0:
			fmt.Fprintf(&b, "drwxr-xr-x    %d ftp      ftp      %10d %s %2d  2023 dir%06d\r\n", 2+i%5, 4096, m, d, i)
		case i%10 == 1:
			fmt.Fprintf(&b, "lrwxrwxrwx    1 ftp      ftp      %10d %s %2d %02d:%02d link%06d -> ../target/%d\r\n", 12, m, d, i%24, i%60, i, i)
		default:
			fmt.Fprintf(&b, "-rw-r--r--    1 ftp      ftp      %10d %s %2d %02d:%02d file %06d.dat\r\n", i*13, m, d, i%24, i%60, i)
		}
	}
	return b.String()
}

const benchLines = 100_000

// reportPerLine reports ns, B and allocs per listing line of the
// b.N runs of f.
func reportPerLine(b *testing.B, lines int, f func()) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for b.Loop() {
		f()
	}
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	total := float64(b.N) * float64(lines)
	b.ReportMetric(float64(elapsed.Nanoseconds())/total, "ns/line")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/total, "B/line")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/total, "allocs/line")
}

// BenchmarkParseListing reads a 100,000-line listing: with
// ParseListLine line by line (the lines already split), with the
// engine's parseListing from the whole text, with jlaffaye/ftp's List
// from a scripted server over loopback, and, to tell jlaffaye's parsing
// from the transfer, the same bytes read raw over loopback.
func BenchmarkParseListing(b *testing.B) {
	text := benchListing(benchLines)
	lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(text, "\r\n", "\n"), "\n"), "\n")
	now := time.Date(2024, 6, 15, 12, 0, 0, 0, time.UTC)
	if entries, unparsed := fetch.ParseListing(text, now); len(entries) != benchLines || len(unparsed) != 0 {
		b.Fatalf("%d entries, %d unparsed (%q...)", len(entries), len(unparsed), unparsed)
	}

	b.Run("ParseListLine", func(b *testing.B) {
		reportPerLine(b, len(lines), func() {
			for _, l := range lines {
				if _, ok := fetch.ParseListLine(l, now); !ok {
					b.Fatal(l)
				}
			}
		})
	})
	b.Run("parseListing", func(b *testing.B) {
		reportPerLine(b, len(lines), func() { fetch.ParseListing(text, now) })
	})
	b.Run("jlaffaye-List-loopback", func(b *testing.B) {
		srv := newListServer(b)
		srv.set([]byte(text))
		c := srv.dialList(b)
		reportPerLine(b, len(lines), func() {
			entries, err := c.List("")
			if err != nil || len(entries) < benchLines*9/10 {
				b.Fatalf("List: %d entries, %v", len(entries), err)
			}
		})
	})
	b.Run("raw-loopback", func(b *testing.B) {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				io.WriteString(c, text)
				c.Close()
			}
		}()
		reportPerLine(b, len(lines), func() {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			n, err := io.Copy(io.Discard, c)
			c.Close()
			if err != nil || n != int64(len(text)) {
				b.Fatalf("read %d of %d bytes: %v", n, len(text), err)
			}
		})
	})
}
