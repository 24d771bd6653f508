package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sideCommand is a command provider that records where it ran: the
// request it read goes to $GL_SIDE_DIR/request.json and $GL_SIDE to
// $GL_SIDE_DIR/side (both variables exist only in the CLI's environment),
// then it prints the example's fix.
func sideCommand() string {
	return `cat > "$GL_SIDE_DIR/request.json" && printf %s "$GL_SIDE" > "$GL_SIDE_DIR/side" && cat '` +
		filepath.Join(examples(""), "fail.patch") + `'`
}

// ranOnTheCLISide checks that sideCommand ran with the CLI's environment.
func ranOnTheCLISide(t *testing.T, dir, want string) {
	t.Helper()
	side, err := os.ReadFile(filepath.Join(dir, "side"))
	if err != nil || string(side) != want {
		t.Fatalf("the command did not run with the CLI's environment: %q, %v", side, err)
	}
	req, err := os.ReadFile(filepath.Join(dir, "request.json"))
	if err != nil || !strings.Contains(string(req), `"failingCommand"`) || !strings.Contains(string(req), "temperature") {
		t.Fatalf("the command's stdin was not the patch request: %v %.300s", err, req)
	}
}

// TestFixCommandProviderRunsOnTheCLISide: against a served stack,
// `fix --provider command` runs the command here and answers as a client
// provider (the server has no profile and would refuse a COMMAND request);
// embedded, the same flags configure the loop's profile "cli"; a profile
// configured on serve is selected with --profile.
func TestFixCommandProviderRunsOnTheCLISide(t *testing.T) {
	requireDocker(t)
	u := newUser(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := startServe(t, ctx, u, "--provider-profile", "name=agent,kind=command,command=cat '"+filepath.Join(examples(""), "fail.patch")+"'")

	side := t.TempDir()
	remote := &user{t: t, home: t.TempDir(), env: []string{"GL_SIDE=the-cli", "GL_SIDE_DIR=" + side}}
	dir := filepath.Join(t.TempDir(), "ws")
	copyDir(t, examples("fail"), dir)
	r := remote.run(nil, "--addr", srv.publicAddr(t), "fix", "-q", "--json", "--provider", "command", "--command", sideCommand(), dir)
	r.wantExit(t, 0, "fix --addr --provider command")
	if !strings.Contains(r.stdout, `"green": true`) {
		t.Errorf("fix --addr --provider command did not end green:\n%s", r.stdout)
	}
	ranOnTheCLISide(t, side, "the-cli")

	r = remote.run(nil, "--addr", srv.publicAddr(t), "fix", "-q", "--json", "--provider", "command", "--profile", "agent", dir)
	r.wantExit(t, 0, "fix --addr --provider command --profile agent")
	r = remote.run(nil, "--addr", srv.publicAddr(t), "fix", "-q", "--provider", "command", "--profile", "root", dir)
	r.wantExit(t, 2, "fix with a profile serve does not have")
	r.wantOneLineError(t, "its COMMAND profiles: agent")
	srv.stop(t)

	side = t.TempDir()
	local := &user{t: t, home: t.TempDir(), env: []string{"GL_SIDE=embedded", "GL_SIDE_DIR=" + side}}
	r = local.run(nil, "fix", "-q", "--json", "--provider", "command", "--command", sideCommand(), dir)
	r.wantExit(t, 0, "embedded fix --provider command")
	ranOnTheCLISide(t, side, "embedded")
}

func TestServeRefusesAProfileWithoutItsKeyExit2(t *testing.T) {
	u := newUser(t)
	r := u.run(nil, "serve", "--provider-profile", "name=hosted,kind=openai,model=m,key-env=GL_TEST_UNSET_KEY")
	r.wantExit(t, 2, "serve with a profile whose key variable is not set")
	r.wantOneLineError(t, `provider profile "hosted": its key variable GL_TEST_UNSET_KEY is not set`)
}
