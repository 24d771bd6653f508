// Package api serves the shop.
package api

// Version is the API version.
func Version() string { return "v1" }
