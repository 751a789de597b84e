// Package ftpurl parses ftp URLs into exactly what an FTP client needs,
// and writes them back in one normalized form.
//
// Go's net/url reads an ftp URL as if it were http: it merges "%2F" (a
// "/" inside one directory name, RFC 1738 §3.2.2) with "/", leaves
// ";type=i" in the file name, forgets port 21, never converts an IDN
// host, and decodes "%0D%0A" into a path that a client then writes raw
// onto the FTP control connection. ftpurl splits a URL into userinfo,
// host, port, CWD segments, last segment and typecode, following
// RFC 1738, draft-casey-url-ftp-00 (1997, on RFC 2396) and
// draft-yevstifeyev-ftp-uri-scheme-06 (2011, on RFC 3986, with IRIs and
// IDNA), each selectable as a Grammar, and a Lenient default that also
// takes what people paste. It refuses control characters, raw or
// percent-encoded, wherever they could reach a command.
package ftpurl
