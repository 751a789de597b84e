package fetch_test

// The FTP servers the tests run against, on 127.0.0.1:
//
//   - ftpserverlib, in-process, always;
//   - vsftpd, ProFTPD, Pure-FTPd and pyftpdlib, the Debian 12 packages
//     that testdata/install-servers.sh installs under $FTPURL_SERVERS
//     (default /opt/ftpurl-servers), started by TestMain and stopped by
//     their PID when the tests end. They need root (they drop to the
//     ftp user themselves) and the users the script creates. A missing
//     server skips its tests, except with CI=true, where it fails them.

import (
	"bufio"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
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

// serverNames in the order the tests report them.
var serverNames = []string{"ftpserverlib", "vsftpd", "proftpd", "pure-ftpd", "pyftpdlib"}

var servers = map[string]*server{}

func serversDir() string {
	if d := os.Getenv("FTPURL_SERVERS"); d != "" {
		return d
	}
	return "/opt/ftpurl-servers"
}

func TestMain(m *testing.M) {
	code := func() int {
		defer func() {
			for _, s := range servers {
				if s.stop != nil {
					s.stop()
				}
			}
		}()
		startServers()
		return m.Run()
	}()
	os.Exit(code)
}

func startServers() {
	// ftpserverlib serves a tree of its own, in a temporary directory.
	tmp, err := os.MkdirTemp("", "ftpurl-fetch-")
	if err == nil {
		err = buildTree(tmp)
	}
	if err == nil {
		servers["ftpserverlib"] = startFtpserverlib(tmp)
		servers["ftpserverlib"].stop = chainStop(servers["ftpserverlib"].stop, func() { os.RemoveAll(tmp) })
	} else {
		servers["ftpserverlib"] = &server{name: "ftpserverlib", err: err}
	}

	// The others serve the ftp user's home, which Pure-FTPd takes as
	// its anonymous root and install-servers.sh points at
	// $FTPURL_SERVERS/tree.
	dir := serversDir()
	tree, err := externalTree(dir)
	if err == nil {
		err = buildTree(tree)
	}
	starters := map[string]func(dir, tree string, pasv int) *server{
		"vsftpd":    startVsftpd,
		"proftpd":   startProftpd,
		"pure-ftpd": startPureFtpd,
		"pyftpdlib": startPyftpdlib,
	}
	pasv := 40000 + os.Getpid()%10000
	for i, name := range serverNames[1:] {
		if err != nil {
			servers[name] = &server{name: name, err: err}
			continue
		}
		servers[name] = starters[name](dir, tree, pasv+20*i)
		servers[name].name = name
	}
}

func chainStop(a, b func()) func() {
	return func() {
		if a != nil {
			a()
		}
		b()
	}
}

// externalTree returns the ftp user's home, after checking what the
// Debian servers need: root, and the ftp user.
func externalTree(dir string) (string, error) {
	if _, err := os.Stat(filepath.Join(dir, "root")); err != nil {
		return "", fmt.Errorf("servers not installed in %s (run testdata/install-servers.sh): %w", dir, err)
	}
	if os.Geteuid() != 0 {
		return "", errors.New("the Debian FTP servers need root")
	}
	u, err := user.Lookup("ftp")
	if err != nil {
		return "", fmt.Errorf("no ftp user (run testdata/install-servers.sh): %w", err)
	}
	if _, err := user.Lookup(testUser); err != nil {
		return "", fmt.Errorf("no %s user (run testdata/install-servers.sh): %w", testUser, err)
	}
	if !strings.HasPrefix(u.HomeDir, dir+"/") {
		return "", fmt.Errorf("the ftp user's home %s is not under %s (run testdata/install-servers.sh)", u.HomeDir, dir)
	}
	return u.HomeDir, nil
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
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not running (CI=true): %v", name, err)
		}
		t.Skipf("%s is not running: %v", name, err)
	}
	return s
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

// buildTree fills dir with the test tree, replacing what was there.
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
	return os.Mkdir(filepath.Join(dir, "emptydir"), 0o755)
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

// ftpserverlib, in-process.

type ftpDriver struct {
	root     string
	settings *ftpserver.Settings
}

func (d *ftpDriver) GetSettings() (*ftpserver.Settings, error) { return d.settings, nil }

func (d *ftpDriver) ClientConnected(ftpserver.ClientContext) (string, error) {
	return "ftpserverlib test server", nil
}

func (d *ftpDriver) ClientDisconnected(ftpserver.ClientContext) {}

func (d *ftpDriver) AuthUser(_ ftpserver.ClientContext, user, pass string) (ftpserver.ClientDriver, error) {
	if user == "anonymous" || user == testUser && pass == testPassword {
		return afero.NewReadOnlyFs(afero.NewBasePathFs(afero.NewOsFs(), d.root)), nil
	}
	return nil, errors.New("login refused")
}

func (d *ftpDriver) GetTLSConfig() (*tls.Config, error) { return nil, errors.New("no TLS") }

// newFtpserverlib starts ftpserverlib on 127.0.0.1 serving root.
func newFtpserverlib(root string) (addr string, stop func(), err error) {
	srv := ftpserver.NewFtpServer(&ftpDriver{
		root:     root,
		settings: &ftpserver.Settings{ListenAddr: "127.0.0.1:0", IdleTimeout: 30},
	})
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

// runDaemon starts a server process and waits until it greets with 220.
func runDaemon(name string, port int, logFile string, args ...string) *server {
	s := &server{addr: "127.0.0.1:" + strconv.Itoa(port)}
	if _, err := os.Stat(name); err != nil {
		s.err = err
		return s
	}
	cmd := exec.Command(name, args...)
	out, err := os.Create(logFile)
	if err != nil {
		s.err = err
		return s
	}
	cmd.Stdout, cmd.Stderr = out, out
	// Its own process group, so that stopping it reaches the session
	// processes it forked.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		out.Close()
		s.err = err
		return s
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); out.Close(); close(exited) }()
	s.stop = func() {
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
		err := greet(s.addr)
		if err == nil {
			return s
		}
		select {
		case <-exited:
			log, _ := os.ReadFile(logFile)
			s.err = fmt.Errorf("%s exited: %s", name, log)
			return s
		default:
		}
		if time.Now().After(deadline) {
			s.stop()
			log, _ := os.ReadFile(logFile)
			s.err = fmt.Errorf("%s did not greet within 10s: %v; log: %s", name, err, log)
			return s
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// greet connects to addr and reads the 220 greeting.
func greet(addr string) error {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return err
	}
	if !strings.HasPrefix(line, "220") {
		return fmt.Errorf("greeting %q", line)
	}
	_, _ = c.Write([]byte("QUIT\r\n"))
	return nil
}

func writeConfig(dir, name, text string) (string, error) {
	p := filepath.Join(dir, name)
	return p, os.WriteFile(p, []byte(text), 0o600)
}

func startVsftpd(dir, tree string, pasv int) *server {
	port, err := freePort()
	if err != nil {
		return &server{err: err}
	}
	conf, err := writeConfig(dir, "vsftpd.conf", fmt.Sprintf(`listen=YES
listen_ipv6=NO
listen_address=127.0.0.1
listen_port=%d
background=NO
seccomp_sandbox=NO
anonymous_enable=YES
no_anon_password=YES
anon_root=%s
local_enable=YES
chroot_local_user=YES
allow_writeable_chroot=YES
write_enable=NO
pam_service_name=ftpurl-vsftpd
secure_chroot_dir=%s
pasv_enable=YES
pasv_address=127.0.0.1
pasv_min_port=%d
pasv_max_port=%d
xferlog_enable=NO
dirmessage_enable=NO
max_per_ip=0
`, port, tree, filepath.Join(dir, "empty"), pasv, pasv+19))
	if err != nil {
		return &server{err: err}
	}
	return runDaemon(filepath.Join(dir, "root/usr/sbin/vsftpd"), port, filepath.Join(dir, "vsftpd.log"), conf)
}

func startProftpd(dir, tree string, pasv int) *server {
	port, err := freePort()
	if err != nil {
		return &server{err: err}
	}
	conf, err := writeConfig(dir, "proftpd.conf", fmt.Sprintf(`ServerName "ftpurl test"
ServerType standalone
DefaultServer on
Port %d
DefaultAddress 127.0.0.1
SocketBindTight on
UseIPv6 off
User nobody
Group nogroup
PidFile %s/proftpd.pid
ScoreboardFile %s/proftpd.scoreboard
DelayTable none
WtmpLog off
AuthPAM off
AuthOrder mod_auth_unix.c
RequireValidShell off
UseReverseDNS off
PassivePorts %d %d
DefaultRoot ~
MaxInstances 100
<Anonymous %s>
  User ftp
  Group nogroup
  UserAlias anonymous ftp
  RequireValidShell off
  MaxClients 100
</Anonymous>
`, port, dir, dir, pasv, pasv+19, tree))
	if err != nil {
		return &server{err: err}
	}
	return runDaemon(filepath.Join(dir, "root/usr/sbin/proftpd"), port, filepath.Join(dir, "proftpd.log"), "-n", "-q", "-c", conf)
}

func startPureFtpd(dir, tree string, pasv int) *server {
	port, err := freePort()
	if err != nil {
		return &server{err: err}
	}
	return runDaemon(filepath.Join(dir, "root/usr/sbin/pure-ftpd"), port, filepath.Join(dir, "pure-ftpd.log"),
		"-S", "127.0.0.1,"+strconv.Itoa(port),
		"-p", fmt.Sprintf("%d:%d", pasv, pasv+19),
		"-P", "127.0.0.1",
		"-l", "unix",
		"-H", // no reverse DNS
		"-A", // chroot everyone
		"-g", filepath.Join(dir, "pure-ftpd.pid"))
}

func startPyftpdlib(dir, tree string, pasv int) *server {
	port, err := freePort()
	if err != nil {
		return &server{err: err}
	}
	script, err := filepath.Abs("testdata/pyftpd.py")
	if err != nil {
		return &server{err: err}
	}
	return runDaemon("/usr/bin/python3", port, filepath.Join(dir, "pyftpdlib.log"),
		script, strconv.Itoa(port), tree, strconv.Itoa(pasv), strconv.Itoa(pasv+19), testUser, testPassword)
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }
