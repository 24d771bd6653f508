package cli

import (
	"github.com/spf13/cobra"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// bindSecurity adds verify's --security.
func (f *verifyFlags) bindSecurity(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.security, "security", "",
		"greenlight's security phase (a secret scan for every toolchain, bandit for Python, gosec for Go, flawfinder for C/C++): `MODE` advisory (the default) reports and scores findings without changing the verdict, required makes a finding fail it, off skips it (default: greenlight.yaml's security, else advisory; a scan greenlight.yaml requires always runs)")
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
	case "off":
		f.securityMode = glv1.SecurityMode_SECURITY_MODE_OFF
	default:
		return usagef("--security: %q is not a mode (want advisory, required or off)", f.security)
	}
	return nil
}

// securityOptions puts the security mode into o.
func (f *verifyFlags) securityOptions(o *glv1.VerifyOptions) {
	o.Security = f.securityMode
}
