package main

// -w, --write-out FORMAT: after each URL, FORMAT on standard output
// with curl's variables (curl(1), "--write-out") that mean something
// for an ftp URL.

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// writeOutVars are the variables -w knows, by name.
var writeOutVars = map[string]func(g *getter) string{
	"response_code":      func(g *getter) string { return fmt.Sprintf("%03d", g.lastCode.Load()) },
	"http_code":          func(g *getter) string { return fmt.Sprintf("%03d", g.lastCode.Load()) },
	"size_download":      func(g *getter) string { return strconv.FormatInt(g.downloaded(), 10) },
	"size_upload":        func(g *getter) string { return strconv.FormatInt(g.uploaded(), 10) },
	"exitcode":           func(g *getter) string { return strconv.Itoa(g.exit) },
	"url_effective":      func(g *getter) string { return g.t.url },
	"filename_effective": func(g *getter) string { return g.name },
	"time_total":         func(g *getter) string { return fmt.Sprintf("%.6f", time.Since(g.start).Seconds()) },
	"errormsg":           func(g *getter) string { return g.lastMsg },
}

// writeOut writes -w's FORMAT for this URL on standard output: %{name}
// a variable, %% a percent sign, \n \r \t their characters. An unknown
// variable is named on standard error and written as nothing, as curl
// does.
func (g *getter) writeOut(format string) {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		switch {
		case c == '%' && i+1 < len(format) && format[i+1] == '%':
			b.WriteByte('%')
			i++
		case c == '%' && strings.HasPrefix(format[i:], "%{"):
			end := strings.IndexByte(format[i:], '}')
			if end < 0 {
				b.WriteString(format[i:])
				i = len(format)
				break
			}
			name := format[i+2 : i+end]
			if v, ok := writeOutVars[name]; ok {
				b.WriteString(v(g))
			} else {
				g.notef("unknown --write-out variable: '%s'", name)
			}
			i += end
		case c == '\\' && i+1 < len(format) && strings.IndexByte("nrt\\", format[i+1]) >= 0:
			b.WriteByte(map[byte]byte{'n': '\n', 'r': '\r', 't': '\t', '\\': '\\'}[format[i+1]])
			i++
		default:
			b.WriteByte(c)
		}
	}
	g.sayMu.Lock()
	defer g.sayMu.Unlock()
	fmt.Fprint(g.stdout, b.String())
}

// downloaded and uploaded are the bytes of the transfer, as curl's
// size_download and size_upload count them.
func (g *getter) downloaded() int64 {
	if g.o.upload != "" {
		return 0
	}
	return g.got
}

func (g *getter) uploaded() int64 {
	if g.o.upload == "" {
		return 0
	}
	return g.got
}
