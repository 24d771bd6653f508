package capability_test

import (
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// TestSecurityStepsAreOptIn: the security scanners join the whitelist and
// the default pipeline only when greenlight.yaml names them, advisory or
// required as it says; a repository that does not ask keeps its steps.
func TestSecurityStepsAreOptIn(t *testing.T) {
	cases := []struct {
		name, yaml           string
		secret, bandit       bool // in the whitelist and planned
		secretOpt, banditOpt bool // advisory
	}{
		{name: "not asked", yaml: ""},
		{name: "advisory secret scan", yaml: "advisory: [secret-scan]\n", secret: true, secretOpt: true},
		{name: "required bandit, advisory scan", yaml: "required: [bandit]\nadvisory: [secret-scan]\n", secret: true, secretOpt: true, bandit: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range pyLinted {
				files[k] = v
			}
			if tc.yaml != "" {
				files["greenlight.yaml"] = tc.yaml
			}
			c, err := build(t, files, capability.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cmds := commandsByName(c)
			for _, w := range []struct {
				name           string
				want, optional bool
			}{{"secret-scan", tc.secret, tc.secretOpt}, {"bandit", tc.bandit, tc.banditOpt}} {
				cmd, ok := cmds[w.name]
				if ok != w.want || c.Default[w.name] != w.want {
					t.Fatalf("%s: whitelisted %v, planned %v; want %v", w.name, ok, c.Default[w.name], w.want)
				}
				if !ok {
					continue
				}
				if cmd.Phase != command.PhaseSecurity || cmd.Optional != w.optional || cmd.ContinueOnFailure != true {
					t.Errorf("%s: phase %v optional %v continue %v; want security, optional %v, continue", w.name, cmd.Phase, cmd.Optional, cmd.ContinueOnFailure, w.optional)
				}
			}
		})
	}
}
