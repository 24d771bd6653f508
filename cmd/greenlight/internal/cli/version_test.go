package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestBuildOf(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	vcs := func(modified string) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) {
			return &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
				{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
				{Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: modified}}}, true
		}
	}
	none := func() (*debug.BuildInfo, bool) { return nil, false }
	module := func() (*debug.BuildInfo, bool) {
		return &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true
	}
	tests := []struct {
		name string
		env  Env
		read func() (*debug.BuildInfo, bool)
		want buildInfo
	}{
		{name: "stamped by make build", env: Env{Version: "v1.2.3", Commit: "feedface"}, read: none,
			want: buildInfo{Version: "v1.2.3", Commit: "feedface"}},
		{name: "stamped and VCS data of the same revision", env: Env{Version: "v1.2.3", Commit: rev}, read: vcs("false"),
			want: buildInfo{Version: "v1.2.3", Commit: rev, CommitTime: "2026-01-02T03:04:05Z"}},
		{name: "stamped commit wins over VCS data of another", env: Env{Version: "v1.2.3", Commit: "feedface"}, read: vcs("true"),
			want: buildInfo{Version: "v1.2.3", Commit: "feedface"}},
		{name: "go build in a clean checkout", read: vcs("false"),
			want: buildInfo{Version: "dev-0123456789ab", Commit: rev, CommitTime: "2026-01-02T03:04:05Z"}},
		{name: "go build in a modified checkout", read: vcs("true"),
			want: buildInfo{Version: "dev-0123456789ab-dirty", Commit: rev, CommitTime: "2026-01-02T03:04:05Z", Modified: true}},
		{name: "go install of a tagged module", read: module, want: buildInfo{Version: "v1.4.0"}},
		{name: "nothing recorded", read: none, want: buildInfo{Version: "dev"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := buildOf(tc.env, tc.read); got != tc.want {
				t.Errorf("buildOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// --version (the flag every CLI has) and the version command print the
// same line; version --json carries the commit.
func TestVersionFlagAndJSON(t *testing.T) {
	env := func(out, errb *bytes.Buffer) Env {
		return Env{Stdout: out, Stderr: errb, Version: "v1.2.3", Commit: "0123456789abcdef0123456789abcdef01234567"}
	}
	var flagOut, flagErr, cmdOut, cmdErr, jsonOut, jsonErr bytes.Buffer
	if code := Main(context.Background(), []string{"--version"}, env(&flagOut, &flagErr)); code != 0 {
		t.Fatalf("--version: exit %d, stderr %q", code, flagErr.String())
	}
	if !strings.HasPrefix(flagOut.String(), "greenlight v1.2.3 (commit 0123456789ab, go") {
		t.Errorf("--version printed %q", flagOut.String())
	}
	if code := Main(context.Background(), []string{"version"}, env(&cmdOut, &cmdErr)); code != 0 || cmdOut.String() != flagOut.String() {
		t.Errorf("version: exit %d %q, want what --version printed (%q)", code, cmdOut.String(), flagOut.String())
	}
	if code := Main(context.Background(), []string{"version", "--json"}, env(&jsonOut, &jsonErr)); code != 0 {
		t.Fatalf("version --json: exit %d, stderr %q", code, jsonErr.String())
	}
	var v versionInfo
	if err := json.Unmarshal(jsonOut.Bytes(), &v); err != nil || v.Version != "v1.2.3" || v.Commit != "0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("version --json: %v %+v", err, v)
	}
}
