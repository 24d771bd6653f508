package capability

import (
	"slices"

	"github.com/greenlight-dev/greenlight/pkg/toolchain"
	"github.com/greenlight-dev/greenlight/pkg/toolchain/packs"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// DefaultTriggers escalate to tier1 when a change touches dependencies, CI
// or verification configuration, authentication or security code, or
// database migrations. Patterns without a slash match the base name at any
// depth (see plan.Match).
func DefaultTriggers() []repoconfig.Trigger {
	return []repoconfig.Trigger{
		{Name: "dependencies", Tier: command.Tier1, Source: "default", Patterns: append([]string{
			"go.mod", "go.sum", "go.work", "package.json", "package-lock.json", "npm-shrinkwrap.json",
			"pnpm-lock.yaml", "yarn.lock", "bun.lockb", "requirements*.txt", "pyproject.toml",
			"setup.py", "setup.cfg", "poetry.lock", "uv.lock", "Pipfile", "Pipfile.lock",
		}, append(packs.Registry.Collect(func(s *toolchain.Spec) []string { return append(slices.Clip(s.DependencyManifests), s.Lockfiles...) }),
			"pom.xml", "build.gradle", "build.gradle.kts", "gradle.lockfile")...)},
		{Name: "ci", Tier: command.Tier1, Source: "default", Patterns: []string{
			".github/workflows/**", ".gitlab-ci.yml", ".circleci/**", "Jenkinsfile", "azure-pipelines.yml",
			".ci/**", "greenlight.yaml", "greenlight.yml", "agent.yaml", "runr.config.json",
			"Dockerfile", "Makefile",
		}},
		{Name: "auth", Tier: command.Tier1, Source: "default", Patterns: []string{
			"**/auth/**", "**/authn/**", "**/authz/**", "**/security/**", "**/*auth*.*", "**/*crypto*/**",
		}},
		{Name: "migrations", Tier: command.Tier1, Source: "default", Patterns: []string{
			"**/migrations/**", "**/migrate/**", "**/alembic/**", "**/*.sql",
		}},
	}
}
