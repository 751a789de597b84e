package ftpurl

import (
	"errors"
	"strings"
	"testing"
)

// A grammarCase is one input and what a grammar must do with it.
type grammarCase struct {
	in  string
	err error  // nil: the grammar accepts in
	str string // when accepted: the String of the result
	why string // the rule, with its section
}

// tryParse is g.Parse, except that a panic (a core bug: no input may
// make Parse panic) fails the test instead of ending the test binary,
// so that the other cases still run.
func tryParse(t *testing.T, g Grammar, s string) (u *URL, err error, ok bool) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%v.Parse(%q) panicked: %v", g, s, r)
			u, err, ok = nil, nil, false
		}
	}()
	u, err = g.Parse(s)
	return u, err, true
}

func checkGrammar(t *testing.T, g Grammar, cases []grammarCase) {
	t.Helper()
	for _, tt := range cases {
		u, err, ok := tryParse(t, g, tt.in)
		if !ok {
			continue
		}
		if tt.err == nil {
			if err != nil {
				t.Errorf("%v.Parse(%q): %v\n\twant it accepted: %s", g, tt.in, err, tt.why)
				continue
			}
			if got := u.String(); got != tt.str {
				t.Errorf("%v.Parse(%q).String() = %q, want %q\n\t%s", g, tt.in, got, tt.str, tt.why)
			}
			continue
		}
		var e *Error
		switch {
		case err == nil:
			t.Errorf("%v.Parse(%q) = %q, want %v\n\t%s", g, tt.in, u.String(), tt.err, tt.why)
		case !errors.As(err, &e):
			t.Errorf("%v.Parse(%q) error %v is a %T, want *Error", g, tt.in, err, err)
		case e.Err != tt.err:
			t.Errorf("%v.Parse(%q) = %v\n\twant %v: %s", g, tt.in, err, tt.err, tt.why)
		}
	}
}

// everyGrammar holds the semantic checks that Grammar's doc adds
// to every grammar's syntax, and the rules common to all four documents.
var everyGrammar = []grammarCase{
	// The numeric-host rule.
	{in: "ftp://192.0.2.1/", str: "ftp://192.0.2.1/", why: "IPv4 dotted quad (RFC 1738 §5 hostnumber, RFC 3986 §3.2.2 IPv4address)"},
	{in: "ftp://255.255.255.255:65535/", str: "ftp://255.255.255.255:65535/", why: "dotted quad 0..255, port 1..65535"},
	{in: "ftp://010.1.1.1/", err: ErrHost, why: "numeric host with a leading zero: resolvers read 010 as octal (Grammar's doc)"},
	{in: "ftp://1.2.3.256/", err: ErrHost, why: "numeric host with a field > 255 (Grammar's doc)"},
	{in: "ftp://host.123/", err: ErrHost, why: "last label all digits but not a dotted quad (Grammar's doc)"},
	{in: "ftp://0x7f.1/", err: ErrHost, why: "last label is not 0x but the host is numeric: 1 (Grammar's doc)"},
	{in: "ftp://a.0x7f/", err: ErrHost, why: "last label starts with 0x (Grammar's doc)"},
	{in: "ftp://1.2.3/", err: ErrHost, why: "three numbers are not a dotted quad (Grammar's doc)"},
	{in: "ftp://1.2.3.4.5/", err: ErrHost, why: "five numbers are not a dotted quad (Grammar's doc)"},
	{in: "ftp://3221225985/", err: ErrHost, why: "a 32-bit number is not a dotted quad (Grammar's doc)"},
	{in: "ftp://a..b/", err: ErrHost, why: "empty label (Grammar's doc: non-empty labels)"},
	{in: "ftp://./", err: ErrHost, why: "empty label"},
	{in: "ftp://XN--BCHER-KVA.EXAMPLE/", str: "ftp://xn--bcher-kva.example/", why: "an ACE name is checked by idna and lower-cased (URL's doc)"},
	{in: "ftp://xn--a.example/", err: ErrHost, why: "an xn-- label that is not valid Punycode (UTS #46 §4)"},
	{in: "ftp://%FF.com/", err: ErrHost, why: "a host that is not UTF-8 once decoded, or an escape in an RFC 1738 host"},
	// Ports.
	{in: "ftp://h:021/", str: "ftp://h/", why: "leading zeros allowed: 021 is 21, the default (Grammar's doc)"},
	{in: "ftp://h:00021/f", str: "ftp://h/f", why: "leading zeros allowed"},
	{in: "ftp://h:65535/", str: "ftp://h:65535/", why: "65535 is the largest port"},
	{in: "ftp://h:1/", str: "ftp://h:1/", why: "1 is the smallest port"},
	{in: "ftp://h:0/", err: ErrPort, why: "port 0 (Grammar's doc: 1..65535)"},
	{in: "ftp://h:000/", err: ErrPort, why: "port 0 with leading zeros"},
	{in: "ftp://h:65536/", err: ErrPort, why: "port > 65535"},
	{in: "ftp://h:99999999999999999999/", err: ErrPort, why: "port that overflows any integer"},
	{in: "ftp://h:2x/", err: ErrPort, why: "port is decimal digits"},
	{in: "ftp://h:+21/", err: ErrPort, why: "port is decimal digits, no sign"},
	{in: "ftp://h:-1/", err: ErrPort, why: "port is decimal digits, no sign"},
	// No host.
	{in: "ftp:///etc/motd", err: ErrHost, why: "a URL with no host (Grammar's doc)"},
	{in: "ftp://u@/f", err: ErrHost, why: "empty host after the userinfo"},
	{in: "ftp://:21/", err: ErrHost, why: "empty host before a port"},
	{in: "ftp://", err: ErrHost, why: "nothing after the scheme"},
	// Scheme: case-insensitive, "//" required (RFC 1738 §3.1).
	{in: "FTP://Host.Example.COM/", str: "ftp://host.example.com/", why: "scheme and host are case-insensitive (Grammar's doc)"},
	{in: "fTp://h/", str: "ftp://h/", why: "scheme is case-insensitive"},
	{in: "http://h/", err: ErrScheme, why: "another scheme"},
	{in: "sftp://h/", err: ErrScheme, why: "another scheme: SSH, not FTP (Schemes)"},
	{in: "ftpes://h/", err: ErrScheme, why: "another scheme: explicit TLS is the client's choice on an ftp URL"},
	{in: "ftps:h/f", err: ErrScheme, why: "no \"//\" after \"ftps:\""},
	{in: "ftp:h/f", err: ErrScheme, why: "no \"//\" after \"ftp:\""},
	{in: "ftp:/h/f", err: ErrScheme, why: "one \"/\" is not \"//\""},
	{in: "//h/f", err: ErrScheme, why: "no scheme"},
	{in: "h/f", err: ErrScheme, why: "no scheme"},
	{in: "", err: ErrScheme, why: "empty input"},
	{in: " ftp://h/", err: ErrScheme, why: "Parse never trims white space (Lenient's doc)"},
	// Paths: split on raw "/" only, each segment decoded on its own.
	{in: "ftp://h", str: "ftp://h/", why: "a missing path is \"/\" (2011 draft §3.2.3)"},
	{in: "ftp://h/a%2Fb/c", str: "ftp://h/a%2Fb/c", why: "%2F stays inside its segment (RFC 1738 §3.2.2)"},
	{in: "ftp://h/%2e%2e/x", str: "ftp://h/../x", why: "dot segments are kept (URL.String's doc)"},
	{in: "ftp://h/%7e%41", str: "ftp://h/~A", why: "unreserved characters are never encoded (URL.String's doc)"},
	{in: "ftp://h/a%3b", str: "ftp://h/a%3B", why: "escape hex upper-case"},
	{in: "ftp://h/%E9t%E9.txt", str: "ftp://h/%E9t%E9.txt", why: "decoded segments are octets, need not be UTF-8 (2011 draft §3.3)"},
	{in: "ftp://h/%FF", str: "ftp://h/%FF", why: "octets, not UTF-8"},
	// Typecodes: the key and the letter in any case (Grammar's doc).
	{in: "ftp://h/f;TYPE=A", str: "ftp://h/f;type=a", why: ";type= key and letter are case-insensitive"},
	{in: "ftp://h/f;Type=i", str: "ftp://h/f;type=i", why: ";type= key is case-insensitive"},
	{in: "ftp://h/;type=i", str: "ftp://h/;type=i", why: "a typecode after a null <last-segment>"},
	{in: "ftp://h/f%3Btype=a", str: "ftp://h/f%3Btype=a", why: "only a raw \";type=\" is a typecode: an escaped \";\" is data (Typecode's doc)"},
	{in: "ftp://h/f%3btype=a;type=i", str: "ftp://h/f%3Btype=a;type=i", why: "an escaped \";type=\" before the final one is data"},
	{in: "ftp://h/f;type=", err: ErrTypecode, why: ";type= without a letter (ErrTypecode's doc)"},
	{in: "ftp://h/f;type=ai", err: ErrTypecode, why: "two letters (Regexp::Common t/URI/ftp.t: ;type=AI fails)"},
	{in: "ftp://h/f;type=1", err: ErrTypecode, why: "a digit is not a typecode letter"},
	{in: "ftp://h/f;type=%41", err: ErrTypecode, why: "an escape is not a letter"},
	{in: "ftp://h/f;type=é", err: ErrTypecode, why: "a non-ASCII letter is not an ALPHA"},
	// Control characters, raw or decoded (RFC 959 §4.1.3).
	{in: "ftp://h/a%0Db", err: ErrControl, why: "decoded CR in a path segment"},
	{in: "ftp://h/a%0aRETR%20x", err: ErrControl, why: "decoded LF in a path segment: command injection"},
	{in: "ftp://h/a%00", err: ErrControl, why: "decoded NUL"},
	{in: "ftp://h/a%7F", err: ErrControl, why: "decoded DEL"},
	{in: "ftp://h/a\rb", err: ErrControl, why: "raw CR"},
	{in: "ftp://h/a\x7fb", err: ErrControl, why: "raw DEL"},
	{in: "ftp://h/a\tb", err: ErrControl, why: "raw tab"},
	{in: "ftp://u%0D@h/", err: ErrControl, why: "decoded CR in the user"},
	{in: "ftp://u:p%0A@h/", err: ErrControl, why: "decoded LF in the password"},
	{in: "ftp://h%0D/", err: ErrControl, why: "decoded CR in the host"},
	{in: "ftp://h\n/", err: ErrControl, why: "raw LF in the host"},
	// Escapes.
	{in: "ftp://h/%zz", err: ErrEscape, why: "% not followed by two hex digits"},
	{in: "ftp://h/%", err: ErrEscape, why: "% at the end"},
	{in: "ftp://h/%4", err: ErrEscape, why: "% with one hex digit"},
	{in: "ftp://h/%4/1", err: ErrEscape, why: "an escape does not reach across \"/\""},
	{in: "ftp://%zz/", err: ErrEscape, why: "bad escape in the host"},
	// IP literal extensions refused everywhere.
	{in: "ftp://[v1.fe]/", err: ErrHost, why: "IPvFuture is refused (Grammar's doc)"},
	{in: "ftp://[fe80::1%25eth0]/", err: ErrHost, why: "IPv6 zone identifiers are refused (Grammar's doc)"},
	// Invalid UTF-8 is a fault of its part.
	{in: "ftp://h/\xff", err: ErrPath, why: "invalid UTF-8 in the path"},
	{in: "ftp://h\xff/", err: ErrHost, why: "invalid UTF-8 in the host"},
	{in: "ftp://%C7\x84/", err: ErrHost, why: "invalid UTF-8 in the host as written, though UTF-8 once decoded (RFC 3987 §2.2)"},
	{in: "ftp://u\xff@h/", err: ErrUserinfo, why: "invalid UTF-8 in the user"},
}

// ftpsCases: the 2011 draft §5 and §7.2 name "ftps" as the deployed
// scheme for FTP secured with TLS (RFC 4217) and leave its details out
// of scope; Lenient and RFC3986 read it, and the rest of the URL reads
// exactly as an ftp URL. Its default port is 990 (implicit TLS, as
// curl, FileZilla and WinSCP use it), which String leaves out; 21 is
// not its default and stays.
var ftpsCases = []grammarCase{
	{in: "ftps://h/", str: "ftps://h/", why: "ftps (2011 draft §5, §7.2)"},
	{in: "FTPS://User@H.Example/pub/f;TYPE=I", str: "ftps://User@h.example/pub/f;type=i", why: "the scheme is case-insensitive, as ftp (RFC 3986 §3.1)"},
	{in: "ftps://h:990/a", str: "ftps://h/a", why: "990 is ftps' default port: String leaves it out"},
	{in: "ftps://h:0990/a", str: "ftps://h/a", why: "leading zeros allowed: 0990 is 990"},
	{in: "ftps://h:21/a", str: "ftps://h:21/a", why: "21 is ftp's default, not ftps': String keeps it"},
	{in: "ftps://h:2121/a%2Fb/c;type=d", str: "ftps://h:2121/a%2Fb/c;type=d", why: "the rest reads as an ftp URL (RFC 1738 §3.2.2 %2F, 2011 draft §3.1 typecode)"},
	{in: "ftps://[2001:DB8::1]:990/", str: "ftps://[2001:db8::1]/", why: "an IPv6 host, the default port left out"},
	{in: "ftps://h:0/", err: ErrPort, why: "port 0, as in ftp (Grammar's doc)"},
	{in: "ftps://h/a%0D%0ADELE%20x", err: ErrControl, why: "a control character, as in ftp (RFC 959 §4.1.3)"},
	{in: "ftps:/h/", err: ErrScheme, why: "one \"/\" is not \"//\""},
	{in: "ftps://", err: ErrHost, why: "no host"},
	{in: "sftps://h/", err: ErrScheme, why: "not a scheme ftpurl reads"},
}

// RFC 1738 (1994) and the 1997 draft predate ftps: their grammars refuse
// it with ErrScheme, and go on so that a fault that ranks first is
// still the one reported.
var ftpsRefusedCases = []grammarCase{
	{in: "ftps://h/", err: ErrScheme, why: "RFC 1738 and the 1997 draft predate ftps (2011 draft §5)"},
	{in: "FTPS://h:990/", err: ErrScheme, why: "ftps in any case"},
	{in: "ftps://h/a%0D", err: ErrControl, why: "a control character ranks before the scheme (ErrControl's rank)"},
	{in: "ftps://h/%zz", err: ErrEscape, why: "a bad escape ranks first"},
}

func TestSchemes(t *testing.T) {
	for _, g := range []Grammar{Lenient, RFC3986} {
		checkGrammar(t, g, ftpsCases)
	}
	for _, g := range []Grammar{RFC1738, RFC2396} {
		checkGrammar(t, g, ftpsRefusedCases)
	}
}

// TestSchemeParts: Parse stores the scheme's name in lower case, and
// the port as written (0 when there is none); Address and
// PortOrDefault give the scheme's default port.
func TestSchemeParts(t *testing.T) {
	for _, tt := range []struct {
		in, scheme string
		port       uint16
		addr       string
	}{
		{"ftp://h/", "ftp", 0, "h:21"},
		{"FTP://h:21/", "ftp", 21, "h:21"},
		{"ftps://h/", "ftps", 0, "h:990"},
		{"FtPs://h:21/", "ftps", 21, "h:21"},
		{"ftps://[::1]/", "ftps", 0, "[::1]:990"},
	} {
		for _, g := range []Grammar{Lenient, RFC3986} {
			u, err := g.Parse(tt.in)
			if err != nil {
				t.Errorf("%v.Parse(%q): %v", g, tt.in, err)
				continue
			}
			if u.Scheme != tt.scheme || u.Port != tt.port || u.Address() != tt.addr {
				t.Errorf("%v.Parse(%q): Scheme %q, Port %d, Address %q; want %q, %d, %q", g, tt.in, u.Scheme, u.Port, u.Address(), tt.scheme, tt.port, tt.addr)
			}
			var into URL
			if err := g.ParseInto(&into, tt.in); err != nil || into.Scheme != tt.scheme {
				t.Errorf("%v.ParseInto(%q): Scheme %q, %v; want %q", g, tt.in, into.Scheme, err, tt.scheme)
			}
		}
	}
}

// TestSchemeErrorsNameTheGrammarsSchemes: the message of ErrScheme
// lists what the grammar reads, and says why RFC1738 and RFC2396 refuse
// ftps.
func TestSchemeErrorsNameTheGrammarsSchemes(t *testing.T) {
	for _, tt := range []struct {
		g    Grammar
		in   string
		want string
	}{
		{Lenient, "http://h/", `scheme "http" is not ftp or ftps`},
		{RFC3986, "sftp://h/", `scheme "sftp" is not ftp or ftps`},
		{RFC1738, "http://h/", `scheme "http" is not ftp`},
		{RFC1738, "ftps://h/", `scheme "ftps" is not ftp: RFC 1738 (1994) predates ftps (2011 draft §5)`},
		{RFC2396, "FTPS://h/", `scheme "FTPS" is not ftp: the 1997 draft predates ftps (2011 draft §5)`},
		{Lenient, "ftps:h", `"//" must follow "ftps:"`},
	} {
		_, err := tt.g.Parse(tt.in)
		if err == nil || !errors.Is(err, ErrScheme) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v.Parse(%q) = %v; want ErrScheme saying %s", tt.g, tt.in, err, tt.want)
		}
	}
}

func TestEveryGrammarSemanticChecks(t *testing.T) {
	for _, g := range allGrammars {
		checkGrammar(t, g, everyGrammar)
	}
}

// RFC 1738 §5 BNF:
//
//	ftpurl   = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
//	user     = *[ uchar | ";" | "?" | "&" | "=" ]
//	fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ]
//	ftptype  = "A" | "I" | "D" | "a" | "i" | "d"
//	toplabel = alpha | alpha *[ alphadigit | "-" ] alphadigit
var rfc1738Cases = []grammarCase{
	{in: "ftp://a;b?c&d=e:p;q?r&s=t@h/", str: "ftp://a;b%3Fc&d=e:p;q%3Fr&s=t@h/", why: "user and password = *[ uchar | \";\" | \"?\" | \"&\" | \"=\" ]; \"?\" does not end the authority"},
	{in: "ftp://h/a?b", str: "ftp://h/a%3Fb", why: "\"?\" is an fsegment character, not a query"},
	{in: "ftp://h/dir?/x?y", str: "ftp://h/dir%3F/x%3Fy", why: "\"?\" in any fsegment"},
	{in: "ftp://h/a:b@c&d=e", str: "ftp://h/a:b@c&d=e", why: "fsegment allows \":\" \"@\" \"&\" \"=\""},
	{in: "ftp://h/$-_.+!*'(),", str: "ftp://h/$-_.+!*'(),", why: "uchar: safe and extra"},
	{in: "ftp://h/p#frag", str: "ftp://h/p#frag", why: "\"#\" starts a fragment (RFC1738's doc)"},
	{in: "ftp://h/f;type=d", str: "ftp://h/f;type=d", why: "ftptype D"},
	{in: "ftp://h/f;type=D", str: "ftp://h/f;type=d", why: "ftptype D, upper case"},
	{in: "ftp://h/f;type=I", str: "ftp://h/f;type=i", why: "ftptype I"},
	{in: "ftp://h////", str: "ftp://h////", why: "fsegments may be empty"},
	{in: "ftp://a/", str: "ftp://a/", why: "toplabel = alpha"},
	{in: "ftp://x1.a-b.c9/", str: "ftp://x1.a-b.c9/", why: "domainlabel and toplabel with digits and \"-\""},
	{in: "ftp://1a.example/", str: "ftp://1a.example/", why: "a domainlabel may start with a digit"},
	{in: "ftp://h/%E2%98%83", str: "ftp://h/%E2%98%83", why: "escapes of any octet"},
	{in: "ftp://h:/", err: ErrPort, why: "port = digits: \"host:\" has an empty port (RFC 1738 §5)"},
	{in: "ftp://h/~u", str: "ftp://h/~u", why: "\"~\" is unsafe in RFC 1738 §2.2, accepted raw as RFC 2396 §2.3 unreserved so that String re-parses"},
	{in: "ftp://h/a|b", err: ErrPath, why: "\"|\" is national"},
	{in: "ftp://h/{x}", err: ErrPath, why: "\"{\" is national"},
	{in: "ftp://h/[x]", err: ErrPath, why: "\"[\" is national"},
	{in: "ftp://h/a^b", err: ErrPath, why: "\"^\" is national"},
	{in: "ftp://h/`", err: ErrPath, why: "\"`\" is national"},
	{in: "ftp://h/a\\b", err: ErrPath, why: "\"\\\" is national"},
	{in: "ftp://h/a b", err: ErrPath, why: "a space is not uchar"},
	{in: "ftp://h/a\"b", err: ErrPath, why: "\"\"\" is punctuation"},
	{in: "ftp://h/a;b", err: ErrPath, why: "\";\" is reserved in a segment (§3.2.2)"},
	{in: "ftp://h/a;type=i/b", err: ErrPath, why: "\";type=\" that is not final is a \";\" in a segment"},
	{in: "ftp://h/☃", err: ErrPath, why: "non-ASCII must be escaped"},
	{in: "ftp://h/f;type=e", err: ErrTypecode, why: "ftptype is A, I or D"},
	{in: "ftp://h/f;type=u", err: ErrTypecode, why: "ftptype is A, I or D"},
	{in: "ftp://a:b:c@h/", err: ErrUserinfo, why: "\":\" is not in password"},
	{in: "ftp://u~:p~@h/", str: "ftp://u~:p~@h/", why: "\"~\" is accepted raw in user and password (RFC 2396 §2.3 unreserved)"},
	{in: "ftp://u|@h/", err: ErrUserinfo, why: "\"|\" is national, not in user"},
	{in: "ftp://u@x@h/", err: ErrUserinfo, why: "\"@\" is not in user (§3.2.1: must be encoded)"},
	{in: "ftp://[::1]/", err: ErrHost, why: "host = hostname | hostnumber: no IP literal"},
	{in: "ftp://my_host/", err: ErrHost, why: "\"_\" is not in a hostname"},
	{in: "ftp://-a.com/", err: ErrHost, why: "a domainlabel starts with alphadigit"},
	{in: "ftp://a-.com/", err: ErrHost, why: "a domainlabel ends with alphadigit"},
	{in: "ftp://a.1b/", err: ErrHost, why: "toplabel starts with alpha"},
	{in: "ftp://example.com./", err: ErrHost, why: "a hostname does not end with \".\""},
	{in: "ftp://%61.com/", err: ErrHost, why: "a hostname holds no escapes"},
	{in: "ftp://ĉat.example.com/", err: ErrHost, why: "a hostname is ASCII"},
}

func TestRFC1738Grammar(t *testing.T) { checkGrammar(t, RFC1738, rfc1738Cases) }

// RFC2396 is Regexp::Common's $RE{URI}{FTP}{-i} (lib/Regexp/Common/URI/ftp.pm
// in Abigail/Regexp--Common, on URI/RFC2396.pm):
//
//	ftp://(?:$userinfo@)?$host(?::$port)?(?:/$ftp_segments(?:;type=[AIai])?)?
//	$userinfo     = (?:[a-zA-Z0-9\-_.!~*'();:&=+$,]+|$escaped)*
//	$ftp_segments = $param(?:/$param)*
//	$param        = (?:[a-zA-Z0-9\-_.!~*'():@&=+$,]+|$escaped)*
//	$port         = $digit*
//	$IPv4address  = $digit+[.]$digit+[.]$digit+[.]$digit+
//	$toplabel     = $alpha[-a-zA-Z0-9]*$alphanum|$alpha
//	$domainlabel  = (?:$alphanum[-a-zA-Z0-9]*)?$alphanum
//	$hostname     = (?:$domainlabel[.])*$toplabel[.]?
//
// The pass/fail lines below are t/URI/ftp.t of that repository. That
// test runs without {-i}, so it fails "FTP://"; RFC2396's doc uses {-i}.
var rfc2396Cases = []grammarCase{
	// t/URI/ftp.t "pass" lines.
	{in: "ftp://ftp.example.com", str: "ftp://ftp.example.com/", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/", str: "ftp://ftp.example.com/", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/some/file/some/where", str: "ftp://ftp.example.com/some/file/some/where", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/some/directory/some/where/", str: "ftp://ftp.example.com/some/directory/some/where/", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com:21/some/file", str: "ftp://ftp.example.com/some/file", why: "t/URI/ftp.t: pass"},
	{in: "ftp://127.0.0.1", str: "ftp://127.0.0.1/", why: "t/URI/ftp.t: pass"},
	{in: "ftp://127.0.0.1/", str: "ftp://127.0.0.1/", why: "t/URI/ftp.t: pass"},
	{in: "ftp://127.0.0.1:12345/some/file", str: "ftp://127.0.0.1:12345/some/file", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/%7Eabigail/", str: "ftp://ftp.example.com/~abigail/", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/--_$.+++", str: "ftp://ftp.example.com/--_$.+++", why: "t/URI/ftp.t: \"safe\" chars pass"},
	{in: "ftp://ftp.example.com/.", str: "ftp://ftp.example.com/.", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/**!(),,''", str: "ftp://ftp.example.com/**!(),,''", why: "t/URI/ftp.t: \"extra\" chars pass"},
	{in: "ftp://www.example.com/:@=&=", str: "ftp://www.example.com/:@=&=", why: "t/URI/ftp.t: URI additional chars pass"},
	{in: "ftp://www.example.com//////////////", str: "ftp://www.example.com//////////////", why: "t/URI/ftp.t: pass"},
	{in: "ftp://abigail@ftp.example.com", str: "ftp://abigail@ftp.example.com/", why: "t/URI/ftp.t: usernames are allowed"},
	{in: "ftp://abigail@ftp.example.com:21/some/file", str: "ftp://abigail@ftp.example.com/some/file", why: "t/URI/ftp.t: pass"},
	{in: "ftp://abigail:secret@ftp.example.com:21/some/file", str: "ftp://abigail:secret@ftp.example.com/some/file", why: "t/URI/ftp.t: pass"},
	{in: "ftp://abigail:secret@127.0.0.1:21/some/file", str: "ftp://abigail:secret@127.0.0.1/some/file", why: "t/URI/ftp.t: pass"},
	{in: "ftp://abigail:secret:here@127.0.0.1:21/some/file", str: "ftp://abigail:secret%3Ahere@127.0.0.1/some/file", why: "t/URI/ftp.t: pass without {-password}: userinfo holds several \":\", the first splits"},
	{in: "ftp://ftp.example.com/~abigail/", str: "ftp://ftp.example.com/~abigail/", why: "t/URI/ftp.t: \"~ was NOT allowed by RFC 1738, but currently is\""},
	{in: "ftp://ftp.example.com/some/path;type=A", str: "ftp://ftp.example.com/some/path;type=a", why: "t/URI/ftp.t: type pass"},
	{in: "ftp://ftp.example.com/some/path;type=i", str: "ftp://ftp.example.com/some/path;type=i", why: "t/URI/ftp.t: type pass"},
	{in: "ftp://abigail@ftp.example.com/some/path/somewhere;type=a", str: "ftp://abigail@ftp.example.com/some/path/somewhere;type=a", why: "t/URI/ftp.t: pass"},
	{in: "ftp://ftp.example.com/;type=I", str: "ftp://ftp.example.com/;type=i", why: "t/URI/ftp.t: pass"},
	{in: "FTP://ftp.example.com/", str: "ftp://ftp.example.com/", why: "{-i} (RFC2396's doc); t/URI/ftp.t fails it only because it runs without {-i}"},
	// t/URI/ftp.t "fail" lines.
	{in: "ftp://ftp.example.com:21/some/path?query", err: ErrPath, why: "t/URI/ftp.t: fail, no query"},
	{in: "ftp://www.example.com/some/path;here", err: ErrPath, why: "t/URI/ftp.t: \"Should fail on ';'\""},
	{in: "ftp://ftp.example.com/nope|nope", err: ErrPath, why: "t/URI/ftp.t: fail on \"national\" characters"},
	{in: "ftp://ftp.example.com/`", err: ErrPath, why: "t/URI/ftp.t: fail on \"national\" characters"},
	{in: "ftp://www.example.com/some/file#target", err: ErrPath, why: "t/URI/ftp.t: fail on \"punctuation\" characters: no fragment"},
	{in: "ftp://ftp.example.com/some/path?query1?query2", err: ErrPath, why: "t/URI/ftp.t: cannot have queries"},
	{in: "ftp://ftp.example.com/some/??", err: ErrPath, why: "t/URI/ftp.t: cannot have queries"},
	{in: "ftp://ftp.example.com/some/path?query/path", err: ErrPath, why: "t/URI/ftp.t: cannot have queries"},
	{in: "ftp://ftp.example.com/some/path;type=Q", err: ErrTypecode, why: "t/URI/ftp.t: type [AIai] only"},
	{in: "ftp://ftp.example.com/some/path;type=AI", err: ErrTypecode, why: "t/URI/ftp.t: one type letter"},
	{in: "HTTP://ftp.example.com/", err: ErrScheme, why: "t/URI/ftp.t: scheme must be correct"},
	{in: "http://ftp.example.com/", err: ErrScheme, why: "t/URI/ftp.t: scheme must be correct"},
	// What the regex says beyond t/URI/ftp.t.
	{in: "ftp://@h/", str: "ftp://@h/", why: "$userinfo is * (may be empty)"},
	{in: "ftp://:@h/", str: "ftp://:@h/", why: "$userinfo \":\" is an empty user and an empty password"},
	{in: "ftp://u;x=y+$,@h/", str: "ftp://u;x=y+$,@h/", why: "$userinfo holds ;:&=+$,"},
	{in: "ftp://h:/", str: "ftp://h/", why: "$port = $digit* (\"host:\" is no port)"},
	{in: "ftp://example.com./", str: "ftp://example.com./", why: "$hostname ends with [.]?"},
	{in: "ftp://h/a+$,b", str: "ftp://h/a+$,b", why: "$param holds +$,"},
	{in: "ftp://h/f;type=d", err: ErrTypecode, why: "default -type is [AIai]: the 1997 draft §2.3 drops d"},
	{in: "ftp://[::1]/", err: ErrHost, why: "$host = $hostname|$IPv4address: no IP literal"},
	{in: "ftp://my_host/", err: ErrHost, why: "$domainlabel has no \"_\""},
	{in: "ftp://-h.example/", err: ErrHost, why: "$domainlabel starts with $alphanum"},
	{in: "ftp://a.1b/", err: ErrHost, why: "$toplabel starts with $alpha"},
	{in: "ftp://%61.com/", err: ErrHost, why: "$hostname holds no escapes"},
	{in: "ftp://h/a b", err: ErrPath, why: "a space is not in $param"},
	{in: "ftp://h/☃", err: ErrPath, why: "non-ASCII is not in $param"},
	{in: "ftp://u@x@h/", err: ErrUserinfo, why: "\"@\" is not in $userinfo"},
	{in: "ftp://u[@h/", err: ErrUserinfo, why: "\"[\" is not in $userinfo"},
	{in: "ftp://h:0/", err: ErrPort, why: "the regex's $digit* takes 0; the semantic check refuses it (Grammar's doc)"},
	{in: "ftp://256.1.1.1/", err: ErrHost, why: "the regex's $IPv4address takes 256; the numeric-host rule refuses it"},
}

func TestRFC2396Grammar(t *testing.T) { checkGrammar(t, RFC2396, rfc2396Cases) }

// The 2011 draft §3.1 ABNF on RFC 3986:
//
//	ftp-hier-part = "//" [ userinfo "@" ] host [ ":" port ] [ ftp-path ]
//	userinfo      = user [ ":" pass ]
//	user          = 1*usp-char
//	pass          = *usp-char
//	usp-char      = unreserved / pct-encoded / sub-delims
//	pchar-nsc     = unreserved / pct-encoded / sub-delims-nsc / ":" / "@"
//	typecode      = "a" / "e" / "i" / "u" / "d" / typecode-ext
//	typecode-ext  = ALPHA
var rfc3986Cases = []grammarCase{
	{in: "ftp://u!$&'()*+,;=-._~:p!$&'()*+,;=-._~@h/", str: "ftp://u!$&'()*+,;=-._~:p!$&'()*+,;=-._~@h/", why: "usp-char = unreserved / pct-encoded / sub-delims"},
	{in: "ftp://[2001:DB8:0:0:0:0:0:1]:2121/", str: "ftp://[2001:db8::1]:2121/", why: "IP-literal in RFC 5952 form: lower case, longest zero run as ::"},
	{in: "ftp://[2001:db8:0:0:1:0:0:1]/", str: "ftp://[2001:db8::1:0:0:1]/", why: "RFC 5952 §4.2.3: the first of two equal zero runs is ::"},
	{in: "ftp://[2001:0db8::0001]/", str: "ftp://[2001:db8::1]/", why: "RFC 5952 §4.1: no leading zeros"},
	{in: "ftp://[2001:db8:0:1:1:1:1:1]/", str: "ftp://[2001:db8:0:1:1:1:1:1]/", why: "RFC 5952 §4.2.2: :: never stands for one 0 field"},
	{in: "ftp://[::ffff:192.0.2.1]/", str: "ftp://[::ffff:192.0.2.1]/", why: "RFC 5952 §5: IPv4-mapped in dotted form"},
	{in: "ftp://[0:0:0:0:0:0:0:1]:21/", str: "ftp://[::1]/", why: "RFC 5952: ::1"},
	{in: "ftp://%C4%A5ost.example.com/", str: "ftp://xn--ost-4sa.example.com/", why: "reg-name of percent-encoded UTF-8 to A-labels (2011 draft §6.3.1)"},
	{in: "ftp://my_host.example.com/", str: "ftp://my_host.example.com/", why: "\"_\" is unreserved, and allowed in names (Grammar's doc)"},
	{in: "ftp://example.com./", str: "ftp://example.com./", why: "a final dot is kept (checkHostName's doc)"},
	{in: "ftp://h:/", str: "ftp://h/", why: "port = *DIGIT (RFC 3986 §3.2.3)"},
	{in: "ftp://h/f;type=e", str: "ftp://h/f;type=e", why: "typecode e"},
	{in: "ftp://h/f;type=u", str: "ftp://h/f;type=u", why: "typecode u"},
	{in: "ftp://h/f;type=X", str: "ftp://h/f;type=x", why: "typecode-ext = ALPHA"},
	{in: "ftp://h/a:b@c=d", str: "ftp://h/a:b@c=d", why: "pchar-nsc holds \":\" \"@\" and sub-delims but \";\""},
	{in: "ftp://h/a?b=c/d?e#f/g?h", str: "ftp://h/a?b=c/d?e#f/g?h", why: "query and fragment take pchar / \"/\" / \"?\" (RFC 3986 §3.4, §3.5)"},
	{in: "ftp://h/f;type=a?q#f", str: "ftp://h/f;type=a?q#f", why: "query and fragment after the typecode (2011 draft §3.2.4.2)"},
	{in: "ftp://h?q", str: "ftp://h/?q", why: "\"?\" ends the authority (RFC 3986 §3.2)"},
	{in: "ftp://h#f", str: "ftp://h/#f", why: "\"#\" ends the authority"},
	{in: "ftp://h/?a%2fb", str: "ftp://h/?a%2Fb", why: "the query stays escaped; hex upper-case"},
	{in: "ftp://@h/", err: ErrUserinfo, why: "user = 1*usp-char"},
	{in: "ftp://:pw@h/", err: ErrUserinfo, why: "user = 1*usp-char"},
	{in: "ftp://a:b:c@h/", err: ErrUserinfo, why: "userinfo = user [ \":\" pass ]: one \":\""},
	{in: "ftp://a b@h/", err: ErrUserinfo, why: "a space is not usp-char"},
	{in: "ftp://jürgen@h/", err: ErrUserinfo, why: "userinfo is not internationalized (2011 draft §6.1)"},
	{in: "ftp://[v1.fe]/", err: ErrHost, why: "IPvFuture refused (Grammar's doc)"},
	{in: "ftp://[fe80::1%25eth0]/", err: ErrHost, why: "zone identifier refused (Grammar's doc)"},
	{in: "ftp://[::1/", err: ErrHost, why: "IP-literal without \"]\""},
	{in: "ftp://[1.2.3.4]/", err: ErrHost, why: "IP-literal holds IPv6address"},
	{in: "ftp://[::1]x/", err: ErrHost, why: "text after \"]\""},
	{in: "ftp://[::g]/", err: ErrHost, why: "not hex"},
	{in: "ftp://[1:2:3:4:5:6:7:8:9]/", err: ErrHost, why: "nine fields"},
	{in: "ftp://ĉat.example.com/", err: ErrHost, why: "raw UCS in the host is an IRI (Lenient), not a URI"},
	{in: "ftp://a!b.com/", err: ErrHost, why: "sub-delims in reg-name: no DNS name holds them (Grammar's doc)"},
	{in: "ftp://a%2Fb/", err: ErrHost, why: "a decoded \"/\" in a host name"},
	{in: "ftp://h/a;b", err: ErrPath, why: "\";\" only in the final \";type=\" (sub-delims-nsc)"},
	{in: "ftp://h/a;type=i/b", err: ErrPath, why: "a \";type=\" that is not final"},
	{in: "ftp://h/f;type=ab", err: ErrTypecode, why: "typecode is one ALPHA"},
	{in: "ftp://h/a b", err: ErrPath, why: "a space is not pchar-nsc"},
	{in: "ftp://h/a|b", err: ErrPath, why: "\"|\" is not pchar-nsc"},
	{in: "ftp://h/a\\b", err: ErrPath, why: "\"\\\" is not pchar-nsc"},
	{in: "ftp://h/☃", err: ErrPath, why: "raw UCS in the path is an IRI (Lenient)"},
	{in: "ftp://h/?a b", err: ErrPath, why: "a space is not a query character"},
	{in: "ftp://h/?a[b", err: ErrPath, why: "\"[\" is not a query character"},
	{in: "ftp://h/#a#b", err: ErrPath, why: "\"#\" is not a fragment character"},
}

func TestRFC3986Grammar(t *testing.T) { checkGrammar(t, RFC3986, rfc3986Cases) }

// Grammar's doc, Lenient: the union of the strict grammars read
// the RFC 3986 way, and what people paste, re-encoded.
var lenientCases = []grammarCase{
	{in: "ftp://@h/", str: "ftp://@h/", why: "empty user (RFC 1738 §3.2.1)"},
	{in: "ftp://a:b:c@h/", str: "ftp://a:b%3Ac@h/", why: "several \":\" (RFC2396); the first splits"},
	{in: "ftp://a@b:c@d@h/", str: "ftp://a%40b:c%40d@h/", why: "the last \"@\" of the authority ends the userinfo"},
	{in: "ftp://us er:p[w]\"@h/", str: "ftp://us%20er:p%5Bw%5D%22@h/", why: "raw printable ASCII in userinfo, re-encoded"},
	{in: "ftp://jürgen:pässwörd@h/", str: "ftp://j%C3%BCrgen:p%C3%A4ssw%C3%B6rd@h/", why: "raw ucschar in userinfo, re-encoded"},
	{in: "ftp://h/a;b/c;d", str: "ftp://h/a%3Bb/c%3Bd", why: "\";\" that is not the final typecode is data"},
	{in: "ftp://h/f;type=a;type=i", str: "ftp://h/f%3Btype=a;type=i", why: "only the final \";type=\" is the typecode"},
	{in: "ftp://h/a;type=i/b", str: "ftp://h/a%3Btype=i/b", why: "a \";type=\" that is not final is data"},
	{in: "ftp://h/x;type", str: "ftp://h/x%3Btype", why: "\";type\" without \"=\" is data"},
	{in: "ftp://h/a\\b", str: "ftp://h/a%5Cb", why: "\"\\\" is data, not \"/\""},
	{in: "ftp://h/a b", str: "ftp://h/a%20b", why: "raw space, re-encoded"},
	{in: "ftp://h/x ", str: "ftp://h/x%20", why: "Parse never trims white space"},
	{in: "ftp://h/|{}^`\"<>[]~", str: "ftp://h/%7C%7B%7D%5E%60%22%3C%3E%5B%5D~", why: "raw printable ASCII in the path, re-encoded"},
	{in: "ftp://h/☃?☃#☃", str: "ftp://h/%E2%98%83?%E2%98%83#%E2%98%83", why: "raw ucschar in path, query and fragment"},
	{in: "ftp://h/?a b|c%2fd", str: "ftp://h/?a%20b%7Cc%2Fd", why: "raw printable ASCII in the query; escapes kept, hex upper-case"},
	{in: "ftp://h/a#b#c", str: "ftp://h/a#b%23c", why: "\"#\" in the fragment is data"},
	{in: "ftp://h/a?b?c", str: "ftp://h/a?b?c", why: "\"?\" starts a query, read the RFC 3986 way"},
	{in: "ftp://a?b@h/", str: "ftp://a/?b@h/", why: "the authority ends at the first \"?\": no guess across a delimiter"},
	{in: "ftp://a#b@h/", str: "ftp://a/#b@h/", why: "the authority ends at the first \"#\""},
	{in: "ftp://Bücher.example/", str: "ftp://xn--bcher-kva.example/", why: "raw UCS in the host (IRI, 2011 draft §6.2) to A-labels"},
	{in: "ftp://BÜCHER.Example/", str: "ftp://xn--bcher-kva.example/", why: "UTS #46 maps upper case"},
	{in: "ftp://ĉat.example.com/", str: "ftp://xn--at-0la.example.com/", why: "2011 draft §4.1"},
	{in: "ftp://a_b.bücher.example/", str: "ftp://a_b.xn--bcher-kva.example/", why: "\"_\" is a label character in an IDN name as in an ASCII one (Grammar's doc): no STD3 rules in idna"},
	{in: "ftp://r3---sn-x.bücher.example/", str: "ftp://r3---sn-x.xn--bcher-kva.example/", why: "\"--\" in the third and fourth places, as browsers allow (UTS #46 CheckHyphens off)"},
	{in: "ftp://⑴.bücher.example/", err: ErrHost, why: "U+2474 maps to \"(1)\", and \"(\" is no label character (Grammar's doc)"},
	{in: "ftp://[::1]:2121/", str: "ftp://[::1]:2121/", why: "IP literal (RFC3986)"},
	{in: "ftp://my_host.example.com./", str: "ftp://my_host.example.com./", why: "\"_\" and a final dot in names"},
	{in: "ftp://h:/", str: "ftp://h/", why: "empty port is no port (RFC2396, RFC3986)"},
	{in: "ftp://h/f;type=q", str: "ftp://h/f;type=q", why: "any letter, as RFC3986's typecode-ext"},
	{in: "ftp://h/f;type=D", str: "ftp://h/f;type=d", why: "RFC 1738 typecode d"},
	{in: "ftp://h/a%", err: ErrEscape, why: "a bare \"%\" is ErrEscape, never data"},
	{in: "ftp://h/100%/x", err: ErrEscape, why: "a bare \"%\""},
	{in: "ftp://h/?100%", err: ErrEscape, why: "a bare \"%\" in the query"},
	{in: "ftp://h/#%zz", err: ErrEscape, why: "a bad escape in the fragment"},
	{in: "ftp://u%@h/", err: ErrEscape, why: "a bare \"%\" in the userinfo"},
	{in: "ftp://h/\xc3", err: ErrPath, why: "truncated UTF-8 is refused"},
	{in: "ftp://h/\xed\xa0\x80", err: ErrPath, why: "an encoded surrogate is not UTF-8"},
	{in: "ftp://h/?\xff", err: ErrPath, why: "invalid UTF-8 in the query"},
	{in: "ftp://h/#\xff", err: ErrPath, why: "invalid UTF-8 in the fragment"},
	{in: "ftp://h/a\u200eb", err: ErrPath, why: "bidi formatting character U+200E (RFC 3987 §4.1)"},
	{in: "ftp://h/a\u200fb", err: ErrPath, why: "bidi formatting character U+200F"},
	{in: "ftp://h/a\u202ab", err: ErrPath, why: "bidi formatting character U+202A"},
	{in: "ftp://h/a\u202eb", err: ErrPath, why: "bidi formatting character U+202E (RLO)"},
	{in: "ftp://h/a\u2066b", err: ErrPath, why: "bidi formatting character U+2066"},
	{in: "ftp://h/a\u2069b", err: ErrPath, why: "bidi formatting character U+2069"},
	{in: "ftp://h/?\u202e", err: ErrPath, why: "bidi formatting character in the query"},
	{in: "ftp://h/#\u202e", err: ErrPath, why: "bidi formatting character in the fragment"},
	{in: "ftp://u\u202e:p@h/", err: ErrUserinfo, why: "bidi formatting character in the user"},
	{in: "ftp://h/\ufffe", err: ErrPath, why: "U+FFFE is not ucschar (RFC 3987 §2.2)"},
	{in: "ftp://h/\u0085", err: ErrPath, why: "C1 control U+0085 is not ucschar"},
	{in: "ftp://a\u202eb.example/", err: ErrHost, why: "bidi formatting character in the host"},
	{in: "ftp://h\\evil.example/", err: ErrHost, why: "\"\\\" is never read as \"/\""},
	{in: "ftp://h evil/", err: ErrHost, why: "a space in the host"},
	{in: "ftp://a!b.com/", err: ErrHost, why: "sub-delims in a host name (Grammar's doc)"},
	{in: "ftp://h/f;type=ab", err: ErrTypecode, why: "a final \";type=\" not followed by exactly one letter"},
	{in: "ftp://h/a\x00b", err: ErrControl, why: "raw NUL"},
	{in: "ftp://h/?a\nb", err: ErrControl, why: "a raw control character anywhere is ErrControl (the sentinels' doc)"},
	{in: "ftp://h/?a%0Ab#c%0D", str: "ftp://h/?a%0Ab#c%0D", why: "query and fragment stay escaped and never reach FTP, so an escaped control character is data there"},
}

func TestLenientGrammar(t *testing.T) { checkGrammar(t, Lenient, lenientCases) }

// Typecode letters per grammar (Grammar's doc): RFC 1738 §5
// ftptype is A, I, D; Regexp::Common's default type is [AIai]; the 2011
// draft §3.1 typecode is any ALPHA; Lenient accepts what RFC3986 does.
func TestTypecodeLettersPerGrammar(t *testing.T) {
	allowed := map[Grammar]string{
		RFC1738: "adi",
		RFC2396: "ai",
		RFC3986: "abcdefghijklmnopqrstuvwxyz",
		Lenient: "abcdefghijklmnopqrstuvwxyz",
	}
	for g, letters := range allowed {
		for c := byte('A'); c <= 'z'; c++ {
			if c > 'Z' && c < 'a' {
				continue
			}
			in := "ftp://h/f;type=" + string(c)
			lower := c | 0x20
			u, err := g.Parse(in)
			if strings.IndexByte(letters, lower) >= 0 {
				if err != nil {
					t.Errorf("%v.Parse(%q): %v", g, in, err)
				} else if u.Type != Typecode(lower) {
					t.Errorf("%v.Parse(%q).Type = %q, want %q", g, in, u.Type, lower)
				}
				continue
			}
			if !errors.Is(err, ErrTypecode) {
				t.Errorf("%v.Parse(%q) = %v, want ErrTypecode", g, in, err)
			}
		}
	}
}

// Grammar's doc: Lenient accepts what any strict grammar accepts,
// with the same parts, except RFC 1738 strings that use "?" as data.
func TestLenientAcceptsStrictGrammarsInputs(t *testing.T) {
	var inputs []string
	for _, cases := range [][]grammarCase{everyGrammar, rfc1738Cases, rfc2396Cases, rfc3986Cases} {
		for _, tt := range cases {
			inputs = append(inputs, tt.in)
		}
	}
	for _, ex := range seedExamples {
		inputs = append(inputs, ex.in)
	}
	for _, in := range inputs {
		for _, g := range []Grammar{RFC1738, RFC2396, RFC3986} {
			u, err, ok := tryParse(t, g, in)
			if !ok || err != nil || g == RFC1738 && strings.Contains(in, "?") {
				continue
			}
			l, err, ok := tryParse(t, Lenient, in)
			if !ok {
				continue
			}
			if err != nil {
				t.Errorf("%v accepts %q but Lenient refuses it: %v", g, in, err)
				continue
			}
			if diff := diffParts(u, l); diff != "" {
				t.Errorf("%q: Lenient parts differ from %v's (-%v +lenient):\n%s", in, g, g, diff)
			}
		}
	}
}

// RFC 1738 §2.2 lists "~" among the unsafe characters, but RFC 2396
// §2.3 made it unreserved, and String never encodes an unreserved
// character: RFC1738 accepts it raw wherever it accepts "%7E" (user,
// password, path, "?" data), so that String re-parses in RFC1738, and
// its Pattern agrees.
func TestRFC1738AcceptsRawTildeSoStringReparses(t *testing.T) {
	re := anchoredPatterns()[RFC1738]
	for _, in := range []string{
		"ftp://h.example/%7Euser/f",
		"ftp://%7Eu:p%7E@h.example/f",
		"ftp://h.example/f?%7Ex",
		"ftp://h.example/f#~x", // the fragment was RFC 3986's already
	} {
		u, err := RFC1738.Parse(in)
		if err != nil {
			t.Errorf("RFC1738.Parse(%q): %v", in, err)
			continue
		}
		s := u.String()
		if !strings.Contains(s, "~") {
			t.Errorf("RFC1738.Parse(%q).String() = %q encodes an unreserved \"~\"", in, s)
		}
		back, err := RFC1738.Parse(s)
		if err != nil || !back.Equal(u) {
			t.Errorf("RFC1738.Parse(%q) = %v, %v; want it to re-parse to %q", s, back, err, in)
		}
		if !re.MatchString(s) {
			t.Errorf("RFC1738.Pattern() refuses %q, which RFC1738.Parse accepts", s)
		}
	}
}

// RFC 1738 §5 allows "?" as data in the user, password and path; RFC
// 3986 §3.2 ends the authority, and §3.4 the path, at "?". Lenient reads
// it the RFC 3986 way, as browsers do: the one place where Lenient does
// not accept what a strict grammar accepts with the same parts.
func TestLenientReadsRFC1738QuestionMarkAsADelimiter(t *testing.T) {
	const in = "ftp://u:p?q@h/"
	u, err := RFC1738.Parse(in)
	if err != nil {
		t.Fatalf("RFC1738.Parse(%q): %v", in, err)
	}
	if pw, _ := u.User.Password(); u.User.Username() != "u" || pw != "p?q" || u.Host != "h" {
		t.Errorf("RFC1738.Parse(%q) = user %q password %q host %q; want u, p?q, h", in, u.User.Username(), pw, u.Host)
	}
	// Lenient: the authority is "u:p", the host "u" with the port "p".
	if _, err := Lenient.Parse(in); !errors.Is(err, ErrPort) {
		t.Errorf("Lenient.Parse(%q) = %v, want ErrPort (the port \"p\" of host \"u\")", in, err)
	}
	if u, err := Lenient.Parse("ftp://u:21?q@h/"); err != nil || u.Host != "u" || u.User != nil || u.RawQuery != "q@h/" {
		t.Errorf("Lenient.Parse(ftp://u:21?q@h/) = %#v, %v; want host u, query q@h/", u, err)
	}
	// In the path: the name "a?b" in RFC1738, the name "a" and the query
	// "b" in Lenient.
	r, err1 := RFC1738.Parse("ftp://h/a?b")
	l, err2 := Lenient.Parse("ftp://h/a?b")
	if err1 != nil || err2 != nil || r.Name != "a?b" || r.RawQuery != "" || l.Name != "a" || l.RawQuery != "b" {
		t.Errorf("ftp://h/a?b: RFC1738 %#v, %v; Lenient %#v, %v", r, err1, l, err2)
	}
}
