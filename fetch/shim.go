package fetch

import "github.com/ftpurl/ftpurl"

// TEMPORARY until the root Plan has Type for every plan and Fallback.

func planType(p *ftpurl.Plan) ftpurl.Typecode {
	if p.Type != 0 {
		return p.Type
	}
	if p.Action == ftpurl.Retrieve || p.Action == ftpurl.RetrieveOrList {
		return ftpurl.TypeImage
	}
	return ftpurl.TypeASCII
}

func planFallback(p *ftpurl.Plan) *ftpurl.Plan {
	if p.Action != ftpurl.RetrieveOrList {
		return nil
	}
	return &ftpurl.Plan{Host: p.Host, Dirs: []string{p.Name}, Type: ftpurl.TypeASCII, Action: ftpurl.List}
}
