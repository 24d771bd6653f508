package command

import "strings"

// hookWords name what a test script's pre/post hooks run besides the
// tests: linters and formatters (greenlight runs lint as its own advisory
// step), the README's examples, and checks that need the network the test
// step does not have (npm audit, coverage uploads, outdated checks).
var hookWords = map[string]bool{
	"lint": true, "eslint": true, "standard": true, "xo": true, "prettier": true, "tslint": true, "jshint": true,
	"jscs": true, "eclint": true, "markdownlint": true, "evalmd": true, "readme": true, "audit": true, "aud": true,
	"coveralls": true, "codecov": true, "outdated": true, "depcheck": true, "publint": true, "attw": true, "licensee": true,
}

// npmTestCommand returns npm's test command for a package whose test
// script has pre/post hooks that only lint or reach the network: the test
// step runs the tests alone (npm test --ignore-scripts still runs the test
// script, not its hooks), a pretest that does something else (a build)
// runs first. The note says what was left out; "" when nothing was.
func npmTestCommand(scripts map[string]string) (cmd, note string) {
	pre, hasPre := scripts["pretest"]
	post, hasPost := scripts["posttest"]
	switch {
	case !hasPre && !hasPost, hasPost && !onlyHookWork(post, scripts, 0), !hasPost && !onlyHookWork(pre, scripts, 0):
		return "npm test", ""
	case hasPre && !onlyHookWork(pre, scripts, 0):
		return "npm run pretest && npm test --ignore-scripts", "posttest (" + clipScript(post) + ")"
	case hasPre && hasPost:
		return "npm test --ignore-scripts", "pretest (" + clipScript(pre) + ") and posttest (" + clipScript(post) + ")"
	case hasPre:
		return "npm test --ignore-scripts", "pretest (" + clipScript(pre) + ")"
	}
	return "npm test --ignore-scripts", "posttest (" + clipScript(post) + ")"
}

// maxHookDepth bounds how deep onlyHookWork follows `npm run X` into the
// scripts it names (a cycle of scripts stops there).
const maxHookDepth = 3

// installWords start a command that installs packages: in a hook of the
// test script it needs the network the test step does not have (resolve's
// posttest installs a fixture's dependencies), so it is network work.
var installWords = []string{"npm install ", "npm i ", "npm ci ", "yarn install ", "pnpm install ", "pnpm i "}

// onlyHookWork reports whether every command of a hook script is lint,
// README checking or network work (hookWords, an install), as a word, as
// the name of the script it runs ("npm run lint:js") or as that script's
// own commands (`npm run test:multirepo` whose script runs `npm install`).
func onlyHookWork(script string, scripts map[string]string, depth int) bool {
	parts := shellParts(script)
	if len(parts) == 0 || depth > maxHookDepth {
		return false
	}
	// A script that installs packages cannot run without the network,
	// whatever else it does (resolve's fixture: cd, npm install, npm test).
	for _, part := range parts {
		if installs(part) {
			return true
		}
	}
	for _, part := range parts {
		if !hookPart(part, scripts, depth) {
			return false
		}
	}
	return true
}

// hookPart reports whether one command of a hook is hook work.
func hookPart(part string, scripts map[string]string, depth int) bool {
	fields := strings.Fields(part)
	for _, w := range fields {
		w = strings.Trim(w, `'"`)
		name, _, _ := strings.Cut(w, ":")
		if hookWords[w] || hookWords[name] {
			return true
		}
	}
	if called, ok := npmRunTarget(fields); ok {
		if body, ok := scripts[called]; ok {
			return onlyHookWork(body, scripts, depth+1)
		}
	}
	return false
}

// installs reports whether a command installs packages.
func installs(part string) bool {
	padded := strings.Join(strings.Fields(part), " ") + " "
	for _, w := range installWords {
		if strings.HasPrefix(padded, w) {
			return true
		}
	}
	return false
}

// npmRunTarget is the script an `npm run [flags] NAME` command runs.
func npmRunTarget(fields []string) (string, bool) {
	if len(fields) < 3 || fields[0] != "npm" || (fields[1] != "run" && fields[1] != "run-script") {
		return "", false
	}
	for _, f := range fields[2:] {
		if !strings.HasPrefix(f, "-") {
			return strings.Trim(f, `'"`), true
		}
	}
	return "", false
}

// clip shortens a script for a note.
func clipScript(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
