package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// unixEcho reports whether the terminal f echoes what is typed.
func unixEcho(f *os.File) (bool, error) {
	tio, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	if err != nil {
		return false, err
	}
	return tio.Lflag&unix.ECHO != 0, nil
}
