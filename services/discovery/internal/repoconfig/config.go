package repoconfig

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// Tree is the read-only view configuration loading needs.
type Tree interface {
	ReadFile(name string) ([]byte, error)
	Files() []string
}

// Mode says how configured steps combine with discovered commands.
type Mode string

// Modes.
const (
	// ModeReplace: the configured steps are the pipeline; discovered
	// commands stay whitelisted (a model may still select them).
	ModeReplace Mode = "replace"
	// ModeMerge: discovered commands and configured steps together; a
	// configured step replaces a discovered command of the same name.
	ModeMerge Mode = "merge"
)

// greenlight.yaml's security modes (Config.Security).
const (
	SecurityAdvisory = "advisory"
	SecurityRequired = "required"
	SecurityOff      = "off"
)

// File is a configuration file that was read.
type File struct {
	Path   string
	Format string
}

// Trigger is a risk trigger: changed files matching a pattern escalate.
type Trigger struct {
	Name     string
	Patterns []string
	Tier     command.Tier
	// Source is "file:line" where it was configured.
	Source string
}

// Config is the merged repository configuration.
type Config struct {
	Files []File
	// Steps are the configured steps that define the pipeline (those of
	// the first file, in precedence order, that has any).
	Steps []command.Command
	// Extra are configured steps of the other files: whitelisted only.
	Extra []command.Command
	Mode  Mode
	// Tiers re-tiers commands by name (greenlight.yaml "tiers").
	Tiers map[string]TierAssignment
	// Required promotes (true) or demotes (false) commands by name
	// (greenlight.yaml "required" and "advisory").
	Required map[string]Requirement
	// Triggers are configured risk triggers, added to the defaults unless
	// NoDefaultTriggers.
	Triggers          []Trigger
	NoDefaultTriggers bool
	TimeBudget        time.Duration
	Timeouts          map[command.Phase]time.Duration
	Images            map[string]string
	// ImageAt locates each entry of Images in its file, so that a server
	// that refuses the image can name the file, line and key.
	ImageAt    map[string]Location
	PatchAllow []string
	Notes      []string
	// CoverageScore is greenlight.yaml's coverage.score: the measured
	// coverage feeds the score's tests component (off by default).
	CoverageScore bool
	// CoverageOff is greenlight.yaml's coverage.measure: false: no
	// coverage collection in the test steps.
	CoverageOff bool
	// Security is greenlight.yaml's security: the mode of greenlight's
	// own scans (SecurityAdvisory, SecurityRequired or SecurityOff), or
	// empty: advisory unless the request says otherwise.
	Security string
	// Limits are the sandbox resources greenlight.yaml "limits" asks for.
	Limits Limits
	// Asks are every limit, budget and timeout the configuration asks
	// for, located, for the server's maxima check.
	Asks []Ask
}

// Location is where a value sits in a configuration file.
type Location struct {
	File string
	Line int
	Key  string
}

// TierAssignment is one name listed under greenlight.yaml "tiers".
type TierAssignment struct {
	Tier command.Tier
	File string
	Line int
	Key  string
}

// Requirement is one name listed under greenlight.yaml "required" (Required
// true: its failure fails the verdict) or "advisory" (false: it is reported
// and scored only).
type Requirement struct {
	Required bool
	File     string
	Line     int
	Key      string
}

// Load reads every configuration file present at the workspace root.
// Precedence for the pipeline's steps: greenlight.yaml, then agent.yaml,
// then runr.config.json.
func Load(t Tree) (*Config, error) {
	cfg := &Config{Mode: ModeReplace, Tiers: map[string]TierAssignment{}, Required: map[string]Requirement{}, Timeouts: map[command.Phase]time.Duration{}, Images: map[string]string{},
		ImageAt: map[string]Location{}}
	var stepSets [][]command.Command
	var owners []string
	for _, src := range []struct {
		file, format string
		load         func(*Config, string, []byte) ([]command.Command, error)
	}{
		{"greenlight.yaml", "greenlight.yaml", loadGreenlight},
		{"greenlight.yml", "greenlight.yaml", loadGreenlight},
		{"agent.yaml", "agent.yaml", loadAgent},
		{"agent.yml", "agent.yaml", loadAgent},
		{"runr.config.json", "runr.config.json", loadRunr},
	} {
		data, err := t.ReadFile(src.file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, &Error{File: src.file, Msg: fmt.Sprintf("not readable: %v", err)}
		}
		steps, err := src.load(cfg, src.file, data)
		if err != nil {
			return nil, err
		}
		cfg.Files = append(cfg.Files, File{Path: src.file, Format: src.format})
		stepSets = append(stepSets, steps)
		owners = append(owners, src.file)
	}
	primary := -1
	for i, steps := range stepSets {
		if len(steps) == 0 {
			continue
		}
		if primary < 0 {
			primary = i
			cfg.Steps = steps
			continue
		}
		cfg.Extra = append(cfg.Extra, steps...)
		cfg.Notes = append(cfg.Notes, fmt.Sprintf("%s: steps are whitelisted but do not define the pipeline: %s does", owners[i], owners[primary]))
	}
	return cfg, nil
}
