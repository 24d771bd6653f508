package command

import (
	"testing"

	"github.com/greenlight-dev/greenlight/services/discovery/internal/detect"
)

func TestNeedsModernNode(t *testing.T) {
	tests := []struct {
		version string
		want    bool
	}{
		{">=20", true},               // commander.js
		{"^22 || ^24 || >=26", true}, // nanoid
		{"v20.11.0", true},           // an .nvmrc line
		{"22", true},                 // .node-version
		{">=20.0.0 <23", true},       // a bounded range starting at 20
		{">=6", false},               // kleur: any Node
		{"^18 || ^20", false},        // 18 satisfies it
		{"^14.17.0 || >=16.0.0", false},
		{"lts/*", false}, // no number: asks for nothing in particular
		{"*", false},
		{"<20", false}, // no lower bound
		{"", false},
	}
	for _, tt := range tests {
		_, got := needsModernNode([]detect.VersionHint{{Tool: "node", Version: tt.version, Source: "package.json:engines.node"}})
		if got != tt.want {
			t.Errorf("needsModernNode(%q) = %v, want %v", tt.version, got, tt.want)
		}
	}
	if _, got := needsModernNode([]detect.VersionHint{{Tool: "go", Version: "1.22"}}); got {
		t.Error("a Go version hint asked for Node 22")
	}
}
