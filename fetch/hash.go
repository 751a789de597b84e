package fetch

import (
	"context"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"path"
	"strconv"
	"strings"

	"github.com/ftpurl/ftpurl"
)

// ErrNoHash is what errors.Is finds in the *Error (Op "hash") of
// [Client.Hash] when the server offers no command that computes the
// algorithm asked for: neither HASH (draft-bryan-ftpext-hash) with that
// algorithm in its FEAT line, nor the older XSHA256, XSHA512, XSHA1,
// XMD5 or XCRC in FEAT or HELP. fetch never guesses a command the
// server did not list.
var ErrNoHash = errors.New("the server offers no hash command for the algorithm")

// ErrHashMismatch is what errors.Is finds in the *Error (Op "hash") of
// a [Client.Put] or [Client.Download] run [WithChecksum] whose bytes,
// sent or received, do not hash to what the server computes of the
// file: the copy is not good, whatever SIZE says.
var ErrHashMismatch = errors.New("the server's hash of the file differs from the hash of the bytes transferred")

// The algorithms, by the names of the IANA "Hash Function Textual
// Names" registry that draft-bryan-ftpext-hash §3 uses (CRC32 is the
// draft's own), strongest first: the order in which [WithChecksum] and
// an empty alg pick one.
var hashAlgs = []struct {
	name  string
	verbs []string // the older commands that compute it, most common first
	new   func() hash.Hash
}{
	{"SHA-256", []string{"XSHA256"}, sha256.New},
	{"SHA-512", []string{"XSHA512"}, sha512.New},
	{"SHA-1", []string{"XSHA1", "XSHA"}, sha1.New},
	{"MD5", []string{"XMD5", "MD5"}, md5.New},
	{"CRC32", []string{"XCRC"}, func() hash.Hash { return crc32.NewIEEE() }},
}

// WithChecksum makes [Client.Put] and [Client.Download] prove the bytes
// by the server's hash of the file, where the server offers one
// ([Client.Hash]: HASH, else XSHA256, XSHA512, XSHA1, XMD5 or XCRC, the
// strongest it lists): the hash of the bytes sent or received must be
// the server's, or the call fails with an *[Error] of Op "hash" that
// wraps [ErrHashMismatch]. Where the server offers none, SIZE proves
// the transfer as without the option (RFC 3659 §4), and no error says
// so. A hash costs the server a read of the whole file, so it is not
// asked for by default (as rsync's --checksum). Download hashes what it
// wrote by reading it back where dst is an io.ReaderAt (an *os.File
// opened for reading too, as os.Create does: a failed read back fails
// the Download), else as the bytes arrive when one stream from byte 0
// brings them in order; with neither, SIZE alone proves it.
func WithChecksum() Option {
	return func(c *config) { c.checksum = true }
}

// Hash returns the hash of the file rawURL names, as the server
// computes it, with the algorithm alg: "SHA-256", "SHA-512", "SHA-1",
// "MD5" or "CRC32" (in any case), or "" for the strongest the server
// offers. It asks HASH (draft-bryan-ftpext-hash-02 §3) where FEAT lists
// HASH with that algorithm, after "OPTS HASH alg" (§4) when it is not
// the one selected; else the older XSHA256, XSHA512, XSHA1 (or XSHA),
// XMD5 (or MD5) or XCRC where FEAT or HELP (RFC 959 §4.1.3) lists it.
// The result is the digest's bytes (4 for CRC32, big-endian).
//
// A server that offers none fails with an *[Error] of Op "hash"
// wrapping [ErrNoHash], before any hash command is sent; an alg fetch
// does not know fails so before connecting. A reply that holds no hex
// digest of the algorithm's length is an *Error too, never a guess.
// Of the five servers fetch is tested on, only ftpserverlib with
// Settings.EnableHASH and ProFTPD with mod_digest offer one (see
// docs/servers.md).
func (c *Client) Hash(ctx context.Context, rawURL, alg string) ([]byte, error) {
	r, err := newRequest(rawURL, nil)
	if err != nil {
		return nil, err
	}
	if _, ok := hashAlg(alg); !ok && alg != "" {
		return nil, &Error{Op: "hash", URL: r.redacted, Err: errors.New("unknown hash algorithm " + strconv.Quote(alg) + ": want SHA-256, SHA-512, SHA-1, MD5 or CRC32")}
	}
	if r.plan.Name == "" || r.plan.Action != ftpurl.Retrieve && r.plan.Action != ftpurl.RetrieveOrList {
		return nil, &Error{Op: "hash", URL: r.redacted, Err: errors.New("Hash needs a file name: the URL names a directory")}
	}
	x := c.newExchange(ctx, r)
	var sum []byte
	err = x.run(func() error {
		st, e := x.enter(r.plan, false)
		if e != nil {
			return e
		}
		_, sum, e = x.hash(st.Arg, alg)
		if e != nil {
			return e
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sum, nil
}

// hashAlg returns the algorithm named name, in any case.
func hashAlg(name string) (int, bool) {
	for i, a := range hashAlgs {
		if strings.EqualFold(a.name, name) {
			return i, true
		}
	}
	return 0, false
}

// A hashWay is how a session computes one algorithm: HASH, or an older
// verb.
type hashWay struct {
	alg  int    // in hashAlgs
	verb string // "HASH", or XSHA256 and the like
}

// hashWay returns the way the server offers to compute alg ("" for
// the strongest it offers); ok is false where it offers none. It may
// ask HELP, once a session, where FEAT lists no hash command.
func (x *exchange) hashWay(alg string) (w hashWay, ok bool, e *Error) {
	s := x.s
	if feat, has := s.ctl.feat["HASH"]; has {
		// draft-bryan-ftpext-hash §5: "HASH SHA-1;SHA-256*;MD5".
		for i, a := range hashAlgs {
			if alg != "" && !strings.EqualFold(alg, a.name) {
				continue
			}
			for _, f := range strings.Split(feat, ";") {
				if strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(f), "*"), a.name) {
					return hashWay{i, "HASH"}, true, nil
				}
			}
		}
	}
	offered := func(verb string) bool { return s.ctl.has(verb) || s.helpVerbs[verb] }
	if s.helpVerbs == nil {
		s.helpVerbs = map[string]bool{}
		if rep, he := x.cmd("hash", 2, "HELP"); he == nil {
			s.helpVerbs = helpVerbs(rep.text)
		} else if !he.declined() {
			return hashWay{}, false, he
		}
	}
	for i, a := range hashAlgs {
		if alg != "" && !strings.EqualFold(alg, a.name) {
			continue
		}
		for _, v := range a.verbs {
			if offered(v) {
				return hashWay{i, v}, true, nil
			}
		}
	}
	return hashWay{}, false, nil
}

// helpVerbs reads the verbs of a HELP reply (RFC 959 §4.1.3 leaves its
// form free; servers list them in columns): each word of capitals and
// digits, but those marked unimplemented with "*" (ProFTPD's "SMNT*").
func helpVerbs(text string) map[string]bool {
	verbs := map[string]bool{}
	lines := strings.Split(text, "\n")
	for _, line := range lines[1:] { // the first is prose
		for _, w := range strings.Fields(line) {
			if isVerb(w) {
				verbs[w] = true
			}
		}
	}
	return verbs
}

func isVerb(w string) bool {
	if len(w) < 3 || len(w) > 8 {
		return false
	}
	for _, r := range w {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// hash asks the server for the hash of name (alg as for Client.Hash),
// and returns the algorithm's name and the digest.
func (x *exchange) hash(name, alg string) (string, []byte, *Error) {
	w, ok, e := x.hashWay(alg)
	if e != nil {
		return "", nil, e
	}
	if !ok {
		what := "any hash"
		if alg != "" {
			what = alg
		}
		e := x.fail("hash", "", ErrNoHash)
		e.note = "no HASH with " + what + " in FEAT (draft-bryan-ftpext-hash), nor XSHA256, XSHA512, XSHA1, XMD5 or XCRC in FEAT or HELP"
		return "", nil, e
	}
	sum, e := x.hashWith(w, name)
	return hashAlgs[w.alg].name, sum, e
}

// hashWith asks the server for the hash of name the way w says.
func (x *exchange) hashWith(w hashWay, name string) ([]byte, *Error) {
	a := hashAlgs[w.alg]
	line := w.verb + " " + x.absName(name)
	if w.verb == "HASH" {
		feat := x.s.ctl.feat["HASH"]
		if !selected(feat, a.name) {
			// draft-bryan-ftpext-hash §4: OPTS HASH selects the
			// algorithm for the session, answered 200.
			if _, e := x.cmd("hash", 200, "OPTS HASH "+a.name); e != nil {
				return nil, e
			}
			x.s.ctl.feat["HASH"] = selectHash(feat, a.name)
		}
	}
	rep, e := x.cmd("hash", 2, line)
	if e != nil {
		return nil, e
	}
	sum, err := digestIn(rep.text, w.verb == "HASH", a.name, a.new().Size())
	if err != nil {
		return nil, x.fail("hash", line, err)
	}
	return sum, nil
}

// selected reports whether the FEAT HASH line feat marks alg with "*",
// the algorithm in force.
func selected(feat, alg string) bool {
	for _, f := range strings.Split(feat, ";") {
		if strings.EqualFold(strings.TrimSpace(f), alg+"*") {
			return true
		}
	}
	return false
}

// selectHash returns the FEAT HASH line feat with alg marked as the
// one in force.
func selectHash(feat, alg string) string {
	fs := strings.Split(feat, ";")
	for i, f := range fs {
		f = strings.TrimSuffix(strings.TrimSpace(f), "*")
		if strings.EqualFold(f, alg) {
			f += "*"
		}
		fs[i] = f
	}
	return strings.Join(fs, ";")
}

// digestIn reads the digest from a hash reply's text: for HASH
// (draft-bryan-ftpext-hash §3.2) the last line is "ALG START-END HEX
// NAME", whose ALG must be alg; for the older commands, whose replies
// have no standard form ("213 HEX", "250 HEX", "213 HEX NAME"), the
// one word of the last line that is size bytes in hex.
func digestIn(text string, isHASH bool, alg string, size int) ([]byte, error) {
	lines := strings.Split(text, "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	f := strings.Fields(last)
	if isHASH {
		if len(f) < 3 || !strings.EqualFold(f[0], alg) {
			return nil, errors.New("the HASH reply is not \"" + alg + " START-END HEX NAME\" (draft-bryan-ftpext-hash §3.2): " + strconv.Quote(clip(last)))
		}
		f = f[2:3]
	}
	var found []byte
	for _, w := range f {
		if len(w) != 2*size {
			continue
		}
		b, err := hex.DecodeString(w)
		if err != nil {
			continue
		}
		if found != nil {
			return nil, errors.New("the reply holds two " + alg + " digests: " + strconv.Quote(clip(last)))
		}
		found = b
	}
	if found == nil {
		return nil, errors.New("the reply holds no " + alg + " digest (" + strconv.Itoa(2*size) + " hex digits): " + strconv.Quote(clip(last)))
	}
	return found, nil
}

// checkHash compares the server's hash of name (the way w) with sum,
// the hash of the bytes transferred: a difference is an *Error of Op
// "hash" wrapping ErrHashMismatch.
func (x *exchange) checkHash(w hashWay, name string, sum []byte) *Error {
	got, e := x.hashWith(w, name)
	if e != nil {
		return e
	}
	if string(got) != string(sum) {
		e := x.fail("hash", w.verb+" "+x.absName(name), ErrHashMismatch)
		e.note = hashAlgs[w.alg].name + ": the server has " + hex.EncodeToString(got) + ", the bytes transferred " + hex.EncodeToString(sum)
		return e
	}
	return nil
}

// An uploadProof is WithChecksum's hash of the bytes an upload sends,
// and the server's way to compute it; nil where there is none.
type uploadProof struct {
	way hashWay
	h   hash.Hash
}

// hashUpload returns r, hashed as Put reads it where WithChecksum asks
// for proof and the server offers a hash of the whole file: in TYPE I
// (TYPE A stores other bytes than were sent, RFC 959 §3.1.1.1) and from
// byte 0 (an APPE's file holds bytes Put never read).
func (x *exchange) hashUpload(r io.Reader) (io.Reader, *uploadProof, *Error) {
	cfg := x.req.cfg
	if !cfg.checksum || cfg.offset > 0 || x.s.typ != ftpurl.TypeImage {
		return r, nil, nil
	}
	w, ok, e := x.hashWay("")
	if e != nil || !ok {
		return r, nil, e
	}
	p := &uploadProof{way: w, h: hashAlgs[w.alg].new()}
	return io.TeeReader(r, p.h), p, nil
}

// check compares the server's hash of name with the bytes sent.
func (p *uploadProof) check(x *exchange, name string) *Error {
	if p == nil {
		return nil
	}
	return x.checkHash(p.way, name, p.h.Sum(nil))
}

// absName returns name, a file of the session's working directory, as
// an absolute path where the session knows where it stands (the login
// directory, from PWD, and the CWDs since): ftpserverlib 0.25 resolves
// the name of a hash command from the root, not from the working
// directory, which an absolute path makes the same. Elsewhere, name.
func (x *exchange) absName(name string) string {
	s := x.s
	if strings.HasPrefix(name, "/") || !s.cwdKnown || s.home == "" || !strings.HasPrefix(s.home, "/") {
		return name
	}
	dir := s.home
	for _, d := range s.cwdDirs {
		if strings.HasPrefix(d, "/") {
			dir = d
		} else {
			dir = path.Join(dir, d)
		}
	}
	return path.Join(dir, name)
}
