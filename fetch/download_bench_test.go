package fetch_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// Environment of BenchmarkDownloadSegments: the file's size in MiB
// (default 256) and vsftpd's local_max_rate in bytes/s (default 10 MB/s).
const (
	benchSizeEnv = "FTPURL_SEGMENTS_MIB"
	benchRateEnv = "FTPURL_SEGMENTS_RATE"
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkDownloadSegments: DESIGN, "One large file, many
// connections; proof by hash", measured.
//
//   - per-connection: vsftpd with local_max_rate (10 MB/s by default) a
//     connection; a 256 MiB file of random bytes fetched by Download
//     with one stream, by Download WithSegments(4) (the sessions added
//     as the throughput rises, as by default), and by
//     lftp -c 'pget -n 4', interleaved, each copy checked byte for
//     byte (SHA-256 against the file); aria2c -x 4 beside them, for
//     information, where it is installed. The contract: 4 segments at
//     least 3.5x one stream, and at least as fast as lftp.
//   - per-host: the run's vsftpd (no cap of its own) behind a cap of
//     the same rate on the whole host (every connection's bytes through
//     one token bucket in the Client's DialContext): WithSegments(4)
//     at least 0.95x one stream.
//
// It reports MB/s of each and the ratios, and fails where a ratio
// misses the contract. It needs the servers (root) and, for the lftp
// figure, lftp on PATH:
//
//	cd fetch && go test -run '^$' -bench DownloadSegments -benchtime 1x
//
// FTPURL_SEGMENTS_MIB and FTPURL_SEGMENTS_RATE change the size and the
// rate.
func BenchmarkDownloadSegments(b *testing.B) {
	mib := envInt(benchSizeEnv, 256)
	rate := envInt(benchRateEnv, 10_000_000)
	size := mib << 20
	need(b, "vsftpd")
	src := filepath.Join(testTree, "bench", "seg", "bench.bin")
	want := benchFile(b, src, size)
	url := func(addr string) string {
		return "ftp://" + testUser + ":" + testPassword + "@" + addr + "/bench/seg/bench.bin"
	}
	out := filepath.Join(b.TempDir(), "out.bin")
	download := func(c *fetch.Client, rawURL string, n int) func() error {
		return func() error {
			f, err := os.Create(out)
			if err != nil {
				return err
			}
			defer f.Close()
			got, err := c.Download(context.Background(), rawURL, f, fetch.WithSegments(n))
			if err != nil {
				return err
			}
			if got != int64(size) {
				return fmt.Errorf("Download wrote %d bytes, want %d", got, size)
			}
			return sameFile(out, want)
		}
	}

	b.Run("per-connection", func(b *testing.B) {
		inst := startOwnVsftpdB(b, vsftpdConf{name: "vsftpd-capped", extra: fmt.Sprintf("local_max_rate=%d\n", rate)})
		c := &fetch.Client{MaxConnsPerHost: 4, StallTimeout: time.Minute}
		defer c.CloseIdleConnections()
		lftp, lftpErr := exec.LookPath("lftp")
		runs := []func(){}
		var oneT, fourT, lftpT time.Duration
		runs = append(runs,
			func() { oneT += timeIt(b, download(c, url(inst.addr), 1)) },
			func() { fourT += timeIt(b, download(c, url(inst.addr), 4)) })
		aria2c, ariaErr := exec.LookPath("aria2c")
		var ariaT time.Duration
		if ariaErr == nil {
			runs = append(runs, func() {
				ariaT += timeIt(b, func() error {
					os.Remove(out)
					o, err := exec.Command(aria2c, "-q", "-x", "4", "-s", "4", "--file-allocation=none", "--allow-overwrite=true",
						"-d", filepath.Dir(out), "-o", filepath.Base(out), url(inst.addr)).CombinedOutput()
					if err != nil {
						return fmt.Errorf("aria2c: %v: %s", err, o)
					}
					return sameFile(out, want)
				})
			})
		}
		if lftpErr == nil {
			runs = append(runs, func() {
				lftpT += timeIt(b, func() error {
					os.Remove(out)
					script := fmt.Sprintf("set net:max-retries 1; pget -n 4 %s -o %s", url(inst.addr), out)
					if o, err := exec.Command(lftp, "-c", script).CombinedOutput(); err != nil {
						return fmt.Errorf("lftp: %v: %s", err, o)
					}
					return sameFile(out, want)
				})
			})
		}
		for i := range b.N {
			interleave(i, runs)
		}
		n := float64(b.N) * float64(size) / 1e6
		b.ReportMetric(n/oneT.Seconds(), "1-stream-MB/s")
		b.ReportMetric(n/fourT.Seconds(), "4-segments-MB/s")
		b.ReportMetric(oneT.Seconds()/fourT.Seconds(), "4-segments/1-stream")
		if ariaErr == nil {
			// For information: no contract.
			b.ReportMetric(n/ariaT.Seconds(), "aria2c-x4-MB/s")
		}
		// The figures, also where a contract fails (a failed
		// benchmark reports no metrics).
		b.Logf("MB/s: one stream %.2f, 4 segments %.2f, lftp pget -n 4 %.2f, aria2c -x 4 %.2f (0: not installed)",
			n/oneT.Seconds(), n/fourT.Seconds(), mbps(n, lftpT), mbps(n, ariaT))
		if oneT.Seconds()/fourT.Seconds() < 3.5 {
			b.Errorf("4 segments %.2fx one stream; DESIGN wants at least 3.5x", oneT.Seconds()/fourT.Seconds())
		}
		if lftpErr != nil {
			b.Logf("no lftp on PATH: no lftp figure")
			return
		}
		b.ReportMetric(n/lftpT.Seconds(), "lftp-pget-4-MB/s")
		b.ReportMetric(lftpT.Seconds()/fourT.Seconds(), "4-segments/lftp")
		if fourT > lftpT {
			b.Errorf("4 segments %v, lftp pget -n 4 %v: DESIGN wants it at least as fast", fourT/time.Duration(b.N), lftpT/time.Duration(b.N))
		}
	})

	b.Run("per-host", func(b *testing.B) {
		hc := &hostCap{rate: float64(rate)}
		c := &fetch.Client{MaxConnsPerHost: 4, StallTimeout: time.Minute, DialContext: hc.DialContext}
		defer c.CloseIdleConnections()
		addr := need(b, "vsftpd").addr
		var oneT, fourT time.Duration
		for i := range b.N {
			interleave(i, []func(){
				func() { oneT += timeIt(b, download(c, url(addr), 1)) },
				func() { fourT += timeIt(b, download(c, url(addr), 4)) },
			})
		}
		n := float64(b.N) * float64(size) / 1e6
		b.ReportMetric(n/oneT.Seconds(), "1-stream-MB/s")
		b.ReportMetric(n/fourT.Seconds(), "4-segments-MB/s")
		b.ReportMetric(oneT.Seconds()/fourT.Seconds(), "4-segments/1-stream")
		b.Logf("MB/s: one stream %.2f, 4 segments %.2f", n/oneT.Seconds(), n/fourT.Seconds())
		if oneT.Seconds()/fourT.Seconds() < 0.95 {
			b.Errorf("4 segments %.2fx one stream under a per-host cap; DESIGN wants at least 0.95x", oneT.Seconds()/fourT.Seconds())
		}
	})
}

// mbps returns mb over d in MB/s, 0 where d is 0 (not run).
func mbps(mb float64, d time.Duration) float64 {
	if d == 0 {
		return 0
	}
	return mb / d.Seconds()
}

// startOwnVsftpdB is startOwnVsftpd for a benchmark.
func startOwnVsftpdB(b *testing.B, c vsftpdConf) instance {
	b.Helper()
	inst := testRun.startVsftpdWith(c)
	if inst.err != nil {
		missing(b, c.name, inst.err)
	}
	b.Cleanup(func() {
		if inst.stop != nil {
			inst.stop()
		}
	})
	return inst
}

// benchFile writes size random bytes to p (once a run) and returns
// their SHA-256.
func benchFile(b *testing.B, p string, size int) [32]byte {
	b.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		b.Fatal(err)
	}
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	r := rand.NewChaCha8([32]byte{4})
	buf := make([]byte, 1<<20)
	for range size >> 20 {
		_, _ = r.Read(buf)
		h.Write(buf)
		if _, err := f.Write(buf); err != nil {
			b.Fatal(err)
		}
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// sameFile checks that p's SHA-256 is want.
func sameFile(p string, want [32]byte) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	if got := h.Sum(nil); !bytes.Equal(got, want[:]) {
		return fmt.Errorf("%s: SHA-256 %x, want %x: the copy is not the file", p, got, want)
	}
	return nil
}

// A hostCap caps the bytes a second that every connection it dials
// receives, together: a server (or a link) capped per host, not per
// connection.
type hostCap struct {
	rate float64 // bytes a second
	mu   sync.Mutex
	next time.Time // when the bucket is next empty
}

func (h *hostCap) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &cappedConn{Conn: c, cap: h}, nil
}

// wait takes n bytes from the bucket, sleeping until they are due.
func (h *hostCap) wait(n int) {
	h.mu.Lock()
	now := time.Now()
	if h.next.Before(now) {
		h.next = now
	}
	at := h.next
	h.next = h.next.Add(time.Duration(float64(n) / h.rate * float64(time.Second)))
	h.mu.Unlock()
	time.Sleep(time.Until(at))
}

type cappedConn struct {
	net.Conn
	cap *hostCap
}

func (c *cappedConn) Read(p []byte) (int, error) {
	if len(p) > 64<<10 {
		p = p[:64<<10]
	}
	n, err := c.Conn.Read(p)
	c.cap.wait(n)
	return n, err
}
