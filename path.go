package ftpurl

import "strings"

// spillDirs appends d once p.dirs is full: to a new p.moreDirs that
// then holds all the directories, sized for at most one more for every
// "/" in rest, the path after d: one allocation, however long the path.
func (p *parser) spillDirs(d, rest string) {
	p.moreDirs = append(make([]string, 0, len(p.dirs)+1+strings.Count(rest, "/")), p.dirs[:]...)
	p.moreDirs = append(p.moreDirs, d)
}

// path parses the path that starts at s[lo], up to the "#", or "?" but
// in RFC 1738, that ends it, and returns that end. It splits on raw "/"
// only and decodes each segment on its own, so "%2F" stays inside its
// segment (RFC 1738 §3.2.2); then it takes a final ";type=X" off the
// last segment (2011 draft §3.1). One pass, one table look-up a byte.
func (p *parser) path(u *URL, lo int) int {
	s := p.s
	m := p.r.seg
	i := lo
	if i < len(s) && s[i] == '/' {
		i++
	} // else the path is empty, or this is "ftp:path" after a scheme fault
	start := i   // of the current segment
	pct := false // the current segment holds an escape
	semi := -1   // the first ";" of the current segment
	strict := !p.r.semicolonIsData
loop:
	for i < len(s) {
		if i = skip(s, i, m); i == len(s) {
			break
		}
		c := s[i]
		switch {
		case c == '/':
			if semi >= 0 && strict {
				p.fail(semi, ErrPath, `";" is allowed only in the final ";type=" (RFC 1738 §3.2.2)`)
			}
			i++
			d := unescapeIfEscaped(s[start:i-1], pct)
			// To p.moreDirs once it holds them (ParseInto's array from
			// the start), else to p.dirs while it has room.
			switch {
			case p.moreDirs != nil:
				p.moreDirs = append(p.moreDirs, d)
			case p.ndirs < len(p.dirs):
				p.dirs[p.ndirs] = d
			default:
				p.spillDirs(d, s[i:])
			}
			p.ndirs++
			start, pct, semi = i, false, -1
			continue
		case c == '#' || c == '?' && !p.r.questionIsData:
			break loop
		case c == ';':
			// Data in Lenient; in the strict grammars only the final
			// ";type=", which is known once the segment ends.
			if semi < 0 {
				semi = i
			}
			i++
			continue
		case c == '%':
			pct = true
		}
		i += p.atomOutside(i, len(s), m, ErrPath, "path", true)
	}
	if start == lo && i == lo {
		return i // no path: the same as "/" (2011 draft §3.2.3)
	}
	name, code, at := s[start:i], "", -1
	if semi >= 0 { // only a segment with a ";" can end in ";type="
		name, code, at = splitTypecode(name)
	}
	if semi >= 0 && strict && semi < start+len(name) {
		p.fail(semi, ErrPath, `";" is allowed only in the final ";type=" (RFC 1738 §3.2.2)`)
	}
	u.Name = unescapeIfEscaped(name, pct && strings.IndexByte(name, '%') >= 0)
	if at >= 0 {
		u.Type = p.typecode(start+at, code)
	}
	return i
}
