package plan

import (
	"slices"
	"strings"
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/capability"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/command"
	"github.com/greenlight-dev/greenlight/services/discovery/internal/repoconfig"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		pattern, file string
		want          bool
	}{
		{"package.json", "package.json", true},
		{"package.json", "web/package.json", true}, // no slash: base name at any depth
		{"requirements*.txt", "svc/requirements-dev.txt", true},
		{"**/auth/**", "internal/auth/token.go", true},
		{"**/auth/**", "auth/token.go", true},
		{"**/auth/**", "internal/author/x.go", false},
		{".github/workflows/**", ".github/workflows/ci.yml", true},
		{".github/workflows/**", "docs/.github/workflows/ci.yml", false},
		{"app/payments/**", "./app/payments/charge.py", true},
		{"app/payments/**", "app/payment.py", false},
		{"**/*.sql", "db/001_init.sql", true},
		{"/go.mod", "go.mod", true},
		{"go.mod", "go.modx", false},
	}
	for _, tt := range tests {
		if got := Match(tt.pattern, tt.file); got != tt.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tt.pattern, tt.file, got, tt.want)
		}
	}
}

func TestSelectTiers(t *testing.T) {
	custom := []repoconfig.Trigger{
		{Name: "payments", Patterns: []string{"app/payments/**"}, Tier: command.Tier2},
		{Name: "schema", Patterns: []string{"schema/*.json"}, Tier: command.Tier1},
	}
	triggers := append(capability.DefaultTriggers(), custom...)
	tests := []struct {
		name    string
		req     Request
		t1, t2  bool
		reasons []string // substrings expected among tier1's reasons (tier2's when t1 is false and t2 true)
	}{
		{name: "no change", req: Request{}, reasons: []string{"not selected: no risk trigger matched the 0 changed file(s)"}},
		{name: "plain source change", req: Request{ChangedFiles: []string{"internal/api/api.go", "README.md"}},
			reasons: []string{"matched the 2 changed file(s)"}},
		{name: "dependency manifest", req: Request{ChangedFiles: []string{"go.sum"}}, t1: true,
			reasons: []string{`risk trigger "dependencies" matched go.sum`}},
		{name: "nested lockfile", req: Request{ChangedFiles: []string{"web/package-lock.json"}}, t1: true,
			reasons: []string{`risk trigger "dependencies" matched web/package-lock.json`}},
		{name: "ci config", req: Request{ChangedFiles: []string{".github/workflows/ci.yml"}}, t1: true,
			reasons: []string{`risk trigger "ci" matched .github/workflows/ci.yml`}},
		{name: "auth path", req: Request{ChangedFiles: []string{"svc/auth/login.go"}}, t1: true,
			reasons: []string{`risk trigger "auth" matched svc/auth/login.go`}},
		{name: "migration", req: Request{ChangedFiles: []string{"db/migrations/002_users.sql"}}, t1: true,
			reasons: []string{`risk trigger "migrations" matched db/migrations/002_users.sql`}},
		{name: "tier2 trigger counts as tier1", req: Request{ChangedFiles: []string{"app/payments/charge.py"}}, t1: true,
			reasons: []string{`risk trigger "payments" matched app/payments/charge.py (the trigger names tier2, counted as tier1`}},
		{name: "custom tier1 trigger", req: Request{ChangedFiles: []string{"schema/user.json"}}, t1: true,
			reasons: []string{`risk trigger "schema" matched schema/user.json`}},
		{name: "high risk", req: Request{HighRisk: true}, t1: true, reasons: []string{"the change is high-risk"}},
		{name: "milestone end", req: Request{MilestoneEnd: true}, t1: true, reasons: []string{"milestone end"}},
		{name: "run end only", req: Request{RunEnd: true}, t2: true, reasons: []string{"run end"}},
		{name: "last milestone", req: Request{MilestoneEnd: true, RunEnd: true}, t1: true, t2: true, reasons: []string{"milestone end"}},
		{name: "several reasons", req: Request{HighRisk: true, ChangedFiles: []string{"go.mod", "a/auth/x.go"}}, t1: true,
			reasons: []string{`"dependencies" matched go.mod`, `"auth" matched a/auth/x.go`, "high-risk"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := SelectTiers(tt.req, triggers)
			if len(got) != 3 || got[0].Tier != command.Tier0 || !got[0].Selected {
				t.Fatalf("tier0 must always be selected first, got %+v", got)
			}
			if got[1].Selected != tt.t1 || got[2].Selected != tt.t2 {
				t.Fatalf("selected tier1=%v tier2=%v, want %v %v (reasons %q / %q)", got[1].Selected, got[2].Selected, tt.t1, tt.t2, got[1].Reasons, got[2].Reasons)
			}
			reasons := got[1].Reasons
			if !tt.t1 && tt.t2 {
				reasons = got[2].Reasons
			}
			for _, want := range tt.reasons {
				if !slices.ContainsFunc(reasons, func(r string) bool { return strings.Contains(r, want) }) {
					t.Errorf("reasons %q lack %q", reasons, want)
				}
			}
		})
	}
}

func TestSelectTiersListsAtMostFiveFiles(t *testing.T) {
	files := []string{"a/go.mod", "b/go.mod", "c/go.mod", "d/go.mod", "e/go.mod", "f/go.mod", "g/go.mod"}
	got := SelectTiers(Request{ChangedFiles: files}, capability.DefaultTriggers())
	if len(got[1].Reasons) != 1 || !strings.HasSuffix(got[1].Reasons[0], "e/go.mod and 2 more") {
		t.Fatalf("reasons = %q", got[1].Reasons)
	}
}
