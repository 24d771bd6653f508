// Package util has helpers.
package util

import "strings"

// Upper upper-cases s.
func Upper(s string) string { return strings.ToUpper(s) }
