package detect

import (
	"regexp"
	"strings"
)

// reCMakeOption is an option(NAME "help" OFF) line of a CMakeLists.txt
// whose default is a literal OFF.
var reCMakeOption = regexp.MustCompile(`(?im)^\s*option\(\s*([A-Za-z0-9_]+)\s+"[^"]*"\s+OFF\s*\)`)

// testOptionWords may precede TEST/TESTS/TESTING in a test option's name
// (after the project's prefix): YYJSON_BUILD_TESTS, ENABLE_TESTS,
// FOO_WITH_UNIT_TESTS. Any other word (CUDA, VALGRIND, FUZZ, WITHOUT)
// names a variant that needs more than the image has, or turns the
// tests off.
var testOptionWords = map[string]bool{"BUILD": true, "ENABLE": true, "WITH": true, "UNIT": true, "RUN": true}

// cmakeTestOptions returns the options of a CMakeLists.txt that build the
// project's tests and default to OFF.
func cmakeTestOptions(data []byte) []string {
	var out []string
	for _, m := range reCMakeOption.FindAllSubmatch(data, -1) {
		if name := string(m[1]); isTestOption(name) {
			out = append(out, name)
		}
	}
	return out
}

// isTestOption reports whether an option's name says it builds the tests:
// its last word is TEST, TESTS or TESTING and every word before it but a
// leading project prefix is one of testOptionWords.
func isTestOption(name string) bool {
	words := strings.Split(strings.ToUpper(name), "_")
	last := words[len(words)-1]
	if last != "TEST" && last != "TESTS" && last != "TESTING" {
		return false
	}
	for i, w := range words[:len(words)-1] {
		if !testOptionWords[w] && i > 0 {
			return false
		}
	}
	return true
}
