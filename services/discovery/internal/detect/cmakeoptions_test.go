package detect

import (
	"slices"
	"testing"
)

// TestCMakeTestOptions reads the option lines of real CMakeLists.txt files
// (yyjson, fmt, jansson): only an option that builds the tests and is OFF
// by default is turned on; variants (CUDA, valgrind, sanitizers) and
// options that turn the tests off are not.
func TestCMakeTestOptions(t *testing.T) {
	yyjson := `option(YYJSON_BUILD_TESTS "Build all tests" OFF)
option(YYJSON_BUILD_FUZZER "Build fuzzer" OFF)
option(YYJSON_ENABLE_COVERAGE "Enable code coverage for tests" OFF)
option(YYJSON_ENABLE_VALGRIND "Enable valgrind memory checker for tests" OFF)
option(YYJSON_INSTALL "Generate installation target" ON)
`
	fmtLib := `option(FMT_TEST "Generate the test target." ${FMT_MASTER_PROJECT})
option(FMT_CUDA_TEST "Generate the cuda-test target." OFF)
`
	jansson := `   option(JANSSON_WITHOUT_TESTS "Don't build tests ('make test' to execute tests)" OFF)
option(ENABLE_TESTS "tests" OFF)
OPTION(foo_with_unit_tests "x" off)
`
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"yyjson", yyjson, []string{"YYJSON_BUILD_TESTS"}},
		{"fmt", fmtLib, nil},
		{"jansson and others", jansson, []string{"ENABLE_TESTS", "foo_with_unit_tests"}},
	} {
		if got := cmakeTestOptions([]byte(tc.file)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
