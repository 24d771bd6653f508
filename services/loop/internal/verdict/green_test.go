package verdict

import (
	"testing"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestGreenNeedsHiddenTargetsThenTargetsElseAPass checks when a fix run
// is green: hidden targets first (all pass, at least one ran), then the
// caller's targets (FULL, no infrastructure failure), else a PASS at the
// score threshold.
func TestGreenNeedsHiddenTargetsThenTargetsElseAPass(t *testing.T) {
	full := func() glv1.Resolution { return glv1.Resolution_RESOLUTION_FULL }
	partial := func() glv1.Resolution { return glv1.Resolution_RESOLUTION_PARTIAL }
	pass := GreenInput{Verdict: glv1.Verdict_VERDICT_PASS, Score: 9, Threshold: 8}
	with := func(in GreenInput, mut func(*GreenInput)) GreenInput { mut(&in); return in }
	cases := []struct {
		name string
		in   GreenInput
		want bool
	}{
		{"a PASS at the threshold", pass, true},
		{"a PASS below the threshold", with(pass, func(in *GreenInput) { in.Score = 7.9 }), false},
		{"a FAIL", with(pass, func(in *GreenInput) { in.Verdict = glv1.Verdict_VERDICT_FAIL }), false},
		{"a hidden test fails", with(pass, func(in *GreenInput) { in.Hidden = &glv1.HiddenTests{Passed: 3, Failed: 1} }), false},
		{"no hidden test ran", with(pass, func(in *GreenInput) { in.Hidden = &glv1.HiddenTests{} }), false},
		{"every hidden test passes", with(pass, func(in *GreenInput) { in.Hidden = &glv1.HiddenTests{Passed: 3} }), true},
		{"targets met on a FAIL", GreenInput{Targeted: true, Resolution: full, Verdict: glv1.Verdict_VERDICT_FAIL}, true},
		{"targets partly met", GreenInput{Targeted: true, Resolution: partial, Verdict: glv1.Verdict_VERDICT_PASS, Score: 10}, false},
		{"targets met, infrastructure failed", GreenInput{Targeted: true, Resolution: full, InfraFailed: true}, false},
		{"targets met, a hidden test fails", GreenInput{Targeted: true, Resolution: full, Hidden: &glv1.HiddenTests{Passed: 1, Failed: 1}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Green(c.in); got != c.want {
				t.Errorf("Green = %t, want %t", got, c.want)
			}
		})
	}
}
