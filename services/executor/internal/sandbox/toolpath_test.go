package sandbox

import "testing"

func TestToolPath(t *testing.T) {
	tests := []struct{ in, want string }{
		// The python, node and go images' PATHs: the writable home
		// directories go after the image's own.
		{"/home/sandbox/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
			"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/home/sandbox/.local/bin"},
		{"/opt/node-22/bin:/home/sandbox/.npm-global/bin:/usr/bin:/bin",
			"/opt/node-22/bin:/usr/bin:/bin:/home/sandbox/.npm-global/bin"},
		{"/usr/local/go/bin:/home/sandbox/go/bin:/usr/bin", "/usr/local/go/bin:/usr/bin:/home/sandbox/go/bin"},
		// Relative and workspace entries never find a tool.
		{".:bin:/workspace/bin:/workspace:/usr/bin::/tmp/x/bin", "/usr/bin:/tmp/x/bin"},
		{"/workspacex/bin:/usr/bin", "/workspacex/bin:/usr/bin"},
		{"/usr/bin:/bin", "/usr/bin:/bin"},
	}
	for _, tt := range tests {
		if got := toolPath(tt.in); got != tt.want {
			t.Errorf("toolPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStepEnvPathFindsTheImagesTools(t *testing.T) {
	rn := &run{r: &Runner{}}
	env := rn.stepEnv(&Step{Env: map[string]string{"PATH": "./node_modules/.bin:/home/sandbox/.npm-global/bin:/usr/bin", "A": "1"}})
	want := map[string]bool{"A=1": true, "PATH=/usr/bin:/home/sandbox/.npm-global/bin": true}
	if len(env) != len(want) {
		t.Fatalf("stepEnv = %q", env)
	}
	for _, kv := range env {
		if !want[kv] {
			t.Errorf("stepEnv = %q, unexpected %q", env, kv)
		}
	}
}
