package command_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// Install steps list every file that can change what they install, not
// only the lockfile: a same lockfile with a changed setup.py, module
// pom.xml or workspace member must key the dependency cache differently.
func TestInstallKeyFilesAreComplete(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		step  string
		want  []string
	}{
		{name: "pip -e . with an included requirements file", files: map[string]string{
			"requirements.txt": "-r shared/base.txt\n-c constraints.txt\n-e ./libs/util\nrequests\n",
			"shared/base.txt":  "six\n", "constraints.txt": "six==1\n",
			"setup.py": "from setuptools import setup\nsetup()\n", "setup.cfg": "[metadata]\nname = a\n",
			"pyproject.toml":     "[build-system]\nrequires = [\"setuptools\"]\n",
			"libs/util/setup.py": "", "libs/util/util.py": "",
			"tests/test_a.py": "", "app.py": "",
		}, step: "pip-install", want: []string{
			"requirements.txt", "shared/base.txt", "constraints.txt", "setup.py", "setup.cfg", "pyproject.toml", "libs/util/setup.py",
		}},
		{name: "maven modules", files: map[string]string{
			"pom.xml": "<project><modules><module>core</module></modules></project>", "core/pom.xml": "<project/>",
			".mvn/maven.config": "-B\n", "core/src/test/java/ATest.java": "",
		}, step: "mvn-dependencies", want: []string{"pom.xml", "core/pom.xml", ".mvn/maven.config"}},
		{name: "gradle settings, catalog and wrapper", files: map[string]string{
			"build.gradle.kts": "plugins { java }\n", "settings.gradle.kts": "include(\"app\")\n", "app/build.gradle.kts": "",
			"gradle/libs.versions.toml": "[versions]\n", "gradle/wrapper/gradle-wrapper.properties": "distributionUrl=x\n",
			"gradlew": "#!/bin/sh\n", "gradle.properties": "org.gradle.jvmargs=-Xmx1g\n",
		}, step: "gradle-dependencies", want: []string{
			"build.gradle.kts", "settings.gradle.kts", "app/build.gradle.kts", "gradle/libs.versions.toml",
			"gradle/wrapper/gradle-wrapper.properties", "gradlew", "gradle.properties",
		}},
		{name: "npm workspace members and registry settings", files: map[string]string{
			"package.json":      "{\"workspaces\": [\"packages/*\"], \"devDependencies\": {\"jest\": \"1\"}, \"scripts\": {\"test\": \"jest\"}}",
			"package-lock.json": "{}", ".npmrc": "registry=https://r.example\n",
			"packages/a/package.json": "{\"name\": \"a\", \"dependencies\": {\"left-pad\": \"1\"}}",
		}, step: "npm-install", want: []string{"package-lock.json", "package.json", ".npmrc", "packages/a/package.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, cmds := extract(t, tt.files)
			var step *command.Command
			for i := range cmds {
				if strings.HasSuffix(cmds[i].Name, tt.step) && cmds[i].Phase == command.PhaseInstall && step == nil {
					step = &cmds[i] // the first: libs/util has an install of its own
				}
			}
			if step == nil {
				t.Fatalf("no %s step among %d commands", tt.step, len(cmds))
			}
			for _, f := range tt.want {
				if !slices.Contains(step.CacheKeyFiles, f) {
					t.Errorf("cache_key_files %q lacks %s", step.CacheKeyFiles, f)
				}
			}
		})
	}
}
