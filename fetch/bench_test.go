package fetch_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// BenchmarkVsCurl measures a fetch.Client against curl, the tool a user
// would pick instead, on the vsftpd that TestMain starts, in one run
// and interleaved: each iteration runs curl and the Client one after
// the other (in alternating order), and the figures are the totals.
//
//	cd fetch && go test -run '^$' -bench VsCurl -benchtime 5x
//
// Sub-benchmarks:
//   - files300: 300 files of 4 KiB, curl with the 300 URLs in one
//     process (one login, as curl reuses its connection), the Client
//     sequentially (one login too), and the Client with 8 goroutines
//     and MaxConnsPerHost 8 (8 logins);
//   - files300warm: the two Clients with their sessions logged in
//     already;
//   - stat200: curl -I of 200 URLs in one process, Client.Stat of the
//     same;
//   - big256MiB: one file of 256 MiB, bytes per second.
//
// It reports curl's rate, the Client's, and their ratio (above 1: the
// Client is faster). It needs curl on PATH.
func BenchmarkVsCurl(b *testing.B) {
	srv := need(b, "vsftpd")
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Skip("no curl on PATH")
	}
	base := "ftp://" + srv.addr + "/bench/"
	var urls []string
	for i := range benchFiles {
		urls = append(urls, fmt.Sprintf("%sf%03d", base, i))
	}

	b.Run("files300", func(b *testing.B) {
		cfg := curlConfig(b, urls)
		var curlT, seqT, parT time.Duration
		for i := range b.N {
			runs := []func(){
				func() { curlT += timeIt(b, func() error { return runCurl(curl, "-K", cfg) }) },
				func() { seqT += timeIt(b, func() error { return fetchAll(&fetch.Client{}, urls, 1) }) },
				func() {
					parT += timeIt(b, func() error { return fetchAll(&fetch.Client{MaxConnsPerHost: 8}, urls, 8) })
				},
			}
			interleave(i, runs)
		}
		n := float64(b.N * len(urls))
		b.ReportMetric(n/curlT.Seconds(), "curl-files/s")
		b.ReportMetric(n/seqT.Seconds(), "client-files/s")
		b.ReportMetric(n/parT.Seconds(), "client8-files/s")
		b.ReportMetric(curlT.Seconds()/seqT.Seconds(), "client/curl")
		b.ReportMetric(seqT.Seconds()/parT.Seconds(), "client8/client")
		b.ReportMetric(0, "ns/op")
	})

	// The same with the Clients' sessions logged in beforehand, as in a
	// program that fetches from one mirror all day: what 8 goroutines
	// gain over one, logins aside (vsftpd's login costs about 15 ms).
	b.Run("files300warm", func(b *testing.B) {
		seq, par := &fetch.Client{}, &fetch.Client{MaxConnsPerHost: 8}
		defer seq.CloseIdleConnections()
		defer par.CloseIdleConnections()
		if err := fetchWith(seq, urls[:1], 1); err != nil {
			b.Fatal(err)
		}
		if err := fetchWith(par, urls[:16], 8); err != nil {
			b.Fatal(err)
		}
		var seqT, parT time.Duration
		for i := range b.N {
			interleave(i, []func(){
				func() { seqT += timeIt(b, func() error { return fetchWith(seq, urls, 1) }) },
				func() { parT += timeIt(b, func() error { return fetchWith(par, urls, 8) }) },
			})
		}
		n := float64(b.N * len(urls))
		b.ReportMetric(n/seqT.Seconds(), "client-files/s")
		b.ReportMetric(n/parT.Seconds(), "client8-files/s")
		b.ReportMetric(seqT.Seconds()/parT.Seconds(), "client8/client")
		b.ReportMetric(0, "ns/op")
	})

	b.Run("stat200", func(b *testing.B) {
		cfg := curlConfig(b, urls[:200])
		var curlT, statT time.Duration
		for i := range b.N {
			interleave(i, []func(){
				func() { curlT += timeIt(b, func() error { return runCurl(curl, "-I", "-K", cfg) }) },
				func() { statT += timeIt(b, func() error { return statAll(&fetch.Client{}, urls[:200]) }) },
			})
		}
		n := float64(b.N * 200)
		b.ReportMetric(n/curlT.Seconds(), "curl-stats/s")
		b.ReportMetric(n/statT.Seconds(), "client-stats/s")
		b.ReportMetric(curlT.Seconds()/statT.Seconds(), "client/curl")
		b.ReportMetric(0, "ns/op")
	})

	b.Run("big256MiB", func(b *testing.B) {
		big := base + "big.bin"
		var curlT, getT time.Duration
		for i := range b.N {
			interleave(i, []func(){
				func() { curlT += timeIt(b, func() error { return runCurl(curl, "-o", "/dev/null", big) }) },
				func() { getT += timeIt(b, func() error { return fetchAll(&fetch.Client{}, []string{big}, 1) }) },
			})
		}
		mib := float64(b.N) * bigSize / (1 << 20)
		b.ReportMetric(mib/curlT.Seconds(), "curl-MiB/s")
		b.ReportMetric(mib/getT.Seconds(), "client-MiB/s")
		b.ReportMetric(curlT.Seconds()/getT.Seconds(), "client/curl")
		b.ReportMetric(0, "ns/op")
	})
}

// interleave runs the runs, starting at a different one each
// iteration, so that neither tool always runs on a warmer server.
func interleave(i int, runs []func()) {
	for j := range runs {
		runs[(i+j)%len(runs)]()
	}
}

func timeIt(b *testing.B, f func() error) time.Duration {
	start := time.Now()
	if err := f(); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// curlConfig writes a curl config file that fetches urls to /dev/null.
func curlConfig(b *testing.B, urls []string) string {
	var sb strings.Builder
	for _, u := range urls {
		fmt.Fprintf(&sb, "url = %q\noutput = \"/dev/null\"\n", u)
	}
	p := filepath.Join(b.TempDir(), "curl.cfg")
	if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

func runCurl(curl string, args ...string) error {
	cmd := exec.Command(curl, append([]string{"-s", "-S", "--fail"}, args...)...)
	// Standard output on a file, not a pipe: curl then waits less
	// before its data connections (measured with curl 7.88).
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer devNull.Close()
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = devNull, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("curl %v: %v %s", args, err, stderr.String())
	}
	return nil
}

// fetchAll reads every URL to io.Discard with cl, from workers
// goroutines, and ends cl's sessions.
func fetchAll(cl *fetch.Client, urls []string, workers int) error {
	defer cl.CloseIdleConnections()
	return fetchWith(cl, urls, workers)
}

// fetchWith reads every URL to io.Discard with cl, from workers
// goroutines, and leaves cl's sessions idle.
func fetchWith(cl *fetch.Client, urls []string, workers int) error {
	return each(urls, workers, func(u string) error {
		resp, err := cl.Open(context.Background(), u)
		if err != nil {
			return err
		}
		defer resp.Close()
		_, err = io.Copy(io.Discard, resp)
		return err
	})
}

func statAll(cl *fetch.Client, urls []string) error {
	defer cl.CloseIdleConnections()
	return each(urls, 1, func(u string) error {
		_, err := cl.Stat(context.Background(), u)
		return err
	})
}

func each(urls []string, workers int, f func(string) error) error {
	ch := make(chan string)
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range ch {
				if err := f(u); err != nil {
					errs <- err
					for range ch {
					}
					return
				}
			}
		}()
	}
	for _, u := range urls {
		ch <- u
	}
	close(ch)
	wg.Wait()
	close(errs)
	return <-errs
}

// BenchmarkPutVsCurl measures Client.Put against curl -T on the vsftpd
// that TestMain starts, as the password user, interleaved in one run as
// BenchmarkVsCurl is:
//
//	cd fetch && go test -run '^$' -bench PutVsCurl -benchtime 5x
//
// Sub-benchmarks:
//   - files300: 300 local files of 4 KiB, curl uploading them in one
//     process (-T "{f000,...,f299}" URL/, one login), the Client with
//     one Put after another (one login too);
//   - big256MiB: one local file of 256 MiB (sparse: read from no disk),
//     bytes per second.
//
// Each reports curl's rate, the Client's, and their ratio (above 1: the
// Client is faster). It needs curl on PATH.
func BenchmarkPutVsCurl(b *testing.B) {
	srv := need(b, "vsftpd")
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Skip("no curl on PATH")
	}
	local := b.TempDir()
	rel, _ := upDirB(b, "bench-put")
	base := "ftp://" + testUser + ":" + testPassword + "@" + srv.addr + "/" + rel + "/"

	b.Run("files300", func(b *testing.B) {
		var names []string
		for i := range benchFiles {
			name := fmt.Sprintf("f%03d", i)
			names = append(names, name)
			if err := os.WriteFile(filepath.Join(local, name), bytes.Repeat([]byte{byte('a' + i%26)}, 4096), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		glob := filepath.Join(local, "{"+strings.Join(names, ",")+"}")
		var curlT, putT time.Duration
		for i := range b.N {
			interleave(i, []func(){
				func() {
					curlT += timeIt(b, func() error { return runCurl(curl, "-T", glob, base+"curl/", "--ftp-create-dirs") })
				},
				func() {
					putT += timeIt(b, func() error {
						cl := &fetch.Client{}
						defer cl.CloseIdleConnections()
						for _, name := range names {
							f, err := os.Open(filepath.Join(local, name))
							if err != nil {
								return err
							}
							_, err = cl.Put(context.Background(), base+"client/"+name, f, fetch.WithCreateDirs())
							f.Close()
							if err != nil {
								return err
							}
						}
						return nil
					})
				},
			})
		}
		n := float64(b.N * benchFiles)
		b.ReportMetric(n/curlT.Seconds(), "curl-files/s")
		b.ReportMetric(n/putT.Seconds(), "client-files/s")
		b.ReportMetric(curlT.Seconds()/putT.Seconds(), "client/curl")
		b.ReportMetric(0, "ns/op")
	})

	b.Run("big256MiB", func(b *testing.B) {
		big := filepath.Join(local, "big.bin")
		if err := bigFile(big); err != nil {
			b.Fatal(err)
		}
		var curlT, putT time.Duration
		for i := range b.N {
			interleave(i, []func(){
				func() { curlT += timeIt(b, func() error { return runCurl(curl, "-T", big, base+"curl-big.bin") }) },
				func() {
					putT += timeIt(b, func() error {
						f, err := os.Open(big)
						if err != nil {
							return err
						}
						defer f.Close()
						cl := &fetch.Client{}
						defer cl.CloseIdleConnections()
						_, err = cl.Put(context.Background(), base+"client-big.bin", f)
						return err
					})
				},
			})
		}
		mib := float64(b.N) * bigSize / (1 << 20)
		b.ReportMetric(mib/curlT.Seconds(), "curl-MiB/s")
		b.ReportMetric(mib/putT.Seconds(), "client-MiB/s")
		b.ReportMetric(curlT.Seconds()/putT.Seconds(), "client/curl")
		b.ReportMetric(0, "ns/op")
	})
}
