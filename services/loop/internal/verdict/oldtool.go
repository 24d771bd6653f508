package verdict

import (
	"fmt"
	"regexp"
)

// oldTool is how one tool refuses a project that declares a newer version
// of it (or of the runtime it runs on) than the image provides. The
// pattern's named groups are the version the project needs ("need") and,
// when the message says it, the one the image has ("have").
type oldTool struct {
	tool string
	re   *regexp.Regexp
}

// oldTools are the refusals of tools outside the toolchain packs (the Rust
// pack recognises cargo's own): pytest's minversion, pip's and Poetry's
// requires-python, the go directive under GOTOOLCHAIN=local, CMake's
// cmake_minimum_required, npm/Yarn/pnpm engine checks with engine-strict,
// javac's --release, a class file from a newer JDK, the Maven enforcer
// and Gradle's JVM floor. Each is printed before any of the project's code
// ran, so the code was never tested.
var oldTools = []oldTool{
	{"pytest", regexp.MustCompile(`'minversion' requires pytest-(?P<need>[0-9][^,\s']*), actual pytest-(?P<have>[0-9][^\s']*)`)},
	{"Python", regexp.MustCompile(`requires a different Python: (?P<have>[0-9][^\s]*) not in '(?P<need>[^']+)'`)},
	{"Python", regexp.MustCompile(`[Pp]ython version (?P<have>[0-9][^\s]*) is not supported by the project \((?P<need>[^)]+)\)`)},
	{"Go", regexp.MustCompile(`go\.mod requires go >= ?(?P<need>[0-9][^\s)]*) \(running go (?P<have>[0-9][^;\s)]*)`)},
	{"CMake", regexp.MustCompile(`CMake (?P<need>[0-9][0-9.]*) or higher is required\.\s+You are running version (?P<have>[0-9][0-9.]*)`)},
	{"Node.js", regexp.MustCompile(`(?s)notsup Required: \{[^}\n]*"node":"(?P<need>[^"]+)"[^\n]*\n.{0,80}?notsup Actual:\s+\{[^}\n]*"node":"v?(?P<have>[^"]+)"`)},
	{"Node.js", regexp.MustCompile(`notsup Required: \{[^}\n]*"node":"(?P<need>[^"]+)"`)},
	{"Node.js", regexp.MustCompile(`The engine "node" is incompatible with this module\. Expected version "(?P<need>[^"]+)"\. Got "(?P<have>[^"]+)"`)},
	{"Node.js", regexp.MustCompile(`(?s)Unsupported engine.{0,200}?Expected version: (?P<need>\S+)\s+Got: v?(?P<have>\S+)`)},
	{"the JDK", regexp.MustCompile(`(?:release|target|source) (?:release )?version (?P<need>[0-9]+) not supported|invalid (?:target|source) release: (?P<need>[0-9]+)`)},
	{"the JDK", regexp.MustCompile(`compiled by a more recent version of the Java Runtime \(class file version (?P<need>[0-9.]+)\), this version of the Java Runtime only recognizes class file versions up to (?P<have>[0-9.]+)`)},
	{"the JDK", regexp.MustCompile(`Detected JDK [Vv]ersion:? (?P<have>[0-9][^\s]*).{0,200}? is not in the allowed range (?P<need>[^\s]+?)\.?(?:\s|$)`)},
	{"Maven", regexp.MustCompile(`Detected Maven Version:? (?P<have>[0-9][^\s]*) is not in the allowed range (?P<need>[^\s]+?)\.?(?:\s|$)`)},
	{"the JVM", regexp.MustCompile(`requires JVM (?P<need>[0-9]+) or later to run\.[^\n]*?use JVM (?P<have>[0-9]+)`)},
}

// tooOldTool finds, in a failed step's log tail, a tool refusing the
// project for its version, and says so in one line: the tool, the version
// needed, the one the image has when the message tells, and the line.
func tooOldTool(tail, image string) (string, bool) {
	for _, t := range oldTools {
		m := t.re.FindStringSubmatch(tail)
		if m == nil {
			continue
		}
		need, have := "", ""
		for i, name := range t.re.SubexpNames() {
			switch {
			case name == "need" && m[i] != "":
				need = m[i]
			case name == "have" && m[i] != "":
				have = m[i]
			}
		}
		got := "an older one"
		if have != "" {
			got = have
		}
		return fmt.Sprintf("environment: the project requires %s %s, the image %s has %s (%q): the code was never tested. "+
			"Use an image with a newer %s (greenlight.yaml `images:` or the server's --images)",
			t.tool, need, image, got, matchingLine(tail, t.re), t.tool), true
	}
	return "", false
}
