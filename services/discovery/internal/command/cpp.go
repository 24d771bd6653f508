package command

import (
	"path"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

// CMakeBuildDir is where greenlight configures a CMake project, inside the
// subproject (the workspace is writable; a committed build/ stays intact).
const CMakeBuildDir = ".greenlight-build"

// cpp plans a C/C++ project: CMake configure (with the options that build
// the tests turned on), build and ctest; a Makefile
// project's default goal as its build (its test/check targets come from
// makefile()); a project without a build of its own runs its test
// directory's Makefile.
func (e *extractor) cpp() {
	info := e.sp.Cpp
	switch info.BuildSystem {
	case detect.BuildCMake:
		src := Source{File: info.CMakeFile, Origin: OriginDefault}
		configure := "cmake -S . -B " + CMakeBuildDir
		for _, o := range info.TestOptions {
			configure += " -D" + o + "=ON"
		}
		e.add(Command{Name: "cmake-configure", Phase: PhaseBuild, Command: configure, Source: src})
		e.add(Command{Name: "cmake-build", Phase: PhaseBuild, Command: "cmake --build " + CMakeBuildDir + " --parallel 2", Source: src})
		if info.CTest {
			e.add(Command{Name: "ctest", Phase: PhaseTest, Command: "ctest --test-dir " + CMakeBuildDir + " --output-on-failure",
				Source: Source{File: info.CTestFile, Origin: OriginDefault}})
		}
	case detect.BuildMake:
		mf := e.sp.Make
		// A default goal that is itself a test target (jsmn's `test`) is
		// planned by makefile(); building it twice proves nothing more.
		if mf != nil && mf.Default != "" && mf.Targets[mf.Default] == 0 {
			e.add(Command{Name: "make", Phase: PhaseBuild, Command: "make",
				Source: Source{File: mf.File, Key: mf.Default, Line: mf.DefaultLine, Origin: OriginDiscovered}})
		}
	}
	if tm := info.TestMakefile; tm != nil {
		dir := e.rel(path.Dir(tm.File))
		cmd := "make -C " + dir
		key, line := tm.Default, tm.DefaultLine
		for _, t := range []string{"test", "check", "tests"} {
			if l, ok := tm.Targets[t]; ok {
				cmd, key, line = cmd+" "+t, t, l
				break
			}
		}
		e.add(Command{Name: "make-" + strings.ReplaceAll(dir, "/", "-"), Phase: PhaseTest, Command: cmd,
			Source: Source{File: tm.File, Key: key, Line: line, Origin: OriginDiscovered}})
	}
}
