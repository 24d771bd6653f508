package command

// mavenEnv keeps the local repository inside the workspace, where the
// dependency cache can keep it.
var mavenEnv = map[string]string{"MAVEN_OPTS": "-Dmaven.repo.local=.m2/repository"}

// gradleEnv does the same for Gradle's caches.
var gradleEnv = map[string]string{"GRADLE_USER_HOME": ".gradle-home"}

func (e *extractor) java() {
	info := e.sp.Java
	def := Source{File: info.BuildFile, Origin: OriginDefault}
	if info.Tool == "maven" {
		e.add(Command{Name: "mvn-dependencies", Phase: PhaseInstall, Command: "mvn -B -q dependency:go-offline", Env: clone(mavenEnv),
			CacheKeyFiles: []string{info.BuildFile}, CachePaths: []string{".m2"}, Source: def})
		e.add(Command{Name: "mvn-package", Phase: PhaseBuild, Command: "mvn -B -q -DskipTests package", Env: clone(mavenEnv), Source: def})
		if e.sp.HasTests {
			e.add(Command{Name: "mvn-test", Phase: PhaseTest, Command: "mvn -B test", Env: clone(mavenEnv), Source: def})
		}
		return
	}
	g := "gradle"
	if info.Wrapper {
		g = "./gradlew"
	}
	e.add(Command{Name: "gradle-dependencies", Phase: PhaseInstall, Command: g + " --no-daemon dependencies", Env: clone(gradleEnv),
		CacheKeyFiles: []string{info.BuildFile}, CachePaths: []string{".gradle-home"}, Source: def})
	e.add(Command{Name: "gradle-assemble", Phase: PhaseBuild, Command: g + " --no-daemon assemble", Env: clone(gradleEnv), Source: def})
	if e.sp.HasTests {
		e.add(Command{Name: "gradle-test", Phase: PhaseTest, Command: g + " --no-daemon test", Env: clone(gradleEnv), Source: def})
	}
}
