package command

import "testing"

// TestNpmTestLeavesOutLintAndNetworkHooks checks what the test step runs
// for package.json hooks as real packages write them.
func TestNpmTestLeavesOutLintAndNetworkHooks(t *testing.T) {
	cases := []struct {
		name    string
		scripts map[string]string
		want    string
		left    bool
	}{
		{"no hooks", map[string]string{"test": "tap"}, "npm test", false},
		{"qs: README and lint before, npm audit after", map[string]string{"test": "npm run tests-only",
			"pretest": "npm run --silent readme && npm run --silent lint", "posttest": "npx npm@'>=10.2' audit --production"},
			"npm test --ignore-scripts", true},
		{"npm's packages: lint after", map[string]string{"test": "tap", "posttest": "npm run lint"}, "npm test --ignore-scripts", true},
		{"a build before stays, an audit after goes", map[string]string{"test": "uvu", "pretest": "npm run build", "posttest": "aud --production"},
			"npm run pretest && npm test --ignore-scripts", true},
		{"a build before, nothing after", map[string]string{"test": "uvu", "pretest": "npm run build"}, "npm test", false},
		{"a post hook doing real work keeps every hook", map[string]string{"test": "mocha", "pretest": "npm run lint", "posttest": "node check-dist.js"},
			"npm test", false},
		{"coverage upload after", map[string]string{"test": "nyc mocha", "posttest": "nyc report --reporter=text-lcov | coveralls"},
			"npm test --ignore-scripts", true}, // the pipe uploads coverage: network work
		{"resolve: a fixture's install and an audit after, through npm run", map[string]string{"test": "npm run --silent tests-only",
			"pretest": "npm run lint", "posttest": "npm run test:multirepo && npx npm@'>= 10.2' audit --production",
			"test:multirepo": "cd ./test/resolver/multirepo && npm install && npm test"}, "npm test --ignore-scripts", true},
		{"a script it runs does real work", map[string]string{"test": "tape", "posttest": "npm run check",
			"check": "node scripts/check-exports.js"}, "npm test", false},
		{"scripts that run each other stop", map[string]string{"test": "tape", "posttest": "npm run a", "a": "npm run b", "b": "npm run a"},
			"npm test", false},
		{"lint:js by name", map[string]string{"test": "jest", "pretest": "npm run lint:js && npm run lint:css"}, "npm test --ignore-scripts", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, left := npmTestCommand(tc.scripts)
			if got != tc.want || (left != "") != tc.left {
				t.Fatalf("npmTestCommand = %q (left out %q), want %q (left out: %t)", got, left, tc.want, tc.left)
			}
		})
	}
}
