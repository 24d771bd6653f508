// Package detect finds the subprojects of a workspace (one per directory
// and runtime: a Go module, a Node package, a Python project, a Rust crate, a
// Maven or Gradle project, ...) together with their version hints, package
// manager, test frameworks and linters.
//
// Detection reads a Tree: the list of every file name plus the contents of
// the marker files only (see WantContent). It never touches a disk.
package detect

// Tree is the read-only view detection works on; *snapshot.Index implements
// it.
type Tree interface {
	// Files returns every regular file, sorted, as workspace-relative
	// slash paths.
	Files() []string
	// ReadFile returns the content of a file WantContent asked for.
	ReadFile(name string) ([]byte, error)
}
