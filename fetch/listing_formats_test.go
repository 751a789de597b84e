package fetch_test

import (
	"io/fs"
	"reflect"
	"strings"
	"testing"

	"github.com/ftpurl/ftpurl/fetch"
)

// The lines of these tests are the project's own, written in the
// shapes the systems' FTP servers send; each names the format it shows.

// OpenVMS: a file's name keeps its version, a directory "NAME.DIR;1"
// is named as CWD takes it, sizes are 512-byte blocks.
func TestParseListLineVMS(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"OpenVMS DIRECTORY/SIZE/DATE/OWNER/PROTECTION file", "LOGIN.COM;3              4/6       11-MAR-2025 08:05:41  [STAFF,ALICE]  (RWED,RWED,RE,)",
			fetch.Entry{Name: "LOGIN.COM;3", Size: 2048, ModTime: utc(2025, 3, 11, 8, 5, 41), Precision: second, Local: true}},
		{"OpenVMS directory file: Name without .DIR;1", "REPORTS.DIR;1            1/3       02-JAN-2024 17:20:00  [STAFF,ALICE]  (RWE,RWE,RE,E)",
			fetch.Entry{Name: "REPORTS", Mode: fs.ModeDir, Size: 512, ModTime: utc(2024, 1, 2, 17, 20, 0), Precision: second, Local: true}},
		{"OpenVMS hundredths of a second dropped, no owner or protection", "BUILD.LOG;12  388  19-FEB-2025 23:59:07.81",
			fetch.Entry{Name: "BUILD.LOG;12", Size: 388 * 512, ModTime: utc(2025, 2, 19, 23, 59, 7), Precision: second, Local: true}},
		{"OpenVMS time to the minute, identifier owner", "NOTES.TXT;1  2  5-MAR-2025 10:15  [ALICE]  (RWED,RWED,,)",
			fetch.Entry{Name: "NOTES.TXT;1", Size: 1024, ModTime: utc(2025, 3, 5, 10, 15, 0), Precision: minute, Local: true}},
		{"OpenVMS date without a time, owner as a bare word", "ARCHIVE.ZIP;2   70/72   28-DEC-2023   BACKUP   (RWED,RWED,R,)",
			fetch.Entry{Name: "ARCHIVE.ZIP;2", Size: 70 * 512, ModTime: utc(2023, 12, 28, 0, 0, 0), Precision: day, Local: true}},
		{"OpenVMS size in bytes (DIRECTORY/SIZE=UNITS=BYTES)", "DATA.BIN;1 3MB 01-MAR-2025 12:00:00.00",
			fetch.Entry{Name: "DATA.BIN;1", Size: 3 << 20, ModTime: utc(2025, 3, 1, 12, 0, 0), Precision: second, Local: true}},
		{"OpenVMS columns in another order", "SETUP.COM;4  [SYSTEM]  12-JUL-2022 09:30  3/3  (RWED,RWED,RE,RE)",
			fetch.Entry{Name: "SETUP.COM;4", Size: 1536, ModTime: utc(2022, 7, 12, 9, 30, 0), Precision: minute, Local: true}},
		{"OpenVMS owner cut off by its column", "WEB.DIR;1  6/9  14-NOV-2024 16:45:12  [WEBSERVER,HTTPD_DAEMON_ACC     (RWE,RWE,RE,RE)",
			fetch.Entry{Name: "WEB", Mode: fs.ModeDir, Size: 3072, ModTime: utc(2024, 11, 14, 16, 45, 12), Precision: second, Local: true}},
	})
}

// IBM z/OS: data sets (a PDS is a directory), PDS members with and
// without ISPF statistics, load modules and JES jobs.
func TestParseListLineMVS(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"IBM z/OS FTP server LIST of data sets: sequential (PS)", "WORK01 3390   2025/03/18  1   15  FB      80 27920  PS  PAYROLL.WEEKLY",
			fetch.Entry{Name: "PAYROLL.WEEKLY", Size: -1, ModTime: utc(2025, 3, 18, 0, 0, 0), Precision: day, Local: true}},
		{"IBM z/OS FTP server LIST of data sets: a PDS (PO) is a directory", "WORK02 3390   2025/03/17  2   40  FB      80 27920  PO  PAYROLL.SOURCE",
			fetch.Entry{Name: "PAYROLL.SOURCE", Mode: fs.ModeDir, Size: -1, ModTime: utc(2025, 3, 17, 0, 0, 0), Precision: day, Local: true}},
		{"IBM z/OS FTP server LIST of data sets: a PDSE (PO-E), Used too wide for its column", "WORK03 3390   2025/01/09  4 ????  U        0 32760  PO-E  PAYROLL.LOADLIB",
			fetch.Entry{Name: "PAYROLL.LOADLIB", Mode: fs.ModeDir, Size: -1, ModTime: utc(2025, 1, 9, 0, 0, 0), Precision: day, Local: true}},
		{"IBM z/OS FTP server LIST of data sets: never referred to, Ext and Used run together", "WORK04 3390   **NONE**  112500  VB   255 27998  PS  PAYROLL.HISTORY",
			fetch.Entry{Name: "PAYROLL.HISTORY", Size: -1, Local: true}},
		{"IBM z/OS FTP server LIST of data sets: VSAM", "WORK05 3390   VSAM PAYROLL.MASTER",
			fetch.Entry{Name: "PAYROLL.MASTER", Size: -1, Local: true}},
		{"IBM z/OS FTP server LIST of data sets: migrated (HSM)", "Migrated                        PAYROLL.Y2019",
			fetch.Entry{Name: "PAYROLL.Y2019", Size: -1, Local: true}},
		{"IBM z/OS FTP server LIST of data sets: on tape", "T00412 Tape                     PAYROLL.BACKUP",
			fetch.Entry{Name: "PAYROLL.BACKUP", Size: -1, Local: true}},
		{"IBM z/OS FTP server LIST of a PDS with ISPF statistics", "PAYCALC   01.07 2024/11/02 2025/03/14 11:20   214   190    12 ALICE",
			fetch.Entry{Name: "PAYCALC", Size: -1, ModTime: utc(2025, 3, 14, 11, 20, 0), Precision: minute, Local: true}},
		{"IBM z/OS FTP server LIST of a PDS with ISPF statistics to the second", "PAYPRNT   01.02 2024/11/02 2025/03/14 11:20:45    80    80     0 BOB",
			fetch.Entry{Name: "PAYPRNT", Size: -1, ModTime: utc(2025, 3, 14, 11, 20, 45), Precision: second, Local: true}},
		{"IBM z/OS FTP server LIST of a PDS: a member without statistics", "PAYNOTE",
			fetch.Entry{Name: "PAYNOTE", Size: -1, Local: true}},
		{"IBM z/OS FTP server LIST of a load library: hexadecimal size", "PAYMAIN   001A40 00002C  00 FO             31    ANY",
			fetch.Entry{Name: "PAYMAIN", Size: 0x1A40, Local: true}},
		{"IBM z/OS FTP server LIST of a load library: an alias", "PAYALT    000800 00003A PAYMAIN 00 FO  RN  RU  31    24",
			fetch.Entry{Name: "PAYALT", Size: 0x800, Local: true}},
		{"IBM z/OS FTP server JES interface, JESINTERFACELEVEL=2", "PAYRUN   JOB04711 ALICE    OUTPUT A        RC=0004 5 spool files",
			fetch.Entry{Name: "JOB04711", Size: -1, Local: true}},
	})
}

// IBM i (OS/400): objects with size and date, members without.
func TestParseListLineOS400(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"IBM i FTP server, NAMEFMT 1: a stream file", "ALICE          20480 03/12/25 16:02:09 *STMF      quarterly report.pdf",
			fetch.Entry{Name: "quarterly report.pdf", Size: 20480, ModTime: utc(2025, 3, 12, 16, 2, 9), Precision: second, Local: true}},
		{"IBM i FTP server: a directory, its name ending in '/'", "QSYS            8192 01/30/25 07:45:00 *DIR       home/",
			fetch.Entry{Name: "home", Mode: fs.ModeDir, Size: 8192, ModTime: utc(2025, 1, 30, 7, 45, 0), Precision: second, Local: true}},
		{"IBM i FTP server: a library is a directory", "QSYS           53248 11/04/24 13:10:30 *LIB       PAYLIB.LIB",
			fetch.Entry{Name: "PAYLIB.LIB", Mode: fs.ModeDir, Size: 53248, ModTime: utc(2024, 11, 4, 13, 10, 30), Precision: second, Local: true}},
		{"IBM i FTP server: a date as DD.MM.YY (job date format *DMY with '.')", "BOB            40960 21.02.25 09:00:01 *FILE      PAYLIB.LIB/SALES.FILE",
			fetch.Entry{Name: "PAYLIB.LIB/SALES.FILE", Size: 40960, ModTime: utc(2025, 2, 21, 9, 0, 1), Precision: second, Local: true}},
		{"IBM i FTP server: a member, without size and date", "BOB                                     *MEM       PAYLIB.LIB/SALES.FILE/Q1.MBR",
			fetch.Entry{Name: "PAYLIB.LIB/SALES.FILE/Q1.MBR", Size: -1, Local: true}},
	})
}

// The listings of other systems, one or two lines each.
func TestParseListLineOtherSystems(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"OS/2 FTP server: a file with attribute A", "  48213      A          02-27-25   18:30  CONFIG.SYS",
			fetch.Entry{Name: "CONFIG.SYS", Size: 48213, ModTime: utc(2025, 2, 27, 18, 30, 0), Precision: minute, Local: true}},
		{"OS/2 FTP server: a directory, a year counted from 1900", "      0           DIR   06-01-101  08:00  DESKTOP",
			fetch.Entry{Name: "DESKTOP", Mode: fs.ModeDir, Size: 0, ModTime: utc(2001, 6, 1, 8, 0, 0), Precision: minute, Local: true}},
		{"Novell NetWare FTP server: a file", "- [RWCEAFMS] alice                  7340 Mar 14 10:02 budget 2025.xls",
			fetch.Entry{Name: "budget 2025.xls", Size: 7340, ModTime: utc(2025, 3, 14, 10, 2, 0), Precision: minute, Local: true}},
		{"Novell NetWare FTP server: a directory with a year", "d [R----F--] supervisor              512 Aug  9  2021 PUBLIC",
			fetch.Entry{Name: "PUBLIC", Mode: fs.ModeDir, Size: 512, ModTime: utc(2021, 8, 9, 0, 0, 0), Precision: day, Local: true}},
		{"IBM z/VM FTP server: a fixed-length (F) file, records × LRECL bytes", "PROFILE  EXEC     F        80       25        1 2025-03-02 09:41:17 ALI191",
			fetch.Entry{Name: "PROFILE.EXEC", Size: 2000, ModTime: utc(2025, 3, 2, 9, 41, 17), Precision: second, Local: true}},
		{"IBM z/VM FTP server: a variable-length (V) file, no size", "NOTES    SCRIPT   V       132      310        4 2025-03-03 15:00:00 ALI191",
			fetch.Entry{Name: "NOTES.SCRIPT", Size: -1, ModTime: utc(2025, 3, 3, 15, 0, 0), Precision: second, Local: true}},
		{"HP NonStop (Guardian) FTP server", "PAYROLL    101      40960 3-Mar-25 12:34:56 100,200 \"nunu\"",
			fetch.Entry{Name: "PAYROLL", Size: 40960, ModTime: utc(2025, 3, 3, 12, 34, 56), Precision: second, Local: true}},
		{"Microware OS-9 dir -e: yy/mm/dd hhmm", "0.0 25/03/09 1405 d-ewrewr 1F4 2048 SYS",
			fetch.Entry{Name: "SYS", Mode: fs.ModeDir, Size: 2048, ModTime: utc(2025, 3, 9, 14, 5, 0), Precision: minute, Local: true}},
		{"VShell (old) file", "10240  Mar 01, 2025 07:30 changes.txt",
			fetch.Entry{Name: "changes.txt", Size: 10240, ModTime: utc(2025, 3, 1, 7, 30, 0), Precision: minute, Local: true}},
		{"VShell (old) directory, '/' after its name", "0  Jan 15, 2024 12:00 logs/",
			fetch.Entry{Name: "logs", Mode: fs.ModeDir, Size: 0, ModTime: utc(2024, 1, 15, 12, 0, 0), Precision: minute, Local: true}},
		{"Nortel VxWorks router FTP server: a directory", "1024    Mar-05-2025  22:10:05   flash cfg <DIR>",
			fetch.Entry{Name: "flash cfg", Mode: fs.ModeDir, Size: 1024, ModTime: utc(2025, 3, 5, 22, 10, 5), Precision: second, Local: true}},
		{"Nortel wfFtp router FTP server", "router.cfg       20117  03/05/25  Wed.   22:10:05",
			fetch.Entry{Name: "router.cfg", Size: 20117, ModTime: utc(2025, 3, 5, 22, 10, 5), Precision: second, Local: true}},
		{"numeric Unix (octal st_mode, epoch seconds, UTC)", "0040755  1000  1000   4096   1741338900   src tree",
			fetch.Entry{Name: "src tree", Mode: fs.ModeDir | 0o755, Size: 4096, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: second}},
	})
}

// Issue 37: only a link's line is split at " -> "; any other entry's
// name is the rest of its line.
func TestParseListLineArrowInName(t *testing.T) {
	checkListCases(t, listNow, []listCase{
		{"vsftpd file whose name holds \" -> \"", "-rw-r--r--    1 ftp      ftp            12 Mar 07 09:15 old -> new.txt",
			fetch.Entry{Name: "old -> new.txt", Mode: 0o644, Size: 12, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ProFTPD directory whose name holds \" -> \" twice", "drwxr-xr-x   2 alice    staff        4096 Mar  7 09:15 a -> b -> c",
			fetch.Entry{Name: "a -> b -> c", Mode: fs.ModeDir | 0o755, Size: 4096, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"vsftpd symlink: split", "lrwxrwxrwx    1 ftp      ftp             7 Mar 07 09:15 latest -> v2.1.0",
			fetch.Entry{Name: "latest", Target: "v2.1.0", Mode: fs.ModeSymlink | 0o777, Size: 7, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
		{"ftpserverlib symlink (Go's L): split", "Lrwxrwxrwx 1 ftp ftp            6 Mar  7 09:15 stable -> v2.0.9",
			fetch.Entry{Name: "stable", Target: "v2.0.9", Mode: fs.ModeSymlink | 0o777, Size: 6, ModTime: utc(2025, 3, 7, 9, 15, 0), Precision: minute, Local: true}},
	})
}

// Lines of these systems that are no entry.
func TestParseListLineOtherRejects(t *testing.T) {
	for _, line := range []string{
		"LOGIN.COM;3", // OpenVMS name alone: half an entry
		"LOGIN.COM;3  4/6  [STAFF,ALICE]  (RWED,RWED,RE,)",                  // OpenVMS without a date
		"LOGIN.COM;3  4/6  11-MAR-2025 08:05:41  (RWED,RWED,RE)",            // three protection runs
		"LOGIN.COM;3  4/6  11-MAR-2025 08:05:41  (RWDE,RWED,RE,)",           // letters out of order
		"LOGIN.COM;3  4/6  11-MAR-2025 08:05:41  [STAFF-1,ALICE]",           // '-' in an owner
		"LOGIN.COM;3  4/6  11-MAR-25 08:05:41",                              // 2-digit year
		"LOGIN.COM;3  4/6  11-MAR-2025 08:05:41 AM  [STAFF,ALICE]",          // AM: two owners
		"LOGIN.COM;x  4/6  11-MAR-2025 08:05:41",                            // version with a letter
		"Directory DKA100:[ALICE]",                                          // OpenVMS header
		"Total of 12 files, 480/512 blocks.",                                // OpenVMS trailer
		"Volume Unit    Referred Ext Used Recfm Lrecl BlkSz Dsorg Dsname",   // z/OS header
		"Name     VV.MM   Created       Changed      Size  Init   Mod   Id", // z/OS PDS header
		"WORK01 3390   2025/13/18  1   15  FB      80 27920  PS  BAD.MONTH", // z/OS month 13
		"work01 3390   2025/03/18  1   15  FB      80 27920  PS  LOWER.VOL", // z/OS volume in small letters
		"paynote",   // not a member name
		"PAYNOTE12", // nine characters
		"ALICE          20480 03/12/25 16:02:09 *MEM       LIB/F.FILE/M.MBR", // IBM i member with size and date
		"ALICE                                  *STMF      no-size.txt",      // IBM i object without size and date
		"ALICE          20480 03/12/25 25:02:09 *STMF      hour25.txt",       // IBM i hour 25
		"ALICE          20480 03/12/25 16:02:09 STMF       nostar.txt",       // IBM i type without '*'
		"      0           dir   06-01-101  08:00  small",                    // OS/2 type in small letters
		"x [RWCEAFMS] alice   7340 Mar 14 10:02 type",                        // NetWare type x
		"- [RWCEAFMS] alice   7340 14-03-2025 type",                          // NetWare numeric date
		"router.cfg       20117  03/05/25  Wdn.   22:10:05",                  // wfFtp: no day of the week
	} {
		if e, ok := fetch.ParseListLine(line, listNow); ok {
			t.Errorf("ParseListLine(%q) = %+v, true; want false", line, e)
		}
	}
}

// An OpenVMS entry split over two lines (its name too long for its
// column): the listing readers join them by one SP, and the whole
// listing gives what ParseListLine gives for the joined line. A name
// line that the next line does not complete is unparsed, and the next
// line is read alone.
func TestParseListingJoinsVMSLines(t *testing.T) {
	long := "QUARTERLY_FINANCIAL_SUMMARY_2025.TXT;2"
	cont := "                        31/33      14-MAR-2025 18:22:10  [STAFF,ALICE]  (RWED,RWED,RE,)"
	text := "Directory DKA100:[ALICE]\r\n\r\n" +
		long + "\r\n" + cont + "\r\n" +
		"LOGIN.COM;3              4/6       11-MAR-2025 08:05:41  [STAFF,ALICE]  (RWED,RWED,RE,)\r\n" +
		"ORPHAN.TXT;1\r\n" +
		"REPORTS.DIR;1            1/3       02-JAN-2024 17:20:00  [STAFF,ALICE]  (RWE,RWE,RE,E)\r\n" +
		"\r\nTotal of 3 files, 36/42 blocks.\r\n" +
		"LAST.TXT;1\r\n"
	entries, unparsed := fetch.ParseListing(text, listNow)
	joined, ok := fetch.ParseListLine(long+" "+cont, listNow)
	if !ok {
		t.Fatalf("ParseListLine of the joined line: false")
	}
	want := fetch.Entry{Name: long, Size: 31 * 512, ModTime: utc(2025, 3, 14, 18, 22, 10), Precision: second, Local: true, Line: long + " " + cont}
	if !reflect.DeepEqual(joined, want) {
		t.Errorf("joined line\n got %+v\nwant %+v", joined, want)
	}
	if len(entries) != 3 || !reflect.DeepEqual(entries[0], joined) || entries[1].Name != "LOGIN.COM;3" || entries[2].Name != "REPORTS" {
		t.Errorf("ParseListing: %+v", entries)
	}
	wantUnparsed := []string{"Directory DKA100:[ALICE]", "ORPHAN.TXT;1", "Total of 3 files, 36/42 blocks.", "LAST.TXT;1"}
	if !reflect.DeepEqual(unparsed, wantUnparsed) {
		t.Errorf("unparsed = %q, want %q", unparsed, wantUnparsed)
	}
	// Blanks after the name line are no matter.
	if padded, _ := fetch.ParseListing(long+"   \r\n"+cont+"\r\n", listNow); len(padded) != 1 || padded[0].Name != long || padded[0].Size != 31*512 {
		t.Errorf("a name line with blanks after it: %+v", padded)
	}
	// LF alone ends a line as CRLF does.
	lf, _ := fetch.ParseListing(strings.ReplaceAll(text, "\r\n", "\n"), listNow)
	if !reflect.DeepEqual(lf, entries) {
		t.Errorf("with LF: %+v", lf)
	}
}

// The lines of the systems the benchmark measures allocate nothing.
func TestParseListLineOtherSystemsAllocateNothing(t *testing.T) {
	for _, line := range []string{
		"LOGIN.COM;3              4/6       11-MAR-2025 08:05:41  [STAFF,ALICE]  (RWED,RWED,RE,)",
		"WORK01 3390   2025/03/18  1   15  FB      80 27920  PS  PAYROLL.WEEKLY",
		"PAYCALC   01.07 2024/11/02 2025/03/14 11:20   214   190    12 ALICE",
		"ALICE          20480 03/12/25 16:02:09 *STMF      quarterly report.pdf",
		"  48213      A          02-27-25   18:30  CONFIG.SYS",
		"- [RWCEAFMS] alice                  7340 Mar 14 10:02 budget 2025.xls",
	} {
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
