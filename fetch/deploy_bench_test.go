package fetch_test

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkDeployVsLftp: DESIGN, "The tree up": ftpget -T DIR --mirror
// --parallel-max 8 against lftp's mirror -R --parallel=8, interleaved,
// on a 1,000-file tree (20 directories of 50 files, 1-64 KiB) into an
// empty directory of vsftpd (LIST) and ProFTPD (MLSD) as the password
// user, at 20 ms RTT (benchtool's delaying proxy, 10 ms each way on
// control and data connections, as bench-mirror.sh uses where the
// kernel has no netem); then a second run of each with nothing changed.
// It reports files/s for each and their ratio (above 1: ftpget faster).
// It needs lftp on PATH, and runs as root where the servers do:
//
//	cd fetch && go test -run '^$' -bench DeployVsLftp -benchtime 3x
func BenchmarkDeployVsLftp(b *testing.B) {
	lftp, err := exec.LookPath("lftp")
	if err != nil {
		b.Skip("no lftp on PATH (apt-get install lftp)")
	}
	bin, err := ftpgetBin()
	if err != nil {
		b.Fatal(err)
	}
	tool := filepath.Join(filepath.Dir(bin), "benchtool")
	if out, err := exec.Command("go", "build", "-o", tool, "./cmd/ftpget/testdata/benchtool").CombinedOutput(); err != nil {
		b.Fatalf("go build benchtool: %v: %s", err, out)
	}
	tree := b.TempDir()
	rnd := rand.New(rand.NewPCG(32, 32))
	files := 0
	for d := range 20 {
		for f := range 50 {
			p := filepath.Join(tree, fmt.Sprintf("d%02d", d), fmt.Sprintf("f%02d.bin", f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			data := make([]byte, (1+rnd.IntN(64))<<10)
			for i := range data {
				data[i] = byte(rnd.Uint32())
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				b.Fatal(err)
			}
			files++
		}
	}
	for _, name := range []string{"vsftpd", "proftpd"} {
		b.Run(name, func(b *testing.B) {
			srv := need(b, name)
			proxy := freeAddr(b)
			cmd := exec.Command(tool, "proxy", proxy, srv.addr, "10ms")
			if err := cmd.Start(); err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
			time.Sleep(200 * time.Millisecond)
			var ftpgetT, lftpT, ftpget2T, lftp2T time.Duration
			for i := range b.N {
				relF, _ := upDirB(b, name+"-deploy-ftpget")
				relL, _ := upDirB(b, name+"-deploy-lftp")
				urlF := "ftp://" + testUser + ":" + testPassword + "@" + proxy + "/" + relF + "/"
				ftpgetRun := func() error {
					out, err := exec.Command(bin, "-T", tree, "--mirror", urlF, "--parallel-max", "8").CombinedOutput()
					if err != nil || !strings.Contains(string(out), " 0 failed") {
						return fmt.Errorf("ftpget: %v: %s", err, out)
					}
					return nil
				}
				lftpRun := func() error {
					script := fmt.Sprintf("set ftp:passive-mode on; set net:max-retries 1; open -u %s,%s ftp://%s; mirror -R --parallel=8 %s %s/tree", testUser, testPassword, proxy, tree, relL)
					if out, err := exec.Command(lftp, "-c", script).CombinedOutput(); err != nil {
						return fmt.Errorf("lftp: %v: %s", err, out)
					}
					return nil
				}
				interleave(i, []func(){
					func() { ftpgetT += timeIt(b, ftpgetRun) },
					func() { lftpT += timeIt(b, lftpRun) },
				})
				interleave(i, []func(){
					func() { ftpget2T += timeIt(b, ftpgetRun) },
					func() { lftp2T += timeIt(b, lftpRun) },
				})
			}
			n := float64(b.N * files)
			b.ReportMetric(n/ftpgetT.Seconds(), "ftpget-files/s")
			b.ReportMetric(n/lftpT.Seconds(), "lftp-files/s")
			b.ReportMetric(lftpT.Seconds()/ftpgetT.Seconds(), "ftpget/lftp")
			b.ReportMetric(ftpget2T.Seconds()/float64(b.N), "ftpget-again-s")
			b.ReportMetric(lftp2T.Seconds()/float64(b.N), "lftp-again-s")
		})
	}
}

// freeAddr returns a loopback address no one listens on, for a process
// to listen on.
func freeAddr(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}
