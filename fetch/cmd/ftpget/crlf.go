package main

import "io"

// A crlfReader reads r with each CRLF made LF: a TYPE A transfer's
// NVT-ASCII lines (RFC 959 §3.1.1.1) as a Unix file's, as curl writes
// them. A CR not followed by LF is kept.
type crlfReader struct {
	r    io.Reader
	cr   bool   // the last byte read was a CR, held back
	err  error  // r's error, returned once pend is empty
	buf  []byte // what was read
	pend []byte // converted bytes not yet returned
}

func (c *crlfReader) Read(p []byte) (int, error) {
	for len(c.pend) == 0 {
		if c.err != nil {
			if c.cr {
				c.cr = false
				c.pend = append(c.pend, '\r')
				break
			}
			return 0, c.err
		}
		if len(c.buf) < max(len(p), 512) {
			c.buf = make([]byte, max(len(p), 512))
		}
		n, err := c.r.Read(c.buf)
		c.err = err
		out := c.pend[:0]
		for _, b := range c.buf[:n] {
			if c.cr {
				c.cr = false
				if b != '\n' {
					out = append(out, '\r')
				}
			}
			if b == '\r' {
				c.cr = true
				continue
			}
			out = append(out, b)
		}
		c.pend = out
	}
	n := copy(p, c.pend)
	c.pend = c.pend[n:]
	return n, nil
}
