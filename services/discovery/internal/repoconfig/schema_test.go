package repoconfig

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

var update = flag.Bool("update", false, "rewrite docs/greenlight.schema.json")

// greenlightSchemaFile is the committed schema, from this package's
// directory.
const greenlightSchemaFile = "../../../../docs/greenlight.schema.json"

// greenlightSchemaID is the schema's $id.
const greenlightSchemaID = "https://greenlight.dev/schemas/greenlight.schema.json"

// generateGreenlightSchema is the JSON Schema (draft 2020-12) of
// greenlight.yaml from FileSchema and its doc comments, with the phase,
// level and tier names the command package parses.
func generateGreenlightSchema(t *testing.T) []byte {
	t.Helper()
	r := &jsonschema.Reflector{
		RequiredFromJSONSchemaTags: true,
		Namer:                      func(t reflect.Type) string { return strings.TrimSuffix(t.Name(), "Schema") },
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			switch t {
			case reflect.TypeOf(DurationSchema("")):
				return &jsonschema.Schema{Description: "a duration such as 90s, 5m or 1h30m, or a positive number of seconds", OneOf: []*jsonschema.Schema{
					{Type: "string", Pattern: `^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$`},
					{Type: "number", ExclusiveMinimum: "0"},
				}}
			case reflect.TypeOf(SizeSchema("")):
				return &jsonschema.Schema{Description: "a byte size such as 4GiB, 512MiB or 2GB, or a number of bytes", OneOf: []*jsonschema.Schema{
					{Type: "string", Pattern: `^\s*[0-9]+\s*([KkMmGg]([Ii]?[Bb])?|[Bb])?\s*$`},
					{Type: "integer", Minimum: "1"},
				}}
			}
			return nil
		},
	}
	if err := r.AddGoComments("github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig", "."); err != nil {
		t.Fatal(err)
	}
	s := r.Reflect(&FileSchema{})
	s.ID = greenlightSchemaID
	s.Title = "greenlight.yaml"
	step := s.Definitions["Step"]
	if step == nil {
		t.Fatalf("no Step definition: %v", slices.Collect(func(yield func(string) bool) {
			for k := range s.Definitions {
				if !yield(k) {
					return
				}
			}
		}))
	}
	for name, values := range map[string][]string{"phase": phases(), "level": levels(), "tier": tiers()} {
		p, _ := step.Properties.Get(name)
		for _, v := range values {
			p.Enum = append(p.Enum, v)
		}
	}
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// phases are the phase names ParsePhase reads.
func phases() []string {
	var out []string
	for p := command.PhaseInstall; p.String() != "unspecified"; p++ {
		out = append(out, p.String())
	}
	return out
}

// levels are the level names ParseLevel reads (as written, upper case).
func levels() []string {
	var out []string
	for i := 0; i <= 9; i++ {
		if _, err := command.ParseLevel(fmt.Sprintf("L%d", i)); err == nil {
			out = append(out, fmt.Sprintf("L%d", i))
		}
	}
	return out
}

// tiers are the tier names ParseTier reads.
func tiers() []string {
	var out []string
	for t := command.Tier0; t.String() != "unspecified"; t++ {
		out = append(out, t.String())
	}
	return out
}

func TestGreenlightSchemaIsCurrent(t *testing.T) {
	got := generateGreenlightSchema(t)
	if *update {
		if err := os.WriteFile(greenlightSchemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(greenlightSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/greenlight.schema.json is stale: run go test ./internal/repoconfig -run Schema -update in services/discovery and review the diff")
	}
}

// reKnownKeys reads the loader's list of the keys a mapping takes.
var reKnownKeys = regexp.MustCompile(`unknown key \(known keys: ([^)]*)\)`)

// TestSchemaKeysAreTheLoaders puts an unknown key into every mapping of
// greenlight.yaml and checks that the keys the loader then lists are the
// properties the schema declares there: the two cannot drift apart.
func TestSchemaKeysAreTheLoaders(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal(generateGreenlightSchema(t), &s); err != nil {
		t.Fatal(err)
	}
	props := func(def string) []string {
		d := s.Definitions[def]
		var out []string
		for p := d.Properties.Oldest(); p != nil; p = p.Next() {
			out = append(out, p.Key)
		}
		slices.Sort(out)
		return out
	}
	tests := []struct {
		def, yaml string
	}{
		{"File", "zz_unknown: 1\n"},
		{"Timeouts", "timeouts: {zz_unknown: 1}\n"},
		{"Limits", "limits: {zz_unknown: 1}\n"},
		{"Patch", "patch: {zz_unknown: 1}\n"},
		{"Tiers", "tiers: {zz_unknown: []}\n"},
		{"Trigger", "risk_triggers: [{zz_unknown: 1}]\n"},
		{"Step", "steps: [{zz_unknown: 1}]\n"},
	}
	for _, tc := range tests {
		t.Run("mapping "+tc.def, func(t *testing.T) {
			_, err := load(t, map[string]string{"greenlight.yaml": tc.yaml})
			m := reKnownKeys.FindStringSubmatch(fmt.Sprint(err))
			if m == nil {
				t.Fatalf("the loader did not refuse the unknown key: %v", err)
			}
			loader := strings.Split(m[1], ", ")
			if want := props(tc.def); !slices.Equal(loader, want) {
				t.Errorf("the loader takes %v, the schema declares %v", loader, want)
			}
		})
	}
}

// TestExampleConfigsMatchSchema validates the repository's greenlight.yaml
// examples (CONFIG.md's, the test repository's) against the committed
// schema, and checks that it refuses what the loader refuses for its
// shape (an unknown key, a step without a command, a phase no one knows).
func TestExampleConfigsMatchSchema(t *testing.T) {
	b, err := os.ReadFile(greenlightSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := validator.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := validator.NewCompiler()
	if err := c.AddResource(greenlightSchemaID, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(greenlightSchemaID)
	if err != nil {
		t.Fatal(err)
	}
	configDoc, err := os.ReadFile("../../CONFIG.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(configDoc), "```yaml\n")
	example, _, _ := strings.Cut(rest, "```")
	repo, err := os.ReadFile("../../testdata/repos/greenlight-yaml/greenlight.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, yaml string
		valid      bool
	}{
		{"CONFIG.md", example, true},
		{"testdata/repos/greenlight-yaml", string(repo), true},
		{"limits and durations in seconds", "limits: {cpus: 1.5, memory: 4GiB, pids: 512}\ntime_budget: 600\nsteps: [{name: t, command: go test ./..., timeout: 90s}]\n", true},
		{"an unknown key", "version: 1\nstepz: []\n", false},
		{"a step without a command", "steps: [{name: t}]\n", false},
		{"an unknown phase", "steps: [{name: t, command: make, phase: deploy}]\n", false},
		{"a trigger to tier0", "risk_triggers: [{name: x, patterns: ['a/**'], tier: tier0}]\n", false},
		{"a bad duration", "time_budget: soon\n", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, lerr := load(t, map[string]string{"greenlight.yaml": tc.yaml})
			if (lerr == nil) != tc.valid {
				t.Fatalf("the loader says %v, want valid=%v", lerr, tc.valid)
			}
			var v any
			if err := yaml.Unmarshal([]byte(tc.yaml), &v); err != nil {
				t.Fatal(err)
			}
			j, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := validator.UnmarshalJSON(bytes.NewReader(j))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); (err == nil) != tc.valid {
				t.Errorf("schema says %v, want valid=%v", err, tc.valid)
			}
		})
	}
}
