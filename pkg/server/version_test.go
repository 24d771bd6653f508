package server

import "testing"

func TestAsksVersion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"--version"}, true},
		{[]string{"-version"}, true},
		{nil, false},
		{[]string{"--addr", "--version"}, false},
		{[]string{"--version", "--addr=:1"}, false},
		{[]string{"-v"}, false},
	} {
		if got := asksVersion(tc.args); got != tc.want {
			t.Errorf("asksVersion(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}

func TestVersionLineUsesTheStamp(t *testing.T) {
	defer func(v, c string) { version, commit = v, c }(version, commit)
	version, commit = "v1.2.3", "0123abc"
	if got, want := VersionLine("loop"), "greenlight-loop v1.2.3 (commit 0123abc)"; got != want {
		t.Errorf("VersionLine = %q, want %q", got, want)
	}
	version = ""
	if v, _ := Version(); v == "" {
		t.Error("Version without a stamp is empty, want the module's version or dev")
	}
}
