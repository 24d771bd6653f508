package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadInstancesReadsBothListShapes(t *testing.T) {
	dir := t.TempDir()
	for _, id := range []string{"a__b-1", "a__b-2"} {
		if err := os.MkdirAll(filepath.Join(dir, id), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, "instances.json")
	body := `[{"instance_id":"a__b-1","FAIL_TO_PASS":"[\"t.py::test_x[1-2]\"]","PASS_TO_PASS":"[]"},
	{"instance_id":"a__b-2","FAIL_TO_PASS":["TestX/sub"],"PASS_TO_PASS":["TestY"]}]`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadInstances(p, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].FailToPass[0] != "t.py::test_x[1-2]" || len(got[0].PassToPass) != 0 ||
		got[1].PassToPass[0] != "TestY" || got[1].BaseDir != filepath.Join(dir, "a__b-2") {
		t.Errorf("instances %+v %+v", got[0], got[1])
	}
	tasks := Tasks(got, map[string]Prediction{"a__b-1": {InstanceID: "a__b-1", ModelPatch: "diff"}})
	if *tasks[0].fixed != "diff" || *tasks[1].fixed != "" || tasks[0].MaxRounds != 1 || tasks[0].MaxChangedLines != -1 {
		t.Errorf("tasks %+v %+v", tasks[0], tasks[1])
	}
}

func TestLoadInstancesRefusesWhatCannotBeGraded(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "x-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct{ body, want string }{
		"no base tree":    {`{"instance_id":"x-2","FAIL_TO_PASS":["t"]}`, "base tree"},
		"no FAIL_TO_PASS": {`{"instance_id":"x-1"}`, "no FAIL_TO_PASS"},
		"duplicate":       {`{"instance_id":"x-1","FAIL_TO_PASS":["t"]}` + "\n" + `{"instance_id":"x-1","FAIL_TO_PASS":["t"]}`, "twice"},
		"a bad list":      {`{"instance_id":"x-1","FAIL_TO_PASS":"not a list"}`, "JSON list"},
		"no instance_id":  {`{"FAIL_TO_PASS":["t"]}`, "no instance_id"},
		"nothing":         {"\n", "no instance records"},
	} {
		t.Run(name, func(t *testing.T) {
			p := filepath.Join(dir, "i.jsonl")
			if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadInstances(p, "")
			if !errors.Is(err, ErrSuite) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want ErrSuite saying %q", err, tc.want)
			}
		})
	}
}
