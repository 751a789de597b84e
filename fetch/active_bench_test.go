package fetch_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// BenchmarkActiveVsPassive: the cost of the reversed connection. 300
// files of 4 KiB on one Client (one session), active mode (EPRT, the
// server connects) against passive mode (EPSV, pipelined with RETR),
// interleaved, on each server that runs.
func BenchmarkActiveVsPassive(b *testing.B) {
	for _, name := range serverNames {
		b.Run(name, func(b *testing.B) {
			srv := need(b, name)
			var urls []string
			for i := range benchFiles {
				urls = append(urls, fmt.Sprintf("ftp://%s/bench/f%03d", srv.addr, i))
			}
			var actT, pasT time.Duration
			for i := range b.N {
				interleave(i, []func(){
					func() { actT += timeIt(b, func() error { return fetchAll(&fetch.Client{Active: "-"}, urls, 1) }) },
					func() { pasT += timeIt(b, func() error { return fetchAll(&fetch.Client{}, urls, 1) }) },
				})
			}
			n := float64(b.N * len(urls))
			b.ReportMetric(n/actT.Seconds(), "active-files/s")
			b.ReportMetric(n/pasT.Seconds(), "passive-files/s")
			b.ReportMetric(pasT.Seconds()/actT.Seconds(), "active/passive")
			b.ReportMetric(0, "ns/op")
		})
	}
}
