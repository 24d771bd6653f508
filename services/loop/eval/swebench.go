package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Instance is a SWE-bench instance record (the fields of
// princeton-nlp/SWE-bench that grading needs), plus base_dir: the tree at
// base_commit, which greenlight does not clone (no network in its
// sandboxes).
type Instance struct {
	InstanceID string `json:"instance_id"`
	Repo       string `json:"repo"`
	BaseCommit string `json:"base_commit"`
	// Patch is the gold patch (source files).
	Patch string `json:"patch"`
	// TestPatch adds or changes the tests; greenlight lays it over each
	// candidate for the grading verification only (FixOptions.hidden_tests),
	// as the harness applies it after the model's patch.
	TestPatch  string     `json:"test_patch"`
	FailToPass StringList `json:"FAIL_TO_PASS"`
	PassToPass StringList `json:"PASS_TO_PASS"`
	// BaseDir is the checkout of base_commit: absolute, or relative to
	// the instances file's directory; empty: ROOT/instance_id.
	BaseDir string `json:"base_dir,omitempty"`
}

// Prediction is a SWE-bench prediction record: a model's patch for an
// instance.
type Prediction struct {
	InstanceID string `json:"instance_id"`
	ModelPatch string `json:"model_patch"`
	Model      string `json:"model_name_or_path"`
}

// StringList reads SWE-bench's test lists, which the dataset stores
// either as a JSON list or as a string holding one.
type StringList []string

// UnmarshalJSON accepts ["a","b"] and "[\"a\",\"b\"]".
func (l *StringList) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if strings.TrimSpace(s) == "" {
			*l = nil
			return nil
		}
		b = []byte(s)
	}
	var out []string
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("a test list must be a JSON list of strings (or a string holding one): %w", err)
	}
	*l = out
	return nil
}

// readRecords reads a JSON array or JSON lines of records into out (a
// pointer to a slice).
func readRecords[T any](path string) ([]T, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSuite, err)
	}
	var out []T
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '[' {
		if err := json.Unmarshal(t, &out); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrSuite, path, err)
		}
		return out, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var rec T
		if err := json.Unmarshal(line, &rec); err != nil {
			return nil, fmt.Errorf("%w: %s line %d: %w", ErrSuite, path, n, err)
		}
		out = append(out, rec)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSuite, path, err)
	}
	return out, nil
}

// LoadInstances reads SWE-bench instance records (a JSON array or JSON
// lines) and checks each names its base tree. root is where base trees
// named by instance id live (empty: the file's directory).
func LoadInstances(path, root string) ([]*Instance, error) {
	recs, err := readRecords[*Instance](path)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%w: %s holds no instance records", ErrSuite, path)
	}
	dir := filepath.Dir(path)
	if root == "" {
		root = dir
	}
	seen := map[string]bool{}
	for i, in := range recs {
		if in == nil || in.InstanceID == "" {
			return nil, fmt.Errorf("%w: %s record %d has no instance_id", ErrSuite, path, i+1)
		}
		if seen[in.InstanceID] {
			return nil, fmt.Errorf("%w: %s: instance %s appears twice", ErrSuite, path, in.InstanceID)
		}
		seen[in.InstanceID] = true
		switch {
		case in.BaseDir == "":
			in.BaseDir = filepath.Join(root, in.InstanceID)
		case !filepath.IsAbs(in.BaseDir):
			in.BaseDir = filepath.Join(dir, in.BaseDir)
		}
		if fi, err := os.Stat(in.BaseDir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%w: instance %s: its base tree %s is not a directory (check out %s at %s there, or set base_dir)",
				ErrSuite, in.InstanceID, in.BaseDir, orUnknown(in.Repo), orUnknown(in.BaseCommit))
		}
		if len(in.FailToPass) == 0 {
			return nil, fmt.Errorf("%w: instance %s has no FAIL_TO_PASS tests: nothing would say whether it is resolved", ErrSuite, in.InstanceID)
		}
	}
	return recs, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "the repository"
	}
	return s
}

// LoadPredictions reads SWE-bench prediction records by instance id.
func LoadPredictions(path string) (map[string]Prediction, error) {
	recs, err := readRecords[Prediction](path)
	if err != nil {
		return nil, err
	}
	out := make(map[string]Prediction, len(recs))
	for i, p := range recs {
		if p.InstanceID == "" {
			return nil, fmt.Errorf("%w: %s record %d has no instance_id", ErrSuite, path, i+1)
		}
		out[p.InstanceID] = p
	}
	return out, nil
}

// Tasks turns instances into eval tasks: the base tree is the workspace,
// the test patch is the run's hidden tests (laid over each candidate for
// grading only: a model proposing the patch never sees it) with
// FAIL_TO_PASS as the hidden targets, the target is FAIL_TO_PASS and
// PASS_TO_PASS, one round (SWE-bench grades one patch), no size cap. The
// patch is the instance's gold patch, or its prediction's when preds is
// not nil (an instance without a prediction, or with an empty one, gets an
// empty patch: the provider gives up and the instance is unresolved).
func Tasks(instances []*Instance, preds map[string]Prediction) []*Task {
	tasks := make([]*Task, 0, len(instances))
	for _, in := range instances {
		p := in.Patch
		if preds != nil {
			p = preds[in.InstanceID].ModelPatch
		}
		t := &Task{
			Name: in.InstanceID, Dir: in.BaseDir, Workspace: in.BaseDir, MaxRounds: 1, MaxChangedLines: -1,
			FailToPass: in.FailToPass, PassToPass: in.PassToPass, hiddenDiff: in.TestPatch, fixed: &p,
		}
		if in.TestPatch != "" {
			t.HiddenTargets = in.FailToPass
		}
		tasks = append(tasks, t)
	}
	return tasks
}
