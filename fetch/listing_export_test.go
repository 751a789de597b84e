package fetch

// ParseListing exports parseListing, the engine's reader of a whole
// listing, to the tests of package fetch_test.
var ParseListing = parseListing
