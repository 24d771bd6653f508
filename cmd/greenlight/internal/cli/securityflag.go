package cli

import (
	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// bindSecurity adds verify's --security.
func (f *verifyFlags) bindSecurity(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.security, "security", "",
		"run the security phase (a secret scan for every toolchain, bandit for Python): `MODE` advisory reports and scores findings without changing the verdict, required makes a finding fail it (greenlight.yaml can ask for the same per step)")
}

// parseSecurity checks --security.
func (f *verifyFlags) parseSecurity() error {
	switch f.security {
	case "":
		f.securityMode = glv1.SecurityMode_SECURITY_MODE_UNSPECIFIED
	case "advisory":
		f.securityMode = glv1.SecurityMode_SECURITY_MODE_ADVISORY
	case "required":
		f.securityMode = glv1.SecurityMode_SECURITY_MODE_REQUIRED
	default:
		return usagef("--security: %q is not a mode (want advisory or required)", f.security)
	}
	return nil
}

// securityOptions puts the security mode into o.
func (f *verifyFlags) securityOptions(o *glv1.VerifyOptions) {
	o.Security = f.securityMode
}
