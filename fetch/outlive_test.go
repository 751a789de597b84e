package fetch_test

// A transfer that outlives its control connection (issue 35; DESIGN
// "One large file, many connections; proof by hash"): a middlebox drops
// the control connection as idle while the data flows. Where the data
// connection delivered every byte SIZE announced, Download proves the
// file on a new session and succeeds without fetching it again;
// otherwise its error says how many bytes arrived.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// dropScript is a fake that serves body as "f", of the SIZE size: its
// RETR sends the 150, closes the control connection, then sends
// body[REST:upTo] on the data connection and closes it.
func dropScript(body []byte, size, upTo int) script {
	var mu sync.Mutex
	rest := map[*fconn]int{}
	return script{
		"FEAT": say("211-Features:", " SIZE", " REST STREAM", "211 End"),
		"SIZE": say("213 " + strconv.Itoa(size)),
		"REST": func(c *fconn, arg string) {
			n, _ := strconv.Atoi(arg)
			mu.Lock()
			rest[c] = n
			mu.Unlock()
			c.send("350 Restarting at " + arg)
		},
		"RETR": func(c *fconn, _ string) {
			mu.Lock()
			from := rest[c]
			mu.Unlock()
			d := c.data()
			if d == nil {
				return
			}
			c.send(fmt.Sprintf("150 Opening BINARY mode data connection for f (%d bytes)", size-from))
			c.hangup()
			if from < upTo {
				_, _ = d.Write(body[from:upTo])
			}
			d.Close()
		},
	}
}

// TestDownloadOutlivesItsControlConnection: the control connection
// ends after the 150 and the data connection brings every byte: SIZE
// on a new session proves the file, which is fetched once.
func TestDownloadOutlivesItsControlConnection(t *testing.T) {
	noLeaks(t)
	body := bytes.Repeat([]byte("outlive "), 4096)
	f := newFake(t, dropScript(body, len(body), len(body)))
	c := testClient(t)
	m := newMemFile(len(body))
	n, err := c.Download(context.Background(), f.url("f"), m)
	if err != nil || n != int64(len(body)) {
		t.Fatalf("Download: %d, %v; want %d, nil", n, err, len(body))
	}
	m.check(t, body)
	retrs, sizes := 0, 0
	for _, cmd := range f.commands() {
		switch {
		case strings.HasPrefix(cmd, "RETR"):
			retrs++
		case strings.HasPrefix(cmd, "SIZE"):
			sizes++
		}
	}
	if retrs != 1 || sizes != 2 || f.dialCount() != 2 {
		t.Errorf("%d RETR, %d SIZE on %d sessions; want the file once, then SIZE on a new session (1, 2, 2)", retrs, sizes, f.dialCount())
	}
}

// TestDownloadSaysHowManyBytesArrived: the control connection ends and
// the data connection brings fewer bytes than SIZE announced, each
// time: the range resumes on new sessions from its last byte (REST),
// then Download fails with an *Error that says how many bytes arrived
// and the WithOffset that resumes.
func TestDownloadSaysHowManyBytesArrived(t *testing.T) {
	noLeaks(t)
	body := bytes.Repeat([]byte("short "), 4096)
	f := newFake(t, dropScript(body, len(body)+1000, len(body)))
	c := testClient(t)
	m := newMemFile(len(body) + 1000)
	n, err := c.Download(context.Background(), f.url("f"), m)
	fe := asError(t, err)
	want := fmt.Sprintf("%d of %d bytes arrived; WithOffset %d resumes", len(body), len(body)+1000, len(body))
	if n != int64(len(body)) || fe.Op != "retr" || !strings.Contains(err.Error(), want) {
		t.Errorf("Download: %d, %v; want %d and an *Error of Op retr saying %q", n, err, len(body), want)
	}
	if !bytes.Equal(m.b[:len(body)], body) {
		t.Error("the bytes that arrived are not the file's")
	}
	if !f.received("REST") {
		t.Error("no REST: the range did not resume from its last byte")
	}
}

// dropControl is a DialContext whose first connection to addr (the
// control connection) it can drop as a middlebox does: fetch's end
// reads nothing more (CloseRead), while the server's end stays open and
// the server goes on sending the data. It drops it after delay once the
// first data connection is made.
type dropControl struct {
	addr    string
	delay   time.Duration
	mu      sync.Mutex
	control *net.TCPConn
	data    atomic.Int32
}

func (dc *dropControl) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	dc.mu.Lock()
	defer dc.mu.Unlock()
	switch {
	case addr == dc.addr && dc.control == nil:
		dc.control = c.(*net.TCPConn)
	case addr != dc.addr:
		if dc.data.Add(1) == 1 {
			ctl := dc.control
			time.AfterFunc(dc.delay, func() { _ = ctl.CloseRead() })
		}
	}
	return c, nil
}

// TestDownloadOutlivesItsControlConnectionOnVsftpd: vsftpd capped at
// 32 MB/s a connection (local_max_rate) sends 64 MiB; 300 ms in, the
// control connection is dropped on fetch's side. The data connection
// brings every byte, and Download proves them with SIZE on a new
// session: one data connection, the file whole.
func TestDownloadOutlivesItsControlConnectionOnVsftpd(t *testing.T) {
	inst := startOwnVsftpd(t, vsftpdConf{name: "vsftpd-outlive", extra: "local_max_rate=32000000\n"})
	want := segFile(t, "big.bin")
	dc := &dropControl{addr: inst.addr, delay: 300 * time.Millisecond}
	c := &fetch.Client{DialContext: dc.DialContext, StallTimeout: 20 * time.Second}
	defer c.CloseIdleConnections()
	m := newMemFile(len(want))
	start := time.Now()
	n, err := c.Download(context.Background(), "ftp://"+testUser+":"+testPassword+"@"+inst.addr+"/bench/seg/big.bin", m)
	if err != nil || n != int64(len(want)) {
		t.Fatalf("Download: %d, %v; want %d, nil", n, err, len(want))
	}
	m.check(t, want)
	if got := dc.data.Load(); got != 1 {
		t.Errorf("%d data connections; want 1: the file is not fetched again", got)
	}
	t.Logf("64 MiB in %v, the control connection dropped after 300 ms", time.Since(start).Round(time.Millisecond))
}

// dropAfterStore is a STOR that stores what arrives (up to keep bytes
// when keep > 0), closes the data connection, and closes the control
// connection without its 226: the reply a middlebox lost.
func dropAfterStore(st *store, keep int) handler {
	return func(c *fconn, arg string) {
		d := c.data()
		if d == nil {
			return
		}
		c.send("150 Ok to send data")
		b, _ := io.ReadAll(d)
		d.Close()
		if keep > 0 && len(b) > keep {
			b = b[:keep]
		}
		st.mu.Lock()
		st.files[arg] = b
		st.mu.Unlock()
		c.hangup()
	}
}

// TestPutOutlivesItsControlConnection: the control connection ends
// once the data went, before the 226; a new session proves the upload
// by SIZE (and, WithTempName, renames it): Put succeeds with one STOR.
// Where the server holds fewer bytes, Put fails with Op "size", and
// sends nothing again.
func TestPutOutlivesItsControlConnection(t *testing.T) {
	body := strings.Repeat("outlive ", 10000)
	for _, tc := range []struct {
		name string
		opts []fetch.Option
		keep int
	}{
		{"whole", nil, 0},
		{"whole, WithTempName", []fetch.Option{fetch.WithTempName()}, 0},
		{"short", nil, 1000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			noLeaks(t)
			st := newStore()
			f := newFake(t, st.script().with(script{"STOR": dropAfterStore(st, tc.keep)}))
			n, err := put(t, testClient(t), f.url("f.bin"), strings.NewReader(body), tc.opts...)
			stors := 0
			for _, cmd := range f.commands() {
				if strings.HasPrefix(cmd, "STOR ") {
					stors++
				}
			}
			if stors != 1 || f.dialCount() != 2 {
				t.Errorf("%d STOR on %d sessions; want 1 on 2 (the upload, then the proof)", stors, f.dialCount())
			}
			if tc.keep > 0 {
				if e := asError(t, err); e.Op != "size" || !strings.Contains(err.Error(), "holds 1000 bytes") {
					t.Errorf("Put: %v; want Op size, the server holding 1000 bytes", err)
				}
				return
			}
			if b, _ := st.get("f.bin"); err != nil || n != int64(len(body)) || string(b) != body {
				t.Errorf("Put: %d, %v; the server holds %d bytes as f.bin (names %q)", n, err, len(b), st.names())
			}
		})
	}
}

// TestPutOutlivesItsControlConnectionOnVsftpd: 64 MiB up to vsftpd
// capped at 32 MB/s a connection; 300 ms in, the control connection is
// dropped on fetch's side. The upload goes on, SIZE on a new session
// proves it, and it is sent once.
func TestPutOutlivesItsControlConnectionOnVsftpd(t *testing.T) {
	inst := startOwnVsftpd(t, vsftpdConf{name: "vsftpd-outlive-put", extra: "local_max_rate=32000000\n"})
	want := segFile(t, "big.bin")
	dir, err := os.MkdirTemp(filepath.Join(testTree, "bench"), "outlive-put-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	dc := &dropControl{addr: inst.addr, delay: 300 * time.Millisecond}
	c := &fetch.Client{DialContext: dc.DialContext, StallTimeout: 20 * time.Second}
	defer c.CloseIdleConnections()
	n, err := c.Put(context.Background(), "ftp://"+testUser+":"+testPassword+"@"+inst.addr+"/bench/"+filepath.Base(dir)+"/up.bin", bytes.NewReader(want))
	if err != nil || n != int64(len(want)) {
		t.Fatalf("Put: %d, %v; want %d, nil", n, err, len(want))
	}
	got, err := os.ReadFile(filepath.Join(dir, "up.bin"))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("the server holds %d bytes, %v; want the %d sent", len(got), err, len(want))
	}
	if d := dc.data.Load(); d != 1 {
		t.Errorf("%d data connections; want 1: the upload is not sent again", d)
	}
}

// TestTransferOutlivesItsControlConnectionThroughTheFaultRelay: the
// fault relay forgets the control connection 300 ms into a 64 MiB
// transfer with vsftpd (capped at 32 MB/s a connection), as a NAT
// whose idle timer ran out does: from then on neither end hears the
// other, and neither is told. The data connection goes on; fetch waits
// StallTimeout for the final reply, then proves the transfer by SIZE on
// a new session, and succeeds with one data connection: a download
// (Download) and an upload (Put) alike (issue 35, point 3).
func TestTransferOutlivesItsControlConnectionThroughTheFaultRelay(t *testing.T) {
	inst := startOwnVsftpd(t, vsftpdConf{name: "vsftpd-outlive-relay", extra: "local_max_rate=32000000\n"})
	want := segFile(t, "big.bin")
	rel, abs := upDir(t, "vsftpd-outlive-relay")
	base := "ftp://" + testUser + ":" + testPassword + "@" + inst.addr + "/"
	for _, tc := range []struct {
		name string
		run  func(c *fetch.Client) (int64, error)
	}{
		{"Download", func(c *fetch.Client) (int64, error) {
			m := newMemFile(len(want))
			n, err := c.Download(context.Background(), base+"bench/seg/big.bin", m)
			if err == nil {
				m.check(t, want)
			}
			return n, err
		}},
		{"Put", func(c *fetch.Client) (int64, error) {
			n, err := c.Put(context.Background(), base+rel+"/up.bin", bytes.NewReader(want))
			if err == nil {
				if got, err := os.ReadFile(filepath.Join(abs, "up.bin")); err != nil || !bytes.Equal(got, want) {
					t.Errorf("the server holds %d bytes, %v; want the %d sent", len(got), err, len(want))
				}
			}
			return n, err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fn := newFaultNet(t)
			var mu sync.Mutex
			var control *link
			fn.onDial = func(l *link) {
				mu.Lock()
				defer mu.Unlock()
				switch {
				case l.addr == inst.addr && control == nil:
					control = l
				case l.addr != inst.addr && l.n == 1:
					ctl := control
					time.AfterFunc(300*time.Millisecond, ctl.forget)
				}
			}
			c := &fetch.Client{DialContext: fn.DialContext, StallTimeout: 3 * time.Second}
			defer c.CloseIdleConnections()
			start := time.Now()
			n, err := tc.run(c)
			if err != nil || n != int64(len(want)) {
				t.Fatalf("%d, %v; want %d, nil", n, err, len(want))
			}
			fn.mu.Lock()
			var data, controls int
			for _, l := range fn.links {
				if l.addr == inst.addr {
					controls++
				} else {
					data++
				}
			}
			fn.mu.Unlock()
			if data != 1 || controls != 2 {
				t.Errorf("%d data connections on %d sessions; want 1 on 2 (the transfer, then the proof)", data, controls)
			}
			t.Logf("64 MiB in %v, the control connection forgotten after 300 ms", time.Since(start).Round(time.Millisecond))
		})
	}
}
