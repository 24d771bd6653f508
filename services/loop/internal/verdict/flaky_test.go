package verdict

import (
	"slices"
	"testing"

	"github.com/greenlight-dev/greenlight/services/loop/internal/parse"
)

// TestTestIDsNameTheirFiles checks the files each id style can name.
func TestTestIDsNameTheirFiles(t *testing.T) {
	cases := []struct {
		id   string
		want []string
	}{
		{"tests/test_x.py::C::test_y[1]", []string{"tests/test_x.py"}},
		{"src/a.test.ts > suite > case", []string{"src/a.test.ts"}},
		{"tests.test_more.Case.test_y", []string{"tests.py", "tests/test_more.py", "tests/test_more/Case.py"}},
		{"github.com/x/y.TestZ", nil},
		{"TestPlain", nil},
	}
	for _, c := range cases {
		if got := TestIDFiles(c.id); !slices.Equal(got, c.want) {
			t.Errorf("TestIDFiles(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}

// TestNeverFlakyCoversChangedFilesAndTargets checks which failing tests no
// re-run may excuse: a test in a file the change touched (also as seen
// from a step's workdir) and a test a FAIL_TO_PASS id names (exactly, by
// its short Go name, or as the parent of subtests and parametrized
// cases); any other test may be flaky.
func TestNeverFlakyCoversChangedFilesAndTargets(t *testing.T) {
	changed := []string{"svc/tests/test_x.py", "./api/calc.py"}
	targets := []string{"TestAdd", "tests/test_y.py::test_z"}
	cases := []struct {
		name string
		test parse.Test
		want bool
	}{
		{"a pytest id in a changed file", parse.Test{ID: "svc/tests/test_x.py::test_a"}, true},
		{"a changed file seen from the step's workdir", parse.Test{ID: "tests/test_x.py::test_a"}, true},
		{"the located file was changed", parse.Test{ID: "test_calc", File: "api/calc.py"}, true},
		{"a target's short Go name", parse.Test{ID: "example.com/m.TestAdd"}, true},
		{"a subtest of a target", parse.Test{ID: "example.com/m.TestAdd/negative"}, true},
		{"a parametrized case of a target", parse.Test{ID: "tests/test_y.py::test_z[1-2]"}, true},
		{"a name the target prefixes", parse.Test{ID: "example.com/m.TestAddAll"}, false},
		{"another file", parse.Test{ID: "tests/test_other.py::test_a"}, false},
	}
	never := NeverFlaky(changed, targets)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := never(c.test); got != c.want {
				t.Errorf("never flaky = %t, want %t", got, c.want)
			}
		})
	}
	if NeverFlaky(nil, nil) != nil {
		t.Error("without changed files or targets every test may be flaky: want nil")
	}
}
