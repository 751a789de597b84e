package fetch

import (
	"strconv"
	"strings"
)

// An Error is a failure of one step of Open, or of reading the file.
// It never holds the URL's password: URL is redacted, and the PASS
// command is never quoted. Use errors.As to get it; its Err is the
// cause, often a *textproto.Error (the server's reply), which
// errors.As also reaches.
//
// Parse and plan errors are not *Error: Open returns the
// *ftpurl.Error of ftpurl.Parse or ftpurl.URL.Plan as it is.
type Error struct {
	// Op is the step that failed: "dial" (connecting, and the 220
	// greeting; or the context had ended before), "login" (USER and
	// PASS, or, before connecting, a password missing or holding CR, LF
	// or NUL), "cwd", "type", "retr" (RETR, and reading the file),
	// "list", "nlst", "quit" (Close), or "plan" (a Plan with no
	// Action).
	Op string

	// Fallback reports whether the step belongs to the plan's Fallback,
	// run after the server refused RETR of a RetrieveOrList plan with
	// 550; Retr is that refusal.
	Fallback bool

	// URL is the URL fetched, with the password replaced by "xxxxx"
	// (ftpurl.URL.Redacted).
	URL string

	// Command is the FTP command that failed ("CWD pub", "RETR a.txt");
	// for a refused login "USER alice", whether USER or PASS was
	// refused; "" for dial and a login refused before connecting.
	Command string

	// Code and Msg are the server's reply (RFC 959 §4.2), Code 0 when
	// there was none (a network failure, a timeout, an error found
	// before connecting).
	Code int
	Msg  string

	// Err is the cause.
	Err error

	prior *Error // the refused RETR that made the Fallback run
}

// Error returns the message
//
//	fetch URL: [fallback ]OP[ (COMMAND)]: CAUSE[ (after RETR-COMMAND: RETR-CODE RETR-MSG)]
//
// "fallback " is there when Fallback is true, and " (COMMAND)" when
// Command is not "". CAUSE is the server's reply, "CODE MSG", when Code
// is not 0; otherwise Err.Error(), or "failed" when Err is nil too. The
// final "(after ...)" is there when [Error.Retr] is not nil: it quotes
// the refused RETR that made the Fallback step run. For example:
//
//	fetch ftp://h/m: fallback cwd (CWD m): 550 No such directory (after RETR m: 550 No such file)
//	fetch ftp://alice:xxxxx@h/f: login (USER alice): 530 Login incorrect
//	fetch ftp://alice@h/f: login: the URL names a user without a password: give one with WithPassword
//
// Error of a nil *Error panics.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("fetch ")
	b.WriteString(e.URL)
	b.WriteString(": ")
	if e.Fallback {
		b.WriteString("fallback ")
	}
	b.WriteString(e.Op)
	if e.Command != "" {
		b.WriteString(" (")
		b.WriteString(e.Command)
		b.WriteString(")")
	}
	b.WriteString(": ")
	switch {
	case e.Code != 0:
		b.WriteString(strconv.Itoa(e.Code))
		b.WriteByte(' ')
		b.WriteString(e.Msg)
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("failed")
	}
	if e.prior != nil {
		b.WriteString(" (after ")
		b.WriteString(e.prior.Command)
		b.WriteString(": ")
		b.WriteString(strconv.Itoa(e.prior.Code))
		b.WriteByte(' ')
		b.WriteString(e.prior.Msg)
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns Err, so that [errors.Is] and [errors.As] reach the
// cause: ErrPasswordRequired, a *textproto.Error holding the server's
// reply, context.Canceled or context.DeadlineExceeded when the context
// ended the step. It returns nil when Err is nil, and panics for a nil
// *Error.
func (e *Error) Unwrap() error { return e.Err }

// Retr returns the server's refusal of RETR (550) that made a Fallback
// step run, and nil for any other step, including an *Error made
// outside this package. It panics for a nil *Error.
func (e *Error) Retr() *Error { return e.prior }
