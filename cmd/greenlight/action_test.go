package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is the repository's GitHub Action.
const actionFile = "../../action.yml"

// action is what action.yml declares.
type action struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Author      string `yaml:"author"`
	Branding    struct {
		Icon  string `yaml:"icon"`
		Color string `yaml:"color"`
	} `yaml:"branding"`
	Inputs map[string]struct {
		Description string  `yaml:"description"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

// text is everything in the step an expression can appear in.
func (s actionStep) text() string {
	var b strings.Builder
	b.WriteString(s.If + "\n" + s.Run + "\n")
	for _, m := range []map[string]string{s.Env, s.With} {
		for k, v := range m {
			b.WriteString(k + ": " + v + "\n")
		}
	}
	return b.String()
}

// writes reports whether the step's script sets output name.
func (s actionStep) writes(name string) bool {
	return regexp.MustCompile(`echo "` + regexp.QuoteMeta(name) + `=`).MatchString(s.Run)
}

func readAction(t *testing.T) action {
	t.Helper()
	b, err := os.ReadFile(actionFile)
	if err != nil {
		t.Fatal(err)
	}
	var a action
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

var (
	inputRef  = regexp.MustCompile(`inputs\.([A-Za-z0-9_-]+)`)
	outputRef = regexp.MustCompile(`steps\.([A-Za-z0-9_-]+)\.outputs\.([A-Za-z0-9_-]+)`)
)

func TestActionDeclaresWhatItUses(t *testing.T) {
	a := readAction(t)
	if a.Name == "" || a.Description == "" || a.Runs.Using != "composite" {
		t.Fatalf("action.yml: name %q, description %q, runs.using %q (want a composite action)", a.Name, a.Description, a.Runs.Using)
	}
	for name, in := range a.Inputs {
		if in.Description == "" || in.Default == nil {
			t.Errorf("input %s needs a description and a default", name)
		}
	}
	used := map[string]bool{}
	ids := map[string]actionStep{}
	verifies := false
	for i, s := range a.Runs.Steps {
		if (s.Run == "") == (s.Uses == "") {
			t.Errorf("step %d (%s) needs exactly one of run and uses", i, s.Name)
		}
		if s.Run != "" && s.Shell == "" {
			t.Errorf("step %s: a composite action's run step needs a shell", s.Name)
		}
		for _, m := range inputRef.FindAllStringSubmatch(s.text(), -1) {
			used[m[1]] = true
			if _, ok := a.Inputs[m[1]]; !ok {
				t.Errorf("step %s uses undeclared input %s", s.Name, m[1])
			}
		}
		for _, m := range outputRef.FindAllStringSubmatch(s.text(), -1) {
			if prev, ok := ids[m[1]]; !ok || !prev.writes(m[2]) {
				t.Errorf("step %s reads steps.%s.outputs.%s, which no earlier step writes", s.Name, m[1], m[2])
			}
		}
		if s.ID != "" {
			ids[s.ID] = s
		}
		verifies = verifies || strings.Contains(s.Run, `verify --format github`)
	}
	for name := range a.Inputs {
		if !used[name] {
			t.Errorf("input %s is declared but no step uses it", name)
		}
	}
	if !verifies {
		t.Error("no step runs greenlight verify --format github")
	}
	for name, out := range a.Outputs {
		m := outputRef.FindStringSubmatch(out.Value)
		if out.Description == "" || m == nil || !ids[m[1]].writes(m[2]) {
			t.Errorf("output %s = %q: needs a description and a step output some step writes", name, out.Value)
		}
	}
	if _, ok := a.Outputs["verdict"]; !ok {
		t.Error("the action must expose the verdict")
	}
}

func TestReadmeDocumentsTheAction(t *testing.T) {
	a := readAction(t)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## CI outputs\n")
	if !ok {
		t.Fatal("README.md has no \"CI outputs\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var names []string
	for n := range a.Inputs {
		names = append(names, n)
	}
	for n := range a.Outputs {
		names = append(names, n)
	}
	for _, n := range names {
		if !strings.Contains(section, "`"+n+"`") {
			t.Errorf("README's CI outputs section does not document `%s`", n)
		}
	}
	// What the README says the action takes, the action has.
	documented := regexp.MustCompile("Inputs: (?s:(.*?))Outputs:").FindStringSubmatch(section)
	if documented == nil {
		t.Fatal("README's CI outputs section does not list the inputs")
	}
	for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(documented[1], -1) {
		if _, ok := a.Inputs[m[1]]; !ok && !slices.Contains([]string{"upstream", "offline", "verify"}, m[1]) {
			t.Errorf("README documents input `%s`, action.yml has none", m[1])
		}
	}
}

// TestActionScripts runs the action's shell steps with a stand-in for the
// greenlight binary: the verdict and run id reach $GITHUB_OUTPUT, the
// extra reports are written, and the step exits as greenlight did.
func TestActionScripts(t *testing.T) {
	a := readAction(t)
	var install, verify actionStep
	for _, s := range a.Runs.Steps {
		switch s.ID {
		case "install":
			install = s
		case "verify":
			verify = s
		}
	}
	stub := filepath.Join(t.TempDir(), "greenlight")
	// verify prints what greenlight --format github prints and exits with
	// $STUB_EXIT; show writes "FORMAT report of RUN" to --output, prints
	// the summary and exits with the verdict as well.
	script := `#!/bin/sh
case "$1" in
verify)
  echo "$*" > "$STUB_ARGS"
  [ "$STUB_EXIT" = 2 ] && { echo "greenlight: verify: no Docker engine" >&2; exit 2; }
  echo "::error file=tests/test_x.py,line=3,title=greenlight%3A tests/test_x.py%3A%3Atest_y::boom"
  echo "::notice title=greenlight FAIL::FAIL: pytest (failed, exit 1); level L3; run r_20260102T030405_stub0001"
  exit "$STUB_EXIT" ;;
show) echo "$3 report of $6" > "$5"; echo "FAIL summary"; exit "$STUB_EXIT" ;;
esac
`
	if err := os.WriteFile(stub, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		exit             int
		verdict, runID   string
		junit, ctrf      bool
		wantArgsContains string
	}{
		{1, "FAIL", "r_20260102T030405_stub0001", true, true, "verify --format github --run-end --time-budget 15m ./svc"},
		{0, "PASS", "r_20260102T030405_stub0001", true, true, "verify --format github"},
		{2, "ERROR", "", false, false, "verify --format github"},
	} {
		t.Run(tc.verdict, func(t *testing.T) {
			dir := t.TempDir()
			env := map[string]string{
				"GL_BIN": stub, "GL_DIR": "./svc", "GL_ARGS": "--run-end --time-budget 15m",
				"GL_JUNIT": filepath.Join(dir, "g.xml"), "GL_SARIF": "", "GL_CTRF": filepath.Join(dir, "g.ctrf.json"),
				"RUNNER_TEMP": dir, "GITHUB_OUTPUT": filepath.Join(dir, "output"),
				"STUB_EXIT": string(rune('0' + tc.exit)), "STUB_ARGS": filepath.Join(dir, "args"),
			}
			code, stdout := runScript(t, verify.Run, env)
			if code != tc.exit {
				t.Errorf("the step exited %d, greenlight %d", code, tc.exit)
			}
			if tc.exit != 2 && !strings.Contains(stdout, "::error file=tests/test_x.py,line=3,") {
				t.Errorf("annotations did not reach stdout:\n%s", stdout)
			}
			if strings.Contains(stdout, "could not write") || strings.Contains(stdout, "FAIL summary") {
				t.Errorf("the reports were written, show's exit code or summary leaked into the step:\n%s", stdout)
			}
			out, _ := os.ReadFile(env["GITHUB_OUTPUT"])
			want := "verdict=" + tc.verdict + "\nexit-code=" + string(rune('0'+tc.exit)) + "\nrun-id=" + tc.runID + "\n"
			if string(out) != want {
				t.Errorf("GITHUB_OUTPUT:\n%s\nwant:\n%s", out, want)
			}
			args, _ := os.ReadFile(env["STUB_ARGS"])
			if !strings.Contains(string(args), tc.wantArgsContains) {
				t.Errorf("greenlight ran with %q, want %q", args, tc.wantArgsContains)
			}
			for file, want := range map[string]string{env["GL_JUNIT"]: "junit report of " + tc.runID, env["GL_CTRF"]: "ctrf report of " + tc.runID} {
				b, err := os.ReadFile(file)
				wrote := err == nil
				if wrote != (tc.runID != "") || (wrote && strings.TrimSpace(string(b)) != want) {
					t.Errorf("%s: %q, %v (run id %q)", file, b, err, tc.runID)
				}
			}
		})
	}

	// The install step takes a prebuilt binary as it is, and refuses a
	// path that is not one.
	dir := t.TempDir()
	env := map[string]string{"GL_BINARY": stub, "GL_VERSION": "", "GL_SOURCE": dir, "RUNNER_TEMP": dir, "GITHUB_OUTPUT": filepath.Join(dir, "output")}
	if code, _ := runScript(t, install.Run, env); code != 0 {
		t.Errorf("install with binary: exit %d", code)
	}
	if out, _ := os.ReadFile(env["GITHUB_OUTPUT"]); string(out) != "path="+stub+"\n" {
		t.Errorf("install output: %q", out)
	}
	env["GL_BINARY"] = filepath.Join(dir, "missing")
	if code, stdout := runScript(t, install.Run, env); code != 2 || !strings.Contains(stdout, "::error title=greenlight::binary") {
		t.Errorf("install with a missing binary: exit %d, %q", code, stdout)
	}
}

// runScript runs a step's bash script as GitHub's shell: bash does
// (bash --noprofile --norc -eo pipefail), with env and PATH only.
func runScript(t *testing.T, script string, env map[string]string) (int, string) {
	t.Helper()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", script)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String()
}
