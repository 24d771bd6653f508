package main

import (
	"bufio"
	"os"
	"regexp"
	"strings"
)

// ruleLine is a make rule's head: "name other-name: prerequisites" (not a
// variable assignment, which has "=" right after its ":").
var ruleLine = regexp.MustCompile(`^([^\s:#=][^:=]*?)\s*::?(?:[^=]|$)`)

// makeTargets returns the targets the Makefile at path defines with a rule.
// Names made of variables ($(BIN)/buf) and special targets (.PHONY) are left
// out: no doc names them as `make <target>`.
func makeTargets(path string) (map[string]bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	targets := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "\t") {
			continue // a recipe line
		}
		m := ruleLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, name := range strings.Fields(m[1]) {
			if strings.ContainsAny(name, "$%") || strings.HasPrefix(name, ".") {
				continue
			}
			targets[name] = true
		}
	}
	return targets, sc.Err()
}
