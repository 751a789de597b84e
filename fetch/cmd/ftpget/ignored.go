package main

// Flags that scripts pass to curl whatever the URL ("curl -fsSL"), and
// that curl takes and ignores for an ftp URL, or that ask for what
// ftpget does anyway: ftpget takes them too, so that such a script
// runs unchanged (DESIGN: "a curl command line that works on an ftp
// URL works with ftpget"). Each is checked against curl 7.88 on an ftp
// URL in TestCurlComparison.

// ignoredSpecs are those flags: each does nothing.
func ignoredSpecs(o *options) []flagSpec {
	none := func(bool) error { return nil }
	anyValue := func(string) error { return nil }
	return []flagSpec{
		// HTTP's, which curl ignores for an ftp URL.
		{short: 'f', long: []string{"fail"}, on: none},
		{long: []string{"fail-with-body"}, on: none},
		{short: 'L', long: []string{"location"}, on: none},
		{long: []string{"compressed"}, on: none},
		{short: 'A', long: []string{"user-agent"}, set: anyValue},
		{short: 'H', long: []string{"header"}, set: anyValue},
		{short: 'e', long: []string{"referer"}, set: anyValue},
		{short: 'b', long: []string{"cookie"}, set: anyValue},
		{short: 'c', long: []string{"cookie-jar"}, set: anyValue},
		{short: 'j', long: []string{"junk-session-cookies"}, on: none},
		// What ftpget does anyway.
		{short: 'g', long: []string{"globoff"}, on: none},   // ftpget never globs URLs
		{short: 'N', long: []string{"no-buffer"}, on: none}, // each read is written as it comes
		{long: []string{"tcp-nodelay"}, on: none},           // Go's default
		{long: []string{"ftp-skip-pasv-ip"}, on: none},      // data goes to the control connection's address
		{long: []string{"no-progress-meter"}, on: func(on bool) error { o.noMeter = on; return nil }},
	}
}
