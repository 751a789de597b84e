package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
)

// testCA makes a CA and a certificate it signed for 127.0.0.1 and
// localhost; it returns the server's TLS config and the CA's PEM file.
func testCA(t *testing.T) (*tls.Config, string) {
	t.Helper()
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "ftpget tests CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, key.Public(), caKey)
	if err != nil {
		t.Fatal(err)
	}
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	writeFile(t, caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644)
	cert := tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: key}
	return &tls.Config{Certificates: []tls.Certificate{cert}}, caFile
}

// tlsServer starts ftpserverlib with TLS serving the test tree:
// explicit (AUTH TLS, RFC 4217) or implicit (ftps://, TLS from the
// first byte).
func tlsServer(t *testing.T, config *tls.Config, mode ftpserver.TLSRequirement) string {
	t.Helper()
	srv := ftpserver.NewFtpServer(&driver{root: testRoot, tls: config,
		settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30, TLSRequired: mode}})
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Serve() }()
	t.Cleanup(func() { _ = srv.Stop(); <-done })
	return srv.Addr()
}

// TestCertificateErrorIsExit60: curl(1), EXIT CODES: "60 Peer
// certificate cannot be authenticated with known CA certificates",
// whether TLS is implicit (ftps://) or explicit (--tls, AUTH TLS); and
// --cacert (curl(1): "Tells curl to use the specified certificate file
// to verify the peer") makes the same server trusted, -k too.
func TestCertificateErrorIsExit60(t *testing.T) {
	config, caFile := testCA(t)
	explicit := tlsServer(t, config, ftpserver.ClearOrEncrypted)
	implicit := tlsServer(t, config, ftpserver.ImplicitEncryption)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"Implicit", []string{"ftps://" + implicit + "/text.txt"}},
		{"Explicit", []string{"--tls", "ftp://" + explicit + "/text.txt"}},
		{"ExplicitListing", []string{"--tls", "ftp://" + explicit + "/a/"}},
		{"ExplicitHead", []string{"--tls", "-I", "ftp://" + explicit + "/text.txt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runIn(t, "", c.args...)
			r.want(t, 60, "")
			if !strings.Contains(r.stderr, "certificate") || strings.Count(r.stderr, "\n") != 1 {
				t.Errorf("stderr %q, want one line about the certificate", r.stderr)
			}
			ok := append([]string{"--cacert", caFile}, c.args...)
			if r := runIn(t, "", ok...); r.code != 0 || r.stdout == "" {
				t.Errorf("--cacert: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
			ok = append([]string{"-k"}, c.args...)
			if r := runIn(t, "", ok...); r.code != 0 || r.stdout == "" {
				t.Errorf("-k: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
			}
		})
	}
	runIn(t, "", "--cacert", caFile, "ftps://"+implicit+"/binary.bin").want(t, 0, string(binaryFile()))
	runIn(t, "", "--cacert", caFile, "--tls", "ftp://"+explicit+"/a/b/deep.txt").want(t, 0, "deep\n")
}

// TestBadCACertIsExit77: curl(1), EXIT CODES: "77 Problem reading the
// SSL CA cert (path? access rights?)".
func TestBadCACertIsExit77(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "not.pem")
	writeFile(t, notPEM, []byte("not a certificate\n"), 0o644)
	for _, f := range []string{"/nonexistent/ca.pem", notPEM} {
		r := runIn(t, "", "--cacert", f, ftpURL("text.txt"))
		r.want(t, 77, "")
		if !strings.HasPrefix(r.stderr, "ftpget: --cacert") {
			t.Errorf("--cacert %s: stderr %q", f, r.stderr)
		}
	}
}
