package parse

import (
	"strings"
	"testing"
)

// unittest subTest blocks with a message (`self.subTest(name)`), as tomli's
// data-driven tests print them on Python 3.11: the test is placed at its
// own frame, from the first failing subtest's traceback.
func TestUnittestSubTestMessageBlocks(t *testing.T) {
	log := `test_valid (tests.test_data.TestData.test_valid) ... ERROR

======================================================================
ERROR: test_valid (tests.test_data.TestData.test_valid) [trailing-comma]
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/workspace/tests/test_data.py", line 44, in test_valid
    actual = tomllib.loads(toml_str)
             ^^^^^^^^^^^^^^^^^^^^^^^
  File "/workspace/src/tomli/_parser.py", line 456, in parse_key_value_pair
    raise TOMLDecodeError("Expected '=' after a key in a key/value pair", src, pos)
tomli._parser.TOMLDecodeError: Expected '=' after a key in a key/value pair (at line 1, column 5)

======================================================================
ERROR: test_valid (tests.test_data.TestData.test_valid) [five-quotes]
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/workspace/tests/test_data.py", line 45, in test_valid
    actual = tomllib.loads(toml_str)
tomli._parser.TOMLDecodeError: Unclosed string (at line 2, column 1)

----------------------------------------------------------------------
Ran 1 test in 0.088s

FAILED (errors=2)
`
	rep := parseText(t, log)
	if rep.Format != FormatUnittest || len(rep.Failures) != 1 {
		t.Fatalf("format %q, %d failures, want unittest and 1: %+v", rep.Format, len(rep.Failures), rep.Failures)
	}
	f := rep.Failures[0]
	if f.Test != "tests.test_data.TestData.test_valid" || f.File != "src/tomli/_parser.py" && f.File != "tests/test_data.py" || f.Line == 0 ||
		!strings.Contains(f.Message, "Expected '=' after a key") {
		t.Fatalf("failure %s at %s:%d %q, want test_valid placed by the first subtest's traceback", f.Test, f.File, f.Line, f.Message)
	}
}
