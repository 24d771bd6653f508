package discoverysvc

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// TestEnumNumbering pins the casts in convert.go: the domain enums must
// keep the proto numbering.
func TestEnumNumbering(t *testing.T) {
	phases := map[command.Phase]glv1.Phase{
		command.PhaseUnspecified: glv1.Phase_PHASE_UNSPECIFIED, command.PhaseInstall: glv1.Phase_PHASE_INSTALL,
		command.PhaseBuild: glv1.Phase_PHASE_BUILD, command.PhaseTypecheck: glv1.Phase_PHASE_TYPECHECK,
		command.PhaseLint: glv1.Phase_PHASE_LINT, command.PhaseTest: glv1.Phase_PHASE_TEST,
		command.PhaseSmoke: glv1.Phase_PHASE_SMOKE, command.PhaseSecurity: glv1.Phase_PHASE_SECURITY,
	}
	for d, p := range phases {
		if int32(d) != int32(p) {
			t.Errorf("phase %v = %d, proto %v = %d", d, d, p, p)
		}
	}
	levels := map[command.Level]glv1.Level{command.LevelL1: glv1.Level_LEVEL_L1, command.LevelL2: glv1.Level_LEVEL_L2,
		command.LevelL3: glv1.Level_LEVEL_L3, command.LevelL4: glv1.Level_LEVEL_L4}
	for d, p := range levels {
		if int32(d) != int32(p) {
			t.Errorf("level %v = %d, proto %v = %d", d, d, p, p)
		}
	}
	tiers := map[command.Tier]glv1.Tier{command.Tier0: glv1.Tier_TIER_0, command.Tier1: glv1.Tier_TIER_1, command.Tier2: glv1.Tier_TIER_2}
	for d, p := range tiers {
		if int32(d) != int32(p) {
			t.Errorf("tier %v = %d, proto %v = %d", d, d, p, p)
		}
	}
}
