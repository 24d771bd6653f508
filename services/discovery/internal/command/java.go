package command

import "path"

// mavenEnv keeps the local repository inside the workspace, where the
// dependency cache can keep it. Where dependencies come from is the
// image's settings: the offline Java image serves Debian's Maven
// repository (file://) first, so projects whose dependencies Debian
// packages need no network.
var mavenEnv = map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=.m2/repository"}

// gradleEnv does the same for Gradle's caches.
var gradleEnv = map[string]string{"GRADLE_USER_HOME": ".gradle-home"}

// workspaceDir is the workspace root inside the sandbox: report files are
// absolute paths.
const workspaceDir = "/workspace"

func (e *extractor) java() {
	info := e.sp.Java
	def := Source{File: info.BuildFile, Origin: OriginDefault}
	if info.Tool == "maven" {
		// The install resolves what compiling and testing need (plugins,
		// compile and test dependencies) without compiling: a build
		// failure is the build step's. dependency:go-offline would need
		// maven-dependency-plugin, which an offline image may not have.
		e.add(Command{Name: "mvn-dependencies", Phase: PhaseInstall, Command: "mvn -B -q -Dmaven.main.skip -Dmaven.test.skip=true test-compile",
			Env: clone(mavenEnv), CacheKeyFiles: []string{info.BuildFile}, CachePaths: []string{".m2"}, Source: def})
		// test-compile, not package: packaging binds plugins (bundle,
		// javadoc, gpg) a test run does not need.
		e.add(Command{Name: "mvn-compile", Phase: PhaseBuild, Command: "mvn -B -q test-compile", Env: clone(mavenEnv), Source: def})
		if e.sp.HasTests {
			e.add(Command{Name: "mvn-test", Phase: PhaseTest, Command: "mvn -B test", Env: clone(mavenEnv), Source: def,
				ReportFiles: e.javaReports(info.Modules, "target/surefire-reports")})
		}
		return
	}
	g := "gradle"
	if info.Wrapper {
		g = "./gradlew"
	}
	e.add(Command{Name: "gradle-dependencies", Phase: PhaseInstall, Command: g + " --no-daemon dependencies", Env: clone(gradleEnv),
		CacheKeyFiles: []string{info.BuildFile}, CachePaths: []string{".gradle-home"}, Source: def})
	e.add(Command{Name: "gradle-assemble", Phase: PhaseBuild, Command: g + " --no-daemon --offline assemble", Env: clone(gradleEnv), Source: def})
	if e.sp.HasTests {
		e.add(Command{Name: "gradle-test", Phase: PhaseTest, Command: g + " --no-daemon --offline test", Env: clone(gradleEnv), Source: def,
			ReportFiles: e.javaReports(nil, "build/test-results/test")})
	}
}

// javaReports are the JUnit XML reports of the subproject and its modules:
// one TEST-<class>.xml per test class in dir.
func (e *extractor) javaReports(modules []string, dir string) []string {
	root := path.Join(workspaceDir, e.sp.Root)
	out := []string{path.Join(root, dir, "TEST-*.xml")}
	for _, m := range modules {
		out = append(out, path.Join(root, m, dir, "TEST-*.xml"))
	}
	return out
}
