package cisource

import (
	"regexp"
	"strings"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
)

// skipTools are programs whose commands never run in a sandbox, by why.
var skipTools = map[string]string{}

func init() {
	for why, progs := range map[string][]string{
		"installs system packages (needs root and network)":               {"sudo", "apt", "apt-get", "yum", "dnf", "apk", "brew", "choco", "snap", "port", "pacman", "zypper"},
		"publishes a release":                                             {"twine", "goreleaser", "semantic-release", "changeset", "lerna", "vsce", "ovsx", "release-it", "np"},
		"deploys or needs Docker or a cloud account":                      {"docker", "podman", "buildah", "kubectl", "helm", "terraform", "aws", "gcloud", "az", "fly", "flyctl", "heroku", "vercel", "netlify", "firebase", "ssh", "scp", "rsync", "sam", "cdk", "serverless", "pulumi"},
		"talks to GitHub":                                                 {"gh"},
		"downloads (no network in the sandbox outside the install phase)": {"curl", "wget"},
		"uploads coverage":                                                {"codecov", "coveralls", "goveralls", "codecovcli", "codacy-coverage-reporter", "coveralls-lcov"},
	} {
		for _, p := range progs {
			skipTools[p] = why
		}
	}
}

// skipKeys are tool subcommands that publish or push.
var skipKeys = withPackPublish(map[string]string{
	"git push": "pushes to a remote", "git tag": "tags a release", "git commit": "commits",
	"poetry publish": "publishes a release", "uv publish": "publishes a release",
	"hatch publish": "publishes a release", "npm publish": "publishes a release", "yarn publish": "publishes a release",
	"pnpm publish": "publishes a release", "mvn deploy": "publishes a release", "gradle publish": "publishes a release",
	"gradlew publish": "publishes a release", "gem push": "publishes a release", "dotnet nuget": "publishes a release",
	"flit publish": "publishes a release", "pdm publish": "publishes a release", "npm version": "publishes a release",
})

// withPackPublish adds the toolchain packs' publish commands.
func withPackPublish(keys map[string]string) map[string]string {
	for _, k := range packs.Registry.Collect(func(s *toolchain.Spec) []string { return s.Words.Publish }) {
		keys[k] = "publishes a release"
	}
	return keys
}

// skipReason says why one invocation cannot run in a sandbox.
func skipReason(inv Invocation) string {
	if why, ok := skipKeys[inv.Key]; ok {
		return why
	}
	prog, _, _ := strings.Cut(inv.Key, " ")
	return skipTools[prog]
}

// secretRef matches a reference to repository secrets or tokens.
var secretRef = regexp.MustCompile(`secrets\.|\$\{?(GITHUB_TOKEN|GH_TOKEN|NPM_TOKEN|PYPI_TOKEN|CODECOV_TOKEN|TWINE_PASSWORD)\b`)

// textSkip says why a whole command line cannot run: it needs secrets or
// a GitHub expression greenlight cannot evaluate.
func textSkip(run string) string {
	switch {
	case secretRef.MatchString(run):
		return "needs repository secrets"
	case strings.Contains(run, "${{"):
		return "uses a GitHub expression greenlight cannot evaluate"
	}
	return ""
}

// releaseWords in a job's id or name mark a job that ships, not checks.
var releaseWords = []string{"deploy", "release", "publish", "upload", "pages", "docker", "pypi", "npm-publish"}

// releaseJob says why a job is a release job, or "".
func releaseJob(names ...string) string {
	for _, n := range names {
		lower := strings.ToLower(n)
		for _, w := range releaseWords {
			if strings.Contains(lower, w) {
				return "a " + w + " job ships, it does not check"
			}
		}
	}
	return ""
}

// tagOnly matches a step or job condition that holds only for tags and
// releases.
var tagOnly = regexp.MustCompile(`refs/tags|github\.event_name\s*==\s*'(release|workflow_dispatch|schedule)'|startsWith\(\s*github\.ref\s*,\s*'refs/tags`)

// matrixRef matches ${{ matrix.KEY }}.
var matrixRef = regexp.MustCompile(`\$\{\{\s*matrix\.([A-Za-z0-9_.-]+)\s*\}\}`)

// maxMatrix bounds the variants of one command line.
const maxMatrix = 8

// expandMatrix substitutes the matrix values a command line references:
// one line per combination (at most maxMatrix); a key without values stays
// unresolved (and the line is skipped as an expression).
func expandMatrix(run string, matrix map[string][]string) []string {
	out := []string{run}
	for _, m := range matrixRef.FindAllStringSubmatch(run, -1) {
		vals := matrix[m[1]]
		if len(vals) == 0 {
			continue
		}
		var next []string
		for _, o := range out {
			for _, v := range vals {
				s := strings.ReplaceAll(o, m[0], v)
				if !contains(next, s) && len(next) < maxMatrix {
					next = append(next, s)
				}
			}
		}
		out = next
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
