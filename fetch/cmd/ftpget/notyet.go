package main

// The flags of the networks issue (34: active mode, HTTP proxies) that
// ftpget reads but does not do yet. Each is answered here, in one
// place, so that wiring one up is deleting its line below.

// A notYetError is a curl flag that ftpget knows and does not do yet:
// exit 2, never a silent passive transfer or a direct connection.
type notYetError struct{ flag, what string }

func (e *notYetError) Error() string {
	return e.flag + " (" + e.what + ") is not supported by this ftpget yet"
}

// notYet returns the error for flag, or nil for a flag ftpget does.
func notYet(flag string) error {
	what, ok := map[string]string{
		"-P":             "active mode, curl's --ftp-port",
		"--ftp-port":     "active mode",
		"-p":             "a tunnel through an HTTP proxy, curl's --proxytunnel",
		"--proxytunnel":  "a tunnel through an HTTP proxy",
		"--ftp-pasv":     "curl's passive-mode switch; ftpget is always passive for now",
		"--disable-epsv": "PASV without EPSV",
		"-x http://":     "an HTTP proxy; ftpget takes socks5:// and socks5h:// proxies",
	}[flag]
	if !ok {
		return nil
	}
	return &notYetError{flag: flag, what: what}
}
