package fetch

import (
	"io/fs"
	"strings"
	"time"
)

// An Entry is one entry of a directory listing, as [ParseListLine] reads
// it: a LIST line (Unix ls -l and its variants, DOS/IIS, EPLF, and the
// listings of OpenVMS, z/OS, IBM i, OS/2 and other systems) or an
// MLSD/MLST fact line (RFC 3659 §7). Its zero value is no entry; a
// field the line does not give has its "not given" value: Size -1, a
// zero ModTime, an empty Target.
//
// Name is the name as the server sent it. It is never empty and never
// holds CR, LF or NUL, but it may be ".", "..", hold a slash or start
// with spaces: check it (filepath.IsLocal, or fs.ValidPath) before it
// names a file of your own.
type Entry struct {
	Name string // as the server sent it: check it (filepath.IsLocal) before it names a file

	// Mode holds the type bits: 0 for a file, fs.ModeDir,
	// fs.ModeSymlink, fs.ModeNamedPipe, fs.ModeDevice (with
	// fs.ModeCharDevice for ls's 'c'), fs.ModeSocket, or
	// fs.ModeIrregular when the line does not say; and the permission
	// bits (with setuid, setgid, sticky) where the line gives them.
	Mode fs.FileMode

	Size int64 // bytes; -1 not given

	ModTime   time.Time     // zero: not given
	Precision time.Duration // of ModTime: time.Second (MLSD, EPLF; finer for an MLSD fraction), time.Minute ("Jan 2 12:00"), 24*time.Hour ("Jan 2 2024")

	// Local is true when ModTime is the wall clock of the server, in a
	// zone the listing does not name (every LIST format but EPLF):
	// ModTime holds that wall clock in a time.UTC value. False: ModTime
	// is UTC (MLSD, RFC 3659 §2.3; EPLF, whose time is a Unix time).
	Local bool

	// Target is a symlink's target where the listing gives it (ls's
	// "name -> target", MLSD's "OS.unix=slink:target"). Only a link's
	// line is split so: an ls line of another type (a file, a
	// directory) has the rest of the line for its name, " -> " and
	// all, and no Target.
	Target string
	Line   string // the line as the server sent it, without CRLF (an OpenVMS entry split over two lines: both, joined by one SP)
}

// Info returns e as an fs.FileInfo: Name, Size, Mode and ModTime are
// e's (Size may be -1: not given), IsDir reports e.Mode.IsDir(), and Sys
// returns e itself, an Entry.
func (e Entry) Info() fs.FileInfo { return entryInfo{e} }

type entryInfo struct{ e Entry }

func (i entryInfo) Name() string       { return i.e.Name }
func (i entryInfo) Size() int64        { return i.e.Size }
func (i entryInfo) Mode() fs.FileMode  { return i.e.Mode }
func (i entryInfo) ModTime() time.Time { return i.e.ModTime }
func (i entryInfo) IsDir() bool        { return i.e.Mode.IsDir() }
func (i entryInfo) Sys() any           { return i.e }

// ParseListLine reads one entry of a directory listing into an Entry.
// One call takes one entry's text: one line, without its CRLF; or,
// for an OpenVMS entry whose name the server put on a line of its own
// (a name too long for its column), that name line and the line after
// it joined by one SP ("NAME.EXT;1" + " " + "  4/15  24-FEB-2003
// ..."), as the listing readers of this package join them. It knows,
// and tells apart by their shape:
//
//   - Unix "ls -l" lines and their variants: any of the type letters
//     "-dlpcbsDL" (and Go's fs.FileMode strings, as ftpserverlib sends
//     them: "Lrwxrwxrwx", "dtrwxrwxrwx"), a '+', '.' or '@' after the
//     permissions, an owner and group that may be missing or hold
//     spaces (they are skipped: the size is the number before the
//     date), dates as "Jan 2 15:04", "Jan 2 2006", "2 Jan 15:04",
//     "Jan 02, 2006 15:04", "2006-01-02 15:04", "01-02 15:04",
//     "2006.01.02", "02-jan-06" and with CJK suffixes ("1月 2日"). A
//     link's "name -> target" is split (a link's name holding " -> "
//     twice is ambiguous: the line is rejected); any other entry's
//     name is the rest of the line, " -> " and all. A "total N" line
//     is no entry. Also read: FileZilla's dateless "drwxr-xr-x 3 u g
//     512 name" (no ModTime), and Sterling Connect:Enterprise's
//     "-C--E-----FTP B X 1 2 Jan 1 12:00 name" (no permissions).
//   - DOS/IIS lines: "01-02-06  03:04PM  <DIR>  name" or
//     "2006-01-02  15:04  1,234 name": 2- or 4-digit years (a 2-digit
//     year below 70 is 20xx), 12- or 24-hour times, sizes with commas.
//     A "<DIR>" line has Size 0, as curl and Commons Net read it.
//   - EPLF (D. J. Bernstein, "Easily Parsed LIST Format"):
//     "+i8388621.29609,m824255902,/,\tname".
//   - MLSD and MLST fact lines (RFC 3659 §7.2): "fact=value;... name",
//     with one SP (or TAB) before the name, one leading SP as MLST
//     sends it, and the last ';' missing as drafts before mlst-07 sent
//     it. Fact names and types are read in any case: type (§7.5.1:
//     file, dir, OS.unix=slink:target, OS.unix=symlink), size (§7.5.7,
//     always base 10: "size=0755" is 755 bytes) and sizd, modify (§7.5.3,
//     UTC, §2.3) and unix.mode (octal permissions). A "cdir" or "pdir"
//     entry (the listed directory and its parent) comes back as a
//     directory named "." or "..", whatever name the line gives (it is
//     still in Line), so that a caller drops them as it drops ls's
//     "." and "..".
//   - The listings of other systems, each described at its reader:
//     OpenVMS ([parseVMS]), IBM z/OS data sets, PDS members and JES
//     jobs ([parseMVS]), IBM i (OS/400, [parseOS400]), OS/2
//     ([parseOS2]), Novell NetWare ([parseNetware]), IBM z/VM
//     ([parseZVM]), HP NonStop ([parseNonStop]), Microware OS-9
//     ([parseOS9]), the old VShell ([parseVShell]), Nortel's VxWorks
//     and wfFtp routers ([parseVxWorks], [parseWfFtp]) and numeric
//     Unix lines ([parseNumericUnix]). Their permission columns are
//     no Unix permissions: Mode has no permission bits for them.
//
// A LIST date without a year is given the year that puts it nearest to
// now (within six months either way: a file dated 40 days ahead of now
// is this year's, not last year's), compared on the wall clock of now.
// "24:00" is the start of the next day.
//
// ParseListLine reports false, and no entry, for a line it cannot read
// whole: an unknown format, a field out of range (month 13, 25:00, a
// size with letters), an empty name, and any line holding CR, LF or NUL.
// It never panics, and Name, Target and Line are substrings of line,
// but for a z/VM name (its file name and file type, joined by '.').
func ParseListLine(line string, now time.Time) (Entry, bool) {
	if line == "" || strings.ContainsAny(line, "\r\n\x00") {
		return Entry{}, false
	}
	var e Entry
	var ok bool
	switch c := line[0]; {
	case c == '+':
		e, ok = parseEPLF(line)
	case c >= '0' && c <= '9':
		e, ok = parseDOS(line)
		if !ok {
			e, ok = parseFacts(line)
		}
	default:
		e, ok = parseUnix(line, now)
		if !ok {
			e, ok = parseFacts(line)
		}
	}
	if !ok {
		e, ok = parseOther(line, now)
	}
	if !ok || e.Name == "" {
		return Entry{}, false
	}
	e.Line = line
	return e, true
}

// parseListing splits a whole listing into lines (LF, with a CR before
// it dropped) and reads them as parseLines does.
func parseListing(text string, now time.Time) (entries []Entry, unparsed []string) {
	// One Entry a line, allocated once: no append doubles the slice.
	r := listReader{now: now, entries: make([]Entry, 0, strings.Count(text, "\n")+1)}
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		r.add(strings.TrimSuffix(line, "\r"))
	}
	return r.end()
}

// parseLines reads a listing already split into lines without their
// line ends: each line with ParseListLine, but for an OpenVMS name
// alone on its line, which is joined to the next line by one SP (see
// ParseListLine). Empty lines and ls's "total N" lines are skipped; the
// lines that do not parse are returned in unparsed, in order (a VMS
// name line whose next line does not complete it among them).
func parseLines(lines []string, now time.Time) (entries []Entry, unparsed []string) {
	r := listReader{now: now, entries: make([]Entry, 0, len(lines))}
	for _, line := range lines {
		r.add(line)
	}
	return r.end()
}

// A listReader reads a listing line by line into entries and unparsed.
type listReader struct {
	now      time.Time
	entries  []Entry
	unparsed []string
	vmsName  string // a VMS name line that waits for the line with its columns
}

// add reads one line, without its line end.
func (r *listReader) add(line string) {
	if line == "" || isTotalLine(line) {
		return
	}
	if r.vmsName != "" {
		name := r.vmsName
		r.vmsName = ""
		if e, ok := ParseListLine(name+" "+line, r.now); ok {
			r.entries = append(r.entries, e)
			return
		}
		r.unparsed = append(r.unparsed, name)
	}
	if e, ok := ParseListLine(line, r.now); ok {
		r.entries = append(r.entries, e)
		return
	}
	if isVMSNameLine(line) {
		r.vmsName = line
		return
	}
	r.unparsed = append(r.unparsed, line)
}

// end returns what the lines read, a VMS name line left waiting in
// unparsed.
func (r *listReader) end() ([]Entry, []string) {
	if r.vmsName != "" {
		r.unparsed = append(r.unparsed, r.vmsName)
		r.vmsName = ""
	}
	return r.entries, r.unparsed
}

// isTotalLine reports whether line is ls's "total N" line, which
// names no file.
func isTotalLine(line string) bool {
	rest, ok := strings.CutPrefix(line, "total ")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	if rest == "" {
		return false
	}
	_, ok = parseHumanSize(rest)
	return ok
}

// ---- EPLF ----

// parseEPLF reads an EPLF line (D. J. Bernstein, "Easily Parsed LIST
// Format"): '+', facts separated by ',', a TAB, the name. The facts
// read are '/' (a directory: CWD works), 'r' (a file: RETR works),
// "s" (size in bytes), "m" (modification time, seconds since the Unix
// epoch, UTC) and "up" (octal permissions); the others are skipped.
func parseEPLF(line string) (Entry, bool) {
	tab := strings.IndexByte(line, '\t')
	if tab < 0 {
		return Entry{}, false
	}
	e := Entry{Name: line[tab+1:], Size: -1, Mode: fs.ModeIrregular}
	facts := line[1:tab]
	isDir, isFile := false, false
	var perm fs.FileMode
	for facts != "" {
		var f string
		f, facts, _ = strings.Cut(facts, ",")
		if f == "" {
			continue
		}
		switch f[0] {
		case '/':
			isDir = true
		case 'r':
			isFile = true
		case 's':
			n, ok := parseUint(f[1:])
			if !ok {
				return Entry{}, false
			}
			e.Size = n
		case 'm':
			n, ok := parseUint(f[1:])
			if !ok {
				return Entry{}, false
			}
			e.ModTime = time.Unix(n, 0).UTC()
			e.Precision = time.Second
		case 'u':
			if len(f) > 2 && f[1] == 'p' {
				m, ok := parseOctal(f[2:])
				if !ok {
					return Entry{}, false
				}
				perm = unixPerm(m)
			}
		}
	}
	switch {
	case isDir:
		e.Mode = fs.ModeDir
	case isFile:
		e.Mode = 0
	}
	e.Mode |= perm
	return e, true
}

// ---- MLSD / MLST ----

// parseFacts reads an MLSD line, or an MLST line with its leading SP
// (RFC 3659 §7.2): facts, each "name=value;", then SP and the name.
// The last ';' may be missing (the value then ends at the SP), and a
// TAB may stand for the SP. A fact that is not name=value, or a size,
// modify or unix.mode value that does not parse, rejects the line;
// an empty value is a fact not given.
func parseFacts(line string) (Entry, bool) {
	s := line
	mlst := false
	if s[0] == ' ' {
		s = s[1:]
		mlst = true
	}
	e := Entry{Size: -1, Mode: fs.ModeIrregular}
	var perm fs.FileMode
	special := ""
	nfacts := 0
	for {
		// A fact name runs to '='; SP, TAB or ';' before it is no fact.
		i := strings.IndexAny(s, "=; \t")
		if i <= 0 || s[i] != '=' {
			if nfacts == 0 && mlst && i != 0 && !strings.Contains(s, "=") && !strings.Contains(s, "  ") {
				// An entry without facts (RFC 3659 §7.2: "[ facts ] SP
				// pathname"). A name with a run of spaces is taken for
				// another format's columns (OS/2's " 1123  A  07-14-99
				// ...") and rejected.
				e.Name = s
				break
			}
			return Entry{}, false
		}
		name := s[:i]
		s = s[i+1:]
		j := strings.IndexAny(s, "; \t")
		if j < 0 {
			return Entry{}, false
		}
		value := s[:j]
		last := s[j] != ';'
		if last && value == "" {
			return Entry{}, false
		}
		s = s[j+1:]
		nfacts++
		if !applyFact(&e, name, value, &perm, &special) {
			return Entry{}, false
		}
		if last {
			e.Name = s
			break
		}
		if s != "" && (s[0] == ' ' || s[0] == '\t') {
			e.Name = s[1:]
			break
		}
	}
	if e.Name == "" {
		return Entry{}, false
	}
	switch special {
	case "cdir":
		e.Name = "."
	case "pdir":
		e.Name = ".."
	}
	e.Mode |= perm
	return e, true
}

// applyFact reads one fact of an MLSx line into e. It reports false
// for a value that does not parse.
func applyFact(e *Entry, name, value string, perm *fs.FileMode, special *string) bool {
	if value == "" {
		return true
	}
	switch {
	case strings.EqualFold(name, "type"):
		switch {
		case strings.EqualFold(value, "file"):
			e.Mode = 0
		case strings.EqualFold(value, "dir"):
			e.Mode = fs.ModeDir
		case strings.EqualFold(value, "cdir"):
			e.Mode = fs.ModeDir
			*special = "cdir"
		case strings.EqualFold(value, "pdir"):
			e.Mode = fs.ModeDir
			*special = "pdir"
		case hasPrefixFold(value, "OS.unix=slink"):
			e.Mode = fs.ModeSymlink
			if t, ok := strings.CutPrefix(value[len("OS.unix=slink"):], ":"); ok {
				e.Target = t
			}
		case hasPrefixFold(value, "OS.unix=symlink"):
			e.Mode = fs.ModeSymlink
			if t, ok := strings.CutPrefix(value[len("OS.unix=symlink"):], ":"); ok {
				e.Target = t
			}
		default:
			e.Mode = fs.ModeIrregular
		}
	case strings.EqualFold(name, "size"), strings.EqualFold(name, "sizd"):
		n, ok := parseUint(value) // RFC 3659 §7.5.7: decimal, whatever its leading zeros
		if !ok {
			return false
		}
		e.Size = n
	case strings.EqualFold(name, "modify"):
		t, prec, ok := parseFactTime(value)
		if !ok {
			return false
		}
		e.ModTime, e.Precision = t, prec
	case strings.EqualFold(name, "unix.mode"):
		// Octal, with Python's "0o" before it as pyftpdlib writes it
		// ("unix.mode=0o644", once OPTS MLST asked for it).
		if len(value) > 2 && value[0] == '0' && (value[1] == 'o' || value[1] == 'O') {
			value = value[2:]
		}
		m, ok := parseOctal(value)
		if !ok {
			return false
		}
		*perm = unixPerm(m)
	}
	return true
}

// parseFactTime reads an RFC 3659 §2.3 time-val, YYYYMMDDHHMMSS with
// an optional fraction of a second, in UTC.
func parseFactTime(v string) (time.Time, time.Duration, bool) {
	if len(v) < 14 {
		return time.Time{}, 0, false
	}
	var d [14]int
	for i := 0; i < 14; i++ {
		c := v[i]
		if c < '0' || c > '9' {
			return time.Time{}, 0, false
		}
		d[i] = int(c - '0')
	}
	year := d[0]*1000 + d[1]*100 + d[2]*10 + d[3]
	month := d[4]*10 + d[5]
	day := d[6]*10 + d[7]
	hour := d[8]*10 + d[9]
	minute := d[10]*10 + d[11]
	sec := d[12]*10 + d[13]
	prec := time.Second
	nsec := 0
	if frac := v[14:]; frac != "" {
		if frac[0] != '.' || len(frac) < 2 || len(frac) > 10 {
			return time.Time{}, 0, false
		}
		for i := 1; i < len(frac); i++ {
			c := frac[i]
			if c < '0' || c > '9' {
				return time.Time{}, 0, false
			}
			nsec = nsec*10 + int(c-'0')
			prec /= 10
		}
		for p := prec; p > 1; p /= 10 {
			nsec *= 10
		}
	}
	if month < 1 || month > 12 || day < 1 || day > daysIn(month, year) || hour > 23 || minute > 59 || sec > 60 {
		return time.Time{}, 0, false
	}
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, time.UTC), prec, true
}

// ---- DOS / IIS ----

// parseDOS reads an MS-DOS style line as IIS sends it:
// "MM-DD-YY  HH:MM[AM|PM]  <DIR>|size  name", the year also with 4
// digits or first ("YYYY-MM-DD").
func parseDOS(line string) (Entry, bool) {
	s := line
	dateTok, s := nextField(s)
	timeTok, s := nextField(s)
	sizeTok, s := nextField(s)
	name := strings.TrimLeft(s, " ")
	if name == "" {
		return Entry{}, false
	}
	a, b, c, sep, wa, _, wc, ok := split3(dateTok)
	if !ok || sep == '.' {
		return Entry{}, false
	}
	var year, month, day int
	switch {
	case wa == 4: // YYYY-MM-DD
		year, month, day = a, b, c
	case wc == 4:
		month, day, year = a, b, c
	case wc == 2:
		month, day, year = a, b, c+1900
		if c < 70 {
			year += 100
		}
	default:
		return Entry{}, false
	}
	hour, minute, ok := parseClock(timeTok, true)
	if !ok || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) {
		return Entry{}, false
	}
	e := Entry{Name: name, Precision: time.Minute, Local: true}
	if sizeTok == "<DIR>" {
		e.Mode = fs.ModeDir
		e.Size = 0
	} else {
		n, ok := parseCommaUint(sizeTok)
		if !ok {
			return Entry{}, false
		}
		e.Size = n
	}
	e.ModTime = time.Date(year, time.Month(month), day, hour, minute, 0, 0, time.UTC)
	return e, true
}

// ---- Unix ls -l ----

// maxFields is how many fields before the date parseUnix looks at: a
// group with spaces may take many (Cygwin), a real line a dozen.
const maxFields = 48

// parseUnix reads an "ls -l" line: permissions, then link count,
// owner and group (each may be missing; the owner and group may hold
// spaces), the size, the date, the name. The date is the first run
// of fields that reads as one and follows a size; the fields before
// the size are not read, except that a link count glued to an owner
// ("1ftp") rejects the line.
func parseUnix(line string, now time.Time) (Entry, bool) {
	permEnd := strings.IndexByte(line, ' ')
	if permEnd < 0 {
		return Entry{}, false
	}
	mode, links, ok := parsePerm(line[:permEnd])
	if !ok {
		return Entry{}, false
	}
	// Fields after the permissions, as [start, end) spans of line.
	var f [maxFields][2]int
	n := 0
	if links != "" {
		f[0] = [2]int{permEnd - len(links), permEnd}
		n = 1
	}
	pos := permEnd
	for n < maxFields {
		for pos < len(line) && line[pos] == ' ' {
			pos++
		}
		if pos == len(line) {
			break
		}
		start := pos
		for pos < len(line) && line[pos] != ' ' {
			pos++
		}
		f[n] = [2]int{start, pos}
		n++
	}
	field := func(i int) string {
		if i < 0 || i >= n {
			return ""
		}
		return line[f[i][0]:f[i][1]]
	}
	// A link count glued to the owner: "1ftp".
	if first := field(0); first != "" && isDigit(first[0]) && !allDigits(first) && n > 3 {
		return Entry{}, false
	}
	for k := 1; k < n; k++ {
		if p := field(k - 1); p == "" || !isDigit(p[len(p)-1]) && !isDigit(p[0]) {
			continue // no size before: no date here
		}
		d, ok := parseLsDate(field(k), field(k+1), field(k+2), field(k+3), now)
		if !ok {
			continue
		}
		size, ok := lsSize(field(k-1), field(k-2), mode)
		if !ok {
			continue
		}
		// The name: after one SP for ls's own "Mon DD HH:MM|YYYY" (it
		// aligns the columns before the name, not in it), after all
		// spaces for other dates.
		last := k + d.fields - 1
		if last >= n {
			continue
		}
		rest := line[f[last][1]:]
		if d.ls {
			rest = strings.TrimPrefix(rest, " ")
		} else {
			rest = strings.TrimLeft(rest, " ")
		}
		if rest == "" {
			return Entry{}, false
		}
		e := Entry{Mode: mode, Size: size, ModTime: d.t, Precision: d.prec, Local: true}
		if !lsLink(&e, rest) {
			return Entry{}, false
		}
		return e, true
	}
	// FileZilla's dateless line: links, owner, group, size, a name
	// of one word.
	if n == 5 && allDigits(field(0)) && allDigits(field(3)) && f[4][1] == len(line) {
		size, _ := parseUint(field(3))
		return Entry{Mode: mode, Size: size, Name: field(4)}, true
	}
	return Entry{}, false
}

// lsLink sets e's Name from rest, the text after the date of an ls
// line. A link's "name -> target" is split into Name and Target (a
// link with " -> " twice is ambiguous: lsLink reports false); any other
// entry's name is rest whole, arrows and all.
func lsLink(e *Entry, rest string) bool {
	if e.Mode&fs.ModeSymlink == 0 {
		e.Name = rest
		return true
	}
	name, target, arrow := strings.Cut(rest, " -> ")
	if !arrow {
		e.Name = rest
		return true
	}
	if strings.Contains(target, " -> ") || name == "" {
		return false // ambiguous: which arrow is ls's?
	}
	e.Name, e.Target = name, target
	return true
}

// lsSize reads the size field of an ls line (tok), prev being the field
// before it. A size may end in k, M, G or T (FileZilla's "33.5k"); a
// device shows "major, minor" or "major,minor" instead: Size -1. A
// size glued to the group ("group123456") is the digits at its end.
func lsSize(tok, prev string, mode fs.FileMode) (int64, bool) {
	if tok == "" {
		return 0, false
	}
	if n, ok := parseHumanSize(tok); ok {
		if mode&fs.ModeDevice != 0 && strings.HasSuffix(prev, ",") && allDigits(prev[:len(prev)-1]) {
			return -1, true
		}
		return n, true
	}
	if mode&fs.ModeDevice != 0 {
		if a, b, ok := strings.Cut(tok, ","); ok && allDigits(a) && allDigits(b) {
			return -1, true
		}
	}
	// Glued to the group: trailing digits after a letter.
	i := len(tok)
	for i > 0 && isDigit(tok[i-1]) {
		i--
	}
	if i > 0 && i < len(tok) && tok[i-1] >= 'A' && prev != "" {
		n, ok := parseUint(tok[i:])
		return n, ok
	}
	return 0, false
}

// parsePerm reads ls's permission field: a type letter, or Go's
// fs.FileMode letters (fs.FileMode.String, as ftpserverlib sends), then
// nine rwx characters, then an optional '+', '.' or '@' (ACL, SELinux
// context, extended attributes) and a link count glued to it
// ("drwx------+1464"), returned in links.
func parsePerm(tok string) (mode fs.FileMode, links string, ok bool) {
	// A link count glued after a '+': split it off.
	if i := strings.IndexAny(tok, "+.@"); i >= 0 {
		links = tok[i+1:]
		if links != "" && !allDigits(links) {
			return 0, "", false
		}
		tok = tok[:i]
	}
	if len(tok) < 10 {
		return 0, "", false
	}
	if m, ok := capitalFlags(tok); ok {
		return m, links, true
	}
	prefix, rwx := tok[:len(tok)-9], tok[len(tok)-9:]
	if len(prefix) == 1 {
		switch prefix[0] {
		case '-', 'f':
			mode = 0
		case 'd':
			mode = fs.ModeDir
		case 'l', 'L':
			mode = fs.ModeSymlink
		case 'p':
			mode = fs.ModeNamedPipe
		case 'c':
			mode = fs.ModeDevice | fs.ModeCharDevice
		case 'b', 'D':
			mode = fs.ModeDevice
		case 's', 'S':
			mode = fs.ModeSocket
		default:
			if m, ok := goModeLetters(prefix); ok {
				mode = m
			} else {
				return 0, "", false
			}
		}
	} else {
		m, ok := goModeLetters(prefix)
		if !ok {
			return 0, "", false
		}
		mode = m
	}
	for i := 0; i < 9; i++ {
		c := rwx[i]
		bit := fs.FileMode(1) << (8 - i)
		switch i % 3 {
		case 0:
			if c == 'r' {
				mode |= bit
			} else if c != '-' {
				return 0, "", false
			}
		case 1:
			if c == 'w' {
				mode |= bit
			} else if c != '-' {
				return 0, "", false
			}
		case 2:
			special := [3]fs.FileMode{fs.ModeSetuid, fs.ModeSetgid, fs.ModeSticky}[i/3]
			switch {
			case c == 'x':
				mode |= bit
			case c == '-':
			case i < 8 && c == 's', i == 8 && c == 't':
				mode |= bit | special
			case i < 8 && c == 'S', i == 8 && c == 'T':
				mode |= special
			case i == 5 && (c == 'l' || c == 'L'): // mandatory locking
				mode |= fs.ModeSetgid
			default:
				return 0, "", false
			}
		}
	}
	return mode, links, true
}

// goModeLetters reads the letters fs.FileMode.String puts before the
// permissions, in its order "dalTLDpSugct?".
func goModeLetters(prefix string) (mode fs.FileMode, ok bool) {
	for i := 0; i < len(prefix); i++ {
		switch prefix[i] {
		case 'd':
			mode |= fs.ModeDir
		case 'a':
			mode |= fs.ModeAppend
		case 'l':
			mode |= fs.ModeExclusive
		case 'T':
			mode |= fs.ModeTemporary
		case 'L':
			mode |= fs.ModeSymlink
		case 'D':
			mode |= fs.ModeDevice
		case 'p':
			mode |= fs.ModeNamedPipe
		case 'S':
			mode |= fs.ModeSocket
		case 'u':
			mode |= fs.ModeSetuid
		case 'g':
			mode |= fs.ModeSetgid
		case 'c':
			mode |= fs.ModeCharDevice | fs.ModeDevice
		case 't':
			mode |= fs.ModeSticky
		case '?':
			mode |= fs.ModeIrregular
		default:
			return 0, false
		}
	}
	return mode, true
}

// capitalFlags reads the permission field of Sterling Connect:Enterprise
// ("-C--E-----FTP"): a type letter, '-' or 'd', then capitals and
// dashes that are no Unix permissions (Mode gets none).
func capitalFlags(tok string) (fs.FileMode, bool) {
	if tok[0] != '-' && tok[0] != 'd' {
		return 0, false
	}
	upper := false
	for i := 1; i < len(tok); i++ {
		c := tok[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper = true
		case c != '-':
			return 0, false
		}
	}
	if !upper {
		return 0, false
	}
	if tok[0] == 'd' {
		return fs.ModeDir, true
	}
	return 0, true
}

// lsDate is a date read from the fields of an ls line.
type lsDate struct {
	t      time.Time
	prec   time.Duration
	fields int  // how many fields it took
	ls     bool // ls's own "Mon DD HH:MM|YYYY" (or "DD Mon ..."): one SP before the name
}

// parseLsDate reads a date from the fields a, b, c, d of an ls line,
// in any of the shapes ParseListLine names.
func parseLsDate(a, b, c, d string, now time.Time) (lsDate, bool) {
	// Mon DD (HH:MM | YYYY), Mon DD, YYYY HH:MM
	if m := monthOf(a); m > 0 {
		dayTok := strings.TrimRight(b, ".,")
		day, ok := numWithSuffix(dayTok)
		if !ok {
			return lsDate{}, false
		}
		if strings.HasSuffix(b, ",") && len(c) == 4 && allDigits(c) {
			if h, mi, ok := parseClock(d, false); ok {
				y, _ := parseUint(c)
				return dated(int(y), m, day, h, mi, time.Minute, 4, false)
			}
		}
		return dayMonthRest(m, day, c, now, true)
	}
	// DD Mon (HH:MM | YYYY), with "DD." and "Mon.," as German sends.
	if day, ok := numWithSuffix(strings.TrimSuffix(a, ".")); ok {
		if m := monthOf(b); m > 0 {
			return dayMonthRest(m, day, c, now, true)
		}
	}
	// CJK and numeric: M D (HH:MM | YYYY), the month with a suffix
	// ("3月") or the third field a time.
	if m, ok := numWithSuffix(a); ok && m >= 1 && m <= 12 {
		if day, ok := numWithSuffix(b); ok && c != "" {
			if hasSuffix(a) {
				return dayMonthRest(m, day, c, now, false)
			}
			if _, _, ok := parseClock(c, false); ok {
				return dayMonthRest(m, day, c, now, false)
			}
		}
	}
	// YYYY年 M月 D日 (Korean, Japanese, and their legacy encodings).
	if len(a) >= 4 && allDigits(a[:4]) && (len(a) == 4 || !isASCIIAt(a, 4)) {
		y, _ := parseUint(a[:4])
		if m, ok := numWithSuffix(b); ok && (hasSuffix(a) || hasSuffix(b)) {
			if day, ok := numWithSuffix(c); ok {
				return dated(int(y), m, day, 0, 0, 24*time.Hour, 3, false)
			}
		}
	}
	// Numbers with separators: 2006-01-02 15:04, 2006/01/02 15:04,
	// 2006.01.02, 01-02-2006 15:04, 02-01-2006 15:04, 01-02 15:04,
	// 01-02 2006, 02-jan-06.
	if x, y, z, sep, wx, _, wz, ok := split3(a); ok {
		h, mi, timed := parseClock(b, false)
		switch {
		case wx == 4: // year first
			if timed {
				return dated(x, y, z, h, mi, time.Minute, 2, false)
			}
			if sep == '.' {
				return dated(x, y, z, 0, 0, 24*time.Hour, 1, false)
			}
		case wz == 4 && timed:
			if x > 12 { // day first
				x, y = y, x
			}
			return dated(z, x, y, h, mi, time.Minute, 2, false)
		}
		return lsDate{}, false
	}
	if dd, mon, yy, ok := dayMonYear(a); ok {
		return dated(yy, mon, dd, 0, 0, 24*time.Hour, 1, false)
	}
	if x, y, ok := split2(a); ok && x >= 1 && x <= 12 {
		d, ok := dayMonthRest(x, y, b, now, false)
		d.fields = 2
		return d, ok
	}
	return lsDate{}, false
}

// dayMonthRest completes a date whose month and day are read: rest is
// "HH:MM" (the year by the year rule) or a year of 4 digits (with a
// non-ASCII suffix such as 年). The date takes 3 fields.
func dayMonthRest(m, day int, rest string, now time.Time, ls bool) (lsDate, bool) {
	if h, mi, ok := parseClock(rest, false); ok {
		y, ok := nearestYear(m, day, h, mi, now)
		if !ok {
			return lsDate{}, false
		}
		return dated(y, m, day, h, mi, time.Minute, 3, ls)
	}
	if len(rest) >= 4 && allDigits(rest[:4]) && (len(rest) == 4 || !isASCIIAt(rest, 4)) {
		y, _ := parseUint(rest[:4])
		return dated(int(y), m, day, 0, 0, 24*time.Hour, 3, ls)
	}
	return lsDate{}, false
}

// dated checks a date's fields and makes the lsDate. Hour 24 minute 0
// is the start of the next day.
func dated(y, m, d, h, mi int, prec time.Duration, fields int, ls bool) (lsDate, bool) {
	if m < 1 || m > 12 || d < 1 || d > daysIn(m, y) || h > 24 || mi > 59 || h == 24 && mi != 0 {
		return lsDate{}, false
	}
	t := time.Date(y, time.Month(m), d, h, mi, 0, 0, time.UTC)
	return lsDate{t: t, prec: prec, fields: fields, ls: ls}, true
}

// nearestYear is the year rule of ParseListLine: of last year, this
// year and next year (on now's wall clock), the one that puts month/day
// hh:mm nearest to now. A February 29 takes the nearest leap year of
// the three.
func nearestYear(m, d, h, mi int, now time.Time) (int, bool) {
	ny, nm, nd := now.Date()
	nh, nmin, ns := now.Clock()
	wall := time.Date(ny, nm, nd, nh, nmin, ns, 0, time.UTC)
	best, bestDist := 0, time.Duration(1<<63-1)
	for y := ny - 1; y <= ny+1; y++ {
		if d > daysIn(m, y) {
			continue
		}
		dist := time.Date(y, time.Month(m), d, h, mi, 0, 0, time.UTC).Sub(wall)
		if dist < 0 {
			dist = -dist
		}
		if dist < bestDist {
			best, bestDist = y, dist
		}
	}
	return best, best != 0
}

// monthOf reads a month name: English (three letters or whole), and
// the abbreviations German, French and Hungarian servers send, in any
// case and with a trailing '.' or ','. It returns 0 for none.
func monthOf(s string) int {
	s = strings.TrimRight(s, ".,")
	if len(s) < 3 || isDigit(s[0]) {
		return 0
	}
	if len(s) == 3 {
		switch string([]byte{lower(s[0]), lower(s[1]), lower(s[2])}) {
		case "jan":
			return 1
		case "feb":
			return 2
		case "mar", "mrz":
			return 3
		case "apr", "avr":
			return 4
		case "may", "mai":
			return 5
		case "jun":
			return 6
		case "jul", "jui": // "jui": French juillet cut to three letters, as VMS servers show it
			return 7
		case "aug":
			return 8
		case "sep":
			return 9
		case "oct", "okt":
			return 10
		case "nov":
			return 11
		case "dec", "dez":
			return 12
		}
		return 0
	}
	for i, names := range monthNames {
		for _, n := range names {
			if strings.EqualFold(s, n) {
				return i + 1
			}
		}
	}
	return 0
}

var monthNames = [12][]string{
	{"january", "janv", "jän", "janvier", "januar"},
	{"february", "févr", "fevr", "februar"},
	{"march", "märz", "mär", "mars", "márc"},
	{"april", "avril", "ápr"},
	{"juin"},
	{"june", "juni"},
	{"july", "juli", "juil", "júl"},
	{"august", "août", "aout", "aug."},
	{"september", "sept", "szept"},
	{"october", "oktober", "okt."},
	{"november"},
	{"december", "dezember", "déc"},
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isASCIIAt(s string, i int) bool { return s[i] < 0x80 }

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// hasSuffix reports whether s, a number, ends in non-ASCII bytes (月).
func hasSuffix(s string) bool { return s != "" && s[len(s)-1] >= 0x80 }

// numWithSuffix reads 1 or 2 digits followed by nothing or by
// non-ASCII bytes only (月, 日, or their legacy encodings).
func numWithSuffix(s string) (int, bool) {
	i := 0
	n := 0
	for i < len(s) && isDigit(s[i]) && i < 2 {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 {
		return 0, false
	}
	for j := i; j < len(s); j++ {
		if s[j] < 0x80 {
			return 0, false
		}
	}
	return n, true
}

// parseUint reads a decimal number of at most 18 digits, without the
// error value that strconv.ParseInt allocates for each field of a line
// that is not a number.
func parseUint(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var n int64
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n, true
}

// parseCommaUint reads a decimal number with ',' between its digits
// ("1,234,567"), as DOS and IIS send sizes.
func parseCommaUint(s string) (int64, bool) {
	if s == "" || s[0] == ',' || s[len(s)-1] == ',' {
		return 0, false
	}
	var n int64
	digits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ',' {
			continue
		}
		if !isDigit(c) || digits == 18 {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		digits++
	}
	return n, true
}

// parseHumanSize reads a decimal size, or one with a fraction and a
// k, M, G or T suffix (powers of 1024), as "33.5k".
func parseHumanSize(s string) (int64, bool) {
	if n, ok := parseUint(s); ok {
		return n, true
	}
	if len(s) < 2 {
		return 0, false
	}
	var shift uint
	switch s[len(s)-1] {
	case 'k', 'K':
		shift = 10
	case 'm', 'M':
		shift = 20
	case 'g', 'G':
		shift = 30
	case 't', 'T':
		shift = 40
	default:
		return 0, false
	}
	num := s[:len(s)-1]
	whole, frac, _ := strings.Cut(num, ".")
	w, ok := parseUint(whole)
	if !ok || len(frac) > 6 || w >= 1<<(62-shift) {
		return 0, false
	}
	f, scale := int64(0), int64(1)
	for i := 0; i < len(frac); i++ {
		if !isDigit(frac[i]) {
			return 0, false
		}
		f = f*10 + int64(frac[i]-'0')
		scale *= 10
	}
	return w<<shift + f<<shift/scale, true
}

// parseOctal reads an octal number of up to 7 digits.
func parseOctal(s string) (uint32, bool) {
	if s == "" || len(s) > 7 {
		return 0, false
	}
	var n uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '7' {
			return 0, false
		}
		n = n*8 + uint32(c-'0')
	}
	return n, true
}

// unixPerm turns Unix mode bits (0777 and setuid 04000, setgid 02000,
// sticky 01000) into fs.FileMode bits.
func unixPerm(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	if m&0o4000 != 0 {
		mode |= fs.ModeSetuid
	}
	if m&0o2000 != 0 {
		mode |= fs.ModeSetgid
	}
	if m&0o1000 != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// parseClock reads "H:MM" or "HH:MM" (hour up to 24, for "24:00"), or
// with ampm "HH:MMAM"/"HH:MMPM" too (and then, without the suffix,
// hour up to 23).
func parseClock(s string, ampm bool) (hour, minute int, ok bool) {
	pm, twelve := false, false
	if ampm && len(s) > 2 {
		switch strings.ToUpper(s[len(s)-2:]) {
		case "AM":
			twelve = true
			s = s[:len(s)-2]
		case "PM":
			twelve, pm = true, true
			s = s[:len(s)-2]
		}
	}
	h, m, found := strings.Cut(s, ":")
	if !found || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return 0, 0, false
	}
	hh, ok1 := parseUint(h)
	mm, ok2 := parseUint(m)
	if !ok1 || !ok2 || mm > 59 || hh > 24 {
		return 0, 0, false
	}
	if twelve {
		if hh < 1 || hh > 12 {
			return 0, 0, false
		}
		if hh == 12 {
			hh = 0
		}
		if pm {
			hh += 12
		}
	} else if ampm && hh > 23 {
		return 0, 0, false
	}
	return int(hh), int(mm), true
}

// split3 reads three numbers joined by one separator, '-', '/' or '.'
// ("2006-01-02", "01/02/06"), with their widths.
func split3(s string) (a, b, c int, sep byte, wa, wb, wc int, ok bool) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	if i == 0 || i == len(s) {
		return
	}
	sep = s[i]
	if sep != '-' && sep != '/' && sep != '.' {
		return
	}
	first, rest, _ := strings.Cut(s, string(sep))
	second, third, found := strings.Cut(rest, string(sep))
	if !found || !allDigits(second) || !allDigits(third) || len(first) > 4 || len(second) > 2 || len(third) > 4 {
		return
	}
	x, _ := parseUint(first)
	y, _ := parseUint(second)
	z, _ := parseUint(third)
	return int(x), int(y), int(z), sep, len(first), len(second), len(third), true
}

// split2 reads "MM-DD".
func split2(s string) (a, b int, ok bool) {
	x, y, found := strings.Cut(s, "-")
	if !found || len(x) != 2 || len(y) != 2 || !allDigits(x) || !allDigits(y) {
		return 0, 0, false
	}
	p, _ := parseUint(x)
	q, _ := parseUint(y)
	return int(p), int(q), true
}

// dayMonYear reads "02-jan-06" (a 2-digit year below 70 is 20xx) or
// "02-jan-2006".
func dayMonYear(s string) (d, m, y int, ok bool) {
	ds, rest, found := strings.Cut(s, "-")
	if !found {
		return
	}
	ms, ys, found := strings.Cut(rest, "-")
	if !found || len(ds) < 1 || len(ds) > 2 || !allDigits(ds) || !allDigits(ys) {
		return
	}
	m = monthOf(ms)
	if m == 0 {
		return
	}
	dd, _ := parseUint(ds)
	yy, _ := parseUint(ys)
	switch len(ys) {
	case 2:
		yy += 1900
		if yy < 1970 {
			yy += 100
		}
	case 4:
	default:
		return
	}
	return int(dd), m, int(yy), true
}

// daysIn is the number of days of month m (1-12) of year y: day 0 of
// the next month is its last (time.Date normalizes it).
func daysIn(m, y int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// nextField returns the field at the start of s (after spaces) and
// what follows it.
func nextField(s string) (field, rest string) {
	s = strings.TrimLeft(s, " ")
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i], s[i:]
	}
	return s, ""
}
