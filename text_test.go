package ftpurl

import (
	"encoding"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"reflect"
	"testing"
)

// A URL is text wherever Go takes text (URL.MarshalText's
// doc): the value receivers make both URL and *URL marshalers.
var (
	_ encoding.TextAppender    = URL{}
	_ encoding.TextMarshaler   = URL{}
	_ encoding.TextMarshaler   = (*URL)(nil)
	_ encoding.TextUnmarshaler = (*URL)(nil)
)

// MarshalText and AppendText write String (URL.MarshalText's
// doc), the password included, and "" for the zero URL.
func TestMarshalTextIsString(t *testing.T) {
	for _, u := range append(parsedCorpus(t), &URL{}, &URL{Host: "H", Port: 21, Type: 'D'}) {
		b, err := u.MarshalText()
		if err != nil || string(b) != u.String() {
			t.Errorf("%q.MarshalText() = %q, %v; want String", u, b, err)
		}
		prefix := []byte("mirror=")
		b, err = u.AppendText(prefix[:len(prefix):len(prefix)])
		if err != nil || string(b) != "mirror="+u.String() {
			t.Errorf("%q.AppendText(%q) = %q, %v; want the prefix and String", u, prefix, b, err)
		}
	}
	if b, _ := MustParse("ftp://u:secret@h/").MarshalText(); string(b) != "ftp://u:secret@h/" {
		t.Errorf("MarshalText = %q; want the password kept, so that the text parses back to the URL", b)
	}
	if b, _ := (URL{}).MarshalText(); len(b) != 0 {
		t.Errorf("URL{}.MarshalText() = %q, want empty", b)
	}
}

// UnmarshalText(MarshalText(u)) is u for every URL the package accepts,
// in every grammar (URL.String's doc: Parse(u.String()) equals u).
func TestTextRoundTrip(t *testing.T) {
	for _, u := range parsedCorpus(t) {
		b, _ := u.MarshalText()
		var got URL
		if err := got.UnmarshalText(b); err != nil {
			t.Errorf("UnmarshalText(%q): %v", b, err)
			continue
		}
		if d := diffParts(u, &got); d != "" || !got.Equal(u) {
			t.Errorf("UnmarshalText(%q) differs (-want +got):\n%s", b, d)
		}
	}
}

// An empty text is the zero URL (URL.UnmarshalText's doc:
// "an empty text to the zero URL"), whatever the URL held before.
func TestUnmarshalTextEmptyIsZeroURL(t *testing.T) {
	for _, text := range [][]byte{nil, {}} {
		u := *MustParse("ftp://u:p@h:2121/a/b;type=i?q#f")
		if err := u.UnmarshalText(text); err != nil {
			t.Fatalf("UnmarshalText(%q): %v", text, err)
		}
		if !reflect.DeepEqual(u, URL{}) {
			t.Errorf("UnmarshalText(%q) = %#v, want the zero URL", text, u)
		}
	}
}

// A text that Parse refuses gives Parse's *Error (Op "parse", the
// sentinel, the password hidden), and the URL is left as it was.
func TestUnmarshalTextErrorIsParseError(t *testing.T) {
	for _, tt := range []struct {
		text string
		want error
	}{
		{"http://h/", ErrScheme},
		{" ftp://h/", ErrScheme}, // Parse never trims white space
		{"ftp://u:secret@h:99999/", ErrPort},
		{"ftp://h/a%0d%0aDELE%20x", ErrControl},
	} {
		u := *MustParse("ftp://keep/")
		err := u.UnmarshalText([]byte(tt.text))
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, tt.want) || e.Op != "parse" {
			t.Errorf("UnmarshalText(%q) = %v; want a parse *Error with %v", tt.text, err, tt.want)
		}
		if e != nil && e.URL != redactInput(tt.text) {
			t.Errorf("UnmarshalText(%q) error URL = %q, want %q", tt.text, e.URL, redactInput(tt.text))
		}
		if u.String() != "ftp://keep/" {
			t.Errorf("UnmarshalText(%q) changed the URL to %q", tt.text, u.String())
		}
	}
}

type mirrorConfig struct {
	Mirror URL  `json:"mirror"`
	Backup *URL `json:"backup"`
	Unset  URL  `json:"unset"`
	Null   *URL `json:"null"`
}

// In JSON a URL is a string, as a struct value field and as a pointer
// field; the zero URL is "" and a nil *URL is null.
func TestJSONRoundTripValueAndPointerFields(t *testing.T) {
	in := mirrorConfig{
		Mirror: *MustParse("FTP://Mirror.Example:21/pub/%2Fetc;type=D"),
		Backup: MustParse("ftp://u:p%40ss@[2001:db8::1]:2121/x y?q#f"),
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"mirror":"ftp://mirror.example/pub/%2Fetc;type=d","backup":"ftp://u:p%40ss@[2001:db8::1]:2121/x%20y?q#f","unset":"","null":null}`
	if string(b) != want {
		t.Errorf("json.Marshal = %s\nwant %s", b, want)
	}
	var out mirrorConfig
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !out.Mirror.Equal(&in.Mirror) || !out.Backup.Equal(in.Backup) || out.Null != nil ||
		!reflect.DeepEqual(out.Unset, URL{}) {
		t.Errorf("json round trip = %+v\nwant %+v", out, in)
	}
	if d := diffParts(in.Backup, out.Backup); d != "" {
		t.Errorf("json round trip of the pointer field differs (-want +got):\n%s", d)
	}

	// "" in a pointer field is a pointer to the zero URL, not nil.
	var empty mirrorConfig
	if err := json.Unmarshal([]byte(`{"backup":""}`), &empty); err != nil || empty.Backup == nil || !reflect.DeepEqual(*empty.Backup, URL{}) {
		t.Errorf(`json.Unmarshal({"backup":""}) = %+v, %v; want a pointer to the zero URL`, empty.Backup, err)
	}

	// A URL value on its own is a JSON string.
	if b, err := json.Marshal(*MustParse("ftp://h/a")); err != nil || string(b) != `"ftp://h/a"` {
		t.Errorf("json.Marshal(URL) = %s, %v", b, err)
	}
}

// json.Unmarshal passes the *Error of Parse through.
func TestJSONUnmarshalErrorIsParseError(t *testing.T) {
	var c mirrorConfig
	err := json.Unmarshal([]byte(`{"mirror":"ftp://h:0/"}`), &c)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrPort) {
		t.Errorf("json.Unmarshal with a bad port = %v; want the *Error with ErrPort", err)
	}
}

// A URL is a flag through flag.TextVar: the default shows as String,
// -flag sets it with Parse's rules, and a bad value is refused.
func TestFlagTextVar(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var u URL
	fs.TextVar(&u, "mirror", MustParse("ftp://Default.Example/pub/"), "mirror URL")
	var none URL
	fs.TextVar(&none, "none", URL{}, "unset by default")
	if got := fs.Lookup("mirror").DefValue; got != "ftp://default.example/pub/" {
		t.Errorf("DefValue = %q", got)
	}
	if u.String() != "ftp://default.example/pub/" {
		t.Errorf("before Parse, the flag holds %q; want the default", u.String())
	}
	if got := fs.Lookup("none").DefValue; got != "" {
		t.Errorf("DefValue of a zero URL = %q, want \"\"", got)
	}
	if err := fs.Parse([]string{"-mirror", "ftp://H/x;TYPE=I"}); err != nil {
		t.Fatal(err)
	}
	if !u.Equal(MustParse("ftp://h/x;type=i")) || fs.Lookup("mirror").Value.String() != "ftp://h/x;type=i" {
		t.Errorf("after -mirror, the flag holds %q", u.String())
	}
	if err := fs.Parse([]string{"-mirror", "http://h/"}); err == nil {
		t.Error("-mirror http://h/ was accepted")
	}
	if err := fs.Parse([]string{"-mirror", ""}); err != nil || !reflect.DeepEqual(u, URL{}) {
		t.Errorf(`-mirror "" = %q, %v; want the zero URL`, u.String(), err)
	}
}

// RFC 1738 §3.2.2: the typecode is one letter, in any case. In JSON,
// flags and configuration files a Typecode is that letter (lower case,
// as Parse stores it), "" for TypeNone, not its byte value; reading
// takes one ASCII letter in any case, or "".
func TestTypecodeIsItsLetterAsText(t *testing.T) {
	b, err := json.Marshal(struct{ Type, None Typecode }{TypeImage, TypeNone})
	if want := `{"Type":"i","None":""}`; err != nil || string(b) != want {
		t.Errorf("json.Marshal = %s, %v; want %s", b, err, want)
	}
	if b, err := Typecode('D').MarshalText(); err != nil || string(b) != "d" {
		t.Errorf("Typecode('D').MarshalText() = %q, %v; want \"d\"", b, err)
	}
	if b, err := TypeASCII.AppendText([]byte("x")); err != nil || string(b) != "xa" {
		t.Errorf("TypeASCII.AppendText(x) = %q, %v", b, err)
	}
	if _, err := Typecode('\n').MarshalText(); err == nil {
		t.Error("a Typecode that is not a letter marshals")
	}
	var _ encoding.TextAppender = TypeNone
	for in, want := range map[string]Typecode{"": TypeNone, "i": TypeImage, "I": TypeImage, "d": TypeDirectory, "x": 'x'} {
		got := TypeASCII
		if err := got.UnmarshalText([]byte(in)); err != nil || got != want {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"ii", "1", " ", "é", ";", "\x00", "\u212a"} {
		got := TypeASCII
		if err := got.UnmarshalText([]byte(in)); err == nil || got != TypeASCII {
			t.Errorf("UnmarshalText(%q) = %v, %v; want an error and no change", in, got, err)
		}
	}
	var v struct{ Type Typecode }
	if err := json.Unmarshal([]byte(`{"Type":"A"}`), &v); err != nil || v.Type != TypeASCII {
		t.Errorf(`json.Unmarshal({"Type":"A"}) = %v, %v`, v.Type, err)
	}
}
