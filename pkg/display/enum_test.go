package display

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/reflect/protoreflect"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TestEnumDropsTheTypePrefix checks the word of values of several enums,
// the zero value and a number no value has.
func TestEnumDropsTheTypePrefix(t *testing.T) {
	cases := []struct {
		e          protoreflect.Enum
		want, none string
	}{
		{glv1.StepStatus_STEP_STATUS_TIMED_OUT, "TIMED_OUT", "TIMED_OUT"},
		{glv1.Level_LEVEL_L4, "L4", "L4"},
		{glv1.Tier_TIER_0, "0", "0"},
		{glv1.FailureKind_FAILURE_KIND_COMPILE, "COMPILE", "COMPILE"},
		{glv1.ScoreSource_SCORE_SOURCE_UNSPECIFIED, "UNSPECIFIED", "—"},
		{glv1.Verdict_VERDICT_PASS, "PASS", "PASS"},
		{glv1.TransitionKind_TRANSITION_KIND_FAIL_TO_PASS, "FAIL_TO_PASS", "FAIL_TO_PASS"},
		{glv1.StepStatus(99), "99", "99"},
	}
	for _, c := range cases {
		if got := Enum(c.e); got != c.want {
			t.Errorf("Enum(%v) = %q, want %q", c.e, got, c.want)
		}
		if got := EnumOr(c.e, "—"); got != c.none {
			t.Errorf("EnumOr(%v) = %q, want %q", c.e, got, c.none)
		}
	}
}

// TestEveryEnumHasTheZeroValuesPrefix checks what Enum relies on: every
// greenlight enum's zero value is PREFIX_UNSPECIFIED and all its values
// start with PREFIX_.
func TestEveryEnumHasTheZeroValuesPrefix(t *testing.T) {
	n := 0
	for _, f := range []protoreflect.FileDescriptor{glv1.File_greenlight_v1_types_proto, glv1.File_greenlight_v1_run_proto,
		glv1.File_greenlight_v1_events_proto, glv1.File_greenlight_v1_executor_proto, glv1.File_greenlight_v1_discovery_proto,
		glv1.File_greenlight_v1_blob_proto} {
		var enums []protoreflect.EnumDescriptor
		for i := 0; i < f.Enums().Len(); i++ {
			enums = append(enums, f.Enums().Get(i))
		}
		for i := 0; i < f.Messages().Len(); i++ {
			for j := 0; j < f.Messages().Get(i).Enums().Len(); j++ {
				enums = append(enums, f.Messages().Get(i).Enums().Get(j))
			}
		}
		for _, e := range enums {
			n++
			zero := e.Values().ByNumber(0)
			if zero == nil || !strings.HasSuffix(string(zero.Name()), "_UNSPECIFIED") {
				t.Errorf("%s: zero value %v is not PREFIX_UNSPECIFIED", e.FullName(), zero)
				continue
			}
			prefix := strings.TrimSuffix(string(zero.Name()), "UNSPECIFIED")
			for j := 0; j < e.Values().Len(); j++ {
				if v := e.Values().Get(j); !strings.HasPrefix(string(v.Name()), prefix) || string(v.Name()) == prefix {
					t.Errorf("%s: value %s does not start with %s", e.FullName(), v.Name(), prefix)
				}
			}
		}
	}
	if n < 10 {
		t.Fatalf("found %d enums; the descriptors were not read", n)
	}
}
