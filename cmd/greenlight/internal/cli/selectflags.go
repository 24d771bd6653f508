package cli

import (
	"strings"

	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// bindSelect adds verify's selective-run flags: --step and --test. Both
// go through the API (VerifyOptions.selection and .tests), so a server, the
// embedded stack and every client get the same narrowing, and the result
// says it is partial.
func (f *verifyFlags) bindSelect(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVar(&f.steps, "step", nil,
		"run only the step `NAME` (repeatable), with the install steps it needs; a name no step has ends the run with exit 2 and lists the step names (greenlight discover)")
	fl.StringArrayVar(&f.tests, "test", nil,
		"run only the test `ID` (repeatable): as greenlight reports it (pkg.TestName, tests/test_x.py::test_y, file > describe > name) or the test's own name; each test step is narrowed with its runner's selector (go test -run, pytest node ids or -k, jest/vitest -t, cargo test --exact, mvn -Dtest), lint steps do not run")
}

// selectOptions puts the selective-run flags into o.
func (f *verifyFlags) selectOptions(o *glv1.VerifyOptions) {
	for _, s := range f.steps {
		o.Selection = append(o.Selection, &glv1.CommandSelection{Name: s})
	}
	o.Tests = append(o.Tests, f.tests...)
}

// parseSelect refuses an empty --step or --test: it would select nothing
// and end the run ERROR after packing, not say what was wrong.
func (f *verifyFlags) parseSelect() error {
	for _, s := range f.steps {
		if strings.TrimSpace(s) == "" {
			return usagef("--step: an empty step name (greenlight discover lists them)")
		}
	}
	for _, t := range f.tests {
		if strings.TrimSpace(t) == "" {
			return usagef("--test: an empty test id")
		}
	}
	return nil
}
