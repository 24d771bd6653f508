package repoconfig

import "github.com/bmatcuk/doublestar/v4"

// validPattern checks a glob with doublestar's own validator, so a pattern
// that would never match (an unclosed '[') is refused when read.
func validPattern(p string) bool { return doublestar.ValidatePattern(p) }
