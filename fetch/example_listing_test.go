package fetch_test

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/ftpurl/ftpurl/fetch"
)

func ExampleParseListLine() {
	now := time.Date(2025, 3, 20, 12, 0, 0, 0, time.UTC)
	for _, line := range []string{
		"drwxr-xr-x    2 ftp      ftp          4096 Mar 07 09:15 incoming",
		"lrwxrwxrwx    1 ftp      ftp             8 Nov 30  2023 current -> releases",
		"type=file;size=0755;modify=20250307091500;UNIX.mode=0644; notes.txt",
		"total 12",
	} {
		e, ok := fetch.ParseListLine(line, now)
		if !ok {
			fmt.Printf("no entry: %q\n", line)
			continue
		}
		fmt.Println(e.Name, e.Mode, e.Size, e.ModTime.Format(time.DateTime), e.Precision, e.Local, e.Target, filepath.IsLocal(e.Name))
	}
	// Output:
	// incoming drwxr-xr-x 4096 2025-03-07 09:15:00 1m0s true  true
	// current Lrwxrwxrwx 8 2023-11-30 00:00:00 24h0m0s true releases true
	// notes.txt -rw-r--r-- 755 2025-03-07 09:15:00 1s false  true
	// no entry: "total 12"
}

func ExampleEntry_Info() {
	e, ok := fetch.ParseListLine("03-07-25  09:15AM       <DIR>          Program Files", time.Now())
	if !ok {
		return
	}
	fi := e.Info()
	fmt.Println(fi.Name(), fi.IsDir(), fi.ModTime().Format(time.DateTime))
	fmt.Println(fi.Sys().(fetch.Entry).Line)
	// Output:
	// Program Files true 2025-03-07 09:15:00
	// 03-07-25  09:15AM       <DIR>          Program Files
}

// An Entry says what a listing line names: its type and permissions in
// Mode, its Size, its time with the precision the line gives it, and
// for a link its Target.
func ExampleEntry() {
	now := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)
	e, _ := fetch.ParseListLine("lrwxrwxrwx 1 ftp ftp 9 May 30 12:00 current -> pub/1.2.3", now)
	fmt.Println(e.Mode, e.Name, e.Target, e.ModTime.Format(time.DateTime), e.Precision, e.Local)
	// Output:
	// Lrwxrwxrwx current pub/1.2.3 2024-05-30 12:00:00 1m0s true
}
