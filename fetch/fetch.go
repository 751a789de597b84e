// Package fetch retrieves what an ftp URL names: the file as a stream of
// bytes, or the listing of a directory, in one call.
//
//	resp, err := fetch.Open(ctx, "ftp://ftp.example.org/pub/README")
//	if err != nil {
//		return err
//	}
//	defer resp.Close()
//	_, err = io.Copy(os.Stdout, resp)
//
// Open parses the URL with package ftpurl, logs in as [ftpurl.URL.Login]
// says, and runs the [ftpurl.Plan] of the URL exactly, command by
// command, with github.com/jlaffaye/ftp, as the 2011 draft
// (draft-yevstifeyev-ftp-uri-scheme-06) §3.2.3 says: one CWD per
// directory (1), one TYPE (2), then RETR, LIST or NLST (4a)-(4d). A URL whose
// last segment may name a file or a directory (no ";type=", §3.2.3
// (4d)) is tried with RETR first and listed when the server refuses it
// with 550 (RFC 959 §4.2: "Requested action not taken. File
// unavailable").
//
// Where jlaffaye/ftp would depart from the plan, it is told not to: it
// lists with LIST, never MLSD (RFC 3659 §7 makes MLSD an extension, and
// the plan says LIST), and it does not send "OPTS UTF8 ON" (the 2011
// draft §3.3 sends the octets of the path as they are). Its login sends
// "TYPE I" of its own; the plan's TYPE comes after it, so the plan's
// type is the one in force.
//
// The package is tested against five servers on loopback: ftpserverlib
// (in-process, in every run of go test), vsftpd, ProFTPD, Pure-FTPd and
// pyftpdlib. Where they answer the same plan differently, the tests say
// so server by server.
package fetch

import "errors"

// ErrPasswordRequired is the Err of the *Error (Op "login", Command "",
// Code 0) that Open returns, before it connects, for a URL with a user
// name other than "anonymous" or "ftp" (in any case) and no password
// ("ftp://alice@host/") when no WithPassword option gives one.
var ErrPasswordRequired = errors.New("the URL names a user without a password: give one with WithPassword")
