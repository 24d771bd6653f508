package rust

import (
	"fmt"
	"regexp"
)

// cargo's refusal of a package whose rust-version is newer than the
// image's rustc: before cargo 1.75 "cannot be built because it requires
// rustc 1.70 or newer, while the currently active rustc version is 1.63.0",
// since then "rustc 1.96.0 is not supported by the following package:" and
// "  x@0.1.0 requires rustc 1.999" on the next line.
var (
	reTooOld     = regexp.MustCompile(`cannot be built because it requires rustc (\S+) or newer, while the currently active rustc version is (\S+)`)
	reNotSupport = regexp.MustCompile(`rustc (\S+) is not supported by the following packages?:\s*\n\s+\S+ requires rustc (\S+)`)
)

// versions returns the version a package needs and the image's rustc
// version when a log shows cargo's refusal.
func versions(log string) (need, have string, ok bool) {
	if m := reTooOld.FindStringSubmatch(log); m != nil {
		return m[1], m[2], true
	}
	if m := reNotSupport.FindStringSubmatch(log); m != nil {
		return m[2], m[1], true
	}
	return "", "", false
}

// DiagnoseEnv recognises a crate that needs a newer rustc than the image's:
// the code was never built, so the step is the environment's failure.
func (Pack) DiagnoseEnv(log, image string) (string, bool) {
	need, have, ok := versions(log)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("toolchain too old in %s: the package requires rustc %s, the image has %s; "+
		"use an image with a newer Rust (greenlight.yaml `images: {rust: IMAGE}`, from the server's allow-list)", image, need, have), true
}
