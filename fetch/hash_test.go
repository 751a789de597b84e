package fetch_test

// Client.Hash and WithChecksum (issue 35; draft-bryan-ftpext-hash):
// ProFTPD with mod_digest and ftpserverlib with Settings.EnableHASH
// compute hashes; the five servers as the run starts them offer none
// (ErrNoHash); a scripted server that flips a byte of the data and
// answers HASH truly makes Download and Put fail with ErrHashMismatch.

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"

	"github.com/ftpurl/ftpurl/fetch"
)

// localHash is alg's hash of b, computed here.
func localHash(alg string, b []byte) []byte {
	switch alg {
	case "SHA-256":
		s := sha256.Sum256(b)
		return s[:]
	case "SHA-512":
		s := sha512.Sum512(b)
		return s[:]
	case "SHA-1":
		s := sha1.Sum(b)
		return s[:]
	case "MD5":
		s := md5.Sum(b)
		return s[:]
	case "CRC32":
		h := crc32.NewIEEE()
		h.Write(b)
		return h.Sum(nil)
	}
	return nil
}

// hashServers starts the servers that offer hashes: ftpserverlib with
// EnableHASH (HASH, whose FEAT line it writes without the word HASH,
// and XCRC, XMD5, XSHA1, XSHA256, XSHA512 in FEAT), and ProFTPD 1.3.8
// with mod_digest loaded. It returns their addresses by name.
func hashServers(t *testing.T) map[string]string {
	t.Helper()
	addrs := map[string]string{}
	addr, stop, err := serveFtpserverlib(&ftpDriver{
		root:     testTree,
		settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30, EnableHASH: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	addrs["ftpserverlib"] = addr
	need(t, "proftpd")
	inst := testRun.startProftpdConf("proftpd-digest", plainFTP, 0, fmt.Sprintf(`ModulePath %s
LoadModule mod_digest.c
<IfModule mod_digest.c>
  DigestEngine on
</IfModule>
`, filepath.Join(testRun.installed, "root/usr/lib/proftpd")))
	if inst.err != nil {
		missing(t, "proftpd with mod_digest", inst.err)
	}
	t.Cleanup(inst.stop)
	addrs["proftpd"] = inst.addr
	return addrs
}

// TestHashOnServersThatOfferIt: each algorithm the server offers gives
// the file's digest as computed here (draft-bryan-ftpext-hash §3; the
// older XSHA256, XSHA1, XMD5, XCRC), and "" the strongest.
func TestHashOnServersThatOfferIt(t *testing.T) {
	want := segFile(t, "big.bin")[:1<<20]
	if err := os.WriteFile(filepath.Join(testTree, "bench", "seg", "hash.bin"), want, 0o644); err != nil {
		t.Fatal(err)
	}
	for name, addr := range hashServers(t) {
		t.Run(name, func(t *testing.T) {
			c := &fetch.Client{StallTimeout: 20 * time.Second}
			defer c.CloseIdleConnections()
			url := "ftp://" + testUser + ":" + testPassword + "@" + addr + "/bench/seg/hash.bin"
			for _, alg := range []string{"SHA-256", "SHA-512", "SHA-1", "MD5", "CRC32", ""} {
				got, err := c.Hash(context.Background(), url, alg)
				wantSum := localHash(alg, want)
				if alg == "" {
					wantSum = localHash("SHA-256", want)
				}
				if errors.Is(err, fetch.ErrNoHash) {
					t.Logf("%s: %v", alg, err)
					continue
				}
				if err != nil || !bytes.Equal(got, wantSum) {
					t.Errorf("Hash(%q): %x, %v; want %x", alg, got, err, wantSum)
				}
			}
		})
	}
}

// TestHashRefusedWhereNoneIsOffered: the five servers as the run starts
// them list no hash command in FEAT or HELP: Hash fails with ErrNoHash
// and sends no hash command (never a guess).
func TestHashRefusedWhereNoneIsOffered(t *testing.T) {
	for _, name := range serverNames {
		t.Run(name, func(t *testing.T) {
			s := need(t, name)
			c := &fetch.Client{StallTimeout: 20 * time.Second}
			defer c.CloseIdleConnections()
			_, err := c.Hash(context.Background(), "ftp://"+testUser+":"+testPassword+"@"+s.addr+"/binary.bin", "")
			if fe := asError(t, err); fe.Op != "hash" || !errors.Is(err, fetch.ErrNoHash) {
				t.Errorf("Hash: %v; want Op hash, ErrNoHash", err)
			}
		})
	}
}

// flipScript is a fake that serves body as "f" and stores what STOR
// sends in its place: FEAT lists HASH with SHA-256 selected and SHA-1
// (draft-bryan-ftpext-hash §5), and HASH answers the true hash of what
// it holds. With flip, byte 1000 is flipped on its way: in what RETR
// sends, and in what STOR stores.
func flipScript(body []byte, flip bool) (script, *[]byte) {
	var mu sync.Mutex
	held := append([]byte(nil), body...)
	alg := "SHA-256"
	return script{
		"FEAT": say("211-Features:", " SIZE", " REST STREAM", " HASH SHA-1;SHA-256*", "211 End"),
		"SIZE": func(c *fconn, _ string) {
			mu.Lock()
			defer mu.Unlock()
			c.send("213 " + strconv.Itoa(len(held)))
		},
		"OPTS": func(c *fconn, arg string) {
			a, ok := strings.CutPrefix(arg, "HASH ")
			if !ok || (a != "SHA-1" && a != "SHA-256") {
				c.send("501 Unknown option")
				return
			}
			alg = a
			c.send("200 " + a)
		},
		"HASH": func(c *fconn, arg string) {
			mu.Lock()
			defer mu.Unlock()
			var sum []byte
			if alg == "SHA-1" {
				s := sha1.Sum(held)
				sum = s[:]
			} else {
				s := sha256.Sum256(held)
				sum = s[:]
			}
			c.send(fmt.Sprintf("213 %s 0-%d %s %s", alg, len(held), hex.EncodeToString(sum), arg))
		},
		"RETR": func(c *fconn, _ string) {
			mu.Lock()
			out := append([]byte(nil), held...)
			mu.Unlock()
			if flip {
				out[1000] ^= 0xff
			}
			transfer(string(out), "150 Opening BINARY mode data connection", "226 Transfer complete")(c, "")
		},
		"STOR": func(c *fconn, _ string) {
			d := c.data()
			if d == nil {
				return
			}
			c.send("150 Ok to send data")
			var b bytes.Buffer
			_, _ = b.ReadFrom(d)
			d.Close()
			got := b.Bytes()
			if flip && len(got) > 1000 {
				got[1000] ^= 0xff
			}
			mu.Lock()
			held = got
			mu.Unlock()
			c.send("226 Transfer complete")
		},
	}, &held
}

// TestChecksumCatchesAFlippedByte: a server that flips one byte of the
// data (a RETR's, a STOR's) and answers HASH truly: Download and Put
// WithChecksum fail with ErrHashMismatch (Op "hash"), where SIZE alone
// took the copy as good; a true server passes.
func TestChecksumCatchesAFlippedByte(t *testing.T) {
	body := bytes.Repeat([]byte("checksum "), 1000)
	for _, flip := range []bool{false, true} {
		t.Run(fmt.Sprintf("flip=%v", flip), func(t *testing.T) {
			noLeaks(t)
			sc, _ := flipScript(body, flip)
			f := newFake(t, sc)
			c := testClient(t)

			// SIZE alone takes it.
			if _, err := c.Download(context.Background(), f.url("f"), newMemFile(len(body))); err != nil {
				t.Errorf("Download without WithChecksum: %v", err)
			}
			_, err := c.Download(context.Background(), f.url("f"), newMemFile(len(body)), fetch.WithChecksum())
			checkMismatch(t, "Download", err, flip)
			_, err = c.Put(context.Background(), f.url("f"), bytes.NewReader(body), fetch.WithChecksum())
			checkMismatch(t, "Put", err, flip)
		})
	}
}

func checkMismatch(t *testing.T, what string, err error, flip bool) {
	t.Helper()
	if !flip {
		if err != nil {
			t.Errorf("%s WithChecksum from a true server: %v", what, err)
		}
		return
	}
	if fe := asError(t, err); fe.Op != "hash" || !errors.Is(err, fetch.ErrHashMismatch) {
		t.Errorf("%s WithChecksum, a byte flipped: %v; want Op hash, ErrHashMismatch", what, err)
	}
}
