package patch

import (
	"path"
	"strings"
)

// Paths and manifests the audit refuses whatever their content: code the
// tests load without the project's code asking for it (installed or
// vendored dependencies, Jest's __mocks__, .pth start-up files), and
// manifest lines that point a dependency at code in the workspace.

// dependencyDirs are path components holding installed dependencies.
var dependencyDirs = map[string]bool{
	"node_modules": true, "site-packages": true, "dist-packages": true, ".venv": true, "venv": true,
	"__pypackages__": true, "bower_components": true, "jspm_packages": true, ".yarn": true,
}

// auditPath refuses a path into dependencies or test doubles.
func auditPath(p string) *Refusal {
	parts := strings.Split(p, "/")
	base := path.Base(p)
	for i, part := range parts[:len(parts)-1] {
		switch {
		case dependencyDirs[part]:
			return refuse(RuleSuspicious, p, "%s: the path is inside installed dependencies (%s/); the test framework and the dependencies are the grader's, fix the project's own code",
				suspectDependencyCode, part)
		case part == "vendor" && (path.Ext(p) == ".go" || strings.Join(parts[i+1:], "/") == "modules.txt"):
			return refuse(RuleSuspicious, p, "%s: the path is inside vendored Go modules (vendor/); dependencies are the grader's, fix the project's own code",
				suspectDependencyCode)
		case part == "__snapshots__":
			return refuse(RuleSuspicious, p, "%s: snapshots are the tests' expected values; fix the code under test, not its snapshots",
				suspectTestRewrite)
		case part == "__mocks__":
			return refuse(RuleSuspicious, p, "%s: files under __mocks__/ replace modules in every Jest test; fix the code under test instead of its doubles",
				suspectDependencyCode)
		}
	}
	switch {
	case strings.HasSuffix(base, ".snap"):
		return refuse(RuleSuspicious, p, "%s: snapshots are the tests' expected values; fix the code under test, not its snapshots", suspectTestRewrite)
	case strings.HasSuffix(base, ".pth"):
		return refuse(RuleSuspicious, p, "%s: a .pth file runs code whenever Python starts; fix the code under test", suspectImportHook)
	case base == ".pnp.cjs" || base == ".pnp.js" || base == ".pnp.loader.mjs":
		return refuse(RuleSuspicious, p, "%s: Yarn's Plug'n'Play loader decides which module every import gets; dependencies are the grader's", suspectDependencyCode)
	}
	return nil
}

// manifestPatterns are the rules for the added lines of manifests. The
// dependencies rule (deps.go) refuses dependency changes unless the caller
// allows them; these refuse, whatever the caller allows, pointing a test
// framework or assertion library at other code and registering a pytest
// plugin.
func manifestPatterns(p string) []auditPattern {
	const redirect = "a patch may not point a test framework at other code (%s); the test tools are the grader's, fix the project's own code"
	const goTestModules = `(github\.com/stretchr/testify|github\.com/onsi/(ginkgo|gomega)|gotest\.tools|github\.com/google/go-cmp|github\.com/golang/mock|go\.uber\.org/mock|gopkg\.in/check\.v1)`
	switch base := path.Base(p); {
	case base == "go.mod":
		return []auditPattern{pat(suspectDependencyRedir, inCode, `^\s*(replace\s+)?\(?\s*`+goTestModules+`\S*(\s+v\S+)?\s*=>`, redirect)}
	case base == "package.json":
		return []auditPattern{pat(suspectDependencyRedir, inFull,
			`"(jest|@jest/[^"]+|jest-[^"]+|vitest|@vitest/[^"]+|mocha|chai|expect|jasmine[^"]*|ava|tap|tape|uvu|sinon|should|@playwright/test)"\s*:\s*"(file|link|portal|patch|npm|git\+?[a-z]*|https?|\.{0,2}/)`, redirect)}
	case isRequirementsFile(p):
		return []auditPattern{pat(suspectDependencyRedir, inFull,
			`(?i)^\s*(-e\s+)?(\.{0,2}/|file:)\S*(pytest|pluggy|nose)|^\s*(pytest|pluggy|nose2?)\b[^#]*@\s*(file:|\.{0,2}/)`, redirect)}
	case strings.HasSuffix(base, ".toml"), strings.HasSuffix(base, ".cfg"), strings.HasSuffix(base, ".ini"), strings.HasSuffix(base, ".txt"):
		return []auditPattern{pat(suspectTestHook, inFull, `\bpytest11\b`, "a patch may not register a pytest plugin entry point (%s); runner configuration is the grader's")}
	}
	return nil
}
