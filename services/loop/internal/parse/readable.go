package parse

import "github.com/greenlight-dev/greenlight/pkg/display"

// Readable renders a log tail for a person or a model: `go test -json`
// events become the text `go test` would have printed (see
// display.GoTestText, which the gateway's log pages use too).
func Readable(tail string) string { return display.GoTestText(tail) }
