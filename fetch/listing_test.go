package fetch_test

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

// listNow is the now of the table tests: 2025-03-20 12:00 UTC.
var listNow = time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)

func utc(y int, m time.Month, d, h, mi, s int) time.Time {
	return time.Date(y, m, d, h, mi, s, 0, time.UTC)
}

const (
	day    = 24 * time.Hour
	minute = time.Minute
	second = time.Second
)

// listCase is a line and the whole entry it stands for; Line is
// always the line itself and is not repeated.
type listCase struct {
	why  string // the format, and where it is described
	line string
	want fetch.Entry
}

func checkListCases(t *testing.T, now time.Time, cases []listCase) {
	t.Helper()
	for _, c := range cases {
		got, ok := fetch.ParseListLine(c.line, now)
		if !ok {
			t.Errorf("%s: ParseListLine(%q) = false, want %+v", c.why, c.line, c.want)
			continue
		}
		c.want.Line = c.line
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: ParseListLine(%q)\n got %+v\nwant %+v", c.why, c.line, got, c.want)
		}
	}
}

// The LIST lines ftpserverlib v0.25.0 sends (handle_dirs.go, fileStat:
// "%s 1 ftp ftp %12d %s %s" with fs.FileMode.String() and "Jan _2
// 15:04" or "Jan _2  2006"): Go's mode letters before the rwx.
func TestParseListLineGoFileModeStrings(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"ftpserverlib file", "-rw-r--r-- 1 ftp ftp           42 Mar  7 09:15 notes.txt",
			fetch.Entry{Name: "notes.txt", Mode: 0o644, Size: 42, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib old dir", "drwxr-xr-x 1 ftp ftp         4096 Nov 30  2023 archive",
			fetch.Entry{Name: "archive", Mode: fs.ModeDir | 0o755, Size: 4096, ModTime: utc(2023, 11, 30, 0, 0, 0), Precision: day, Local: true}},
		{"ftpserverlib symlink: Go's L, no target given", "Lrwxrwxrwx 1 ftp ftp            9 Mar  7 09:15 latest",
			fetch.Entry{Name: "latest", Mode: fs.ModeSymlink | 0o777, Size: 9, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib sticky dir: dt", "dtrwxrwxrwx 1 ftp ftp         4096 Mar  7 09:15 tmp",
			fetch.Entry{Name: "tmp", Mode: fs.ModeDir | fs.ModeSticky | 0o777, Size: 4096, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib named pipe", "prw-r--r-- 1 ftp ftp            0 Mar  7 09:15 queue",
			fetch.Entry{Name: "queue", Mode: fs.ModeNamedPipe | 0o644, Size: 0, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib char device: Dc", "Dcrw-rw-rw- 1 ftp ftp            0 Mar  7 09:15 null",
			fetch.Entry{Name: "null", Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, Size: 0, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib setuid: u", "urwxr-xr-x 1 ftp ftp         8192 Mar  7 09:15 su-tool",
			fetch.Entry{Name: "su-tool", Mode: fs.ModeSetuid | 0o755, Size: 8192, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib MLSD (RFC 3659 §7.5: fact names in any case)", "Type=dir;Size=4096;Modify=20250307091500; archive",
			fetch.Entry{Name: "archive", Mode: fs.ModeDir, Size: 4096, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: second}},
	})
}

// Unix ls -l lines in the shapes vsftpd, ProFTPD, Pure-FTPd and
// pyftpdlib send for LIST (POSIX ls, "Long Format"), and the variants
// other servers send.
func TestParseListLineUnix(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"vsftpd dir, zero-padded day", "drwxr-xr-x    2 ftp      ftp          4096 Mar 07 09:15 incoming",
			fetch.Entry{Name: "incoming", Mode: fs.ModeDir | 0o755, Size: 4096, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"vsftpd FIFO", "prw-r--r--    1 1000     1000            0 Mar 07 09:15 fifo",
			fetch.Entry{Name: "fifo", Mode: fs.ModeNamedPipe | 0o644, Size: 0, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"vsftpd symlink, name -> target", "lrwxrwxrwx    1 0        0               8 Mar 07 09:15 current -> releases",
			fetch.Entry{Name: "current", Target: "releases", Mode: fs.ModeSymlink | 0o777, Size: 8, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ProFTPD file with spaces in its name", "-rw-r--r--   1 alice    staff        1234 Mar  7 09:15 annual report 2024.pdf",
			fetch.Entry{Name: "annual report 2024.pdf", Mode: 0o644, Size: 1234, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"Pure-FTPd numeric owner and group", "-rw-r--r--    1 1000       1000             1234 Mar  7 09:15 report.pdf",
			fetch.Entry{Name: "report.pdf", Mode: 0o644, Size: 1234, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"pyftpdlib symlink to a directory", "lrwxrwxrwx   1 alice    staff          11 Mar 07 09:15 docs -> ../shared/d",
			fetch.Entry{Name: "docs", Target: "../shared/d", Mode: fs.ModeSymlink | 0o777, Size: 11, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"socket, s", "srwxrwxrwx 1 root root 0 Mar  7 09:15 agent.sock",
			fetch.Entry{Name: "agent.sock", Mode: fs.ModeSocket | 0o777, Size: 0, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"char device: major, minor instead of a size", "crw-rw-rw- 1 root root 1, 3 Mar  7 09:15 null",
			fetch.Entry{Name: "null", Mode: fs.ModeDevice | fs.ModeCharDevice | 0o666, Size: -1, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"block device", "brw-rw---- 1 root disk 8,0 Mar  7 09:15 sda",
			fetch.Entry{Name: "sda", Mode: fs.ModeDevice | 0o660, Size: -1, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ACL '+' after the permissions, setgid and sticky letters", "drwxrws--T+ 3 alice staff 96 Mar  7 09:15 shared",
			fetch.Entry{Name: "shared", Mode: fs.ModeDir | fs.ModeSetgid | fs.ModeSticky | 0o770, Size: 96, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"macOS '@' (extended attributes)", "-rw-r--r--@ 1 alice staff 10 Mar  7 09:15 photo.jpg",
			fetch.Entry{Name: "photo.jpg", Mode: 0o644, Size: 10, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"SELinux '.'", "-rw-r--r--. 1 alice staff 10 Mar  7 09:15 ctx.txt",
			fetch.Entry{Name: "ctx.txt", Mode: 0o644, Size: 10, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"no link count, no group", "-rw-r--r-- alice 77 Mar  7 09:15 short.txt",
			fetch.Entry{Name: "short.txt", Mode: 0o644, Size: 77, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"group with a space (Cygwin)", "-rw-r--r-- 1 bob Domain Users 5 Mar  7 09:15 a.txt",
			fetch.Entry{Name: "a.txt", Mode: 0o644, Size: 5, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"day before month", "-rw-r--r-- 1 bob staff 5 7 Mar 09:15 b.txt",
			fetch.Entry{Name: "b.txt", Mode: 0o644, Size: 5, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ISO date (ls --time-style=long-iso)", "-rw-r--r-- 1 bob staff 5 2024-12-31 23:59 c.txt",
			fetch.Entry{Name: "c.txt", Mode: 0o644, Size: 5, ModTime: utc(2024, 12, 31, 23, 59, 0), Precision: minute, Local: true}},
		{"name keeps its own leading spaces: one SP follows ls's time", "-rw-r--r-- 1 bob staff 5 Mar  7 09:15   padded",
			fetch.Entry{Name: "  padded", Mode: 0o644, Size: 5, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"24:00 is the next day", "-rw-r--r-- 1 bob staff 5 Mar  6 24:00 midnight",
			fetch.Entry{Name: "midnight", Mode: 0o644, Size: 5, ModTime: utc(2025, 3, 7, 0, 0, 0), Precision: minute, Local: true}},
		{"ls's . and .. are returned", "drwxr-xr-x 2 bob staff 4096 Mar  7 09:15 ..",
			fetch.Entry{Name: "..", Mode: fs.ModeDir | 0o755, Size: 4096, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
	})
}

// DOS/IIS lines (IIS "MS-DOS" directory listing style).
func TestParseListLineDOS(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"IIS dir, 2-digit year, 12-hour clock", "03-07-25  09:15AM       <DIR>          Program Files",
			fetch.Entry{Name: "Program Files", Mode: fs.ModeDir, Size: 0, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"IIS 4-digit year first, 24-hour clock, commas in the size", "2025-03-07  21:15         1,234,567 big file.iso",
			fetch.Entry{Name: "big file.iso", Size: 1234567, ModTime: utc(2025, 3, 7, 21, 15, 0), Precision: minute, Local: true}},
		{"12:00PM is noon", "03-07-2025  12:00PM                5 noon.txt",
			fetch.Entry{Name: "noon.txt", Size: 5, ModTime: utc(2025, 3, 7, 12, 0, 0), Precision: minute, Local: true}},
		{"12:30AM is after midnight; year 99 is 1999", "12-31-99  12:30AM                7 y2k.txt",
			fetch.Entry{Name: "y2k.txt", Size: 7, ModTime: utc(1999, 12, 31, 0, 30, 0), Precision: minute, Local: true}},
	})
}

// EPLF (D. J. Bernstein, "Easily Parsed LIST Format"): the time is a
// Unix time, UTC.
func TestParseListLineEPLF(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"EPLF file", "+i8388621.29609,m1741338900,r,s1234,up644,\treport.pdf",
			fetch.Entry{Name: "report.pdf", Mode: 0o644, Size: 1234, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: second}},
		{"EPLF dir", "+/,m1741338900,\tdocs",
			fetch.Entry{Name: "docs", Mode: fs.ModeDir, Size: -1, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: second}},
	})
}

// MLSD lines (RFC 3659 §7.2 entries, §7.5 facts) in the shapes ProFTPD,
// Pure-FTPd and pyftpdlib send.
func TestParseListLineMLSD(t *testing.T) {
	at := utc(2025, 3, 7, 9, 15, 0)
	checkListCases(t, listNow, []listCase{
		{"ProFTPD file", "modify=20250307091500;perm=adfrw;size=1234;type=file;unique=FD01U2A3;UNIX.group=100;UNIX.groupname=staff;UNIX.mode=0644;UNIX.owner=1000;UNIX.ownername=alice; report.pdf",
			fetch.Entry{Name: "report.pdf", Mode: 0o644, Size: 1234, ModTime: at, Precision: second}},
		{"ProFTPD symlink, OS.unix=symlink (no target)", "modify=20250307091500;perm=adfrw;size=8;type=OS.unix=symlink;unique=FD01U2A4;UNIX.mode=0777; current",
			fetch.Entry{Name: "current", Mode: fs.ModeSymlink | 0o777, Size: 8, ModTime: at, Precision: second}},
		{"OS.unix=slink:target (RFC 3659 §7.5.1, OS.name=type)", "type=OS.unix=slink:/srv/releases/7;modify=20250307091500; current",
			fetch.Entry{Name: "current", Target: "/srv/releases/7", Mode: fs.ModeSymlink, Size: -1, ModTime: at, Precision: second}},
		{"ProFTPD cdir: the listed directory comes back as \".\"", "modify=20250307091500;perm=flcdmpe;type=cdir;unique=FD01U2A5;UNIX.mode=0755; /home/alice",
			fetch.Entry{Name: ".", Mode: fs.ModeDir | 0o755, Size: -1, ModTime: at, Precision: second}},
		{"Pure-FTPd file, UNIX.mode", "type=file;size=1234;modify=20250307091500;UNIX.mode=0644;UNIX.uid=1000;UNIX.gid=1000;unique=803g2a5f1; report.pdf",
			fetch.Entry{Name: "report.pdf", Mode: 0o644, Size: 1234, ModTime: at, Precision: second}},
		{"Pure-FTPd pdir with sizd: \"..\"", "type=pdir;sizd=4096;modify=20250307091500;UNIX.mode=0755;UNIX.uid=0;UNIX.gid=0;unique=803g2; ..",
			fetch.Entry{Name: "..", Mode: fs.ModeDir | 0o755, Size: 4096, ModTime: at, Precision: second}},
		{"pyftpdlib file, perm and unique facts", "type=file;size=1234;perm=r;modify=20250307091500;unix.mode=0644;unix.uid=1000;unix.gid=1000;unique=8020b45; report.pdf",
			fetch.Entry{Name: "report.pdf", Mode: 0o644, Size: 1234, ModTime: at, Precision: second}},
		{"size is base 10 whatever its zeros (§7.5.7)", "type=file;size=0755; octal-looking",
			fetch.Entry{Name: "octal-looking", Size: 755, Mode: 0}},
		{"pyftpdlib 1.5.7 writes unix.mode as Python does, 0o644, once OPTS MLST asks for it", "modify=20250307091500;size=1234;type=file;unique=fe00g98;unix.mode=0o644; report.pdf",
			fetch.Entry{Name: "report.pdf", Mode: 0o644, Size: 1234, ModTime: at, Precision: second}},
		{"setuid and sticky in unix.mode", "type=file;unix.mode=4755; suid",
			fetch.Entry{Name: "suid", Size: -1, Mode: fs.ModeSetuid | 0o755}},
		{"a fraction of a second (§2.3)", "type=file;modify=20250307091500.250; frac",
			fetch.Entry{Name: "frac", Size: -1, ModTime: at.Add(250 * time.Millisecond), Precision: time.Millisecond}},
		{"TAB before the name", "type=dir;\tspaced dir",
			fetch.Entry{Name: "spaced dir", Mode: fs.ModeDir, Size: -1}},
		{"MLST's leading SP (§7.2)", " type=file;size=3; /pub/a.txt",
			fetch.Entry{Name: "/pub/a.txt", Size: 3}},
		{"the last ';' missing (drafts before mlst-07)", "type=file;size=3 old draft",
			fetch.Entry{Name: "old draft", Size: 3}},
		{"an unknown type is irregular", "type=OS.unix=blkdev;size=0; sdb",
			fetch.Entry{Name: "sdb", Mode: fs.ModeIrregular, Size: 0}},
		{"no type fact: irregular", "size=10; notype",
			fetch.Entry{Name: "notype", Mode: fs.ModeIrregular, Size: 10}},
	})
}

// The year of a LIST date without one is the one that puts the date
// nearest to now, six months either way.
func TestParseListLineYearIsNearestToNow(t *testing.T) {
	for _, c := range []struct {
		now  time.Time
		date string
		want time.Time
	}{
		{utc(2025, 1, 10, 12, 0, 0), "Dec 28 10:00", utc(2024, 12, 28, 10, 0, 0)},                                         // last year, across New Year
		{utc(2024, 12, 20, 12, 0, 0), "Jan 25 08:00", utc(2025, 1, 25, 8, 0, 0)},                                          // next year: 36 days ahead
		{utc(2025, 3, 1, 12, 0, 0), "Apr 10 08:00", utc(2025, 4, 10, 8, 0, 0)},                                            // 40 days ahead: this year
		{utc(2025, 3, 1, 12, 0, 0), "Sep  1 08:00", utc(2024, 9, 1, 8, 0, 0)},                                             // 181 days back beats 184 ahead
		{utc(2025, 3, 1, 12, 0, 0), "Aug 30 08:00", utc(2025, 8, 30, 8, 0, 0)},                                            // 182 days ahead beats 183 back
		{utc(2025, 3, 1, 12, 0, 0), "Feb 29 08:00", utc(2024, 2, 29, 8, 0, 0)},                                            // only a leap year has it
		{utc(2025, 12, 31, 23, 0, 0), "Jan  1 00:30", utc(2026, 1, 1, 0, 30, 0)},                                          // a server ahead of the clock
		{time.Date(2025, 1, 1, 1, 0, 0, 0, time.FixedZone("UTC+5", 5*3600)), "Dec 31 23:00", utc(2024, 12, 31, 23, 0, 0)}, // now's own wall clock
	} {
		line := "-rw-r--r-- 1 u g 1 " + c.date + " f"
		e, ok := fetch.ParseListLine(line, c.now)
		if !ok || !e.ModTime.Equal(c.want) || e.Precision != time.Minute || !e.Local {
			t.Errorf("now %v: %q: ok %v, ModTime %v (precision %v, local %v), want %v", c.now, c.date, ok, e.ModTime, e.Precision, e.Local, c.want)
		}
	}
}

// Lines that are no entry: ParseListLine reports false.
func TestParseListLineRejects(t *testing.T) {
	for _, line := range []string{
		"",
		"total 128", // ls's block count
		"-rw-r--r-- 1 u g 5 Mar  7 09:15 bad\rname",        // CR
		"-rw-r--r-- 1 u g 5 Mar  7 09:15 bad\nname",        // LF
		"-rw-r--r-- 1 u g 5 Mar  7 09:15 bad\x00name",      // NUL
		"type=file;size=1; nul\x00",                        // NUL in MLSD
		"-rw-r--r-- 1 u g 5 Mar  7 09:15 ",                 // no name
		"-rw-r--r-- 1 u g 5 Mar 32 09:15 day32",            // day out of range
		"-rw-r--r-- 1 u g 5 Feb 30  2024 feb30",            // no such day
		"-rw-r--r-- 1 u g 5 Mar  7 25:00 hour25",           // hour out of range
		"-rw-r--r-- 1 u g 5 Mar  7 09:60 minute60",         // minute out of range
		"-rw-r--r-- 1 u g 5 Mxr  7 09:15 month",            // no month
		"-rw-r--r-- 1 u g 5x Mar  7 09:15 size",            // size with a letter
		"-rw-r--r-- 1 u g 5 Mar  7  202 year3",             // 3-digit year
		"xrw-r--r-- 1 u g 5 Mar  7 09:15 type",             // no such type letter
		"-rwr--r-- 1 u g 5 Mar  7 09:15 short",             // 8 permission letters
		"-wrxr--r-- 1 u g 5 Mar  7 09:15 order",            // rwx out of place
		"-rw-r--r-- 1u g 5 Mar  7 09:15 glued",             // link count glued to the owner
		"lrwxrwxrwx 1 u g 5 Mar  7 09:15 a -> b -> c",      // which arrow is ls's?
		"13-07-25  09:15AM       <DIR>          month13",   // DOS month 13
		"03-07-25  13:15PM                 1 pm13",         // 13 PM
		"03-07-25  09:15AM                   nosize",       // DOS without size or <DIR>
		"Type=file;Size=12x; bad size",                     // RFC 3659 §7.5.7: digits only
		"Type=file;Modify=2025; short time",                // §2.3: 14 digits
		"Type=file;Modify=20250307091500Z; zone",           // §2.3: no zone letter
		"Type=file;Size; no value",                         // a fact without '='
		"Type=file;Size=1;",                                // no name
		"Type=file;Size=1;nospace",                         // no SP before the name
		"+i1,m12x,\tbad-eplf",                              // EPLF time with a letter
		"+i1,m1741338900,r",                                // EPLF without TAB
		"just some words",                                  // nothing known
		" 33280      A          1997-02-03  13:49  OS2LDR", // OS/2 columns, not an MLST entry
	} {
		if e, ok := fetch.ParseListLine(line, listNow); ok {
			t.Errorf("ParseListLine(%q) = %+v, true; want false", line, e)
		}
	}
}

// Line is the line as given and Name and Target are substrings of it:
// ParseListLine allocates nothing.
func TestParseListLineAllocatesNothing(t *testing.T) {
	lines := []string{
		"-rw-r--r--   1 alice    staff        1234 Mar  7 09:15 report.pdf",
		"lrwxrwxrwx   1 alice    staff          11 Mar 07 09:15 docs -> ../shared/d",
		"03-07-25  09:15AM       <DIR>          Program Files",
		"type=file;size=1234;modify=20250307091500;UNIX.mode=0644; report.pdf",
		"+i8388621.29609,m1741338900,r,s1234,up644,\treport.pdf",
		"-rw-r--r-- 1 bob staff 5 7 Mär 09:15 german",
	}
	for _, line := range lines {
		allocs := testing.AllocsPerRun(100, func() {
			if _, ok := fetch.ParseListLine(line, listNow); !ok {
				t.Fatalf("%q did not parse", line)
			}
		})
		if allocs != 0 {
			t.Errorf("ParseListLine(%q): %v allocations, want 0", line, allocs)
		}
	}
}

// Info gives the Entry as an fs.FileInfo, and Sys gives the Entry back.
func TestEntryInfo(t *testing.T) {
	e, ok := fetch.ParseListLine("drwxr-x--- 2 bob staff 4096 Mar  7 09:15 src", listNow)
	if !ok {
		t.Fatal("no entry")
	}
	fi := e.Info()
	if fi.Name() != "src" || !fi.IsDir() || fi.Size() != 4096 || fi.Mode() != fs.ModeDir|0o750 || !fi.ModTime().Equal(utc(2025, 3, 7, 9, 15, 0)) {
		t.Errorf("Info() = %v %v %v %v %v", fi.Name(), fi.IsDir(), fi.Size(), fi.Mode(), fi.ModTime())
	}
	if got, ok := fi.Sys().(fetch.Entry); !ok || !reflect.DeepEqual(got, e) {
		t.Errorf("Info().Sys() = %#v, want the Entry", fi.Sys())
	}
	// fs.FileInfoToDirEntry takes it: a program can use it where the
	// standard library takes a FileInfo.
	if d := fs.FileInfoToDirEntry(fi); d.Name() != "src" || !d.IsDir() || d.Type() != fs.ModeDir {
		t.Errorf("FileInfoToDirEntry: %v %v %v", d.Name(), d.IsDir(), d.Type())
	}
}

// The whole listing at once gives the entries that each line alone
// gives, in order; CRLF and LF both end a line; empty lines and "total"
// are skipped, other lines that do not parse are kept in unparsed.
func TestParseListingEqualsLineByLine(t *testing.T) {
	text := "total 24\r\n" +
		"drwxr-xr-x    2 ftp      ftp          4096 Mar 07 09:15 incoming\r\n" +
		"\r\n" +
		"lrwxrwxrwx    1 0        0               8 Mar 07 09:15 current -> releases\n" +
		"this line is no listing\r\n" +
		"03-07-25  09:15AM       <DIR>          Program Files\r\n" +
		"type=file;size=3; last line without CRLF"
	entries, unparsed := fetch.ParseListing(text, listNow)
	var want []fetch.Entry
	for _, line := range strings.Split(text, "\n") {
		if e, ok := fetch.ParseListLine(strings.TrimSuffix(line, "\r"), listNow); ok {
			want = append(want, e)
		}
	}
	if len(entries) != 4 || !reflect.DeepEqual(entries, want) {
		t.Errorf("ParseListing: %d entries\n%+v\nline by line: %+v", len(entries), entries, want)
	}
	if !reflect.DeepEqual(unparsed, []string{"this line is no listing"}) {
		t.Errorf("unparsed = %q", unparsed)
	}
	if entries[1].Line != "lrwxrwxrwx    1 0        0               8 Mar 07 09:15 current -> releases" {
		t.Errorf("Line = %q: want the line without its end", entries[1].Line)
	}
}
