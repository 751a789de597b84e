package fetch

import (
	"io/fs"
	"strings"
	"time"
)

// The listings of systems other than Unix, DOS/IIS, EPLF and MLSD:
// OpenVMS, IBM z/OS (data sets, PDS members, JES jobs), IBM i (OS/400),
// OS/2, Novell NetWare, IBM z/VM, HP NonStop, Microware OS-9, VShell,
// VxWorks and wfFtp routers, numeric Unix lines. ParseListLine tries
// them (parseOther) once the Unix, DOS, EPLF and MLSD readers have
// turned a line down.

// maxCols is how many fields of a line the readers of other systems'
// listings look at: their lines have a dozen at most before the name,
// and a name with spaces is the rest of the line from its first field.
const maxCols = 16

// cols is a line split into fields at runs of SP and TAB.
type cols struct {
	line string
	f    [maxCols][2]int // [start, end) of each field in line
	n    int             // fields in f
	more bool            // the line has more fields than f holds
}

// split splits line into its fields.
func (c *cols) split(line string) {
	c.line, c.n, c.more = line, 0, false
	pos := 0
	for {
		for pos < len(line) && (line[pos] == ' ' || line[pos] == '\t') {
			pos++
		}
		if pos == len(line) {
			return
		}
		if c.n == maxCols {
			c.more = true
			return
		}
		start := pos
		for pos < len(line) && line[pos] != ' ' && line[pos] != '\t' {
			pos++
		}
		c.f[c.n] = [2]int{start, pos}
		c.n++
	}
}

// field is field i, or "" past the last.
func (c *cols) field(i int) string {
	if i >= c.n {
		return ""
	}
	return c.line[c.f[i][0]:c.f[i][1]]
}

// from is the line from field i to its end, or "" past the last field.
func (c *cols) from(i int) string {
	if i >= c.n {
		return ""
	}
	return c.line[c.f[i][0]:]
}

// exactly reports whether the line has n fields.
func (c *cols) exactly(n int) bool { return c.n == n && !c.more }

// parseOther reads the listings of systems other than Unix, DOS, EPLF
// and MLSx, each told by its shape; the line is split once for all.
func parseOther(line string, now time.Time) (Entry, bool) {
	var c cols
	c.split(line)
	if c.n == 0 {
		return Entry{}, false
	}
	if e, ok := parseVMS(&c); ok {
		return e, true
	}
	if e, ok := parseMVS(&c); ok {
		return e, true
	}
	if e, ok := parseOS400(&c); ok {
		return e, true
	}
	if e, ok := parseOS2(&c); ok {
		return e, true
	}
	if e, ok := parseNetware(&c, now); ok {
		return e, true
	}
	return parseRare(&c)
}

// parseRare reads the formats of single systems that FTP clients
// still meet now and then.
func parseRare(c *cols) (Entry, bool) {
	if e, ok := parseZVM(c); ok {
		return e, true
	}
	if e, ok := parseNonStop(c); ok {
		return e, true
	}
	if e, ok := parseOS9(c); ok {
		return e, true
	}
	if e, ok := parseVShell(c); ok {
		return e, true
	}
	if e, ok := parseVxWorks(c); ok {
		return e, true
	}
	if e, ok := parseWfFtp(c); ok {
		return e, true
	}
	return parseNumericUnix(c)
}

// ---- OpenVMS ----

// parseVMS reads a line of an OpenVMS directory listing (DIRECTORY and
// DIRECTORY/FULL-like columns, as VMS FTP servers send them):
// "NAME.EXT;VERSION", then, in any order, the size, the date
// "DD-MON-YYYY" with its time "HH:MM", "HH:MM:SS" or "HH:MM:SS.CC" after
// it (the hundredths dropped), the owner "[GROUP,OWNER]" or "[NAME]"
// (its ']' may be cut off by the column, or the owner be one bare word)
// and the protection "(S,O,G,W)", each of the four a run of the letters
// RWED. The size is in blocks of 512 bytes, used or "used/allocated"
// (Size is the used blocks × 512), or in bytes as "2KB", "3MB" or "1GB"
// (powers of 1024). A size and a date are required, any other field
// rejects the line.
//
// A file's Name is the name as sent, ";VERSION" and all: the versions
// of a file are entries of their own, and RETR of that name fetches
// that version. A directory is a file "NAME.DIR;1" and its Name is NAME,
// the name that CWD takes.
func parseVMS(c *cols) (Entry, bool) {
	spec := c.field(0)
	semi := strings.LastIndexByte(spec, ';')
	if semi <= 0 || !isVMSVersion(spec[semi+1:]) || c.n < 3 || c.more {
		return Entry{}, false
	}
	e := Entry{Name: spec, Size: -1, Local: true}
	if base := spec[:semi]; len(base) > 4 && strings.EqualFold(base[len(base)-4:], ".DIR") {
		e.Name, e.Mode = base[:len(base)-4], fs.ModeDir
	}
	var sized, dated, owned, protected bool
	for i := 1; i < c.n; i++ {
		f := c.field(i)
		switch {
		case f[0] == '[':
			if owned || !isVMSOwner(f) {
				return Entry{}, false
			}
			owned = true
		case f[0] == '(':
			if protected || !isVMSProtection(f) {
				return Entry{}, false
			}
			protected = true
		case isDigit(f[0]):
			if n, ok := vmsSize(f); ok && !sized {
				e.Size, sized = n, true
				continue
			}
			if dated {
				return Entry{}, false
			}
			t, prec, used, ok := vmsDate(f, c.field(i+1))
			if !ok {
				return Entry{}, false
			}
			e.ModTime, e.Precision, dated = t, prec, true
			i += used - 1
		default:
			if owned || !isVMSWord(f) {
				return Entry{}, false
			}
			owned = true
		}
	}
	if !sized || !dated {
		return Entry{}, false
	}
	return e, true
}

// isVMSNameLine reports whether line is an OpenVMS file name alone
// (blanks after it aside), as a VMS server sends a name too long for
// its column, the rest of the entry on the next line.
func isVMSNameLine(line string) bool {
	line = strings.TrimRight(line, " \t")
	if line == "" || strings.ContainsAny(line, " \t\r\n\x00") {
		return false
	}
	semi := strings.LastIndexByte(line, ';')
	return semi > 0 && isVMSVersion(line[semi+1:])
}

// isVMSVersion reports whether s is a file version, 1 to 5 digits.
func isVMSVersion(s string) bool { return len(s) <= 5 && allDigits(s) }

// vmsSize reads a VMS size in bytes: blocks of 512 ("155"), used and
// allocated blocks ("9/12": the used ones), or bytes with a unit
// ("2KB").
func vmsSize(s string) (int64, bool) {
	used, _, slash := strings.Cut(s, "/")
	if slash && !allDigits(s[len(used)+1:]) {
		return 0, false
	}
	if n, ok := parseUint(used); ok {
		if n > 1<<53 {
			return 0, false
		}
		return n * 512, true
	}
	if slash || len(s) < 3 || s[len(s)-1] != 'B' {
		return 0, false
	}
	var shift uint
	switch s[len(s)-2] {
	case 'K':
		shift = 10
	case 'M':
		shift = 20
	case 'G':
		shift = 30
	default:
		return 0, false
	}
	n, ok := parseUint(s[:len(s)-2])
	if !ok || n >= 1<<(62-shift) {
		return 0, false
	}
	return n << shift, true
}

// vmsDate reads "DD-MON-YYYY" from d and, where next is one, its time:
// the time, its precision and how many fields it took.
func vmsDate(d, next string) (time.Time, time.Duration, int, bool) {
	day, mon, year, ok := dayMonYear(d)
	if !ok || len(d)-strings.LastIndexByte(d, '-') != 5 || !validDate(year, mon, day) {
		return time.Time{}, 0, 0, false
	}
	if h, mi, sec, prec, ok := parseClockSec(next); ok {
		return time.Date(year, time.Month(mon), day, h, mi, sec, 0, time.UTC), prec, 2, true
	}
	return time.Date(year, time.Month(mon), day, 0, 0, 0, 0, time.UTC), 24 * time.Hour, 1, true
}

// isVMSOwner reports whether s is a VMS owner: "[GROUP,OWNER]" or
// "[IDENTIFIER]", made of letters, digits, '_' and '$', its ']' maybe
// cut off.
func isVMSOwner(s string) bool {
	s = strings.TrimPrefix(s, "[")
	s = strings.TrimSuffix(s, "]")
	group, owner, comma := strings.Cut(s, ",")
	return isVMSWord(group) && (!comma || isVMSWord(owner))
}

// isVMSWord reports whether s is a VMS identifier: letters, digits,
// '_' and '$', one letter at least.
func isVMSWord(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
			letter = true
		case isDigit(c), c == '_', c == '$':
		default:
			return false
		}
	}
	return letter
}

// isVMSProtection reports whether s is a VMS protection, "(S,O,G,W)":
// four runs, maybe empty, of the letters R, W, E and D in that order.
func isVMSProtection(s string) bool {
	if len(s) < 5 || s[0] != '(' || s[len(s)-1] != ')' || strings.Count(s, ",") != 3 {
		return false
	}
	runs := s[1 : len(s)-1]
	for {
		run, rest, more := strings.Cut(runs, ",")
		if !inOrderOf(run, "RWED") {
			return false
		}
		if !more {
			return true
		}
		runs = rest
	}
}

// inOrderOf reports whether the bytes of s are some of those of
// letters, each once, in their order there.
func inOrderOf(s, letters string) bool {
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(letters, s[i])
		if j < 0 {
			return false
		}
		letters = letters[j+1:]
	}
	return true
}

// ---- IBM z/OS (MVS) ----

// parseMVS reads the lines the z/OS FTP server sends for LIST, each
// told by its shape: a data set ([parseMVSDataSet]), a member of a
// partitioned data set with or without ISPF statistics
// ([parseMVSMember]), a member of a load library ([parseMVSLoadModule])
// or a JES job ([parseJESJob]).
func parseMVS(c *cols) (Entry, bool) {
	if e, ok := parseMVSDataSet(c); ok {
		return e, true
	}
	if e, ok := parseMVSMember(c); ok {
		return e, true
	}
	if e, ok := parseMVSLoadModule(c); ok {
		return e, true
	}
	return parseJESJob(c)
}

// parseMVSDataSet reads a data set line of the z/OS FTP server,
// "Volume Unit Referred Ext Used Recfm Lrecl BlkSz Dsorg Dsname"
// ("WORK01 3390 2024/05/21 1 15 FB 80 27920 PS PAYROLL.DATA"), where Ext
// and Used may run together as one number, Used may be "????" or "++++"
// (too many tracks for its column) and Referred "**NONE**". A
// partitioned data set (Dsorg PO or PO-E) is a directory, any other a
// file. ModTime is the day the data set was last referred to; the line
// gives no size in bytes: Size -1. Also read, as files with nothing else
// known: "Migrated NAME", "VOLSER Tape NAME", "VOLSER 3390 VSAM NAME"
// and "VOLSER Not Direct Access Device NAME".
func parseMVSDataSet(c *cols) (Entry, bool) {
	vol := c.field(0)
	e := Entry{Size: -1, Local: true}
	switch {
	case c.exactly(2) && vol == "Migrated":
		e.Name = c.field(1)
		return e, true
	case !isMVSName(vol, 6):
		return Entry{}, false
	case c.exactly(3) && c.field(1) == "Tape",
		c.exactly(4) && allDigits(c.field(1)) && c.field(2) == "VSAM",
		c.exactly(6) && c.field(1) == "Not" && c.field(2) == "Direct" && c.field(3) == "Access" && c.field(4) == "Device":
		e.Name = c.field(c.n - 1)
		return e, true
	case !allDigits(c.field(1)) || !c.exactly(9) && !c.exactly(10):
		return Entry{}, false
	}
	if referred := c.field(2); referred != "**NONE**" {
		y, m, d, ok := ymd(referred, '/')
		if !ok {
			return Entry{}, false
		}
		e.ModTime, e.Precision = time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC), 24*time.Hour
	}
	i := 4 // after Ext and Used as one number
	if c.n == 10 {
		if used := c.field(4); !allDigits(used) && used != "????" && used != "++++" {
			return Entry{}, false
		}
		i = 5
	}
	if !allDigits(c.field(3)) {
		return Entry{}, false
	}
	recfm, lrecl, blksize, dsorg := c.field(i), c.field(i+1), c.field(i+2), c.field(i+3)
	if !isUpperWord(recfm) || !allDigits(lrecl) || !allDigits(blksize) || !isUpperWord(strings.TrimSuffix(dsorg, "-E")) {
		return Entry{}, false
	}
	if dsorg == "PO" || dsorg == "PO-E" {
		e.Mode = fs.ModeDir
	}
	e.Name = c.field(i + 4)
	return e, true
}

// parseMVSMember reads a member of a partitioned data set as the z/OS
// FTP server lists it: with ISPF statistics, "Name VV.MM Created
// Changed Size Init Mod Id" ("PAYROLL 01.03 2024/05/20 2024/05/21
// 14:02 120 100 3 USER1"), or its name alone where it has none (1 to 8
// letters, digits, '@', '#', '$', the first no digit). ModTime is the
// change, to the minute or the second as the line gives it; Size of
// ISPF is a count of records, not bytes: Size -1.
func parseMVSMember(c *cols) (Entry, bool) {
	e := Entry{Name: c.field(0), Size: -1, Local: true}
	if c.exactly(1) && c.f[0][0] == 0 && isMVSName(e.Name, 8) && !isDigit(e.Name[0]) {
		return e, true
	}
	if !c.exactly(8) && !c.exactly(9) {
		return Entry{}, false
	}
	vm := c.field(1)
	if len(vm) != 5 || vm[2] != '.' || !allDigits(vm[:2]) || !allDigits(vm[3:]) {
		return Entry{}, false
	}
	if _, _, _, ok := ymd(c.field(2), '/'); !ok {
		return Entry{}, false
	}
	y, m, d, ok := ymd(c.field(3), '/')
	h, mi, sec, prec, ok2 := parseClockSec(c.field(4))
	if !ok || !ok2 || !allDigits(c.field(5)) || !allDigits(c.field(6)) || !allDigits(c.field(7)) {
		return Entry{}, false
	}
	e.ModTime = time.Date(y, time.Month(m), d, h, mi, sec, 0, time.UTC)
	e.Precision = prec
	return e, true
}

// parseMVSLoadModule reads a member of a load library as the z/OS FTP
// server lists it: "Name Size TTR Alias-of AC Attributes Amode Rmode"
// ("PAYCALC 00B308 000411 00 FO RU 31 ANY"), the size in bytes, in
// hexadecimal.
func parseMVSLoadModule(c *cols) (Entry, bool) {
	if c.n < 6 || c.n > 10 || c.more {
		return Entry{}, false
	}
	size, ok := parseHex6(c.field(1))
	if _, ok2 := parseHex6(c.field(2)); !ok || !ok2 || !isAddressingMode(c.field(c.n-2)) || !isAddressingMode(c.field(c.n-1)) {
		return Entry{}, false
	}
	return Entry{Name: c.field(0), Size: size, Local: true}, true
}

// parseJESJob reads a job of the z/OS FTP server's JES interface
// (SITE FILETYPE=JES): "JOBNAME JOBID [OWNER] STATUS [CLASS RC] n
// spool files". Name is the job id, the name RETR takes there.
func parseJESJob(c *cols) (Entry, bool) {
	if c.n < 5 || c.more || !strings.EqualFold(c.field(c.n-2), "spool") || !strings.EqualFold(c.field(c.n-1), "files") || !allDigits(c.field(c.n-3)) {
		return Entry{}, false
	}
	id := c.field(1)
	i := 0
	for i < len(id) && 'A' <= id[i] && id[i] <= 'Z' {
		i++
	}
	if len(id) != 8 || i < 1 || i > 3 || !allDigits(id[i:]) || !isMVSName(c.field(0), 8) {
		return Entry{}, false
	}
	return Entry{Name: id, Size: -1, Local: true}, true
}

// isMVSName reports whether s is a z/OS name of at most max
// characters: capital letters, digits, '@', '#' and '$'.
func isMVSName(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || isDigit(c) || c == '@' || c == '#' || c == '$') {
			return false
		}
	}
	return true
}

// isUpperWord reports whether s is one or more capital letters.
func isUpperWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}

// isAddressingMode reports whether s is a load module's AMODE or
// RMODE: 24, 31, 64 or ANY.
func isAddressingMode(s string) bool {
	return s == "24" || s == "31" || s == "64" || s == "ANY"
}

// parseHex6 reads six hexadecimal digits.
func parseHex6(s string) (int64, bool) {
	if len(s) != 6 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			n = n<<4 | int64(c-'0')
		case 'A' <= c && c <= 'F':
			n = n<<4 | int64(c-'A'+10)
		case 'a' <= c && c <= 'f':
			n = n<<4 | int64(c-'a'+10)
		default:
			return 0, false
		}
	}
	return n, true
}

// ---- IBM i (OS/400) ----

// parseOS400 reads a line of the IBM i FTP server: "OWNER SIZE DATE
// TIME *TYPE NAME" ("QSYS 77824 02/23/00 15:09:55 *DIR QOpenSys/"), or
// "OWNER *MEM NAME" for a member of a database file, which is listed
// without size and date (and only it). The date is MM/DD/YY, or
// DD/MM/YY where the first number is no month, DD.MM.YY with dots, or
// YYYY/MM/DD; the time has seconds. The object types *DIR, *LIB and
// *FLR are directories, *SYMLNK a link, any other a file; a name ending
// in '/' is a directory too, and its Name is without the '/'.
func parseOS400(c *cols) (Entry, bool) {
	if !isProfileName(c.field(0)) {
		return Entry{}, false
	}
	e := Entry{Size: -1, Local: true}
	typ, next := c.field(1), 2
	if !isObjectType(typ) {
		size, ok := parseUint(typ)
		y, m, d, ok2 := os400Date(c.field(2))
		h, mi, sec, prec, ok3 := parseClockSec(c.field(3))
		if typ, next = c.field(4), 5; !ok || !ok2 || !ok3 || prec != time.Second || !isObjectType(typ) || typ == "*MEM" {
			return Entry{}, false
		}
		e.Size, e.Precision = size, time.Second
		e.ModTime = time.Date(y, time.Month(m), d, h, mi, sec, 0, time.UTC)
	} else if typ != "*MEM" {
		return Entry{}, false
	}
	switch typ {
	case "*DIR", "*LIB", "*FLR":
		e.Mode = fs.ModeDir
	case "*SYMLNK":
		e.Mode = fs.ModeSymlink
	}
	e.Name = c.from(next)
	if n, ok := strings.CutSuffix(e.Name, "/"); ok {
		e.Name, e.Mode = n, fs.ModeDir
	}
	return e, true
}

// isProfileName reports whether s is an IBM i user profile name: 1 to
// 10 letters, digits, '_', '$', '#' and '@', one letter at least.
func isProfileName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z':
			letter = true
		case isDigit(c), c == '_', c == '$', c == '#', c == '@':
		default:
			return false
		}
	}
	return letter && len(s) <= 10
}

// isObjectType reports whether s is an IBM i object type: '*' and 2 to
// 10 capital letters or digits ("*FILE", "*STMF").
func isObjectType(s string) bool {
	return len(s) >= 3 && len(s) <= 11 && s[0] == '*' && isMVSName(s[1:], 10)
}

// os400Date reads an IBM i date as its FTP server shows it (see
// parseOS400): year, month, day.
func os400Date(s string) (y, m, d int, ok bool) {
	a, b, c, sep, wa, wb, wc, ok := split3(s)
	switch {
	case !ok || wb != 2:
		return 0, 0, 0, false
	case wa == 4 && wc == 2:
		y, m, d = a, b, c
	case wa != 2 || wc != 2 && wc != 4:
		return 0, 0, 0, false
	case sep == '.' || a > 12:
		d, m, y = a, b, fullYear(c, wc)
	default:
		m, d, y = a, b, fullYear(c, wc)
	}
	return y, m, d, validDate(y, m, d)
}

// ---- OS/2 ----

// parseOS2 reads a line of the OS/2 FTP server: "SIZE [ATTRIBUTES]
// [DIR] MM-DD-YY HH:MM NAME" ("  1123  A  07-14-99  12:37  config.sys";
// the attributes are of the letters A, R, S and H). A year of three
// digits counts from 1900, as some OS/2 servers send years after 1999
// ("04-23-103" is 2003).
func parseOS2(c *cols) (Entry, bool) {
	size, ok := parseUint(c.field(0))
	if !ok {
		return Entry{}, false
	}
	e := Entry{Size: size, Precision: time.Minute, Local: true}
	i := 1
	for ; i < 3; i++ {
		f := c.field(i)
		if f == "DIR" {
			e.Mode = fs.ModeDir
		} else if f == "" || strings.Trim(f, "ARSH") != "" {
			break
		}
	}
	m, d, y, sep, wm, wd, wy, ok := split3(c.field(i))
	h, mi, ok2 := parseClock(c.field(i+1), true)
	if !ok || !ok2 || sep != '-' || wm != 2 || wd != 2 || wy < 2 || !validDate(fullYear(y, wy), m, d) {
		return Entry{}, false
	}
	e.ModTime = time.Date(fullYear(y, wy), time.Month(m), d, h, mi, 0, 0, time.UTC)
	e.Name = c.from(i + 2)
	return e, true
}

// ---- Novell NetWare ----

// parseNetware reads a line of the NetWare FTP server: "d|- [RWCEAFMS]
// OWNER SIZE Mon DD HH:MM|YYYY NAME" ("- [RWCEAFMS] alice 1024 Mar 7
// 09:15 report.doc"), the rights in brackets no Unix permissions, the
// owner maybe missing; the year of a date without one by the year rule.
func parseNetware(c *cols, now time.Time) (Entry, bool) {
	e := Entry{Local: true}
	switch c.field(0) {
	case "d":
		e.Mode = fs.ModeDir
	case "-":
	default:
		return Entry{}, false
	}
	r := c.field(1)
	if len(r) != 10 || r[0] != '[' || r[9] != ']' || strings.Trim(r[1:9], "RWCEAFMS-") != "" {
		return Entry{}, false
	}
	i := 2 // the size
	if monthOf(c.field(4)) > 0 {
		i = 3
	}
	size, ok := parseUint(c.field(i))
	day, ok2 := parseUint(c.field(i + 2))
	m := monthOf(c.field(i + 1))
	if !ok || !ok2 || m == 0 || len(c.field(i+2)) > 2 {
		return Entry{}, false
	}
	d, ok := dayMonthRest(m, int(day), c.field(i+3), now, true)
	if !ok {
		return Entry{}, false
	}
	e.Size, e.ModTime, e.Precision = size, d.t, d.prec
	e.Name = c.from(i + 4)
	return e, true
}

// ---- single systems ----

// parseZVM reads a file of the z/VM FTP server: "FILENAME FILETYPE
// F|V LRECL RECORDS BLOCKS YYYY-MM-DD HH:MM:SS LABEL" ("PROFILE EXEC V
// 72 40 1 2024-05-21 14:02:33 USR191"). Name is "FILENAME.FILETYPE", as
// CMS names a file. Size is records × record length for a fixed-length
// (F) file, which is its bytes; a variable-length (V) file's records
// are shorter, and its Size -1.
func parseZVM(c *cols) (Entry, bool) {
	if !c.exactly(9) {
		return Entry{}, false
	}
	recfm := c.field(2)
	lrecl, ok := parseUint(c.field(3))
	recs, ok2 := parseUint(c.field(4))
	y, m, d, ok3 := ymd(c.field(6), '-')
	h, mi, sec, prec, ok4 := parseClockSec(c.field(7))
	if recfm != "F" && recfm != "V" || !ok || !ok2 || !allDigits(c.field(5)) || !ok3 || !ok4 || prec != time.Second {
		return Entry{}, false
	}
	e := Entry{Name: c.field(0) + "." + c.field(1), Size: -1, Precision: time.Second, Local: true}
	e.ModTime = time.Date(y, time.Month(m), d, h, mi, sec, 0, time.UTC)
	if recfm == "F" && lrecl < 1<<31 && recs < 1<<31 {
		e.Size = lrecl * recs
	}
	return e, true
}

// parseNonStop reads a file of the HP NonStop (Tandem Guardian) FTP
// server: "NAME CODE EOF D-Mon-YY HH:MM:SS GROUP,USER "RWEP""
// ("PAYROLL 101 5120 6-May-24 14:02:33 255,255 "oooo"", the owner also
// as "255, 255"). Size is the EOF, in bytes.
func parseNonStop(c *cols) (Entry, bool) {
	if !c.exactly(7) && !c.exactly(8) {
		return Entry{}, false
	}
	size, ok := parseUint(c.field(2))
	d, mo, y, ok2 := dayMonYear(c.field(3))
	h, mi, sec, prec, ok3 := parseClockSec(c.field(4))
	if !allDigits(c.field(1)) || !ok || !ok2 || !ok3 || prec != time.Second || !validDate(y, mo, d) {
		return Entry{}, false
	}
	group, user, comma := strings.Cut(c.field(5), ",")
	if c.n == 8 && user == "" {
		user = c.field(6)
	}
	sec4 := c.field(c.n - 1)
	if !comma || !allDigits(group) || !allDigits(user) || len(sec4) != 6 || sec4[0] != '"' || sec4[5] != '"' {
		return Entry{}, false
	}
	return Entry{Name: c.field(0), Size: size, ModTime: time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC), Precision: time.Second, Local: true}, true
}

// parseOS9 reads a line of Microware OS-9's "dir -e": "GROUP.USER
// YY/MM/DD HHMM ATTRIBUTES SECTOR SIZE NAME" ("0.0 24/05/21 1402
// d-ewrewr 8CD 1920 CMDS"): the attributes "dsewrewr" (d a directory),
// the sector in hexadecimal, the size in bytes.
func parseOS9(c *cols) (Entry, bool) {
	g, u, dot := strings.Cut(c.field(0), ".")
	y, m, d, sep, wy, wm, wd, ok := split3(c.field(1))
	hm, attr := c.field(2), c.field(3)
	size, ok2 := parseUint(c.field(5))
	if !dot || !allDigits(g) || !allDigits(u) || !ok || sep != '/' || wy != 2 || wm != 2 || wd != 2 ||
		len(hm) != 4 || !allDigits(hm) || !isOS9Attributes(attr) || !isHex(c.field(4)) || !ok2 {
		return Entry{}, false
	}
	y = fullYear(y, 2)
	h, mi := int(hm[0]-'0')*10+int(hm[1]-'0'), int(hm[2]-'0')*10+int(hm[3]-'0')
	if !validDate(y, m, d) || h > 23 || mi > 59 {
		return Entry{}, false
	}
	e := Entry{Name: c.from(6), Size: size, Precision: time.Minute, Local: true}
	e.ModTime = time.Date(y, time.Month(m), d, h, mi, 0, 0, time.UTC)
	if attr[0] == 'd' {
		e.Mode = fs.ModeDir
	}
	return e, true
}

// isOS9Attributes reports whether s is an OS-9 attribute field,
// "dsewrewr" with '-' for a letter not set.
func isOS9Attributes(s string) bool {
	if len(s) != 8 {
		return false
	}
	for i := 0; i < 8; i++ {
		if s[i] != '-' && s[i] != "dsewrewr"[i] {
			return false
		}
	}
	return true
}

// parseVShell reads a line of old VShell servers: "SIZE Mon DD, YYYY
// HH:MM NAME" ("1024  May 21, 2024 14:02 report.txt"), a directory's
// name ending in '/' (Name is without it).
func parseVShell(c *cols) (Entry, bool) {
	size, ok := parseUint(c.field(0))
	m := monthOf(c.field(1))
	dayTok, comma := strings.CutSuffix(c.field(2), ",")
	day, ok2 := parseUint(dayTok)
	y, ok3 := parseUint(c.field(3))
	h, mi, ok4 := parseClock(c.field(4), true)
	if !ok || m == 0 || !comma || !ok2 || len(dayTok) > 2 || !ok3 || len(c.field(3)) != 4 || !ok4 || !validDate(int(y), m, int(day)) {
		return Entry{}, false
	}
	e := Entry{Name: c.from(5), Size: size, Precision: time.Minute, Local: true}
	e.ModTime = time.Date(int(y), time.Month(m), int(day), h, mi, 0, 0, time.UTC)
	if n, ok := strings.CutSuffix(e.Name, "/"); ok {
		e.Name, e.Mode = n, fs.ModeDir
	}
	return e, true
}

// parseVxWorks reads a line of the VxWorks FTP server of Nortel
// routers: "SIZE Mon-DD-YYYY HH:MM:SS NAME [<DIR>]" ("2048 May-21-2024
// 14:02:33 boot <DIR>").
func parseVxWorks(c *cols) (Entry, bool) {
	size, ok := parseUint(c.field(0))
	mon, rest, _ := strings.Cut(c.field(1), "-")
	dayTok, yTok, _ := strings.Cut(rest, "-")
	m := monthOf(mon)
	day, ok2 := parseUint(dayTok)
	y, ok3 := parseUint(yTok)
	h, mi, sec, prec, ok4 := parseClockSec(c.field(2))
	if !ok || m == 0 || !ok2 || len(dayTok) > 2 || !ok3 || len(yTok) != 4 || !ok4 || prec != time.Second || !validDate(int(y), m, int(day)) {
		return Entry{}, false
	}
	e := Entry{Name: c.from(3), Size: size, Precision: time.Second, Local: true}
	e.ModTime = time.Date(int(y), time.Month(m), int(day), h, mi, sec, 0, time.UTC)
	if n, ok := strings.CutSuffix(e.Name, "<DIR>"); ok && len(n) > 0 && (n[len(n)-1] == ' ' || n[len(n)-1] == '\t') {
		e.Name, e.Mode = strings.TrimRight(n, " \t"), fs.ModeDir
	}
	return e, true
}

// parseWfFtp reads a line of Nortel's wfFtp router server: "NAME SIZE
// MM/DD/YY Day. HH:MM:SS" ("config 1024 05/21/24 Tue. 14:02:33").
func parseWfFtp(c *cols) (Entry, bool) {
	if !c.exactly(5) {
		return Entry{}, false
	}
	size, ok := parseUint(c.field(1))
	m, d, y, sep, wm, wd, wy, ok2 := split3(c.field(2))
	h, mi, sec, prec, ok3 := parseClockSec(c.field(4))
	y = fullYear(y, wy)
	if !ok || !ok2 || sep != '/' || wm != 2 || wd != 2 || wy != 2 || !isWeekday(c.field(3)) || !ok3 || prec != time.Second || !validDate(y, m, d) {
		return Entry{}, false
	}
	return Entry{Name: c.field(0), Size: size, ModTime: time.Date(y, time.Month(m), d, h, mi, sec, 0, time.UTC), Precision: time.Second, Local: true}, true
}

// isWeekday reports whether s is an English day of the week cut short
// ("Tue", "Thur.").
func isWeekday(s string) bool {
	s = strings.TrimSuffix(s, ".")
	for _, d := range [...]string{"sun", "mon", "tue", "tues", "wed", "thu", "thur", "thurs", "fri", "sat"} {
		if strings.EqualFold(s, d) {
			return true
		}
	}
	return false
}

// parseNumericUnix reads the numeric Unix line some servers send:
// "MODE UID GID SIZE MTIME NAME" ("0100644 1000 1000 1024 1716300153
// notes.txt"), the mode st_mode in octal, the time seconds since the
// Unix epoch (UTC).
func parseNumericUnix(c *cols) (Entry, bool) {
	ms := c.field(0)
	m, ok := parseOctal(ms)
	size, ok2 := parseUint(c.field(3))
	secs, ok3 := parseUint(c.field(4))
	if len(ms) < 6 || !ok || !allDigits(c.field(1)) || !allDigits(c.field(2)) || !ok2 || !ok3 {
		return Entry{}, false
	}
	var mode fs.FileMode
	switch m & 0o170000 {
	case 0o100000:
	case 0o040000:
		mode = fs.ModeDir
	case 0o120000:
		mode = fs.ModeSymlink
	case 0o010000:
		mode = fs.ModeNamedPipe
	case 0o020000:
		mode = fs.ModeDevice | fs.ModeCharDevice
	case 0o060000:
		mode = fs.ModeDevice
	case 0o140000:
		mode = fs.ModeSocket
	default:
		return Entry{}, false
	}
	return Entry{Name: c.from(5), Mode: mode | unixPerm(m&0o7777), Size: size, ModTime: time.Unix(secs, 0).UTC(), Precision: time.Second}, true
}

// ---- dates of other systems ----

// parseClockSec reads "HH:MM", "HH:MM:SS" or "HH:MM:SS.CC" (a fraction
// of a second, dropped), the hour 0 to 23: the time and its precision.
func parseClockSec(s string) (h, mi, sec int, prec time.Duration, ok bool) {
	hs, rest, found := strings.Cut(s, ":")
	ms, ss, withSec := strings.Cut(rest, ":")
	if !found || len(hs) < 1 || len(hs) > 2 || len(ms) != 2 {
		return 0, 0, 0, 0, false
	}
	hh, ok1 := parseUint(hs)
	mm, ok2 := parseUint(ms)
	var sc int64
	ok3 := true
	prec = time.Minute
	if withSec {
		whole, frac, dot := strings.Cut(ss, ".")
		if len(whole) != 2 || dot && !allDigits(frac) {
			return 0, 0, 0, 0, false
		}
		sc, ok3 = parseUint(whole)
		prec = time.Second
	}
	if !ok1 || !ok2 || !ok3 || hh > 23 || mm > 59 || sc > 59 {
		return 0, 0, 0, 0, false
	}
	return int(hh), int(mm), int(sc), prec, true
}

// ymd reads "YYYY<sep>MM<sep>DD".
func ymd(s string, sep byte) (y, m, d int, ok bool) {
	y, m, d, got, wy, wm, wd, ok := split3(s)
	if !ok || got != sep || wy != 4 || wm != 2 || wd != 2 || !validDate(y, m, d) {
		return 0, 0, 0, false
	}
	return y, m, d, true
}

// validDate reports whether month m of year y has a day d.
func validDate(y, m, d int) bool { return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(m, y) }

// fullYear is the year of y written with width digits: two digits
// below 70 are 20xx, others 19xx; three count from 1900 (a year 2003
// as "103", by servers that print the year of C's struct tm); four are
// the year.
func fullYear(y, width int) int {
	switch {
	case width == 2 && y < 70:
		return 2000 + y
	case width == 2 || width == 3:
		return 1900 + y
	}
	return y
}

// isHex reports whether s is one or more hexadecimal digits.
func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) && !('A' <= c && c <= 'F') && !('a' <= c && c <= 'f') {
			return false
		}
	}
	return s != ""
}

// ---- small readers ----
