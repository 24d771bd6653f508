package summary

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/progress"
	"github.com/greenlight-dev/greenlight/cmd/greenlight/internal/termtext"
	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/display"
)

// Capabilities writes what discover found for people: the subprojects,
// then every command greenlight may run, in order, with its tier, phase,
// level, the brief command and where it came from, and when each tier
// runs. (discover --json prints capabilities.json whole.)
func Capabilities(w io.Writer, caps *glv1.Capabilities, dir string) {
	var b strings.Builder
	capabilities(&b, caps, dir)
	// Commands, paths and notes are the repository's words.
	_, _ = io.WriteString(w, termtext.Clean(b.String()))
}

func capabilities(b *strings.Builder, caps *glv1.Capabilities, dir string) {
	subs := caps.GetSubprojects()
	fmt.Fprintf(b, "%s: %d subproject(s), %d command(s), up to %s\n", dir, len(subs), len(caps.GetCommands()), progress.Level(caps.GetMaxLevel()))
	for _, s := range subs {
		what := []string{s.GetRuntime()}
		if pm := s.GetPackageManager(); pm != "" {
			what = append(what, pm)
		}
		what = append(what, s.GetTestFrameworks()...)
		what = append(what, s.GetLinters()...)
		line := fmt.Sprintf("  %s: %s", s.GetRoot(), strings.Join(what, ", "))
		if img := s.GetImage(); img != "" {
			line += " (image " + img + ")"
		}
		if !s.GetHasTests() {
			line += "; no tests found"
		}
		b.WriteString(line + "\n")
	}
	for _, c := range caps.GetConfigs() {
		fmt.Fprintf(b, "  config: %s\n", c.GetPath())
	}
	if len(caps.GetCommands()) == 0 {
		b.WriteString("\nNo command found: greenlight verify has nothing to run here (a greenlight.yaml can name the steps).\n")
	} else {
		b.WriteString("\n")
		tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "TIER\tPHASE\tSTEP\tLEVEL\tCOMMAND\tFROM")
		for _, c := range caps.GetCommands() {
			name := c.GetName()
			if c.GetOptional() {
				name += " (advisory)"
			}
			cmd := display.Brief(c)
			if wd := c.GetWorkdir(); wd != "" && wd != "." {
				cmd = "cd " + wd + " && " + cmd
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", tierName(c.GetTier()), display.Enum(c.GetPhase()),
				name, progress.Level(c.GetLevel()), cmd, source(c.GetSource()))
		}
		_ = tw.Flush()
		b.WriteString("\nTier 0 runs on every verify; tier 1 when a changed file matches a risk trigger")
		if names := triggerNames(caps.GetRiskTriggers()); names != "" {
			b.WriteString(" (" + names + ")")
		}
		b.WriteString(",\nor with --high-risk or --milestone-end; tier 2 with --run-end. An advisory step's failure\ndoes not fail the verdict.\n")
	}
	if notes := caps.GetNotes(); len(notes) > 0 {
		b.WriteString("\nNotes:\n")
		for _, n := range notes {
			b.WriteString("  - " + n + "\n")
		}
	}
	b.WriteString("\ngreenlight discover --json prints all of it as capabilities.json.\n")
}

// tierName renders a tier as 0, 1, 2 ("-" when unset).
func tierName(t glv1.Tier) string {
	switch t {
	case glv1.Tier_TIER_0:
		return "0"
	case glv1.Tier_TIER_1:
		return "1"
	case glv1.Tier_TIER_2:
		return "2"
	}
	return "-"
}

// source is where a command came from: file[:line], and the origin when
// it is not discovery's own default.
func source(s *glv1.CommandSource) string {
	if s.GetFile() == "" {
		return s.GetOrigin()
	}
	out := s.GetFile()
	if s.GetLine() > 0 {
		out += fmt.Sprintf(":%d", s.GetLine())
	}
	if o := s.GetOrigin(); o == "ci" {
		out += " (CI)"
	}
	return out
}

// triggerNames lists the risk triggers' names.
func triggerNames(ts []*glv1.RiskTrigger) string {
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		names = append(names, t.GetName())
	}
	return strings.Join(names, ", ")
}
