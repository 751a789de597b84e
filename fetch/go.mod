module github.com/ftpurl/ftpurl/fetch

go 1.26.0

require (
	github.com/fclairamb/ftpserverlib v0.25.0
	github.com/ftpurl/ftpurl v0.2.0
	github.com/jlaffaye/ftp v0.2.4
	github.com/spf13/afero v1.15.0
)

require (
	github.com/fclairamb/go-log v0.5.0 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
