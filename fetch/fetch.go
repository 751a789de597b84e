// Package fetch gets what an ftp or ftps URL names: a file as a stream
// of bytes, its size and time, or the listing of a directory.
//
//	resp, err := fetch.Open(ctx, "ftp://ftp.example.org/pub/README")
//	if err != nil {
//		return err
//	}
//	defer resp.Close()
//	_, err = io.Copy(os.Stdout, resp)
//
// Open, Stat and ReadDir parse the URL with package ftpurl, log in as
// [ftpurl.URL.Login] says, and run the URL's [ftpurl.Plan] step by step
// ([ftpurl.Plan.Steps]), as the 2011 draft
// (draft-yevstifeyev-ftp-uri-scheme-06) §3.2.3 says, on an FTP engine of
// the package's own (RFC 959), built on the standard library as
// net/smtp is (a reply the server refuses with is a *textproto.Error):
// on the wire go the login, the plan's steps as [ftpurl.Step.String]
// renders them, and the few commands a transfer needs (SIZE, EPSV or
// PASV, REST). A [Client] keeps the sessions it logged in and reuses
// them for the next URL of the same server; [Client.RoundTrip] makes a
// net/http Client fetch ftp URLs.
//
// Listings: [Response.Entries], [Client.ReadDir] and [Client.Walk] give
// [Entry] values read by [ParseListLine] (Unix ls, DOS/IIS, EPLF and
// MLSD facts); a line it cannot read is kept in Response.Unparsed,
// never dropped. Names in listings are the server's: check them
// (filepath.IsLocal) before they name a file.
//
// One large file: [Client.Download] writes it into an io.WriterAt,
// over several sessions at once with [WithSegments] (ranges by RANG or
// REST); [Client.Hash] asks the server for a file's hash, and
// [WithChecksum] proves Put and Download by it where the server offers
// one. Both prove a transfer whose control connection a middlebox
// dropped while the data flowed on a new session, without sending it
// again.
//
// A directory URL is also an io/fs file system: [Client.FS] gives an
// [FS] that fs.WalkDir, os.CopyFS, http.FileServerFS and testing/fstest
// take, on the Client's sessions.
//
// TLS: an ftps:// URL is TLS from the first byte (implicit, port 990);
// [WithTLS] secures an ftp:// URL with AUTH TLS (RFC 4217) and never
// falls back to clear text. Every data connection is TLS too, and
// resumes its control connection's TLS session, which vsftpd and
// ProFTPD demand.
//
// Networks: data connections are passive (EPSV, then PASV) unless
// [Client].Active asks for active mode (PORT, RFC 959 §4.1.2, or EPRT,
// RFC 2428 §2: the server connects back, and only the control
// connection's peer is taken), for servers and firewalls that allow
// nothing else. [Client].Proxy sends every connection through a SOCKS5
// proxy or an HTTP proxy's CONNECT tunnel (RFC 9110 §9.3.6); a nil
// Proxy reads ftp_proxy, all_proxy and no_proxy ([ProxyFromEnvironment])
// unless [Client].DialContext is set.
//
// A server is not trusted: its replies are bounded (a line to 64 KiB, a
// reply to 1 MiB, a listing to 64 MiB), a server that stalls fails the
// step ([Client].StallTimeout), a transfer cut short is an error, never
// io.EOF, and no error holds the password or a raw control character.
package fetch

import "errors"

// ErrPasswordRequired is the Err of the *Error (Op "login", Command "",
// Code 0) that Open returns, before it connects, for a URL with a user
// name other than "anonymous" or "ftp" (in any case) and no password
// ("ftp://alice@host/") when no WithPassword option gives one.
var ErrPasswordRequired = errors.New("the URL names a user without a password: give one with WithPassword")
