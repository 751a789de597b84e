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

// benchVMS generates an OpenVMS listing of n lines of its own: files
// with owner and protection, dates to the second and to the minute,
// and one directory in ten.
func benchVMS(n int) string {
	var b strings.Builder
	months := []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}
	for i := 0; i < n; i++ {
		m, d := months[i%12], 1+i%28
		switch {
		case i%10 == 0:
			fmt.Fprintf(&b, "DIR%06d.DIR;1          %d/%d     %2d-%s-2024 %02d:%02d:%02d  [STAFF,ALICE]  (RWE,RWE,RE,E)\r\n", i, 1+i%3, 3, d, m, i%24, i%60, i%60)
		case i%10 == 1:
			fmt.Fprintf(&b, "NOTE%06d.TXT;%d  %d  %2d-%s-2023 %02d:%02d  [ALICE]  (RWED,RWED,,)\r\n", i, 1+i%9, i%500, d, m, i%24, i%60)
		default:
			fmt.Fprintf(&b, "FILE%06d.DAT;%d        %d/%d    %2d-%s-2024 %02d:%02d:%02d.%02d  [STAFF,ALICE]  (RWED,RWED,RE,)\r\n", i, 1+i%4, i%900, i%900+3, d, m, i%24, i%60, i%60, i%100)
		}
	}
	return b.String()
}

// benchMVS generates a z/OS listing of n lines of its own: data sets
// (sequential, partitioned) and, one line in four, PDS members with
// ISPF statistics.
func benchMVS(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		m, d := 1+i%12, 1+i%28
		switch {
		case i%4 == 3:
			fmt.Fprintf(&b, "M%07d  01.%02d 2023/%02d/%02d 2024/%02d/%02d %02d:%02d  %4d  %4d  %4d ALICE\r\n", i, i%100, m, d, m, d, i%24, i%60, i%5000, i%5000, i%100)
		case i%4 == 1:
			fmt.Fprintf(&b, "WRK%03d 3390   2024/%02d/%02d  1  %3d  FB      80 27920  PO  PAY.SRC%06d\r\n", i%1000, m, d, i%300, i)
		default:
			fmt.Fprintf(&b, "WRK%03d 3390   2024/%02d/%02d  1  %3d  VB     255 27998  PS  PAY.D%06d.DATA\r\n", i%1000, m, d, i%300, i)
		}
	}
	return b.String()
}

// benchOS400 generates an IBM i listing of n lines of its own: stream
// files, directories, database files and their members.
func benchOS400(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		m, d := 1+i%12, 1+i%28
		switch {
		case i%10 == 0:
			fmt.Fprintf(&b, "QSYS           %6d %02d/%02d/24 %02d:%02d:%02d *DIR       dir%06d/\r\n", 8192, m, d, i%24, i%60, i%60, i)
		case i%10 == 1:
			fmt.Fprintf(&b, "BOB            %6d %02d/%02d/24 %02d:%02d:%02d *FILE      PAYLIB.LIB/F%06d.FILE\r\n", i*3, m, d, i%24, i%60, i%60, i)
		case i%10 == 2:
			fmt.Fprintf(&b, "BOB                                     *MEM       PAYLIB.LIB/F%06d.FILE/M.MBR\r\n", i)
		default:
			fmt.Fprintf(&b, "ALICE          %6d %02d/%02d/24 %02d:%02d:%02d *STMF      report %06d.pdf\r\n", i*13, m, d, i%24, i%60, i%60, i)
		}
	}
	return b.String()
}

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

// BenchmarkParseListingFormats reads a 100,000-line listing of each of
// Unix (the listing of BenchmarkParseListing), OpenVMS, z/OS and IBM i:
// with ParseListLine line by line, and with the engine's parseListing
// from the whole text.
func BenchmarkParseListingFormats(b *testing.B) {
	now := time.Date(2024, 6, 15, 12, 0, 0, 0, time.UTC)
	for _, f := range []struct {
		name string
		text string
	}{
		{"unix", benchListing(benchLines)},
		{"vms", benchVMS(benchLines)},
		{"mvs", benchMVS(benchLines)},
		{"os400", benchOS400(benchLines)},
	} {
		lines := strings.Split(strings.TrimSuffix(strings.ReplaceAll(f.text, "\r\n", "\n"), "\n"), "\n")
		if entries, unparsed := fetch.ParseListing(f.text, now); len(entries) != benchLines || len(unparsed) != 0 {
			b.Fatalf("%s: %d entries, %d unparsed (%q...)", f.name, len(entries), len(unparsed), unparsed)
		}
		b.Run(f.name+"/ParseListLine", func(b *testing.B) {
			reportPerLine(b, len(lines), func() {
				for _, l := range lines {
					if _, ok := fetch.ParseListLine(l, now); !ok {
						b.Fatal(l)
					}
				}
			})
		})
		b.Run(f.name+"/parseListing", func(b *testing.B) {
			reportPerLine(b, len(lines), func() { fetch.ParseListing(f.text, now) })
		})
	}
}
