package ftpurl

import (
	"fmt"
	"strings"
)

// ResolveReference resolves the URI reference ref against u's String as
// RFC 3986 §5.2 does (1997 draft §2.8), and parses the target with
// [Lenient]. Unlike [Parse], it removes dot segments (§5.2.4), "%2E" too;
// a segment holding "%2F" is one, and "..;type=d" is none. The typecode
// goes with the last segment. A scheme other than ftp and ftps is
// [ErrScheme], a target without a host ("ftp:g", §5.4.2) [ErrHost]; a nil
// u is a base without a host. A fault of ref gives an *[Error] into ref.
func (u *URL) ResolveReference(ref string) (*URL, error) {
	p := parser{r: Lenient.rules(), s: ref}
	var (
		ref0 URL // the reference's parts, decoded, but Dirs and User (in p)
		i    int // where the hierarchical part starts
	)
	hasScheme := false
	scheme := "" // the reference's, or the base's (§5.2.2)
	if k := strings.IndexAny(ref, ":/?#"); k >= 0 && ref[k] == ':' {
		hasScheme = true
		if sc := p.r.scheme(ref[:k]); sc != nil {
			scheme = sc.name
		} else {
			// Control characters and bad escapes rank first, as in Parse.
			p.scan(0, k, cPrint|allowUCS, ErrScheme, "scheme", true)
			detail := fmt.Sprintf("scheme %q is not %s", ref[:k], p.r.schemeNames())
			if !strings.HasPrefix(ref[k+1:], "//") {
				detail += ` (a relative path whose first segment holds ":" starts with "./", RFC 3986 §4.2)`
			}
			p.failQuoting(0, ErrScheme, detail, 0, k)
		}
		i = k + 1
	}
	hasAuthority := strings.HasPrefix(ref[i:], "//")
	switch {
	case hasAuthority:
		i = p.authority(&ref0, i+2)
	case hasScheme:
		p.fail(i, ErrHost, fmt.Sprintf(`an ftp URL has a host: "//" must follow "%s:" (RFC 3986 §5.2.2 reads "%[1]s:g" strictly)`, scheme))
	case u == nil || u.Host == "":
		p.fail(-1, ErrHost, "the base URL has no host")
	}
	end := p.pathQueryFragment(&ref0, i)
	hasPath, absPath := end > i, end > i && ref[i] == '/'
	hasQuery := end < len(ref) && ref[end] == '?'
	r, err := p.finish(&ref0)
	if err != nil {
		return nil, err
	}

	// RFC 3986 §5.2.2, on decoded segments: a segment is "." or ".."
	// once decoded exactly when it is so in the normalized string.
	t := URL{Scheme: scheme, Fragment: r.Fragment}
	if !hasScheme && u != nil {
		t.Scheme = u.Scheme
	}
	switch {
	case hasAuthority:
		t.User, t.Host, t.Port = r.User, r.Host, r.Port
	default:
		t.User, t.Host, t.Port = u.User, u.Host, u.Port
	}
	switch {
	case !hasAuthority && !hasPath:
		t.Dirs, t.Name, t.Type, t.RawQuery = u.Dirs, u.Name, u.Type, u.RawQuery
		if hasQuery {
			t.RawQuery = r.RawQuery
		}
	case hasAuthority || absPath:
		t.Dirs, t.Name = removeDotSegments(r.Dirs, r.Name, r.Type != TypeNone)
		t.Type, t.RawQuery = r.Type, r.RawQuery
	default:
		// §5.2.3 merge: the base path up to its last "/", then the
		// reference; the base's last segment and typecode go.
		dirs := make([]string, 0, len(u.Dirs)+len(r.Dirs))
		dirs = append(append(dirs, u.Dirs...), r.Dirs...)
		t.Dirs, t.Name = removeDotSegments(dirs, r.Name, r.Type != TypeNone)
		t.Type, t.RawQuery = r.Type, r.RawQuery
	}
	return Lenient.Parse(t.String())
}

// removeDotSegments is RFC 3986 §5.2.4 on the absolute path
// "/" + dirs joined with "/" + "/" + name, given as decoded segments:
// it returns the directories and last segment of the result. typed says
// that name carries a ";type=", so it is not a dot segment. It reuses
// the array of dirs.
func removeDotSegments(dirs []string, name string, typed bool) ([]string, string) {
	out := dirs[:0]
	for _, d := range dirs {
		switch d {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, d)
		}
	}
	if !typed {
		switch name {
		case ".":
			name = "" // "/a/." is "/a/"
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			name = "" // "/a/b/.." is "/a/"
		}
	}
	return out, name
}
