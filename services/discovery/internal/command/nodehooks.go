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
	case !hasPre && !hasPost, hasPost && !onlyHookWork(post), !hasPost && !onlyHookWork(pre):
		return "npm test", ""
	case hasPre && !onlyHookWork(pre):
		return "npm run pretest && npm test --ignore-scripts", "posttest (" + clipScript(post) + ")"
	case hasPre && hasPost:
		return "npm test --ignore-scripts", "pretest (" + clipScript(pre) + ") and posttest (" + clipScript(post) + ")"
	case hasPre:
		return "npm test --ignore-scripts", "pretest (" + clipScript(pre) + ")"
	}
	return "npm test --ignore-scripts", "posttest (" + clipScript(post) + ")"
}

// onlyHookWork reports whether every command of a hook script is lint,
// README checking or network work (hookWords), as a word or as the name of
// the script it runs ("npm run lint:js").
func onlyHookWork(script string) bool {
	parts := shellParts(script)
	if len(parts) == 0 {
		return false
	}
	for _, part := range parts {
		found := false
		for _, w := range strings.Fields(part) {
			w = strings.Trim(w, `'"`)
			name, _, _ := strings.Cut(w, ":")
			if hookWords[w] || hookWords[name] {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// clip shortens a script for a note.
func clipScript(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
