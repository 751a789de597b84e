package main

// The command line as curl reads it (curl's src/tool_getparam.c, and
// curl(1), "OPTIONS"): Go's flag package reads another one.
//
//   - A short flag is one letter after "-", and several may share one
//     "-": "-sS" is "-s -S", "-sSo f" is "-s -S -o f". A letter that
//     takes a value takes the rest of its word ("-ofile", "-C-"), else
//     the next word.
//   - A long flag is "--name"; its value is the next word, or follows
//     "=" ("--output=f", which curl does not read, as older ftpget
//     did). A boolean long flag takes "--no-" before its name to turn
//     it off ("--no-silent"), as curl's do.
//   - "--" ends the flags; "-" alone, and every word that does not
//     begin with "-", is an argument (a URL), wherever it stands.
//   - An unknown flag is named as typed, with the nearest known one.

import (
	"fmt"
	"strings"
)

// A flagSpec is one flag: its letter, its long names, and what it
// does. A flag takes a value when set is not nil; otherwise on is
// called, with false for "--no-NAME".
type flagSpec struct {
	short byte     // 0: no letter
	long  []string // without "--"; the first names it in messages
	set   func(value string) error
	on    func(on bool) error
}

// A usageError is a command line that cannot run: exit 2, as curl's
// CURLE_FAILED_INIT for an unknown option or a missing value.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) *usageError {
	return &usageError{fmt.Sprintf(format, args...)}
}

// parseCommandLine reads args with the flags of specs, calling each
// flag's set or on in the order given, and returns the arguments that
// are not flags, in order. The first flag that fails ends it, with a
// *usageError saying which flag as typed, and why.
func parseCommandLine(args []string, specs []flagSpec) ([]string, error) {
	short := map[byte]*flagSpec{}
	long := map[string]*flagSpec{}
	for i := range specs {
		f := &specs[i]
		if f.short != 0 {
			short[f.short] = f
		}
		for _, l := range f.long {
			long[l] = f
		}
	}
	var rest []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		// next takes the word after arg as the value of the flag typed.
		next := func(typed string) (string, error) {
			if i+1 >= len(args) {
				return "", usagef("%s needs a value", typed)
			}
			i++
			return args[i], nil
		}
		switch {
		case arg == "--":
			return append(rest, args[i+1:]...), nil
		case strings.HasPrefix(arg, "--"):
			name, value, hasValue := strings.Cut(arg[2:], "=")
			f := long[name]
			negated := false
			if f == nil && strings.HasPrefix(name, "no-") {
				if g := long[name[3:]]; g != nil && g.set == nil {
					f, negated = g, true
				}
			}
			if f == nil {
				return nil, unknownFlag("--"+name, specs)
			}
			typed := "--" + name
			var err error
			switch {
			case f.set == nil && hasValue:
				return nil, usagef("%s takes no value (%q)", typed, arg)
			case f.set == nil:
				err = f.on(!negated)
			default:
				if !hasValue {
					if value, err = next(typed); err != nil {
						return nil, err
					}
				}
				err = f.set(value)
			}
			if err != nil {
				return nil, flagError(typed, err)
			}
		case len(arg) > 1 && arg[0] == '-':
			// One or more letters; a letter that takes a value takes
			// the rest of the word, or the next word.
			for j := 1; j < len(arg); j++ {
				f := short[arg[j]]
				typed := "-" + arg[j:j+1]
				if f == nil {
					if j == 1 {
						// A single dash before a long name ("-verbose")
						// is no letter: name the word.
						return nil, unknownFlag(arg, specs)
					}
					return nil, unknownFlag(typed, specs)
				}
				if f.set == nil {
					if err := f.on(true); err != nil {
						return nil, flagError(typed, err)
					}
					continue
				}
				value := arg[j+1:]
				if value == "" {
					var err error
					if value, err = next(typed); err != nil {
						return nil, err
					}
				}
				if err := f.set(value); err != nil {
					return nil, flagError(typed, err)
				}
				break
			}
		default:
			rest = append(rest, arg)
		}
	}
	return rest, nil
}

// flagError is the usage error of a flag whose value or use is wrong:
// the setter's own *usageError as it is, else err after the flag.
func flagError(typed string, err error) error {
	if ue, ok := err.(*usageError); ok {
		return ue
	}
	return usagef("%s: %v", typed, err)
}

// unknownFlag is the usage error of a flag that none of specs is,
// naming the nearest known one: the least edits (Levenshtein) to a
// long name, or a letter for one typed letter; none when every known
// one is further than a third of what was typed.
func unknownFlag(typed string, specs []flagSpec) *usageError {
	bare := strings.TrimLeft(typed, "-")
	best, bestD := "", len(bare)/3+1
	for _, f := range specs {
		for _, l := range f.long {
			if d := editDistance(bare, l); d < bestD {
				best, bestD = "--"+l, d
			}
		}
		if f.short != 0 && len(bare) == 1 && strings.EqualFold(bare, string(f.short)) {
			best, bestD = "-"+string(f.short), 0
		}
	}
	if best == "" {
		return usagef("unknown flag %s", typed)
	}
	return usagef("unknown flag %s (did you mean %s?)", typed, best)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
