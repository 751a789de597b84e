module github.com/ftpurl/ftpurl/fetch

go 1.26.0

require (
	github.com/creack/pty v1.1.24
	github.com/fclairamb/ftpserverlib v0.25.0
	github.com/ftpurl/ftpurl v0.2.0
	github.com/jlaffaye/ftp v0.2.4
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/spf13/afero v1.15.0
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
)

require (
	github.com/fclairamb/go-log v0.5.0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/text v0.43.0 // indirect
)
