// Package image holds greenlight's runtime → sandbox image table: which
// container image runs the steps of a "go", "python", "node", "rust",
// "java", "cpp" or "generic" (plain shell) workspace.
//
// Two tables ship with greenlight. [Defaults] names the offline images that
// `make images` builds from Debian packages (images/ in the repository), so
// greenlight works on a machine that reaches no image registry. [Upstream]
// names the usual public images a connected user may configure instead.
// Configuration (greenlight.yaml `images.<runtime>`, request overrides) is
// merged over the defaults by [Resolve].
//
// The package is pure Go: it never talks to Docker. The executor, the only
// component holding the Docker socket, asks it which image to use and, when
// the engine reports the image missing, wraps that with [Missing] so the user
// is told how to get one: for an offline image, the command that builds just
// it ([BuildCommand]: `make images IMAGES=rust`).
package image
