package fetch_test

// The FTP servers the tests run against, on 127.0.0.1:
//
//   - ftpserverlib, in-process, always;
//   - vsftpd, ProFTPD, Pure-FTPd and pyftpdlib, the Debian 12 packages
//     that testdata/install-servers.sh installs under $FTPURL_SERVERS
//     (default /opt/ftpurl-servers), started by TestMain and stopped by
//     their PID when the tests end. They need root (they drop to the
//     ftp user themselves) and the users the script creates.
//
// Each server runs plain (servers, need) and with TLS (tlsServers,
// needTLS): explicit TLS (AUTH TLS on a plain port, RFC 4217) and
// implicit TLS (TLS from the first byte, ftps://) where the server has
// the mode. The TLS servers present a certificate for 127.0.0.1 and
// localhost, signed by a CA that the test run makes (testCAPool,
// testCACertPEM, testCAFile). A server that does not run skips its
// tests, except with CI=true, where it fails them.
//
// The tree. A test run serves a tree it makes itself, in a temporary
// directory, and never writes anywhere else: every server's
// configuration names that directory (vsftpd anon_root and local_root,
// ProFTPD DefaultRoot and <Anonymous>, pyftpdlib's script, ftpserverlib's
// driver). Pure-FTPd has no such setting: it takes the anonymous root
// from the home of the system user ftp, and chroots ftpurl into its
// home. So the Debian daemons start in a private mount namespace of
// their own (CLONE_NEWNS, / made private recursively) in which the
// test tree is bind-mounted over that home ($FTPURL_SERVERS/tree, a
// mount point that install-servers.sh makes): there, the home of
// ftp and ftpurl, and so their "~", is the test tree; outside, nothing
// changes. The mount goes away with the last process of the namespace.
//
// FTPURL_KEEP_RUN_DIR=1 keeps the run's directory (configurations,
// logs, certificates) and prints where it is.

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	ftpserver "github.com/fclairamb/ftpserverlib"
	"github.com/spf13/afero"
)

// The password user that testdata/install-servers.sh creates, and that
// the ftpserverlib driver accepts too.
const (
	testUser     = "ftpurl"
	testPassword = "ftpurl-secret"
)

// A server is one running FTP server.
type server struct {
	name string
	addr string // 127.0.0.1:port
	err  error  // why it is not running
	stop func()
}

// A tlsServer is one FTP server's TLS listeners. Each serves the same
// tree, anonymous and testUser, as the plain server of that name, and
// refuses to log in or to transfer without TLS.
type tlsServer struct {
	name         string
	explicitAddr string // 127.0.0.1:port for ftp:// with AUTH TLS; "" if the server has no such mode
	implicitAddr string // 127.0.0.1:port for ftps://; "" if the server has no such mode
	err          error  // why one of its listeners is not running
	stop         func()
}

// serverNames in the order the tests report them; the TLS servers have
// the same names.
var serverNames = []string{"ftpserverlib", "vsftpd", "proftpd", "pure-ftpd", "pyftpdlib"}

var (
	servers    = map[string]*server{}
	tlsServers = map[string]*tlsServer{}
)

// testTree is the directory every server serves (run.tree), for the
// upload tests, which read what they uploaded back from it.
var testTree string

// testRun is the run's servers, for a test that starts one of its own
// (startVsftpdWith).
var testRun *run

// The test run's CA, which signed the TLS servers' certificate (for
// 127.0.0.1 and localhost): as PEM, as a pool for tls.Config.RootCAs,
// and as a file (for curl --cacert). Nil and "" when making it failed.
var (
	testCACertPEM []byte
	testCAPool    *x509.CertPool
	testCAFile    string
)

// testTLSConfig returns a client configuration that trusts the test CA,
// with a session cache of its own: vsftpd and ProFTPD require the data
// connection to resume the control connection's session, which Go does
// only with the same ServerName and cache on both.
func testTLSConfig() *tls.Config {
	return &tls.Config{
		RootCAs:            testCAPool,
		ServerName:         "127.0.0.1",
		ClientSessionCache: tls.NewLRUClientSessionCache(0),
	}
}

func serversDir() string {
	if d := os.Getenv("FTPURL_SERVERS"); d != "" {
		return d
	}
	return "/opt/ftpurl-servers"
}

func TestMain(m *testing.M) {
	if os.Getenv(bindEnvSource) != "" {
		bindHomeAndExec() // the test binary as the daemons' mount helper
	}
	code := func() int {
		run := startServers()
		testRun = run
		defer run.stop()
		return m.Run()
	}()
	os.Exit(code)
}

// run is one test run's servers and the directory they use.
type run struct {
	dir       string // the run's temporary directory: configurations, logs, certificates
	tree      string // dir/tree, the tree every server serves
	installed string // $FTPURL_SERVERS
	home      string // the home of ftp and ftpurl, where the namespace mounts tree
	certFile  string // the server certificate, PEM
	keyFile   string // its key, PEM
	cert      tls.Certificate

	mu       sync.Mutex
	nextPasv int // the next passive port range's first port
	stops    []func()
}

func startServers() *run {
	r := &run{installed: serversDir(), nextPasv: firstPasvPort()}
	fail := func(err error) *run {
		for _, name := range serverNames {
			servers[name] = &server{name: name, err: err}
			tlsServers[name] = &tlsServer{name: name, err: err}
		}
		return r
	}
	dir, err := os.MkdirTemp("", "ftpurl-fetch-")
	if err != nil {
		return fail(err)
	}
	r.dir = dir
	r.tree = filepath.Join(dir, "tree")
	// The servers' users (ftp, ftpurl, nobody) traverse dir to the tree.
	if err := os.Chmod(dir, 0o755); err != nil {
		return fail(err)
	}
	if err := os.Mkdir(r.tree, 0o755); err != nil {
		return fail(err)
	}
	testTree = r.tree
	if err := buildTree(r.tree); err != nil {
		return fail(err)
	}
	tlsErr := r.makeCertificates()

	servers["ftpserverlib"] = startFtpserverlib(r.tree)
	r.stops = append(r.stops, servers["ftpserverlib"].stop)
	ts := &tlsServer{name: "ftpserverlib", err: tlsErr}
	if tlsErr == nil {
		var stopExplicit, stopImplicit func()
		var err1, err2 error
		ts.explicitAddr, stopExplicit, err1 = newFtpserverlibTLS(r.tree, r.serverTLSConfig(), ftpserver.MandatoryEncryption)
		ts.implicitAddr, stopImplicit, err2 = newFtpserverlibTLS(r.tree, r.serverTLSConfig(), ftpserver.ImplicitEncryption)
		ts.err = errors.Join(err1, err2)
		ts.stop = func() {
			for _, stop := range []func(){stopExplicit, stopImplicit} {
				if stop != nil {
					stop()
				}
			}
		}
		r.stops = append(r.stops, ts.stop)
	}
	tlsServers["ftpserverlib"] = ts

	// The Debian servers, each plain, explicit and implicit where it
	// has the mode, all at once: each takes 150-300 ms to greet.
	debErr := r.checkDebian()
	type starter func(mode tlsMode) instance
	starters := map[string]starter{
		"vsftpd":    r.startVsftpd,
		"proftpd":   r.startProftpd,
		"pure-ftpd": r.startPureFtpd,
		"pyftpdlib": r.startPyftpdlib,
	}
	// Where a server has no mode, a comment says why.
	modes := map[string][]tlsMode{
		"vsftpd":    {plainFTP, explicitTLS, implicitTLS},
		"proftpd":   {plainFTP, explicitTLS, implicitTLS},
		"pure-ftpd": {plainFTP, explicitTLS}, // Debian builds it without --with-implicittls, which would make every port implicit
		"pyftpdlib": {plainFTP, explicitTLS}, // pyftpdlib 1.5.7 has no implicit TLS
	}
	var wg sync.WaitGroup
	results := map[string][]instance{}
	for _, name := range serverNames[1:] {
		slots := make([]instance, len(modes[name]))
		results[name] = slots
		for i, mode := range modes[name] {
			switch {
			case debErr != nil:
				slots[i] = instance{mode: mode, err: debErr}
			case mode != plainFTP && tlsErr != nil:
				slots[i] = instance{mode: mode, err: tlsErr}
			default:
				start := starters[name]
				wg.Go(func() { slots[i] = start(mode) })
			}
		}
	}
	wg.Wait()
	for _, name := range serverNames[1:] {
		ts := &tlsServer{name: name}
		var stops []func()
		for _, inst := range results[name] {
			if inst.stop != nil {
				stops = append(stops, inst.stop)
				r.stops = append(r.stops, inst.stop)
			}
			switch inst.mode {
			case plainFTP:
				servers[name] = &server{name: name, addr: inst.addr, err: inst.err, stop: inst.stop}
			case explicitTLS:
				ts.explicitAddr = inst.addr
				ts.err = errors.Join(ts.err, inst.err)
			case implicitTLS:
				ts.implicitAddr = inst.addr
				ts.err = errors.Join(ts.err, inst.err)
			}
		}
		ts.stop = func() {
			for _, stop := range stops {
				stop()
			}
		}
		tlsServers[name] = ts
	}
	return r
}

// stop stops every server by its PID, then removes the run's directory.
func (r *run) stop() {
	var wg sync.WaitGroup
	for _, stop := range r.stops {
		if stop != nil {
			wg.Go(stop)
		}
	}
	wg.Wait()
	if r.dir == "" {
		return
	}
	if os.Getenv("FTPURL_KEEP_RUN_DIR") == "1" {
		fmt.Fprintln(os.Stderr, "fetch tests: the servers' directory is", r.dir)
		return
	}
	_ = os.RemoveAll(r.dir)
}

// firstPasvPort is where the run's passive port ranges begin: below
// Linux's ephemeral ports (32768-60999), where the client's own end of
// a connection could hold a port a server then fails to listen on
// (vsftpd answered "500 OOPS: priv_sock_get_int"), and apart for runs
// of different processes at once.
func firstPasvPort() int {
	return 10000 + os.Getpid()%40*400
}

// pasvRange is how many passive ports each server instance gets: 100,
// since the tests open hundreds of data connections a second, and with
// 20 ProFTPD at times found every port of its range in TIME_WAIT (its
// EPSV answered "425 EPSV: Address already in use").
const pasvRange = 100

// pasvPorts hands each server instance pasvRange passive ports of its
// own.
func (r *run) pasvPorts() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.nextPasv
	r.nextPasv += pasvRange
	return p
}

// checkDebian checks what the Debian servers need: the installation,
// root, the users ftp and ftpurl, and their one home, where the tree is
// mounted.
func (r *run) checkDebian() error {
	dir := r.installed
	if _, err := os.Stat(filepath.Join(dir, "root")); err != nil {
		return fmt.Errorf("servers not installed in %s (run testdata/install-servers.sh): %w", dir, err)
	}
	if os.Geteuid() != 0 {
		return errors.New("the Debian FTP servers need root")
	}
	u, err := user.Lookup("ftp")
	if err != nil {
		return fmt.Errorf("no ftp user (run testdata/install-servers.sh): %w", err)
	}
	p, err := user.Lookup(testUser)
	if err != nil {
		return fmt.Errorf("no %s user (run testdata/install-servers.sh): %w", testUser, err)
	}
	if u.HomeDir != filepath.Join(dir, "tree") || p.HomeDir != u.HomeDir {
		return fmt.Errorf("the homes of ftp (%s) and %s (%s) are not %s/tree (run testdata/install-servers.sh)", u.HomeDir, testUser, p.HomeDir, dir)
	}
	if fi, err := os.Stat(u.HomeDir); err != nil || !fi.IsDir() {
		return fmt.Errorf("the ftp user's home %s is no directory to mount on (run testdata/install-servers.sh): %v", u.HomeDir, err)
	}
	r.home = u.HomeDir
	return nil
}

// need returns the named server, or skips the test when it is not
// running; with CI=true a missing server fails the test instead.
func need(t testing.TB, name string) *server {
	t.Helper()
	s := servers[name]
	if s == nil || s.err != nil {
		err := errors.New("unknown server")
		if s != nil {
			err = s.err
		}
		missing(t, name, err)
	}
	return s
}

// needTLS returns the named server's TLS listeners, as need does.
// Check explicitAddr and implicitAddr: "" is a mode the server lacks.
func needTLS(t testing.TB, name string) *tlsServer {
	t.Helper()
	s := tlsServers[name]
	if s == nil || s.err != nil {
		err := errors.New("unknown server")
		if s != nil {
			err = s.err
		}
		missing(t, name+" with TLS", err)
	}
	return s
}

func missing(t testing.TB, name string, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not running (CI=true): %v", name, err)
	}
	t.Skipf("%s is not running: %v", name, err)
}

// Test files. The binary file holds every byte value, CR and LF among
// them, so that any conversion shows.
const textFile = "line one\nline two\n"

func binaryFile() []byte {
	b := make([]byte, 256)
	for i := range b {
		b[i] = byte(i)
	}
	return b
}

// buildTree fills dir, a directory the caller made for it, with the
// test tree, replacing what was there.
func buildTree(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		return err
	}
	files := map[string][]byte{
		"text.txt":                 []byte(textFile),
		"binary.bin":               binaryFile(),
		"empty.txt":                nil,
		"a/b/deep.txt":             []byte("deep\n"),
		"a/top.txt":                []byte("top\n"),
		"with space/file name.txt": []byte("spaces\n"),
		"ünïcödé.txt":              []byte("utf-8\n"),
		"semi;colon.txt":           []byte("semicolon\n"),
		"-dash.txt":                []byte("dash\n"),
		"odd/~":                    []byte("tilde\n"),
		"odd/~dir/x.txt":           []byte("x\n"),
		// The tree of TestFSOnServers (fstest.TestFS).
		"fs/binary.bin":     binaryFile(),
		"fs/empty.txt":      nil,
		"fs/sub/deep.txt":   []byte("deep\n"),
		"fs/sub/more/x.txt": []byte("x\n"),
		"fs/with space.txt": []byte("spaces\n"),
		"fs/semi;colon.txt": []byte("semicolon\n"),
		"fs/ünïcödé.txt":    []byte("utf-8\n"),
	}
	// 300 files of 4 KiB for BenchmarkVsCurl.
	for i := range benchFiles {
		files[fmt.Sprintf("bench/f%03d", i)] = bytes.Repeat([]byte{byte('a' + i%26)}, 4096)
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	if err := bigFile(filepath.Join(dir, "bench", "big.bin")); err != nil {
		return err
	}
	if err := buildWalkTree(dir); err != nil {
		return err
	}
	return os.Mkdir(filepath.Join(dir, "emptydir"), 0o755)
}

// walkTree is the tree "walk/" of the test tree: what Walk, ReadDir and
// the listing parser meet on real servers (issue 26): names with a
// space, "%", ";type=d", a backslash, a leading "-", non-ASCII and
// non-UTF-8 bytes; a FIFO; links to a file and to a directory, and two
// loops; a directory no one may read; files dated long ago and 40 days
// ahead.
func buildWalkTree(dir string) error {
	w := filepath.Join(dir, "walk")
	files := map[string]string{
		"plain.txt":      "plain",
		"with space.txt": "space",
		"100%.txt":       "percent",
		"x;type=d":       "typecode",
		`back\slash.txt`: "backslash",
		"-lead.txt":      "dash",
		"ünï.txt":        "utf-8",
		"\xff\xfe.bin":   "latin-1",
		"old.txt":        "old",
		"future.txt":     "future",
		"sub/deep.txt":   "deep",
		"locked/hidden":  "hidden",
		"arrow -> b.txt": "arrow",
	}
	for name, text := range files {
		p := filepath.Join(w, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	future := time.Now().Add(40 * 24 * time.Hour).Truncate(time.Minute)
	if err := os.Chtimes(filepath.Join(w, "old.txt"), old, old); err != nil {
		return err
	}
	if err := os.Chtimes(filepath.Join(w, "future.txt"), future, future); err != nil {
		return err
	}
	if err := syscall.Mkfifo(filepath.Join(w, "fifo"), 0o644); err != nil {
		return err
	}
	for link, target := range map[string]string{"link-file": "plain.txt", "link-dir": "sub", "loop": ".", "sub/up": ".."} {
		if err := os.Symlink(target, filepath.Join(w, filepath.FromSlash(link))); err != nil {
			return err
		}
	}
	return os.Chmod(filepath.Join(w, "locked"), 0)
}

// benchFiles is how many small files BenchmarkVsCurl fetches.
const benchFiles = 300

// bigSize is the size of bench/big.bin, the file of BenchmarkVsCurl's
// throughput run. It is sparse: the server reads zeros from no disk.
const bigSize = 256 << 20

func bigFile(p string) error {
	f, err := os.Create(p)
	if err != nil {
		return err
	}
	if err := f.Truncate(bigSize); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// freePort returns a TCP port on 127.0.0.1 that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

// Certificates.

// makeCertificates makes the run's CA and, signed by it, a certificate
// for 127.0.0.1 (IP SAN) and localhost (DNS SAN), in dir/tls: ca.pem,
// server.pem, server.key (PKCS #8). The servers' key is RSA, which every
// server takes under any setting name (vsftpd's rsa_cert_file,
// ProFTPD's TLSRSACertificateFile); the CA's is ECDSA P-256.
func (r *run) makeCertificates() error {
	dir := filepath.Join(r.dir, "tls")
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	serial := func() *big.Int {
		n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
		return n
	}
	now := time.Now()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "ftpurl fetch tests CA"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		MaxPathLenZero:        true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, caKey.Public(), caKey)
	if err != nil {
		return err
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	leafTmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "localhost"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, key.Public(), caKey)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	caPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER})
	leafPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: leafDER})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	cert, err := tls.X509KeyPair(leafPEM, keyPEM)
	if err != nil {
		return err
	}
	caFile := filepath.Join(dir, "ca.pem")
	certFile := filepath.Join(dir, "server.pem")
	keyFile := filepath.Join(dir, "server.key")
	for _, f := range []struct {
		name string
		data []byte
	}{{caFile, caPEM}, {certFile, leafPEM}, {keyFile, keyPEM}} {
		if err := os.WriteFile(f.name, f.data, 0o600); err != nil {
			return err
		}
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	testCACertPEM, testCAPool, testCAFile = caPEM, pool, caFile
	r.certFile, r.keyFile, r.cert = certFile, keyFile, cert
	return nil
}

func (r *run) serverTLSConfig() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{r.cert}}
}

// ftpserverlib, in-process.

type ftpDriver struct {
	root     string
	settings *ftpserver.Settings
	tls      *tls.Config // nil: AUTH TLS is refused
}

func (d *ftpDriver) GetSettings() (*ftpserver.Settings, error) { return d.settings, nil }

func (d *ftpDriver) ClientConnected(ftpserver.ClientContext) (string, error) {
	return "ftpserverlib test server", nil
}

func (d *ftpDriver) ClientDisconnected(ftpserver.ClientContext) {}

func (d *ftpDriver) AuthUser(_ ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	switch {
	case user == "anonymous":
		return afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), d.root)), nil
	case user == testUser && pass == testPassword:
		// The password user may write, as on the other servers; the
		// upload tests write only in directories they make (put_test.go).
		return afero.NewBasePathFs(afero.NewOsFs(), d.root), nil
	}
	return nil, errors.New("login refused")
}

func (d *ftpDriver) GetTLSConfig() (*tls.Config, error) {
	if d.tls == nil {
		return nil, errors.New("no TLS")
	}
	return d.tls, nil
}

// newFtpserverlib starts ftpserverlib on 127.0.0.1 serving root.
func newFtpserverlib(root string) (addr string, stop func(), err error) {
	return newFtpserverlibAt(root, "127.0.0.1:0")
}

// newFtpserverlibAt starts ftpserverlib on listen ("[::1]:0" for IPv6).
func newFtpserverlibAt(root, listen string) (addr string, stop func(), err error) {
	return serveFtpserverlib(&ftpDriver{
		root:     root,
		settings: &ftpserver.Settings{ListenAddr: listen, IdleTimeout: 30},
	})
}

// newFtpserverlibTLS starts ftpserverlib with TLS on 127.0.0.1 serving
// root. ftpserverlib's TLS settings:
//   - the driver's GetTLSConfig gives the certificate; AUTH TLS and
//     PROT P work when it returns one;
//   - Settings.TLSRequired: MandatoryEncryption refuses USER before
//     AUTH TLS ("421 TLS is required") and a transfer before PROT P
//     (explicit); ImplicitEncryption wraps the listener and every data
//     connection in TLS (implicit). Either is per server, hence one
//     server per mode.
//
// It does not require the data connection to resume the control
// connection's TLS session.
func newFtpserverlibTLS(root string, config *tls.Config, mode ftpserver.TLSRequirement) (addr string, stop func(), err error) {
	return serveFtpserverlib(&ftpDriver{
		root:     root,
		settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30, TLSRequired: mode},
		tls:      config,
	})
}

func serveFtpserverlib(d *ftpDriver) (addr string, stop func(), err error) {
	srv := ftpserver.NewFtpServer(d)
	if err := srv.Listen(); err != nil {
		return "", nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Serve()
	}()
	return srv.Addr(), func() { _ = srv.Stop(); <-done }, nil
}

func startFtpserverlib(root string) *server {
	addr, stop, err := newFtpserverlib(root)
	return &server{name: "ftpserverlib", addr: addr, stop: stop, err: err}
}

// The Debian servers.

// tlsMode is how one server process takes TLS.
type tlsMode int

const (
	plainFTP    tlsMode = iota // no TLS: AUTH TLS is refused
	explicitTLS                // AUTH TLS on a plain port, then required
	implicitTLS                // TLS from the first byte
)

func (m tlsMode) String() string {
	return [...]string{"plain", "explicit", "implicit"}[m]
}

// An instance is one server process, in one mode.
type instance struct {
	mode tlsMode
	addr string
	err  error
	stop func()
}

// daemon is how to start one server process.
type daemon struct {
	name      string // "vsftpd", ...: names its files in the run's directory
	mode      tlsMode
	path      string   // the executable
	args      []string // its arguments
	port      int
	namespace bool // start it in a mount namespace where the tree is mounted over r.home
}

// file names a file of the daemon's in the run's directory, such as
// vsftpd-explicit.conf.
func (r *run) file(name string, mode tlsMode, ext string) string {
	return filepath.Join(r.dir, name+"-"+mode.String()+ext)
}

// The mount helper: the test binary, started in a new mount namespace
// with these variables, mounts the tree over the home and executes the
// daemon (os.Args[1:]) in its place, with the same PID.
const (
	bindEnvSource = "FTPURL_TEST_BIND_SOURCE" // the test tree
	bindEnvTarget = "FTPURL_TEST_BIND_TARGET" // the home it is mounted over
	bindEnvHostNS = "FTPURL_TEST_HOST_MNTNS"  // the test process's mount namespace, which must not be touched
)

func bindHomeAndExec() {
	fail := func(err error) {
		fmt.Fprintln(os.Stderr, "fetch tests' mount helper:", err)
		os.Exit(2)
	}
	src, dst, hostNS := os.Getenv(bindEnvSource), os.Getenv(bindEnvTarget), os.Getenv(bindEnvHostNS)
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		fail(err)
	}
	if hostNS == "" || ns == hostNS {
		fail(fmt.Errorf("not in a mount namespace of its own (%s): refusing to mount over %s", ns, dst))
	}
	if len(os.Args) < 2 || dst == "" {
		fail(errors.New("nothing to run"))
	}
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND, ""); err != nil {
		fail(fmt.Errorf("mount --bind %s %s: %w", src, dst, err))
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FTPURL_TEST_") {
			env = append(env, kv)
		}
	}
	fail(syscall.Exec(os.Args[1], os.Args[1:], env))
}

// start starts d and waits until it greets, over TLS as its mode says.
func (r *run) start(d daemon) instance {
	inst := instance{mode: d.mode, addr: "127.0.0.1:" + strconv.Itoa(d.port)}
	fail := func(err error) instance {
		inst.err = fmt.Errorf("%s (%s): %w", d.name, d.mode, err)
		return inst
	}
	if _, err := os.Stat(d.path); err != nil {
		return fail(err)
	}
	cmd := exec.Command(d.path, d.args...)
	// Its own process group, so that stopping it reaches the session
	// processes it forked.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if d.namespace {
		self, err := os.Executable()
		if err != nil {
			return fail(err)
		}
		ns, err := os.Readlink("/proc/self/ns/mnt")
		if err != nil {
			return fail(err)
		}
		cmd = exec.Command(self, append([]string{d.path}, d.args...)...)
		cmd.Env = append(os.Environ(), bindEnvSource+"="+r.tree, bindEnvTarget+"="+r.home, bindEnvHostNS+"="+ns)
		// A new mount namespace; Go makes / private (MS_REC|MS_PRIVATE)
		// in it before it executes the helper, so the helper's mount
		// propagates nowhere.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Unshareflags: syscall.CLONE_NEWNS}
	}
	logFile := r.file(d.name, d.mode, ".log")
	out, err := os.Create(logFile)
	if err != nil {
		return fail(err)
	}
	// vsftpd writes why it exits ("500 OOPS: ...") on its fd 0.
	cmd.Stdin, cmd.Stdout, cmd.Stderr = out, out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		return fail(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); out.Close(); close(exited) }()
	inst.stop = func() {
		pid := cmd.Process.Pid
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			<-exited
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		err := greetMode(inst.addr, d.mode)
		if err == nil {
			return inst
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logFile)
			inst.stop = nil
			return fail(fmt.Errorf("exited: %s", log))
		default:
		}
		if time.Now().After(deadline) {
			inst.stop()
			inst.stop = nil
			log, _ := os.ReadFile(logFile)
			return fail(fmt.Errorf("did not greet within 10s: %v; log: %s", err, log))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// greetMode connects to addr and reads the 220 greeting; with TLS, it
// first makes the TLS handshake (implicit) or sends AUTH TLS and makes
// it then (explicit), verifying the certificate against the test CA.
func greetMode(addr string, mode tlsMode) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	conn := c
	if mode == implicitTLS {
		conn = tls.Client(c, testTLSConfig())
	}
	rd := bufio.NewReader(conn)
	if err := expectReply(rd, 220); err != nil {
		return err
	}
	if mode == explicitTLS {
		if _, err := conn.Write([]byte("AUTH TLS\r\n")); err != nil {
			return err
		}
		if err := expectReply(rd, 234); err != nil {
			return fmt.Errorf("AUTH TLS: %w", err)
		}
		tc := tls.Client(c, testTLSConfig())
		if err := tc.Handshake(); err != nil {
			return err
		}
		conn, rd = tc, bufio.NewReader(tc)
	}
	_, _ = conn.Write([]byte("QUIT\r\n"))
	_ = expectReply(rd, 221)
	return nil
}

// expectReply reads one reply, its continuation lines too, and checks
// its code.
func expectReply(rd *bufio.Reader, code int) error {
	want := strconv.Itoa(code)
	var first string
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			return err
		}
		if first == "" {
			first = line
			if len(line) < 4 || line[:3] != want {
				return fmt.Errorf("reply %q, want %d", strings.TrimSpace(line), code)
			}
		}
		if len(line) >= 4 && line[:3] == first[:3] && line[3] == ' ' {
			return nil
		}
	}
}

func writeConfig(path, text string) error {
	return os.WriteFile(path, []byte(text), 0o600)
}

// startVsftpd starts vsftpd 3.0.3 in mode: one listener per process.
//
// TLS settings (man vsftpd.conf; this build knows ssl_sslv2, ssl_sslv3
// and ssl_tlsv1 only, and negotiates TLS 1.2 and 1.3 by default):
//   - ssl_enable=YES: AUTH TLS, PBSZ and PROT; rsa_cert_file and
//     rsa_private_key_file name the certificate and its key;
//   - implicit_ssl=YES: TLS from the first byte on this listener (and
//     no AUTH TLS);
//   - allow_anon_ssl=YES lets anonymous use TLS at all;
//     force_anon_logins_ssl=YES and force_anon_data_ssl=YES refuse
//     anonymous logins and transfers without it ("530 Anonymous
//     sessions must use encryption."); force_local_logins_ssl and
//     force_local_data_ssl do the same for the password user (YES is
//     their default, written out);
//   - require_ssl_reuse=YES (its default, written out): a data
//     connection must resume the control connection's TLS session, or
//     the transfer ends in "522 SSL connection failed: session reuse
//     required" after its 150;
//   - ssl_request_cert (default YES) asks for a client certificate, and
//     takes none (validate_cert=NO);
//   - debug_ssl=YES logs, in vsftpd-MODE.xfer.log, each TLS connection
//     as "reused" or "not reused".
func (r *run) startVsftpd(mode tlsMode) instance {
	return r.startVsftpdWith(vsftpdConf{name: "vsftpd", mode: mode})
}

// vsftpdConf is what differs between the run's vsftpd processes.
type vsftpdConf struct {
	name      string // names its files in the run's directory
	mode      tlsMode
	port      int    // 0: a free one
	maxPerIP  int    // max_per_ip: the sessions it takes from one address; 0: any
	pasvFirst int    // the first passive port; 0: a range of the run's
	noPasv    bool   // pasv_enable=NO: PASV and EPSV refused, active mode only
	extra     string // settings appended to the configuration (local_max_rate)
}

// startVsftpdWith starts vsftpd as c says: the run's own, or one a
// test starts (a connection limit, a restart on the same port).
func (r *run) startVsftpdWith(c vsftpdConf) instance {
	mode := c.mode
	port, err := c.port, error(nil)
	if port == 0 {
		port, err = freePort()
	}
	if err != nil {
		return instance{mode: mode, err: err}
	}
	pasv := c.pasvFirst
	if pasv == 0 {
		pasv = r.pasvPorts()
	}
	secure := r.file(c.name, mode, ".empty")
	if err := os.MkdirAll(secure, 0o755); err != nil {
		return instance{mode: mode, err: err}
	}
	conf := fmt.Sprintf(`listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=%d
background=NO
seccomp_sandbox=NO
anonymous_enable=YES
no_anon_password=YES
anon_root=%s
local_enable=YES
local_root=%s
chroot_local_user=YES
allow_writeable_chroot=YES
write_enable=YES
pam_service_name=ftpurl-vsftpd
secure_chroot_dir=%s
pasv_enable=%s
pasv_address=127.0.0.1
pasv_min_port=%d
pasv_max_port=%d
dirmessage_enable=NO
max_per_ip=%d
max_clients=0
`, port, r.tree, r.tree, secure, yesNo(!c.noPasv), pasv, pasv+pasvRange-1, c.maxPerIP) + c.extra
	if mode == plainFTP {
		conf += "xferlog_enable=NO\n"
	} else {
		conf += fmt.Sprintf(`ssl_enable=YES
implicit_ssl=%s
rsa_cert_file=%s
rsa_private_key_file=%s
allow_anon_ssl=YES
force_anon_logins_ssl=YES
force_anon_data_ssl=YES
force_local_logins_ssl=YES
force_local_data_ssl=YES
require_ssl_reuse=YES
xferlog_enable=YES
xferlog_std_format=NO
log_ftp_protocol=YES
debug_ssl=YES
vsftpd_log_file=%s
`, yesNo(mode == implicitTLS), r.certFile, r.keyFile, r.file(c.name, mode, ".xfer.log"))
	}
	path := r.file(c.name, mode, ".conf")
	if err := writeConfig(path, conf); err != nil {
		return instance{mode: mode, err: err}
	}
	return r.start(daemon{name: c.name, mode: mode, path: filepath.Join(r.installed, "root/usr/sbin/vsftpd"), args: []string{path}, port: port, namespace: true})
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// startProftpd starts ProFTPD 1.3.8 in mode.
//
// TLS comes from mod_tls (Debian's proftpd-mod-crypto), a module that
// LoadModule loads from ModulePath (the unpacked /usr/lib/proftpd):
//   - TLSEngine on: AUTH TLS, PBSZ and PROT;
//     TLSRSACertificateFile and TLSRSACertificateKeyFile name the
//     certificate and its key; TLSProtocol TLSv1.2 TLSv1.3;
//   - TLSRequired on: no USER/PASS and no transfer without TLS, for the
//     password user and anonymous alike ("550 SSL/TLS required on the
//     control channel");
//   - TLSOptions UseImplicitSSL: TLS from the first byte (implicit);
//   - TLSVerifyClient off: no client certificate asked for;
//   - session reuse on data connections is required by default (the
//     transfer fails with "425 Unable to build data connection:
//     Operation not permitted" without it); NoSessionReuseRequired
//     would turn that off, and stays off: it would hide what clients
//     meet;
//   - TLSLog: proftpd-MODE.tls.log.
func (r *run) startProftpd(mode tlsMode) instance {
	return r.startProftpdWith("proftpd", mode, 0)
}

// startProftpdWith starts ProFTPD as the run's own (name "proftpd",
// perHost 0), or one of a test's own: name names its files, and
// perHost > 0 sets MaxClientsPerHost, which counts logged-in sessions
// and refuses PASS beyond it ("530 Sorry, the maximum number of clients
// (2) from your host are already connected.").
func (r *run) startProftpdWith(name string, mode tlsMode, perHost int) instance {
	return r.startProftpdConf(name, mode, perHost, "")
}

// startProftpdConf is startProftpdWith with extra appended to the
// configuration (a module of a test's own: mod_digest).
func (r *run) startProftpdConf(name string, mode tlsMode, perHost int, extra string) instance {
	port, err := freePort()
	if err != nil {
		return instance{mode: mode, err: err}
	}
	pasv := r.pasvPorts()
	limits := "MaxInstances 100\n"
	anonLimit := "  MaxClients 100\n"
	if perHost > 0 {
		limits += fmt.Sprintf("MaxClientsPerHost %d\n", perHost)
		anonLimit = ""
	}
	conf := fmt.Sprintf(`ServerName "ftpurl test"
ServerType standalone
DefaultServer on
Port %d
DefaultAddress 127.0.0.1
SocketBindTight on
UseIPv6 off
User nobody
Group nogroup
PidFile %s
ScoreboardFile %s
DelayTable none
WtmpLog off
AuthPAM off
AuthOrder mod_auth_unix.c
RequireValidShell off
UseReverseDNS off
PassivePorts %d %d
DefaultRoot %s
%s<Anonymous %s>
  User ftp
  Group nogroup
  UserAlias anonymous ftp
  RequireValidShell off
%s</Anonymous>
`, port, r.file(name, mode, ".pid"), r.file(name, mode, ".scoreboard"), pasv, pasv+pasvRange-1, r.tree, limits, r.tree, anonLimit)
	if mode != plainFTP {
		conf += fmt.Sprintf(`ModulePath %s
LoadModule mod_tls.c
<IfModule mod_tls.c>
  TLSEngine on
  TLSRequired on
  TLSRSACertificateFile %s
  TLSRSACertificateKeyFile %s
  TLSProtocol TLSv1.2 TLSv1.3
  TLSVerifyClient off
  TLSLog %s
</IfModule>
`, filepath.Join(r.installed, "root/usr/lib/proftpd"), r.certFile, r.keyFile, r.file(name, mode, ".tls.log"))
		if mode == implicitTLS {
			conf += "<IfModule mod_tls.c>\n  TLSOptions UseImplicitSSL\n</IfModule>\n"
		}
	}
	conf += extra
	path := r.file(name, mode, ".conf")
	if err := writeConfig(path, conf); err != nil {
		return instance{mode: mode, err: err}
	}
	return r.start(daemon{name: name, mode: mode, path: filepath.Join(r.installed, "root/usr/sbin/proftpd"), args: []string{"-n", "-q", "-c", path}, port: port, namespace: true})
}

// startPureFtpd starts Pure-FTPd 1.0.50, which has no configuration
// file: anonymous is served from the ftp user's home, which the mount
// namespace makes the test tree.
//
// TLS. Debian builds it with TLS, and without implicit TLS: that is a
// build option (--with-implicittls) that makes every port of the
// binary implicit, and this binary greets in clear text.
//   - -Y 3 (--tls=3): AUTH TLS, and refuse logins without TLS,
//     anonymous ones too ("534 Sorry, cleartext sessions and weak
//     ciphers are not accepted on this server."), and transfers without
//     PROT P ("-Y 1" would allow clear text, "-Y 2" clear data);
//   - -2 CERT,KEY (--certfile): the certificate and its key (default
//     /etc/ssl/private/pure-ftpd.pem).
//
// It does not require the data connection to resume the control
// connection's TLS session.
func (r *run) startPureFtpd(mode tlsMode) instance {
	port, err := freePort()
	if err != nil {
		return instance{mode: mode, err: err}
	}
	pasv := r.pasvPorts()
	args := []string{
		"-S", "127.0.0.1," + strconv.Itoa(port),
		"-p", fmt.Sprintf("%d:%d", pasv, pasv+pasvRange-1),
		"-P", "127.0.0.1",
		"-l", "unix",
		"-H", // no reverse DNS
		"-A", // chroot everyone
		"-g", r.file("pure-ftpd", mode, ".pid"),
	}
	if mode == explicitTLS {
		args = append(args, "-Y", "3", "-2", r.certFile+","+r.keyFile)
	}
	return r.start(daemon{name: "pure-ftpd", mode: mode, path: filepath.Join(r.installed, "root/usr/sbin/pure-ftpd"), args: args, port: port, namespace: true})
}

// startPyftpdlib starts testdata/pyftpd.py, which serves the tree by
// its path and needs no namespace; with TLS it uses TLS_FTPHandler:
// explicit only (pyftpdlib has no implicit TLS), TLS required for the
// login and for transfers, no session reuse required; see the script.
//
// pyftpdlib 1.5.7 (Debian 12) closes a data connection that is readable
// before the transfer command: a client that starts the data
// connection's TLS handshake as soon as it connects, before RETR or
// LIST, as curl 7.88 does, gets a reset (curl: "(13) Bad PASV/EPSV
// response: 200"). Python's ftplib, jlaffaye/ftp and Go's crypto/tls
// start it lazily, after the command, and work. Fixed in pyftpdlib
// 1.5.8 (giampaolo/pyftpdlib#604, #612).
func (r *run) startPyftpdlib(mode tlsMode) instance {
	port, err := freePort()
	if err != nil {
		return instance{mode: mode, err: err}
	}
	script, err := filepath.Abs("testdata/pyftpd.py")
	if err != nil {
		return instance{mode: mode, err: err}
	}
	pasv := r.pasvPorts()
	args := []string{script, strconv.Itoa(port), r.tree, strconv.Itoa(pasv), strconv.Itoa(pasv + pasvRange - 1), testUser, testPassword}
	if mode == explicitTLS {
		args = append(args, r.certFile, r.keyFile)
	}
	return r.start(daemon{name: "pyftpdlib", mode: mode, path: "/usr/bin/python3", args: args, port: port})
}
