//go:build !linux

package main

import "os"

// unixEcho is not checked here: the prompt test types at once.
func unixEcho(*os.File) (bool, error) { return false, nil }
