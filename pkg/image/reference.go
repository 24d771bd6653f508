package image

import (
	"fmt"
	"regexp"
)

// Grammar of a Docker image reference (after distribution/reference):
// [domain[:port]/]path[/path...][:tag][@algorithm:hex].
const (
	domainComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	domainPart      = domainComponent + `(?:\.` + domainComponent + `)*(?::[0-9]+)?`
	pathComponent   = `[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*`
	namePart        = `(?:` + domainPart + `/)?` + pathComponent + `(?:/` + pathComponent + `)*`
	tagPart         = `[\w][\w.-]{0,127}`
	digestPart      = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}`
	maxNameLength   = 255
)

var referenceRE = regexp.MustCompile(`^(` + namePart + `)(?::` + tagPart + `)?(?:@` + digestPart + `)?$`)

// ValidateReference checks that s is a well-formed image reference such as
// "python:3.12-slim", "registry.example:5000/team/img:v1" or
// "img@sha256:<hex>". It rejects empty strings, whitespace, upper-case
// repository paths and anything starting with "-", which would be read as a
// flag by a command line. Errors wrap [ErrInvalidReference].
func ValidateReference(s string) error {
	m := referenceRE.FindStringSubmatch(s)
	if m == nil {
		return fmt.Errorf("%w: %q (want e.g. python:3.12-slim or registry:5000/team/image:tag)", ErrInvalidReference, s)
	}
	if len(m[1]) > maxNameLength {
		return fmt.Errorf("%w: repository name longer than %d characters", ErrInvalidReference, maxNameLength)
	}
	return nil
}
