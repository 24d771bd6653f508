// Command doccheck fails when the repository's docs name something that
// does not exist: a `make X` that is no Makefile target (in markdown, Go
// comments and shell comments), a backquoted repository path or a relative
// markdown link that is no file. It prints one "file:line: what" per
// problem. `make hygiene` runs it.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	root := flag.String("root", ".", "the repository's root directory (holding the Makefile)")
	flag.Parse()
	probs, files, err := check(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "doccheck:", err)
		os.Exit(2)
	}
	for _, p := range probs {
		fmt.Println(p)
	}
	if len(probs) > 0 {
		fmt.Printf("doccheck: %d names in docs do not exist (%d files read)\n", len(probs), files)
		os.Exit(1)
	}
	fmt.Printf("doccheck: OK (%d files read)\n", files)
}
