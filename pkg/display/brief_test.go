package display

import (
	"strings"
	"testing"
	"unicode/utf8"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
	"github.com/greenlight-dev/greenlight/pkg/pylaunch"
)

// The scripts discovery generates for a pip project (pip-install and
// pip-fallback, as greenlight discover --json printed them).
const (
	pipInstall  = `python3 -P -m venv --system-site-packages .venv && rm -f .venv/greenlight-installed && { { .venv/bin/python -P -m pip install -r requirements.txt; }; echo $? >.venv/greenlight-pip.rc; } 2>&1 | tee .venv/greenlight-pip.log && [ "$(cat .venv/greenlight-pip.rc)" = 0 ] && touch .venv/greenlight-installed`
	pipFallback = `if [ -f .venv/greenlight-installed ]; then printf '%s\n' 'greenlight: pip-install installed everything'; exit 0; fi; if [ ! -f .venv/greenlight-pip.log ]; then if [ -x .venv/bin/python ]; then printf '%s\n' 'greenlight: the venv was not made by greenlight'\''s pip-install: nothing to check'; exit 0; fi; printf '%s\n' 'greenlight: pip-install did not create .venv (see pip-install)'; exit 1; fi; if ! grep -qE 'Temporary failure in name resolution|Name or service not known|No address associated with hostname|Failed to establish a new connection|Network is unreachable|No route to host|Connection refused|Connection reset by peer|Max retries exceeded|Read timed out|ProxyError|SSLError|CERTIFICATE_VERIFY_FAILED|Could not fetch URL' .venv/greenlight-pip.log 2>/dev/null; then printf '%s\n' 'greenlight: pip-install failed and its log shows no unreachable package index: the install itself failed (see pip-install)'; tail -n 5 .venv/greenlight-pip.log 2>/dev/null; exit 1; fi; printf '%s\n' 'greenlight: the package index is unreachable: pip-install could not install -r requirements.txt'; grep -o 'No matching distribution found for .*' .venv/greenlight-pip.log | sort -u; printf '%s\n' 'greenlight: the tests decide the verdict: a test that needs a package that is not installed fails at import'`
)

func TestBrief(t *testing.T) {
	tests := []struct {
		name string
		step *glv1.StepResult
		want string
	}{
		{name: "short command as it is", step: &glv1.StepResult{Command: "go test ./..."}, want: "go test ./..."},
		{name: "display_command first", step: &glv1.StepResult{Command: pipFallback, DisplayCommand: "pip check"}, want: "pip check"},
		{name: "the launcher as python -m", step: &glv1.StepResult{Command: pylaunch.Tool(".venv/bin/python", "pytest") + " -rA"},
			want: ".venv/bin/python -m pytest -rA"},
		{name: "pip-install", step: &glv1.StepResult{Command: pipInstall},
			want: "python3 -P -m venv --system-site-packages .venv && rm -f .venv/greenlight-installed && { { .venv/bin/python -P -m pip … (301 bytes)"},
		{name: "pip-fallback", step: &glv1.StepResult{Command: pipFallback},
			want: "if [ -f .venv/greenlight-installed ]; then printf '%s\\n' 'greenlight: pip-install installed everything'; exit 0; fi; if … (1298 bytes)"},
		{name: "a multi-line script", step: &glv1.StepResult{Command: "set -e\nmake\nmake test"}, want: "set -e … (3 lines, 21 bytes)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Brief(tc.step)
			if got != tc.want {
				t.Errorf("Brief =\n%q\nwant\n%q", got, tc.want)
			}
			if strings.Contains(got, "\n") || utf8.RuneCountInString(got) > BriefMax+40 {
				t.Errorf("Brief is not one short line: %q", got)
			}
		})
	}
}
