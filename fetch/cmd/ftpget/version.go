package main

import (
	"runtime"
	"runtime/debug"
)

// versionText is what --version prints, in curl's shape: the program
// and its version (the module's, as the build recorded it), then the
// protocols and the features it has.
func versionText() string {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return "ftpget " + v + " (" + runtime.GOOS + "/" + runtime.GOARCH + ") " + runtime.Version() + "\n" +
		"Protocols: ftp ftps\n" +
		"Features: TLS (AUTH TLS, implicit) SOCKS5 netrc IPv6 IDN\n"
}
