package plan

import (
	"fmt"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

// TierSelection records whether a tier was selected and why.
type TierSelection struct {
	Tier     command.Tier
	Selected bool
	Reasons  []string
}

// maxListed caps the file names quoted in one reason.
const maxListed = 5

// Match reports whether a changed file matches a risk-trigger pattern.
// Patterns use doublestar syntax (** crosses directories); a pattern without
// a slash matches the base name at any depth, as in .gitignore, so
// "package.json" also matches "web/package.json".
func Match(pattern, file string) bool {
	file = strings.TrimPrefix(path.Clean(strings.ReplaceAll(file, "\\", "/")), "./")
	pattern = strings.TrimPrefix(pattern, "/")
	if ok, _ := doublestar.Match(pattern, file); ok {
		return true
	}
	if !strings.Contains(pattern, "/") {
		ok, _ := doublestar.Match(pattern, path.Base(file))
		return ok
	}
	return false
}

// SelectTiers applies the runr rules: tier0 always; tier1 when a changed
// file matches a risk trigger (a trigger naming tier2 counts as tier1:
// tier2 is reserved for the run end), when the change is high-risk, or at a
// milestone end; tier2 only at the run end.
func SelectTiers(req Request, triggers []repoconfig.Trigger) []TierSelection {
	t0 := TierSelection{Tier: command.Tier0, Selected: true, Reasons: []string{"tier0 is always selected"}}
	t1 := TierSelection{Tier: command.Tier1}
	for _, tr := range triggers {
		var hits []string
		for _, f := range req.ChangedFiles {
			for _, p := range tr.Patterns {
				if Match(p, f) {
					hits = append(hits, f)
					break
				}
			}
		}
		if len(hits) == 0 {
			continue
		}
		reason := fmt.Sprintf("risk trigger %q matched %s", tr.Name, listFiles(hits))
		if tr.Tier == command.Tier2 {
			reason += " (the trigger names tier2, counted as tier1: tier2 is reserved for the run end)"
		}
		t1.Reasons = append(t1.Reasons, reason)
	}
	if req.HighRisk {
		t1.Reasons = append(t1.Reasons, "the change is high-risk")
	}
	if req.MilestoneEnd {
		t1.Reasons = append(t1.Reasons, "milestone end")
	}
	t1.Selected = len(t1.Reasons) > 0
	if !t1.Selected {
		t1.Reasons = []string{fmt.Sprintf("not selected: no risk trigger matched the %d changed file(s), the change is not high-risk, not a milestone end", len(req.ChangedFiles))}
	}
	t2 := TierSelection{Tier: command.Tier2, Selected: req.RunEnd, Reasons: []string{"run end"}}
	if !req.RunEnd {
		t2.Reasons = []string{"not selected: tier2 runs only at the run end"}
	}
	return []TierSelection{t0, t1, t2}
}

func listFiles(files []string) string {
	quoted := make([]string, 0, maxListed)
	for i, f := range files {
		if i == maxListed {
			break
		}
		quoted = append(quoted, f)
	}
	s := strings.Join(quoted, ", ")
	if len(files) > maxListed {
		s += fmt.Sprintf(" and %d more", len(files)-maxListed)
	}
	return s
}
