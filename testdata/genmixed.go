//go:build ignore

// Genmixed writes testdata/mixed.txt, the "mixed" benchmark corpus: a
// few hundred ftp URLs, one a line, that use every part of the syntax
// in roughly the proportions met in the wild (FreeBSD's mirror list,
// curl's test suite, links pasted in mail and chat):
//
//	host    lower-case name 62%, mixed case 8%, IPv4 8%, IPv6 5%,
//	        Unicode (IDN) 8%, "xn--" A-labels 3%, percent-encoded UTF-8 1%,
//	        (a final dot now and then; IPv6 mostly in RFC 5952 form)
//	user    15% (anonymous, user:password, an e-mail as user, empty password)
//	port    10% (2121, 21, 990, 8021, 10021)
//	dirs    0 to 7, like the FreeBSD list; a file name 70%, a listing 30%
//	escape  12% of segments ("%20", UTF-8, "%25"), "%2F" in 4% of URLs,
//	        raw Unicode or space (IRIs, Lenient) in 4% of URLs
//	type    10% (";type=i", ";type=a", ";type=d", ";TYPE=I")
//	query, fragment 2% each
//
// Every URL parses with ftpurl.Lenient (TestBenchCorporaParse checks).
// The output depends only on the fixed seed below (math/rand/v2's PCG
// is specified, so it is the same on every Go version and platform).
// Regenerate with, from the module root:
//
//	go run testdata/genmixed.go > testdata/mixed.txt
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
)

// How many URLs to write.
const count = 400

var r = rand.New(rand.NewPCG(1738, 2011))

// pick returns one of the choices, uniformly.
func pick(choices ...string) string { return choices[r.IntN(len(choices))] }

// chance reports true with probability pct percent.
func chance(pct int) bool { return r.IntN(100) < pct }

var (
	hostPrefixes = []string{"ftp", "ftp", "ftp", "ftp2", "ftp3", "mirror", "mirrors", "archive", "dl", "ftp.uni-x", "download"}
	hostNames    = []string{"gnu", "kernel", "debian", "freebsd", "netbsd", "openbsd", "cpan", "ctan", "apache",
		"sunet", "heanet", "funet", "ibiblio", "xemacs", "gentoo", "slackware", "isc", "x", "tu-berlin", "jaist",
		"kddlabs", "riken", "nluug", "rediris", "uninett", "ovh", "leaseweb", "plusline", "belnet", "ntua"}
	tlds = []string{"org", "org", "org", "net", "net", "com", "de", "se", "ie", "fi", "jp", "ac.jp", "ac.uk",
		"edu", "nl", "fr", "it", "cz", "pl", "gr", "ch", "at", "ru", "br", "au"}
	mixedHosts = []string{"ftp.FreeBSD.org", "FTP.GNU.ORG", "ftp.jp.NetBSD.org", "Mirror.Example.COM",
		"ftp.Uni-Stuttgart.DE", "ftp.SunSITE.dk", "ports.jp.FreeBSD.org", "FTP.Funet.FI", "ftp.CS.Berkeley.EDU"}
	idnHosts = []string{"ftp.müller.de", "bücher.example", "ftp.münchen.de", "ftp.résumé.fr", "例え.jp",
		"ftp.日本語.jp", "ftp.пример.рф", "ftp.παράδειγμα.gr", "ftp.straße.de", "mirror.københavn.dk",
		"ftp.中国.cn", "ftp.São-Paulo.br", "ftp.Ölfeld.at"}
	aceHosts = []string{"ftp.xn--mnchen-3ya.de", "xn--bcher-kva.example", "ftp.xn--rsum-bpad.fr",
		"xn--r8jz45g.jp", "ftp.xn--strae-oqa.de", "ftp.XN--Mller-kva.de"}
	pctHosts = []string{"ftp.m%C3%BCnchen.de", "b%C3%BCcher.example", "ftp.%E6%97%A5%E6%9C%AC.jp"}
	// Most IPv6 literals are written in RFC 5952 form; some are not.
	ipv6 = []string{"2001:db8::1", "2001:db8::21", "2001:db8:0:1::21", "2001:db8:85a3::8a2e:370:7334",
		"fe80::1", "2001:db8::ff00:42:8329", "2001:DB8::1", "2001:db8:0:0:0:0:0:2", "::ffff:192.0.2.128"}
	users = []string{"anonymous@", "anonymous:guest@", "ftp:ftp@", "ftp@", "alice:s3cret@", "bob:@",
		"j.doe:p%40ss@", "guest%40example.com:x@", "mirror:Tr0ub4dor&3@", "u:pw@", "build-bot:hunter2@"}
	ports = []string{"2121", "2121", "21", "990", "8021", "10021", "2100"}

	dirWords = []string{"pub", "pub", "pub", "mirrors", "gnu", "FreeBSD", "ports", "distfiles", "releases",
		"amd64", "i386", "ISO-IMAGES", "10.0", "9.2", "debian", "pool", "main", "linux", "kernel", "v3.x",
		"software", "incoming", "packages", "All", "src", "contrib", "old", "archive", "tex-archive", "CPAN",
		"authors", "id", "sources", "dist", "x11", "X11R6", "ports-jp", "LOCAL_PORTS", "~ftp", "..", "people"}
	escapedDirs = []string{"My%20Documents", "caf%C3%A9", "R%C3%A9sum%C3%A9", "100%25", "%E6%96%87%E6%9B%B8",
		"Program%20Files", "a%3Bb", "q%3F", "%7Euser", "%C3%9Cbersicht", "%E9t%E9"}
	rawIRIDirs = []string{"Übersicht", "文書", "café", "résumé", "My Documents", "Дистрибутивы", "ソフト"}
	files      = []string{"README", "motd", "ls-lR.gz", "index.txt", "CHECKSUM.SHA256", "gcc-4.8.2.tar.bz2",
		"FreeBSD-10.0-RELEASE-amd64-disc1.iso", "linux-3.12.6.tar.xz", "emacs-24.3.tar.gz", "perl-5.18.1.tar.gz",
		"INDEX-10.bz2", "openssl-1.0.1f.tar.gz", "bash-4.2.tar.gz", "ChangeLog", "MD5SUMS", "welcome.msg",
		"coreutils-8.21.tar.xz", "teTeX-3.0.tar.gz", "Packages.gz", "file.txt", "archive.zip", "setup.exe"}
	escapedFiles = []string{"Read%20Me.txt", "r%C3%A9sum%C3%A9.pdf", "100%25.txt", "a%23b.txt", "notes%3Bv2.txt",
		"%E6%96%87%E6%9B%B8.txt", "%E9t%E9.txt", "file%20(1).zip"}
)

func host() string {
	switch n := r.IntN(100); {
	case n < 62:
		h := pick(hostPrefixes...) + "." + pick(hostNames...) + "." + pick(tlds...)
		if chance(2) {
			h += "." // a final dot is kept
		}
		return h
	case n < 70:
		return pick(mixedHosts...)
	case n < 78:
		return ipv4()
	case n < 83:
		return "[" + pick(ipv6...) + "]"
	case n < 91:
		return pick(idnHosts...)
	case n < 94:
		return pick(aceHosts...)
	case n < 95:
		return pick(pctHosts...)
	}
	return pick(hostPrefixes...) + "." + pick(hostNames...) + "." + pick(tlds...)
}

func ipv4() string {
	switch r.IntN(4) {
	case 0:
		return fmt.Sprintf("192.0.2.%d", 1+r.IntN(254))
	case 1:
		return fmt.Sprintf("198.51.100.%d", 1+r.IntN(254))
	case 2:
		return fmt.Sprintf("203.0.113.%d", 1+r.IntN(254))
	}
	return fmt.Sprintf("10.%d.%d.%d", r.IntN(256), r.IntN(256), 1+r.IntN(254))
}

// ndirs follows the FreeBSD mirror list: mostly 2 to 4 directories.
func ndirs() int {
	switch n := r.IntN(100); {
	case n < 5:
		return 0
	case n < 20:
		return 1
	case n < 45:
		return 2
	case n < 70:
		return 3
	case n < 85:
		return 4
	case n < 94:
		return 5
	case n < 98:
		return 6
	}
	return 7
}

func url() string {
	var b strings.Builder
	b.WriteString(pick("ftp://", "ftp://", "ftp://", "ftp://", "ftp://", "ftp://", "ftp://", "ftp://", "ftp://", "FTP://"))
	if chance(15) {
		b.WriteString(pick(users...))
	}
	b.WriteString(host())
	if chance(10) {
		b.WriteString(":" + pick(ports...))
	}
	b.WriteByte('/')
	slash2F := chance(4)
	iri := chance(4)
	n := ndirs()
	for i := 0; i < n; i++ {
		switch {
		case i == 0 && slash2F:
			b.WriteString(pick("%2Fetc", "%2Fhome", "%2Fvar%2Fftp", "%2F"))
		case i == n-1 && iri:
			b.WriteString(pick(rawIRIDirs...))
		case chance(12):
			b.WriteString(pick(escapedDirs...))
		default:
			b.WriteString(pick(dirWords...))
		}
		b.WriteByte('/')
	}
	listing := chance(30)
	if !listing {
		switch {
		case n == 0 && slash2F:
			b.WriteString(pick("%2Fetc%2Fmotd", "%2Fpub%2FREADME"))
		case n == 0 && iri:
			b.WriteString(pick("Übersicht.txt", "文書.txt", "My File.txt"))
		case chance(12):
			b.WriteString(pick(escapedFiles...))
		default:
			b.WriteString(pick(files...))
		}
	}
	if chance(10) {
		switch m := r.IntN(10); {
		case listing || m < 2:
			b.WriteString(";type=d")
		case m < 7:
			b.WriteString(";type=i")
		case m < 9:
			b.WriteString(";type=a")
		default:
			b.WriteString(";TYPE=I")
		}
	}
	if chance(2) {
		b.WriteString(pick("?raw=1", "?session=a1b2&lang=en", "?%C3%A9=1"))
	}
	if chance(2) {
		b.WriteString(pick("#top", "#section-2", "#r%C3%A9sum%C3%A9"))
	}
	return b.String()
}

func main() {
	w := bufio.NewWriter(os.Stdout)
	seen := make(map[string]bool)
	for len(seen) < count {
		u := url()
		if seen[u] {
			continue
		}
		seen[u] = true
		fmt.Fprintln(w, u)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
