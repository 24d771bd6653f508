package repoconfig

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
)

// stepName is what a configured step may be called: it travels in logs,
// report file names and selections.
var stepName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:\-]{0,127}$`)

// finishStep fills what a format that only names steps leaves out: the
// phase (from the name, then the command), the level, the tier, and network
// only for install.
func finishStep(c *command.Command) {
	if c.Phase == command.PhaseUnspecified {
		c.Phase = command.Classify(c.Name, c.Command)
	}
	if c.Level == command.LevelUnspecified {
		c.Level = command.DefaultLevel(c.Phase)
	}
	if c.Tier == command.TierUnspecified {
		c.Tier = command.Tier0
	}
	if c.Workdir == "" {
		c.Workdir = "."
	}
	if c.Phase == command.PhaseInstall {
		c.Network = true
	}
}

// unclassified notes steps whose phase could not be inferred.
func unclassified(file string, steps []command.Command) []string {
	var notes []string
	for _, s := range steps {
		if s.Phase == command.PhaseUnspecified {
			notes = append(notes, fmt.Sprintf("%s:%d: step %q: phase not recognised from its name or command; it counts for no verification level (give it a phase in greenlight.yaml)", file, s.Source.Line, s.Name))
		}
	}
	return notes
}

// slug derives a step name from a command ("pnpm lint" -> "pnpm-lint").
func slug(cmd string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(cmd) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
		switch {
		case ok:
			b.WriteRune(r)
			dash = false
		case !dash && b.Len() > 0:
			b.WriteByte('-')
			dash = true
		}
		if b.Len() >= 48 {
			break
		}
	}
	s := strings.TrimRight(b.String(), "-")
	if s == "" {
		s = "step"
	}
	return s
}

// uniqueNamer hands out names that are unique within one file.
type uniqueNamer map[string]bool

func (u uniqueNamer) name(base string) string {
	n := base
	for i := 2; u[n]; i++ {
		n = fmt.Sprintf("%s-%d", base, i)
	}
	u[n] = true
	return n
}
