package fetch

import "time"

// SetRampProbe sets how long Download measures the throughput before
// it adds a session (0: at once), for a test; it returns the undo.
func SetRampProbe(d time.Duration) (undo func()) {
	old := rampProbe
	rampProbe = d
	return func() { rampProbe = old }
}
