package cli

import (
	"os"

	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// maxPlanBytes mirrors discovery's bound on a plan document, so an
// oversized file is a usage error here rather than a refused request.
const maxPlanBytes = 256 << 10

// bindPlan adds verify's --plan. The document goes through the API
// (VerifyOptions.plan): discovery matches its commands against the
// whitelist, so a server, the embedded stack and every client refuse the
// same commands.
func (f *verifyFlags) bindPlan(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.planFile, "plan", "",
		"read command blocks (Install Commands:, Build Commands:, Test Commands:, Lint Commands:) from the plan document `FILE`: a command in the whitelist (greenlight discover) runs first in its phase, any other is refused with the reason and does not run; the default steps still run (docs/plans.md)")
}

// readPlan loads the --plan file.
func (f *verifyFlags) readPlan() error {
	if f.planFile == "" {
		return nil
	}
	st, err := os.Stat(f.planFile)
	if err != nil {
		return usagef("--plan: %v", err)
	}
	if st.Size() > maxPlanBytes {
		return usagef("--plan: %s is %d bytes, a plan document may have at most %d", f.planFile, st.Size(), maxPlanBytes)
	}
	b, err := os.ReadFile(f.planFile)
	if err != nil {
		return usagef("--plan: %v", err)
	}
	if len(b) == 0 {
		return usagef("--plan: %s is empty", f.planFile)
	}
	f.plan = string(b)
	return nil
}

// planOptions puts the plan document into o.
func (f *verifyFlags) planOptions(o *glv1.VerifyOptions) {
	o.Plan = f.plan
}
