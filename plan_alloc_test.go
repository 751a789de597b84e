package ftpurl_test

import (
	"strings"
	"testing"

	"github.com/ftpurl/ftpurl"
)

// Plan's cost does not grow with the number of directories beyond the
// Dirs array itself: the checks that every argument is free of CR, LF
// and NUL (RFC 959 §4.1.3) build a label only for a fault, so a URL of
// a hundred thousand segments plans in a fixed number of allocations.
func TestPlanAllocationsDoNotGrowWithDirectories(t *testing.T) {
	for _, m := range []ftpurl.Method{ftpurl.MultiCWD, ftpurl.SingleCWD, ftpurl.NoCWD} {
		var allocs [2]float64
		for i, n := range []int{10, 100_000} {
			u := ftpurl.MustParse("ftp://h/" + strings.Repeat("d/", n) + "f")
			allocs[i] = testing.AllocsPerRun(5, func() {
				if _, err := u.Plan(ftpurl.WithMethod(m)); err != nil {
					t.Fatal(err)
				}
			})
		}
		if allocs[1] > allocs[0]+2 {
			t.Errorf("%v: Plan of 10 directories allocates %v times, of 100000 %v times; want the same few", m, allocs[0], allocs[1])
		}
	}
}
