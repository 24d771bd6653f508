package parse

import (
	"regexp"
	"slices"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"
	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// SelectCommand narrows a test step's command to the tests ids name, for a
// selective verification (`greenlight verify --test ID`). An id is what
// greenlight reports for a test ("pkg.TestName", "tests/test_x.py::test_y",
// "src/sum.test.js > sum > adds", "tests::adds") or a bare test name
// ("TestName", "test_y"). The runner is read from the command (the format
// its report will have): the narrowed command is built by the same code
// that narrows a re-run of failing tests (narrow). script is the
// package.json test script when the command runs it through a package
// manager (`npm test`); "" otherwise.
//
// ok is false when the command's runner is not one greenlight can select
// tests of, or an id is unsafe to put in a shell word.
func SelectCommand(command, script string, ids []string) (string, bool) {
	if len(ids) == 0 {
		return "", false
	}
	for _, id := range ids {
		if !reSafeSelector.MatchString(id) {
			return "", false
		}
	}
	switch {
	case reGoTest.MatchString(command):
		format := FormatGoText
		if strings.Contains(command, "-json") {
			format = FormatGoJSON
		}
		return narrow(command, format, goTestIDs(ids))
	case isRunner(command, "pytest"):
		return narrow(command, FormatPytestJUnit, plainTests(ids))
	case isRunner(command, "unittest"):
		return narrow(command, FormatUnittest, plainTests(ids))
	case reMaven.MatchString(command):
		return narrow(command, FormatSurefire, javaTests(ids))
	}
	if cmd, ok := jsSelect(command, script, ids); ok {
		return cmd, true
	}
	for _, p := range packs.Registry.All() {
		if _, ok := p.(toolchain.Narrower); ok && runsWord(command, p.Spec().Words.Test) {
			return narrow(command, p.Spec().Format, plainTests(ids))
		}
	}
	return "", false
}

// reSafeSelector is reSafeTestName plus the " > " of jest/vitest ids:
// every id is shell-quoted, and no id may smuggle in anything else.
var reSafeSelector = lazyregexp.New(`^[\w./:\[\]\-,=+@# >]+$`)

// reGoTest finds `go test` in a shell command.
var reGoTest = lazyregexp.New(`(?:^|[\s;&|(])go\s+test(?:\s|$)`)

// reMaven finds Maven (or its wrapper) in a shell command.
var reMaven = lazyregexp.New(`(?:^|[\s;&|(])(?:\./)?mvnw?\s`)

// javaTests reads Surefire ids: "pkg.Class.method" (as greenlight
// reports them), "Class#method", or a class alone ("pkg.Class", "Class":
// its last part starts upper case, as Java's classes do).
func javaTests(ids []string) []Test {
	out := make([]Test, 0, len(ids))
	for _, id := range ids {
		if cls, method, ok := strings.Cut(id, "#"); ok {
			out = append(out, Test{ID: id, Suite: cls, Name: method})
			continue
		}
		i := strings.LastIndexByte(id, '.')
		if last := id[i+1:]; i < 0 || last != "" && strings.ToUpper(last[:1]) == last[:1] {
			out = append(out, Test{ID: id, Suite: id})
			continue
		}
		out = append(out, Test{ID: id, Suite: id[:i], Name: id[i+1:]})
	}
	return out
}

// reGoTestID splits a Go test id "import/path.TestName/sub" at the first
// dot that starts a test function's name.
var reGoTestID = lazyregexp.New(`^(.+?)\.((?:Test|Example|Fuzz|Benchmark)[^/]*)(/.*)?$`)

// goTestIDs reads Go test ids: "pkg.TestName" runs in its package, a bare
// "TestName" in every package of the step ("./...").
func goTestIDs(ids []string) []Test {
	out := make([]Test, 0, len(ids))
	for _, id := range ids {
		if m := reGoTestID.FindStringSubmatch(id); m != nil {
			out = append(out, Test{ID: id, Suite: m[1], Name: m[2] + m[3]})
			continue
		}
		out = append(out, Test{ID: id, Suite: "./...", Name: id})
	}
	return out
}

// plainTests are ids taken as the runner's own test ids.
func plainTests(ids []string) []Test {
	out := make([]Test, 0, len(ids))
	for _, id := range ids {
		out = append(out, Test{ID: id, Name: id})
	}
	return out
}

// isRunner reports whether command runs the Python tool module.
func isRunner(command, module string) bool {
	_, ok := moduleRunner(command, module)
	return ok
}

// runsWord reports whether one of command's simple commands starts with
// one of words ("cargo test").
func runsWord(command string, words []string) bool {
	for _, part := range reShellSplit.Split(command, -1) {
		part = strings.TrimSpace(part)
		if slices.ContainsFunc(words, func(w string) bool { return part == w || strings.HasPrefix(part, w+" ") }) {
			return true
		}
	}
	return false
}

var reShellSplit = lazyregexp.New(`&&|\|\||;|\|`)

// reJSRunner is a jest or vitest invocation as a whole command: `jest`,
// `npx jest --ci`, `vitest run`, `node_modules/.bin/jest`.
var reJSRunner = lazyregexp.New(`^(?:npx\s+|pnpm\s+exec\s+|yarn\s+)?(?:\S*/)?(?:jest|vitest)(?:\s+run)?(?:\s|$)`)

// RunsTestScript reports whether command runs the package.json test
// script through a package manager (`npm test`): SelectCommand needs the
// script to know the runner.
func RunsTestScript(command string) bool {
	return reManagerTest.MatchString(strings.TrimSpace(command))
}

// reManagerTest is a package manager running the test script.
var reManagerTest = lazyregexp.New(`^(npm|pnpm|yarn)\s+(?:run\s+)?test$`)

// jsSelect narrows a jest or vitest run with its -t name pattern (and the
// test files the ids name): the command itself is the runner, or it is
// `npm test` (pnpm, yarn) whose script is the runner alone. A script that
// runs more (`jest && eslint .`) would hand the selector to the wrong
// tool: it is not narrowed.
func jsSelect(command, script string, ids []string) (string, bool) {
	command = strings.TrimSpace(command)
	pass := ""
	switch m := reManagerTest.FindStringSubmatch(command); {
	case reJSRunner.MatchString(command) && !strings.ContainsAny(command, ";&|"):
	case m != nil && reJSRunner.MatchString(strings.TrimSpace(script)) && !strings.ContainsAny(script, ";&|"):
		if m[1] == "npm" {
			pass = " --"
		}
	default:
		return "", false
	}
	var files, names []string
	for _, id := range ids {
		// A full id ("file > describe > test") is the test's whole
		// name; a bare name matches as jest's -t does, anywhere in it.
		parts := strings.Split(id, " > ")
		if len(parts) > 1 && looksLikeFile(parts[0]) {
			if !slices.Contains(files, parts[0]) {
				files = append(files, parts[0])
			}
			names = append(names, "^"+regexp.QuoteMeta(strings.Join(parts[1:], " "))+"$")
			continue
		}
		names = append(names, regexp.QuoteMeta(strings.Join(parts, " ")))
	}
	cmd := command + pass
	for _, f := range files {
		cmd += " " + shellQuote(f)
	}
	return cmd + " -t " + shellQuote(strings.Join(names, "|")), true
}

// looksLikeFile is a jest id's first part when it is the test file.
func looksLikeFile(s string) bool {
	return strings.Contains(s, "/") || strings.HasSuffix(s, ".js") || strings.HasSuffix(s, ".ts") ||
		strings.HasSuffix(s, ".jsx") || strings.HasSuffix(s, ".tsx") || strings.HasSuffix(s, ".mjs") || strings.HasSuffix(s, ".cjs")
}
