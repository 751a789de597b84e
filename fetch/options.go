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
}

// WithGrammar parses the URL with g instead of [ftpurl.Lenient]. A g
// that is not one of the four grammars (Lenient, RFC1738, RFC2396,
// RFC3986) is a programming error: Open then returns, before it
// connects, the *[ftpurl.Error] of [ftpurl.Grammar.Parse] as it is, with
// Op "parse" and Offset -1, wrapping none of ftpurl's sentinel errors
// (errors.Is(err, ftpurl.ErrScheme) and the others are false).
func WithGrammar(g ftpurl.Grammar) Option {
	return func(c *config) { c.grammar = g }
}

// WithMethod walks the directories with m ([ftpurl.MultiCWD] by
// default); see [ftpurl.WithMethod]. An m that is not one of the three
// methods is a programming error: Open then returns, before it
// connects, the *[ftpurl.Error] of [ftpurl.URL.Plan] as it is, with Op
// "plan", wrapping none of ftpurl's sentinel errors.
func WithMethod(m ftpurl.Method) Option {
	return func(c *config) { c.planOpts = append(c.planOpts, ftpurl.WithMethod(m)) }
}

// WithAbsolutePaths reads the path from the root of the server's file
// system, as browsers do, instead of from the login directory (the 1997
// draft §3.1 convention); see [ftpurl.WithAbsolutePaths].
func WithAbsolutePaths() Option {
	return func(c *config) { c.planOpts = append(c.planOpts, ftpurl.WithAbsolutePaths()) }
}

// WithPassword gives the password for a URL that names a user without
// one ("ftp://alice@host/file"): the answer to the server's 331 that the
// 2011 draft §3.2.2 says a client asks its user for. It is not used
// when the URL has a password, or no user, or an anonymous user
// ("anonymous" or "ftp", in any case).
//
// A password that would be used and holds CR, LF or NUL (which would
// end the PASS command early, RFC 959 §4.1.3) makes Open fail before it
// connects, with an *Error whose Op is "login", Command "" and Code 0,
// and whose Err is a plain error, "the WithPassword password holds CR,
// LF or NUL": not ErrPasswordRequired, nor any other sentinel.
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

// WithOffset starts the file at byte n, for resuming a download: Open
// sends "REST n" before "RETR" (RFC 3659 §5). It needs TYPE I: an
// offset with ";type=a" (or e, u) makes Open fail before it connects,
// as does a negative n. A server that refuses REST makes Open fail with
// an *Error whose Op is "rest"; fetch never returns the file from byte
// 0 instead. Response.Size stays the whole file's size. An offset does
// not apply to a listing: a URL that turns out to name a directory is
// listed as without it.
func WithOffset(n int64) Option {
	return func(c *config) { c.offset = n }
}

// WithTLS secures a plain ftp:// URL with TLS (RFC 4217): after the
// greeting Open sends "AUTH TLS", then, after the login, "PBSZ 0" and
// "PROT P", so that the login, the commands and every data connection
// are encrypted. A server that refuses any of them makes Open fail
// with an *Error (Op "tls"); fetch never goes on in clear text. It has
// no effect on an ftps:// URL, which is TLS from the first byte
// (implicit TLS). The Client's TLSConfig configures it.
func WithTLS() Option {
	return func(c *config) { c.tls = true }
}
