package fetch

// ParseListing exports parseListing, the engine's reader of a whole
// listing, to the tests of package fetch_test; ParseLines and
// IsVMSNameLine, its reader of lines and the test of an OpenVMS name
// alone on its line, which the next line completes.
var (
	ParseListing  = parseListing
	ParseLines    = parseLines
	IsVMSNameLine = isVMSNameLine
)
