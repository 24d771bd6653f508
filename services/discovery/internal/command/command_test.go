package command

import (
	"testing"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name, cmd string
		want      Phase
	}{
		{"install", "npm ci", PhaseInstall},
		{"deps", "make deps", PhaseInstall},
		{"setup", "python3 -m pip install -r requirements.txt", PhaseInstall},
		{"prepare", "cd web && yarn", PhaseInstall},
		{"test", "yarn test", PhaseTest},
		{"", "yarn test", PhaseTest},
		{"verify", "go test ./...", PhaseTest},
		{"typecheck", "npm run typecheck", PhaseTypecheck},
		{"", "npx tsc --noEmit", PhaseTypecheck},
		{"", "tsc -p .", PhaseBuild},
		{"lint", "npm run lint", PhaseLint},
		{"", "golangci-lint run", PhaseLint},
		{"compile", "javac Main.java", PhaseBuild},
		{"", "./node_modules/.bin/jest --ci", PhaseTest},
		{"", "python3 -m app --help", PhaseSmoke},
		{"", "npm audit", PhaseSecurity},
		{"docs", "mkdocs build --strict", PhaseUnspecified},
		{"", "echo hello", PhaseUnspecified},
	}
	for _, tt := range tests {
		if got := Classify(tt.name, tt.cmd); got != tt.want {
			t.Errorf("Classify(%q, %q) = %v, want %v", tt.name, tt.cmd, got, tt.want)
		}
	}
}

func TestParseRoundTrip(t *testing.T) {
	for _, p := range []Phase{PhaseInstall, PhaseBuild, PhaseTypecheck, PhaseLint, PhaseTest, PhaseSmoke, PhaseSecurity} {
		if got, err := ParsePhase(p.String()); err != nil || got != p {
			t.Errorf("phase %v: %v %v", p, got, err)
		}
	}
	for _, tier := range []Tier{Tier0, Tier1, Tier2} {
		if got, err := ParseTier(tier.String()); err != nil || got != tier {
			t.Errorf("tier %v: %v %v", tier, got, err)
		}
	}
	if _, err := ParseLevel("L1"); err == nil {
		t.Error("L1 must be refused: a configured command always executes")
	}
	if l, err := ParseLevel("l3"); err != nil || l != LevelL3 {
		t.Errorf("ParseLevel(l3) = %v %v", l, err)
	}
}
