package eval

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/proto"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// TaskFile is the name of a task's description.
const TaskFile = "task.yaml"

// ErrSuite marks a suite or task that cannot be read.
var ErrSuite = errors.New("invalid eval suite")

// Task is one task of a suite.
type Task struct {
	// Name identifies the task in the report.
	Name string `yaml:"name"`
	// Dir is the task directory; Workspace the directory that is packed.
	Dir       string `yaml:"-"`
	Workspace string `yaml:"-"`

	Provider       ProviderSpec `yaml:"provider"`
	MaxRounds      int32        `yaml:"max_rounds"`
	TimeBudget     Duration     `yaml:"time_budget"`
	ScoreThreshold float64      `yaml:"score_threshold"`
	ChangedFiles   []string     `yaml:"changed_files"`
	ReferenceCheck string       `yaml:"reference_check"`
	// AllowConfigChanges lets patches edit verification config (the
	// Guardrails switch). The task file is the caller's, not the
	// repository's: the workspace's own config can never set it.
	AllowConfigChanges bool `yaml:"allow_config_changes"`
	// FailToPass, PassToPass and TargetSteps are the run's goal (as in a
	// SWE-bench instance); empty: every failure at baseline.
	FailToPass  []string `yaml:"fail_to_pass"`
	PassToPass  []string `yaml:"pass_to_pass"`
	TargetSteps []string `yaml:"target_steps"`
	// MaxChangedLines raises or lowers the patch size cap (-1: none).
	MaxChangedLines int32 `yaml:"max_changed_lines"`
	// RequestTokens sizes each patch request's prompt (0: the default).
	RequestTokens int32 `yaml:"request_tokens"`
	// HiddenTests are tests the model never sees (FixOptions.hidden_tests):
	// a unified diff file, or a directory whose files are laid over the
	// workspace at the same relative paths; relative to the task
	// directory. One inside the workspace is left out of its snapshot.
	HiddenTests string `yaml:"hidden_tests"`
	// HiddenTargets name the hidden tests that must pass (empty: every
	// test collected from them).
	HiddenTargets []string `yaml:"hidden_targets"`

	// hiddenDiff, set for a SWE-bench instance, is its test_patch: the
	// hidden tests' diff itself.
	hiddenDiff string
	// fixed, when set, is the one patch this task's provider answers (a
	// SWE-bench gold patch or prediction).
	fixed *string
}

// options builds the task's FixOptions for a provider.
func (t *Task) options(prov *glv1.ProviderConfig) *glv1.FixOptions {
	opts := &glv1.FixOptions{Provider: prov, MaxRounds: t.MaxRounds, ScoreThreshold: t.ScoreThreshold,
		Verify: &glv1.VerifyOptions{ChangedFiles: t.ChangedFiles}, RequestTokens: t.RequestTokens}
	if t.TimeBudget > 0 {
		opts.TimeBudget = durationProto(time.Duration(t.TimeBudget))
	}
	if t.AllowConfigChanges || t.MaxChangedLines != 0 {
		opts.Guardrails = &glv1.Guardrails{AllowConfigChanges: t.AllowConfigChanges, MaxChangedLines: t.MaxChangedLines}
	}
	if len(t.FailToPass)+len(t.PassToPass)+len(t.TargetSteps) > 0 {
		opts.Targets = &glv1.FixTargets{FailToPass: t.FailToPass, PassToPass: t.PassToPass, Steps: t.TargetSteps}
	}
	opts.HiddenTargets = t.HiddenTargets
	return opts
}

// ProviderSpec is task.yaml's provider section.
type ProviderSpec struct {
	Kind        string   `yaml:"kind"`
	Command     string   `yaml:"command"`
	BaseURL     string   `yaml:"base_url"`
	Model       string   `yaml:"model"`
	APIKeyEnv   string   `yaml:"api_key_env"`
	RecordingID string   `yaml:"recording_id"`
	Timeout     Duration `yaml:"timeout"`
}

// Duration reads "90s"-style durations from YAML.
type Duration time.Duration

// UnmarshalYAML parses a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil || v < 0 {
		return fmt.Errorf("line %d: %q is not a duration like 90s or 10m", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// LoadSuite reads every task of a suite directory, sorted by name.
func LoadSuite(dir string) ([]*Task, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSuite, err)
	}
	var tasks []*Task
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, e.Name(), TaskFile)); err != nil {
			continue
		}
		t, err := LoadTask(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, t)
	}
	if len(tasks) == 0 {
		return nil, fmt.Errorf("%w: %s has no task directories (each needs a %s)", ErrSuite, dir, TaskFile)
	}
	sort.Slice(tasks, func(i, j int) bool { return tasks[i].Name < tasks[j].Name })
	return tasks, nil
}

// LoadTask reads one task directory.
func LoadTask(dir string) (*Task, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSuite, err)
	}
	raw, err := os.ReadFile(filepath.Join(abs, TaskFile))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSuite, err)
	}
	t := &Task{Dir: abs, Workspace: abs}
	dec := yaml.NewDecoder(strings.NewReader(string(raw)))
	dec.KnownFields(true)
	if err := dec.Decode(t); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrSuite, filepath.Join(dir, TaskFile), err)
	}
	if t.Name == "" {
		t.Name = filepath.Base(abs)
	}
	if fi, err := os.Stat(filepath.Join(abs, "repo")); err == nil && fi.IsDir() {
		t.Workspace = filepath.Join(abs, "repo")
	}
	if t.HiddenTests != "" {
		if !filepath.IsAbs(t.HiddenTests) {
			t.HiddenTests = filepath.Join(abs, t.HiddenTests)
		}
		if _, err := os.Stat(t.HiddenTests); err != nil {
			return nil, fmt.Errorf("%w: task %s: hidden_tests: %w (name a diff file or a directory of test files, relative to %s)",
				ErrSuite, t.Name, err, abs)
		}
	} else if len(t.HiddenTargets) > 0 {
		return nil, fmt.Errorf("%w: task %s: hidden_targets needs hidden_tests", ErrSuite, t.Name)
	}
	// A task may leave the provider to the caller (Options.Provider); one
	// it does name must be usable.
	if t.Provider.Kind != "" {
		if _, err := t.Provider.config(); err != nil {
			return nil, fmt.Errorf("%w: task %s: %w", ErrSuite, t.Name, err)
		}
	}
	return t, nil
}

// provider returns the ProviderConfig of the task's runs: override when
// set, else the task's own section.
func (t *Task) provider(override *glv1.ProviderConfig) (*glv1.ProviderConfig, error) {
	var cfg *glv1.ProviderConfig
	switch {
	case override != nil:
		cfg = proto.Clone(override).(*glv1.ProviderConfig)
		if err := checkKind(cfg); err != nil {
			return nil, err
		}
	case t.Provider.Kind == "":
		return nil, fmt.Errorf("task %s names no provider in %s and none was given", t.Name, TaskFile)
	default:
		var err error
		if cfg, err = t.Provider.config(); err != nil {
			return nil, err
		}
	}
	return cfg, nil
}

// config converts the provider section.
func (p ProviderSpec) config() (*glv1.ProviderConfig, error) {
	cfg := &glv1.ProviderConfig{Command: p.Command, BaseUrl: p.BaseURL, Model: p.Model, ApiKeyEnv: p.APIKeyEnv, RecordingId: p.RecordingID}
	if p.Timeout > 0 {
		cfg.Timeout = durationProto(time.Duration(p.Timeout))
	}
	switch strings.ToLower(p.Kind) {
	case "command":
		cfg.Kind = glv1.ProviderKind_PROVIDER_KIND_COMMAND
	case "openai":
		cfg.Kind = glv1.ProviderKind_PROVIDER_KIND_OPENAI
	case "replay":
		cfg.Kind = glv1.ProviderKind_PROVIDER_KIND_REPLAY
	default:
		return nil, fmt.Errorf("provider.kind %q: use command, openai or replay (an eval has no client to answer patch requests)", p.Kind)
	}
	return cfg, checkKind(cfg)
}

// checkKind refuses what an eval cannot run: the client provider (nobody
// answers patch requests) and a command provider without a command.
func checkKind(cfg *glv1.ProviderConfig) error {
	switch cfg.GetKind() {
	case glv1.ProviderKind_PROVIDER_KIND_COMMAND:
		if strings.TrimSpace(cfg.GetCommand()) == "" {
			return errors.New("provider.command is empty")
		}
	case glv1.ProviderKind_PROVIDER_KIND_OPENAI, glv1.ProviderKind_PROVIDER_KIND_REPLAY:
	default:
		return fmt.Errorf("provider %v: use command, openai or replay (an eval has no client to answer patch requests)", cfg.GetKind())
	}
	return nil
}
