package cli

import (
	"strings"

	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// bindReview adds verify's --reviewer.
func (f *verifyFlags) bindReview(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.reviewer, "reviewer", "",
		"after the verification, ask a reviewer model for a rubric report (correctness, completeness, testing, code quality, best practices), "+
			"shown beside the verdict as model opinion: it never changes PASS/FAIL or the level. With --addr, the `NAME` of a provider profile "+
			"of the server; embedded, a profile definition in serve's --provider-profile syntax "+
			"(name=rev,kind=openai,model=M,base-url=URL or name=rev,kind=command,command=CMD)")
}

// parseReview checks --reviewer. A definition (it has a '=') configures
// the embedded loop, as fix's --provider does; a server runs only the
// profiles its operator configured, so a definition with --addr is refused.
func (a *app) parseReview(f *verifyFlags) error {
	if f.reviewer == "" {
		return nil
	}
	if !strings.Contains(f.reviewer, "=") {
		if a.addr == "" {
			return usagef("--reviewer %s names a profile of a server (--addr); embedded, define it: --reviewer name=rev,kind=openai,model=M,base-url=URL", f.reviewer)
		}
		f.reviewName = f.reviewer
		return nil
	}
	if a.addr != "" {
		return usagef("--reviewer: a server reviews only with the profiles its operator configured (serve --provider-profile); name one of them")
	}
	ps, err := a.providerProfiles([]string{f.reviewer})
	if err != nil {
		return err
	}
	f.reviewName = ps[0].Name
	a.profiles = append(a.profiles, ps...)
	return nil
}

// reviewOptions asks for the review in o.
func (f *verifyFlags) reviewOptions(o *glv1.VerifyOptions) {
	if f.reviewName != "" {
		o.Review = &glv1.ReviewOptions{Profile: f.reviewName}
	}
}
