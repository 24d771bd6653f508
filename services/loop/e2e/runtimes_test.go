package e2e_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// fixtureFiles reads a discovery fixture (services/discovery/testdata/repos)
// into a snapshot map, leaving out the directories named in skip.
func fixtureFiles(t *testing.T, name string, skip ...string) map[string]string {
	t.Helper()
	root := filepath.Join("..", "..", "discovery", "testdata", "repos", name)
	files := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for _, s := range skip {
			if strings.HasPrefix(rel, s+"/") {
				return nil
			}
		}
		b, err := os.ReadFile(p)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// haveImage reports whether the engine has an image.
func haveImage(t *testing.T, ref string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, "docker", "image", "inspect", "--format", "{{.Id}}", ref).Run() == nil
}

// TestPolyglotMissingImage is issue 12's polyglot run: Go, Node and Python
// subprojects each run in their own runtime's image, while the Rust one,
// whose image the table points at something nobody built, ends ERROR with
// a message naming the runtime and `make images IMAGES=...`; the others'
// tests still run and pass, and the verdict says what is missing instead
// of PASS. (The C subproject is left out: its image may not be built.)
func TestPolyglotMissingImage(t *testing.T) {
	const missing = "greenlight/sandbox-nosuchrust:latest"
	s := newStackImages(t, "rust="+missing)
	evs := s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(fixtureFiles(t, "polyglot", "native"))})
	fin := finished(evs)
	res := fin.GetResult()
	if fin.GetStatus() == glv1.RunStatus_RUN_STATUS_PASSED || res.GetStatus() == glv1.Verdict_VERDICT_PASS {
		t.Fatalf("a run with a missing image passed: %s", res.GetSummary())
	}
	for _, want := range []string{"engine:", missing, `runtime "rust"`, "make images IMAGES=nosuchrust"} {
		if !strings.Contains(res.GetSummary(), want) {
			t.Errorf("summary %q does not name %q", res.GetSummary(), want)
		}
	}
	byName := map[string]*glv1.StepResult{}
	for _, st := range res.GetSteps() {
		byName[st.GetName()] = st
	}
	for name, want := range map[string]glv1.StepStatus{
		"api:go-test": glv1.StepStatus_STEP_STATUS_OK, "web:npm-test": glv1.StepStatus_STEP_STATUS_OK,
		"py:pytest": glv1.StepStatus_STEP_STATUS_OK, "engine:cargo-build": glv1.StepStatus_STEP_STATUS_ERROR,
		"engine:cargo-test": glv1.StepStatus_STEP_STATUS_SKIPPED,
	} {
		if got := byName[name].GetStatus(); got != want {
			t.Errorf("%s = %s (%s), want %s", name, got, byName[name].GetReason(), want)
		}
	}
	if c := res.GetCounts(); c.GetPassed() < 3 || c.GetFailed() != 0 {
		t.Errorf("counts = %v, want the Go, Node and Python tests passed", c)
	}
}

// TestAgentYAMLShellProject is issue 12's first case: a repository whose
// only configuration is agent.yaml with plain shell steps runs in the
// generic image and passes (before: `runtime "" has no configured image`).
func TestAgentYAMLShellProject(t *testing.T) {
	const generic = "greenlight/sandbox-generic:latest"
	integration(t)
	if !haveImage(t, generic) {
		t.Skip(generic + " is not built yet: run `make images IMAGES=generic`")
	}
	s := newStack(t)
	fin := finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(fixtureFiles(t, "agent-yaml-shell"))}))
	res := fin.GetResult()
	if res.GetStatus() != glv1.Verdict_VERDICT_PASS || res.GetCounts().GetPassed() != 2 {
		t.Fatalf("verdict %s counts %v: %s\n%s", res.GetStatus(), res.GetCounts(), res.GetSummary(), res.GetTailLog())
	}
}

// requireImage skips t, saying how to build it, when the engine lacks an
// offline image the images helper builds (`make images IMAGES=name`).
func requireImage(t *testing.T, name string) {
	t.Helper()
	integration(t)
	if ref := "greenlight/sandbox-" + name + ":latest"; !haveImage(t, ref) {
		t.Skip(ref + " is not built: run `make images IMAGES=" + name + "`")
	}
}

// verifyFiles runs one verification of files and returns its result.
func verifyFiles(t *testing.T, s *stack, files map[string]string) *glv1.Result {
	t.Helper()
	return finished(s.verify(&glv1.VerifyRequest{Snapshot: s.snapshot(files)})).GetResult()
}

// expectPass fails t unless res passed at L4 with the given passing count.
func expectPass(t *testing.T, res *glv1.Result, passed int32) {
	t.Helper()
	if res.GetStatus() != glv1.Verdict_VERDICT_PASS || res.GetCounts().GetPassed() != passed || res.GetCounts().GetFailed() != 0 ||
		res.GetLevel() != glv1.Level_LEVEL_L4 {
		t.Fatalf("verdict %s level %s counts %v, want PASS at L4 with %d passed: %s\n%s",
			res.GetStatus(), res.GetLevel(), res.GetCounts(), passed, res.GetSummary(), res.GetTailLog())
	}
}

// expectFailNaming fails t unless res failed with a failure of test whose
// location is file (and a line).
func expectFailNaming(t *testing.T, res *glv1.Result, test, file string) {
	t.Helper()
	if res.GetStatus() != glv1.Verdict_VERDICT_FAIL {
		t.Fatalf("verdict %s, want FAIL: %s\n%s", res.GetStatus(), res.GetSummary(), res.GetTailLog())
	}
	for _, f := range res.GetFailures() {
		if f.GetTest() == test && f.GetFile() == file && f.GetLine() > 0 {
			return
		}
	}
	t.Fatalf("no failure names test %q at %s:LINE: %v", test, file, res.GetFailures())
}

// TestCMakeProject configures, builds and runs ctest in the C/C++ image:
// it passes with ctest's counts, and with mul broken fails naming the
// CTest test and the line its output points at.
func TestCMakeProject(t *testing.T) {
	requireImage(t, "cpp")
	s := newStack(t)
	files := fixtureFiles(t, "cmake-ctest")
	expectPass(t, verifyFiles(t, s, files), 2)
	files["calc.c"] = strings.Replace(files["calc.c"], "return a * b;", "return a + b;", 1)
	expectFailNaming(t, verifyFiles(t, s, files), "mul", "tests/test_mul.c")
}

// TestCMakefileProject runs a C Makefile project's `make` and `make test`
// in the C/C++ image: its Unity-style test lines give counts, and a bug
// fails naming the test and its file:line.
func TestCMakefileProject(t *testing.T) {
	requireImage(t, "cpp")
	s := newStack(t)
	files := fixtureFiles(t, "c-make")
	expectPass(t, verifyFiles(t, s, files), 2)
	files["calc.c"] = strings.Replace(files["calc.c"], "return a + b;", "return a - b;", 1)
	expectFailNaming(t, verifyFiles(t, s, files), "test_calc.c::test_add", "test_calc.c")
}

// TestRustCrate runs a zero-dependency crate's cargo build and test
// offline in the Rust image: PASS with libtest's counts, and a bug fails
// naming the test and the panic's file:line.
func TestRustCrate(t *testing.T) {
	requireImage(t, "rust")
	s := newStack(t)
	files := map[string]string{
		"Cargo.toml": "[package]\nname = \"adder\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/lib.rs": "pub fn add(a: u64, b: u64) -> u64 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n" +
			"    #[test]\n    fn adds() {\n        assert_eq!(add(2, 2), 4);\n    }\n\n" +
			"    #[test]\n    fn adds_zero() {\n        assert_eq!(add(0, 7), 7);\n    }\n}\n",
	}
	expectPass(t, verifyFiles(t, s, files), 2)
	files["src/lib.rs"] = strings.Replace(files["src/lib.rs"], "a + b", "a * b", 1)
	expectFailNaming(t, verifyFiles(t, s, files), "tests::adds_zero", "src/lib.rs")
}

// mavenCalc is a Maven project whose only test dependency, JUnit 4,
// Debian packages: the Java image's Debian repository serves it offline.
func mavenCalc() map[string]string {
	return map[string]string{
		"pom.xml": `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.example</groupId>
  <artifactId>calc</artifactId>
  <version>1.0</version>
  <properties>
    <maven.compiler.source>17</maven.compiler.source>
    <maven.compiler.target>17</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>junit</groupId>
      <artifactId>junit</artifactId>
      <version>4.13.2</version>
      <scope>test</scope>
    </dependency>
  </dependencies>
</project>
`,
		"src/main/java/calc/Calc.java": "package calc;\n\npublic class Calc {\n    public static int add(int a, int b) {\n        return a + b;\n    }\n}\n",
		"src/test/java/calc/CalcTest.java": "package calc;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\n" +
			"public class CalcTest {\n    @Test\n    public void adds() {\n        assertEquals(4, Calc.add(2, 2));\n    }\n\n" +
			"    @Test\n    public void addsZero() {\n        assertEquals(7, Calc.add(0, 7));\n    }\n}\n",
	}
}

// TestMavenProject runs a Maven project offline in the Java image: its
// Surefire XML reports (target/surefire-reports/TEST-*.xml, collected as a
// report file pattern) give the counts. (A failing run, which names the
// test and its file:line from the same reports, would double the ~50 s a
// Maven verification takes on one CPU; parse's maven golden covers it.)
func TestMavenProject(t *testing.T) {
	requireImage(t, "java")
	s := newStack(t)
	files := mavenCalc()
	res := verifyFiles(t, s, files)
	expectPass(t, res, 2)
	if f := res.GetCounts().GetFormat(); f != "surefire" {
		t.Errorf("counts format = %q, want surefire (the XML reports, not the log)", f)
	}
}

// TestGradleProject runs a Gradle project offline in the Java image (its
// init script puts Debian's Maven repository first): the JUnit XML of
// build/test-results/test, collected as a report file pattern, gives the
// counts.
func TestGradleProject(t *testing.T) {
	requireImage(t, "java")
	s := newStack(t)
	files := mavenCalc()
	delete(files, "pom.xml")
	files["build.gradle"] = "plugins {\n    id 'java'\n}\n\nrepositories {\n    mavenCentral()\n}\n\n" +
		"dependencies {\n    testImplementation 'junit:junit:4.13.2'\n}\n"
	res := verifyFiles(t, s, files)
	expectPass(t, res, 2)
	if f := res.GetCounts().GetFormat(); f != "surefire" && f != "junit" {
		t.Errorf("counts format = %q, want the JUnit XML reports", f)
	}
}

// TestRustTooNew: a crate whose rust-version is newer than the image's
// rustc was never built, so the verdict is ERROR naming both versions and
// the image, not a FAIL of the code.
func TestRustTooNew(t *testing.T) {
	requireImage(t, "rust")
	s := newStack(t)
	res := verifyFiles(t, s, map[string]string{
		"Cargo.toml": "[package]\nname = \"future\"\nversion = \"0.1.0\"\nedition = \"2021\"\nrust-version = \"1.999\"\n",
		"src/lib.rs": "pub fn one() -> u8 {\n    1\n}\n",
	})
	if res.GetStatus() != glv1.Verdict_VERDICT_ERROR {
		t.Fatalf("verdict %s, want ERROR: %s\n%s", res.GetStatus(), res.GetSummary(), res.GetTailLog())
	}
	for _, want := range []string{"cargo-build", "requires rustc 1.999", "greenlight/sandbox-rust:latest"} {
		if !strings.Contains(res.GetSummary(), want) {
			t.Errorf("summary %q does not name %q", res.GetSummary(), want)
		}
	}
}
