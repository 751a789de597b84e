package fetch

// The dialog of the control connection, for a program that shows it as
// curl -v does (issue 33): a hook on each line sent and received,
// modelled on net/http/httptrace.ClientTrace.

import "strings"

// A Trace holds hooks that see the control connection's dialog (RFC 959
// §4): each command line sent and each line of each reply received,
// without the line end, in the order they cross the wire. A nil hook
// is not called. Give it to a call with [WithTrace].
//
// The password never reaches a hook: every form of it that fetch would
// replace in an *[Error] (as sent, percent-encoded, quoted) reads
// "xxxxx", so "PASS secret" is "PASS xxxxx", and a server's echo of it
// is masked too. An anonymous login's password is no secret and is
// shown as sent. Control characters are left as they came; a program
// that prints the lines on a terminal escapes them.
//
// The hooks of one call run on the goroutine that reads or writes its
// control connection, one at a time; with several calls at once that
// share a Trace, they may run concurrently.
type Trace struct {
	// Sent is called with each command line, after it was written.
	// Lines sent in one write (a pipelined EPSV and RETR) are passed
	// one at a time, in order.
	Sent func(line string)

	// Received is called with each line of a reply, once the reply is
	// whole: a multi-line reply (RFC 959 §4.2) calls it for every line,
	// the code of its first and last lines included.
	Received func(line string)
}

// WithTrace calls t's hooks with the dialog of the call's sessions: the
// greeting and login of a new session, and every command of the call on
// a reused one. A nil t is ignored.
func WithTrace(t *Trace) Option {
	return func(c *config) { c.trace = t }
}

// tracer is a Trace with the secrets it masks; nil traces nothing.
type tracer struct {
	t       *Trace
	secrets []string
}

// newTracer returns x's tracer, or nil when its call has no Trace.
func (x *exchange) newTracer() *tracer {
	if x.req.cfg.trace == nil {
		return nil
	}
	return &tracer{t: x.req.cfg.trace, secrets: x.secrets}
}

// mask replaces the secrets in line with "xxxxx".
func (tr *tracer) mask(line string) string {
	for _, sec := range tr.secrets {
		if strings.Contains(line, sec) {
			line = strings.ReplaceAll(line, sec, "xxxxx")
		}
	}
	return line
}

// sent calls Sent with each line.
func (tr *tracer) sent(lines []string) {
	if tr == nil || tr.t.Sent == nil {
		return
	}
	for _, l := range lines {
		tr.t.Sent(tr.mask(l))
	}
}

// received calls Received with each line of raw, a reply's bytes.
func (tr *tracer) received(raw []byte) {
	if tr == nil || tr.t.Received == nil || len(raw) == 0 {
		return
	}
	for _, l := range strings.SplitAfter(string(raw), "\n") {
		if l == "" {
			continue
		}
		l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
		tr.t.Received(tr.mask(l))
	}
}

// setTracer gives s's control connection, now and after a TLS upgrade,
// the tracer of the exchange that holds it (nil: none).
func (s *session) setTracer(tr *tracer) {
	s.tr = tr
	if s.ctl != nil {
		s.ctl.tr = tr
	}
}
