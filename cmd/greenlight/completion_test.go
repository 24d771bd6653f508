package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// getCompWords stands in for bash-completion's _get_comp_words_by_ref
// where that package is not installed (the generated script needs it or
// its own _init_completion): it sets what the script reads.
const getCompWords = `
if [ -r /usr/share/bash-completion/bash_completion ]; then
	. /usr/share/bash-completion/bash_completion
else
	_get_comp_words_by_ref() { cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}; words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; }
fi
`

// The bash completion script, sourced in a real bash, completes the
// subcommands and verify's flags by asking the binary (greenlight
// __complete): what a user's TAB does.
func TestBashCompletionCompletesSubcommandsAndFlags(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "greenlight")); err != nil {
		t.Fatal(err)
	}
	u := newUser(t)
	r := u.run(nil, "completion", "bash")
	r.wantExit(t, 0, "completion bash")
	script := filepath.Join(dir, "greenlight.bash")
	if err := os.WriteFile(script, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line string
		want []string
		not  []string
	}{
		{"greenlight ve", []string{"verify", "version"}, []string{"serve"}},
		{"greenlight ", []string{"verify", "fix", "discover", "man", "completion"}, nil},
		{"greenlight verify --wa", []string{"--watch", "--watch-quiet"}, []string{"--json"}},
		{"greenlight verify --st", []string{"--step"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.line, func(t *testing.T) {
			prog := getCompWords + `. ` + script + `
COMP_LINE="$LINE"; COMP_POINT=${#COMP_LINE}
read -r -a COMP_WORDS <<< "$COMP_LINE"
[ "${COMP_LINE: -1}" = " " ] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
__start_greenlight
printf '%s\n' "${COMPREPLY[@]}"
`
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", prog)
			cmd.Env = append(u.environ(), "PATH="+dir+":"+os.Getenv("PATH"), "LINE="+tc.line)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("bash: %v\n%s", err, out)
			}
			got := strings.Fields(string(out))
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("completing %q: %v lacks %q", tc.line, got, w)
				}
			}
			for _, w := range tc.not {
				if contains(got, w) {
					t.Errorf("completing %q: %v offers %q", tc.line, got, w)
				}
			}
		})
	}
}

// zsh and fish scripts are there too (not run: neither shell is here).
func TestCompletionScriptsForOtherShells(t *testing.T) {
	u := newUser(t)
	for shell, want := range map[string]string{"zsh": "#compdef greenlight", "fish": "complete -c greenlight"} {
		r := u.run(nil, "completion", shell)
		r.wantExit(t, 0, "completion "+shell)
		if !strings.Contains(r.stdout, want) {
			t.Errorf("completion %s lacks %q:\n%.300s", shell, want, r.stdout)
		}
	}
}

// greenlight man DIR writes one roff page per command, dated by
// SOURCE_DATE_EPOCH, that says what --help says.
func TestManPages(t *testing.T) {
	u := newUser(t)
	u.env = append(u.env, "SOURCE_DATE_EPOCH=1700000000")
	dir := filepath.Join(t.TempDir(), "man1")
	r := u.run(nil, "man", dir)
	r.wantExit(t, 0, "man")
	for _, page := range []string{"greenlight.1", "greenlight-verify.1", "greenlight-fix.1", "greenlight-serve.1"} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), ".TH \"GREENLIGHT\" \"1\" \"Nov 2023\"") {
			t.Errorf("%s has no dated .TH header:\n%.300s", page, b)
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "greenlight-verify.1"))
	for _, want := range []string{`\fB--watch\fP`, `\fB--test\fP`, `\fB--step\fP`, "partial"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("greenlight-verify.1 lacks %q", want)
		}
	}
	if r := u.run(nil, "man"); r.code != 2 {
		t.Errorf("man without DIR: exit %d, want 2", r.code)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
