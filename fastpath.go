package ftpurl

// The fast way of ParseInto for the URL that crawls, logs and mirror
// lists hold most: "ftp://", a host name of letters, digits, "-", "_"
// and ".", an optional port, and a path of plain segments, with no
// userinfo, escape, ";", query or fragment. parseInto tries it first;
// any other byte, or any doubt, hands the whole input to the parser,
// which says what is wrong and where. Its results are the parser's:
// the same checks (plainName for the host, the grammar's segment class
// for the path), the same fields, the same use of the Dirs array;
// FuzzFastPathMatchesParser holds the two together.

// parseIntoFast is parseInto for a URL of that common shape: it fills
// *dst and returns true, or returns false, having changed nothing that
// parseInto reads (dst's fields, and the zeros past len(dst.Dirs) in
// its array), when s is of any other shape or the grammar checks hosts
// more strictly than plainName does (RFC 1738, RFC 2396).
//
// A loop a part, one table look-up a byte and no call but plainName:
// the parser's generality (the fault ranking, the escapes, the parts
// it gathers for Parse's one allocation) costs more than the bytes of
// a short URL.
func parseIntoFast(r *rules, dst *URL, s string) bool {
	if r.strictHost || len(s) < len(ftpPrefix) || s[:len(ftpPrefix)] != ftpPrefix {
		return false
	}
	// The host: RFC 3986 §3.2.2 reg-name, here only cHostName bytes,
	// up to the ":" of a port, the "/" of the path, or the end.
	i := len(ftpPrefix)
	or, pair, last := uint32(0), uint32(0), uint32(0)
	for i < len(s) {
		f := chars[s[i]]
		if f&cHostName == 0 {
			break
		}
		or |= f
		pair |= f & last
		last = f
		i++
	}
	hostEnd := i
	// The port: RFC 3986 §3.2.3, 1..65535, leading zeros allowed (as
	// parser.port); an empty one is left to the parser.
	port := 0
	if i < len(s) && s[i] == ':' {
		i++
		lo := i
		for i < len(s) && chars[s[i]]&cDigit != 0 {
			if port <= 65535 {
				port = port*10 + int(s[i]-'0')
			}
			i++
		}
		if i == lo || port == 0 || port > 65535 {
			return false
		}
	}
	if i < len(s) && s[i] != '/' {
		return false // "@", "[", "?", "#", "%", or a byte no host holds
	}
	host, ok := plainName(r, s[len(ftpPrefix):hostEnd], or&cUpper != 0, pair&cDotOrHyphen != 0, dst.Host)
	if !ok {
		return false
	}
	// The path (RFC 1738 §3.2.2): segments of the grammar's class, split
	// on "/"; each but the last a directory, appended to the array of
	// dst.Dirs as parseInto does. A URL with directories into a URL
	// value without an array is left to the parser, which sizes it.
	dirs := dst.Dirs
	out := dirs[:0]
	m := r.seg
	start := i + 1
	if i < len(s) {
		for i = start; i < len(s); i++ {
			c := s[i]
			if chars[c]&m != 0 {
				continue
			}
			if c != '/' || dirs == nil {
				// Keep the zeros past len(dirs), in the array of
				// dst.Dirs even where append has left it.
				if n := min(len(out), cap(dirs)); n > len(dirs) {
					clear(dirs[len(dirs):n])
				}
				return false
			}
			out = append(out, s[start:i])
			start = i + 1
		}
	} else {
		start = i // no path: the same as "/" (2011 draft §3.2.3)
	}
	if len(out) < len(dirs) {
		clear(dirs[len(out):]) // keep no segment of an earlier input alive
	}
	// Field by field: a composite literal would be built aside and
	// copied whole.
	dst.Scheme, dst.User, dst.Host, dst.Port = r.schemes[0].name, nil, host, uint16(port)
	dst.Dirs, dst.Name, dst.Type, dst.RawQuery, dst.Fragment = out, s[start:], 0, "", ""
	return true
}
