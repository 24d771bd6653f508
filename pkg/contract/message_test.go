package contract

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

func TestMessageFollowsTheContractRules(t *testing.T) {
	ev := &glv1.RunEvent{Seq: 7, RunId: "r_1", Time: ts(3), Kind: &glv1.RunEvent_StepFinished{StepFinished: &glv1.StepFinished{
		Index: 1, Result: &glv1.StepResult{Name: "go-test", Status: glv1.StepStatus_STEP_STATUS_OK, Phase: glv1.Phase_PHASE_TEST,
			Duration: durationpb.New(1500 * time.Millisecond), OutputBytes: 1 << 40}}}}
	b, err := json.Marshal(Message(ev))
	if err != nil {
		t.Fatal(err)
	}
	out := string(b)
	for _, want := range []string{
		`"seq":7`, `"time":"2026-11-24T09:30:03Z"`, `"status":"OK"`, `"phase":"TEST"`, `"duration_ms":1500`,
		`"output_bytes":1099511627776`, `"exit_code":0`, `"kind":"step_finished"`, `"log_digest":null`, `"reason":""`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("event JSON lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "STEP_STATUS_") || strings.Contains(out, `"duration":`) || strings.Contains(out, "log_chunk") {
		t.Errorf("event JSON has a long enum or a raw duration:\n%s", out)
	}
}

func TestMessageCapabilities(t *testing.T) {
	c := &glv1.Capabilities{MaxLevel: glv1.Level_LEVEL_L4, Commands: []*glv1.Step{{Name: "pytest", Phase: glv1.Phase_PHASE_TEST,
		Tier: glv1.Tier_TIER_1, Env: map[string]string{"CI": "1"}}}}
	m := Message(c)
	if m["max_level"] != "L4" || m["subprojects"] == nil || m["time_budget_ms"] != nil {
		t.Errorf("capabilities %v", m)
	}
	step := m["commands"].([]any)[0].(map[string]any)
	if step["tier"] != "TIER_1" || step["phase"] != "TEST" || step["env"].(map[string]any)["CI"] != "1" || step["source"] != nil {
		t.Errorf("step %v", step)
	}
	if upperSnake("StepStatus") != "STEP_STATUS" || upperSnake("Level") != "LEVEL" {
		t.Error("upperSnake")
	}
}
