package workspace

import "testing"

func TestInstallFileFor(t *testing.T) {
	cases := []struct {
		name, dir string
		want      bool
	}{
		{"svc/setup.cfg", "svc", true},
		{"svc/a/b/pom.xml", "svc", true},
		{"svc/gradle/libs.versions.toml", "svc", true},
		{"svc/gradle/wrapper/gradle-wrapper.properties", "svc", true},
		{"svc/settings.gradle.kts", "svc", true},
		{"svc/requirements/dev.txt", "svc", true},
		{"svc/requirements-dev.txt", "svc", true},
		{"svc/.mvn/maven.config", "svc", true},
		{"svc/.yarn/releases/yarn-4.cjs", "svc", true},
		{"package.json", "svc", true},    // the workspace root
		{".npmrc", "svc/web", true},      // an ancestor's settings
		{"svc/go.work", "svc/api", true}, // an ancestor's go.work
		{"web/package.json", "svc", false},
		{"svc/app.py", "svc", false},
		{"svc/notes.txt", "svc", false},
		{"other/Cargo.toml", ".", true},
	}
	for _, c := range cases {
		if got := InstallFileFor(c.name, c.dir); got != c.want {
			t.Errorf("InstallFileFor(%q, %q) = %v, want %v", c.name, c.dir, got, c.want)
		}
	}
}
