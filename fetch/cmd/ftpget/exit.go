package main

// Exit statuses, as curl's (curl(1), "EXIT CODES"), and the one of
// each error.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"syscall"

	"github.com/ftpurl/ftpurl"
	"github.com/ftpurl/ftpurl/fetch"
)

// Exit statuses.
const (
	exitOK         = 0
	exitFailed     = 1
	exitUsage      = 2
	exitURL        = 3
	exitProxy      = 5
	exitResolve    = 6
	exitConnect    = 7
	exitCWD        = 9
	exitPartial    = 18
	exitWrite      = 23
	exitTimeout    = 28
	exitResume     = 36
	exitRecv       = 56
	exitCert       = 60
	exitLogin      = 67
	exitCACert     = 77
	exitNotFound   = 78
	exitFileSize   = 63 // --max-filesize: the file is larger
	exitProxyError = 97
	resumeFromEnd  = -1 // -C -
)

// exitCode is curl's exit status for err (curl(1), EXIT CODES).
// reading tells an error of the transfer from one of Open.
func exitCode(err error, reading bool) int {
	var ue *ftpurl.Error
	var pe *promptError
	var fe *fetch.Error
	var dns *net.DNSError
	var ne interface{ Timeout() bool }
	var pse *proxySetupError
	var pxe *proxyError
	var pce *proxyConnectError
	var fre *fileRootError
	isFetch := errors.As(err, &fe)
	if code := proxyExitCode(err); code != 0 {
		return code // an HTTP proxy's tunnel (network.go)
	}
	switch {
	case errors.As(err, &pe):
		return exitUsage
	case errors.As(err, &ue):
		return exitURL
	case errors.As(err, &pse):
		return exitProxy
	case isCertificateError(err):
		return exitCert
	case isFetch && fe.Op == "cwd" && fe.Code >= 500 && !fe.Fallback:
		// curl's CURLE_REMOTE_ACCESS_DENIED: "For FTP, this occurs
		// while trying to change to the remote directory", a missing
		// one too (curl 7.88 exits 9 for ftp://h/nodir/f).
		return exitCWD
	case errors.Is(err, fetch.ErrNotFound):
		return exitNotFound
	case isFetch && fe.Code == 530:
		return exitLogin
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return exitTimeout
	case reading && errors.Is(err, io.ErrUnexpectedEOF):
		return exitPartial
	case reading && isFetch && fe.Op == "retr" && fe.Code != 0 && fe.Code != 226 && fe.Code != 250:
		// curl's CURLE_PARTIAL_FILE (curl(1), EXIT CODES, 18: "Partial
		// file. Only a part of the file was transferred."): the
		// transfer began and its final reply is not 226 or 250, as 426
		// or 451 (curl's ftp_done: "server did not report OK").
		return exitPartial
	case (reading || isFetch && fe.Op == "retr") && isRecvError(err):
		// curl's CURLE_RECV_ERROR (curl(1), EXIT CODES, 56: "Failure
		// in receiving network data."): the transfer began, and its
		// data or control connection was reset, or failed a read;
		// before Open returned too, where it reads the first bytes to
		// tell a file from a directory.
		return exitRecv
	case errors.As(err, &pce):
		if errors.As(err, &dns) {
			return exitProxy
		}
		return exitConnect
	case errors.As(err, &pxe):
		return exitProxyError
	case errors.As(err, &dns):
		return exitResolve
	case isFetch && fe.Op == "dial" && fe.Code == 0:
		return exitConnect
	case errors.As(err, &fre), isFetch && fe.Op == "cwd" && fe.Code >= 500:
		// curl's CURLE_REMOTE_ACCESS_DENIED: "For FTP, this occurs
		// while trying to change to the remote directory."
		return exitCWD
	}
	return exitFailed
}

// isRecvError reports whether err is a read of a connection that
// failed other than by a timeout: a reset (ECONNRESET), or another
// network read error; not a connection closed on this side
// (net.ErrClosed).
func isRecvError(err error) bool {
	var oe *net.OpError
	if errors.Is(err, net.ErrClosed) {
		return false
	}
	return errors.Is(err, syscall.ECONNRESET) || errors.As(err, &oe) && oe.Op == "read"
}

// isCertificateError reports whether err is a TLS certificate that
// did not verify: curl's exit 60 (CURLE_PEER_FAILED_VERIFICATION),
// whether the handshake was of ftps:// or of AUTH TLS.
func isCertificateError(err error) bool {
	var cv *tls.CertificateVerificationError
	var ua x509.UnknownAuthorityError
	var he x509.HostnameError
	var ci x509.CertificateInvalidError
	return errors.As(err, &cv) || errors.As(err, &ua) || errors.As(err, &he) || errors.As(err, &ci)
}
