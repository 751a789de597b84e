package fetch_test

import (
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// BenchmarkTunnelVsCurl: 300 files of 4 KiB from vsftpd through a
// Squid CONNECT tunnel (squidTunnel), one fetch.Client against curl
// -p -x with the 300 URLs in one process (one login and one control
// tunnel each, a tunnel per data connection), interleaved:
//
//	cd fetch && go test -run '^$' -bench TunnelVsCurl -benchtime 5x
//
// It reports each one's files a second and fetch's ratio to curl
// (above 1: fetch is faster). It needs curl and squid.
func BenchmarkTunnelVsCurl(b *testing.B) {
	srv := need(b, "vsftpd")
	curl, err := exec.LookPath("curl")
	if err != nil {
		b.Skip("no curl on PATH")
	}
	sq := startSquid(b, squidTunnel, "", "")
	var urls []string
	for i := range benchFiles {
		urls = append(urls, fmt.Sprintf("ftp://%s/bench/f%03d", srv.addr, i))
	}
	cfg := curlConfig(b, urls)
	proxy := fixedProxy(mustURL(b, sq.url("", "")))
	var curlT, fetchT time.Duration
	for i := range b.N {
		interleave(i, []func(){
			func() {
				curlT += timeIt(b, func() error { return runCurl(curl, "-p", "-x", sq.url("", ""), "-K", cfg) })
			},
			func() { fetchT += timeIt(b, func() error { return fetchAll(&fetch.Client{Proxy: proxy}, urls, 1) }) },
		})
	}
	n := float64(b.N * len(urls))
	b.ReportMetric(n/curlT.Seconds(), "curl-files/s")
	b.ReportMetric(n/fetchT.Seconds(), "fetch-files/s")
	b.ReportMetric(curlT.Seconds()/fetchT.Seconds(), "fetch/curl")
	b.ReportMetric(0, "ns/op")
}
