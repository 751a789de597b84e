package fetch

import (
	"time"

	"github.com/ftpurl/ftpurl"
)

// An Option changes how Open fetches a URL. Open applies its options in
// order, so when two set the same thing the later one wins; a nil
// Option is ignored.
type Option func(*config)

type config struct {
	grammar     ftpurl.Grammar
	planOpts    []ftpurl.PlanOption
	password    string
	hasPassword bool
	timeout     time.Duration
	dialTimeout time.Duration
	offset      int64
	tls         bool
	modTime     bool
	createDirs  bool // Put: MKD a directory whose CWD is refused
	tempName    bool // Put: STOR to a temporary name, then RNFR/RNTO
	setModTime  time.Time
	hasModTime  bool // Put: set the time (WithSetModTime)
	trace       *Trace
	segments    int  // Download: WithSegments
	checksum    bool // Put, Download: WithChecksum
}

// WithGrammar parses the URL with g instead of [ftpurl.Lenient]. For a g
// that is not one of the four, Open fails before it connects with the
// *[ftpurl.Error] of [ftpurl.Grammar.Parse], which wraps no sentinel.
func WithGrammar(g ftpurl.Grammar) Option {
	return func(c *config) { c.grammar = g }
}

// WithMethod walks the directories with m ([ftpurl.WithMethod]). For an m
// that is not one of the three, Open fails before it connects with the
// *[ftpurl.Error] of [ftpurl.URL.Plan], which wraps no sentinel.
func WithMethod(m ftpurl.Method) Option {
	return func(c *config) { c.planOpts = append(c.planOpts, ftpurl.WithMethod(m)) }
}

// WithAbsolutePaths reads the path from the root of the server's file
// system, as browsers do, instead of from the login directory (the 1997
// draft §3.1 convention); see [ftpurl.WithAbsolutePaths].
func WithAbsolutePaths() Option {
	return func(c *config) { c.planOpts = append(c.planOpts, ftpurl.WithAbsolutePaths()) }
}

// WithPassword gives the password for a URL that names a user without one
// ("ftp://alice@host/f"): the answer to the 331 that the 2011 draft
// §3.2.2 says a client asks its user for; it is not used otherwise. One
// that holds CR, LF or NUL (RFC 959 §4.1.3) fails Open before it connects,
// with an *[Error] of Op "login" and Code 0 that wraps no sentinel.
func WithPassword(password string) Option {
	return func(c *config) { c.password, c.hasPassword = password, true }
}

// WithTimeout limits the whole fetch to d: dialing, logging in, running
// the plan, and reading the file until Close. It is the same as a
// context deadline d from now; the earlier of the two applies. Zero or
// a negative d sets no limit.
func WithTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// WithDialTimeout limits each connection attempt (the control
// connection and every data connection) to d. Zero or a negative d sets
// no limit of its own; the context's deadline still applies.
func WithDialTimeout(d time.Duration) Option {
	return func(c *config) { c.dialTimeout = d }
}

// WithOffset starts the file at byte n, to resume a download: "REST n"
// before "RETR" (RFC 3659 §5). A negative n, or ";type=a" (e, u), whose
// offsets count other bytes, fails Open before it connects; a server that
// refuses REST fails it with Op "rest", never the file from byte 0.
// Response.Size stays the whole file's; a directory is listed as without it.
//
// On [Client.Put] it resumes an upload: "SIZE name" must say n (RFC 3659
// §4), then "APPE name" (RFC 959 §4.1.3) sends what the reader holds,
// which the caller has positioned at byte n of the file. A SIZE that says
// anything else, or none, fails Put with Op "size" before a byte is sent:
// never a file with a hole or a doubled part. With ";type=a" or
// [WithTempName] it fails Put before it connects, with Op "appe".
func WithOffset(n int64) Option {
	return func(c *config) { c.offset = n }
}

// WithTLS secures a plain ftp:// URL with TLS (RFC 4217): after the
// greeting Open sends "AUTH TLS" (§4), then, after the login, "PBSZ 0"
// and "PROT P" (RFC 2228 §3), so that the login, the commands and every data connection
// are encrypted. A server that refuses any of them makes Open fail
// with an *Error (Op "tls"); fetch never goes on in clear text. It has
// no effect on an ftps:// URL, which is TLS from the first byte
// (implicit TLS). The Client's TLSConfig configures it.
func WithTLS() Option {
	return func(c *config) { c.tls = true }
}

// WithCreateDirs makes [Client.Put] create the URL's missing directories,
// as curl's --ftp-create-dirs does: where the server refuses a CWD of the
// plan with 550, Put sends "MKD dir" (RFC 959 §4.1.3), then the CWD again.
// MKD goes one segment at a time ("MKD a", then "MKD a/b" for a
// [ftpurl.SingleCWD] "CWD a/b"), since servers refuse to make a directory
// whose parent is missing; an MKD refused for a directory that exists is
// no error, and the CWD that follows decides. A refused MKD is an *[Error]
// of Op "mkd". With [ftpurl.NoCWD] no CWD is sent, and it has no effect.
// It has no effect on Open, Stat, ReadDir or Walk.
func WithCreateDirs() Option {
	return func(c *config) { c.createDirs = true }
}

// WithTempName makes [Client.Put] store the file under a temporary name in
// the same directory, ".NAME.ftpurl-XXXXXXXX.part" (X a random hex digit),
// and, once the server holds it whole, rename it onto the URL's name with
// "RNFR" and "RNTO" (RFC 959 §4.1.3): the URL's name never holds a partial
// file, and readers see the old file or the new one. A Put that fails after
// the temporary file was made deletes it ("DELE"), and where the server
// refuses that, the *[Error] names the temporary file. A refused rename is
// Op "rename". Pure-FTPd does the same by itself. It has no effect on
// Open, Stat, ReadDir or Walk.
func WithTempName() Option {
	return func(c *config) { c.tempName = true }
}

// WithModTime makes Open ask for the file's modification time with MDTM
// (RFC 3659 §3) beside its RETR, into Response.ModTime: in the same
// write as EPSV and RETR once the session's EPSV has worked, so that it
// costs no round trip (a mirror keeps each file's time so). Where the
// server's FEAT has no MDTM, or it refuses the name, ModTime stays
// zero; a directory's listing is as without it.
//
// With [Client.ReadDir], on a server that lists with LIST (no MLSD in
// FEAT, RFC 3659 §7), it gives each file entry the server's UTC time to
// the second from MDTM, where a LIST line has the server's wall clock
// to the minute or the day: the Entry's ModTime, Precision time.Second
// and Local false. The MDTM commands go out a hundred in one write, so
// a directory of fifty files costs one round trip more. A file the
// server refuses MDTM for keeps its LIST time; MLSD's times are exact
// already.
func WithModTime() Option {
	return func(c *config) { c.modTime = true }
}

// WithSetModTime makes [Client.Put] set the uploaded file's
// modification time to t once SIZE has proven the upload (and, with
// [WithTempName], once it has its name), as [Client.SetModTime] does:
// MFMT, SITE UTIME or vsftpd's MDTM, whichever the server takes. A
// server that takes none fails the Put with an *[Error] of Op
// "modtime", after the file is whole on the server. It has no effect
// on Open, Stat, ReadDir or Walk.
func WithSetModTime(t time.Time) Option {
	return func(c *config) { c.setModTime, c.hasModTime = t, true }
}
