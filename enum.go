package ftpurl

import (
	"fmt"
	"strconv"
	"strings"
)

// names holds the names of the values of an enumeration type T, by
// value from 0: the text of String, MarshalText and UnmarshalText. An
// empty name marks a value without one (Action's 0), which String
// writes as an unknown value and UnmarshalText never reads.
type names[T ~int] []string

// valid reports whether v has a name.
func (n names[T]) valid(v T) bool { return 0 <= v && int(v) < len(n) && n[v] != "" }

// str returns v's name, or "Type(v)" for a value without one; typ is
// the type's name.
func (n names[T]) str(v T, typ string) string {
	if n.valid(v) {
		return n[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// marshal returns v's name, and an error for a value without one.
func (n names[T]) marshal(v T, typ string) ([]byte, error) {
	if !n.valid(v) {
		return nil, fmt.Errorf("ftpurl: unknown %s %d", strings.ToLower(typ), int(v))
	}
	return []byte(n[v]), nil
}

// unmarshal returns the value named by text in any ASCII case, and an
// error that lists the names for any other text.
func (n names[T]) unmarshal(text []byte, typ string) (T, error) {
	for i, name := range n {
		if name != "" && equalFoldASCII(string(text), name) {
			return T(i), nil
		}
	}
	var want []string
	for _, name := range n {
		if name != "" {
			want = append(want, name)
		}
	}
	last := len(want) - 1
	return 0, fmt.Errorf("ftpurl: unknown %s %q (want %s or %s)", strings.ToLower(typ), text, strings.Join(want[:last], ", "), want[last])
}
