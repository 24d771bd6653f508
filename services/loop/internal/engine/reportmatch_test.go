package engine

import "testing"

// TestReportMatch pins how a step's report files find its artifacts: an
// exact path by path or base name, a file-name pattern every matching file
// of its directory, each under its own path (so several Surefire reports of
// one step are all parsed).
func TestReportMatch(t *testing.T) {
	const surefire = "/workspace/target/surefire-reports/TEST-*.xml"
	tests := []struct {
		want, artifact, key string
		ok                  bool
	}{
		{"/tmp/greenlight/reports/pytest.xml", "reports/step-02-pytest/tmp/greenlight/reports/pytest.xml", "/tmp/greenlight/reports/pytest.xml", true},
		{"/tmp/greenlight/reports/pytest.xml", "reports/step-02-pytest/tmp/greenlight/reports/other.xml", "", false},
		{surefire, "reports/step-03-mvn-test/workspace/target/surefire-reports/TEST-calc.CalcTest.xml", "/workspace/target/surefire-reports/TEST-calc.CalcTest.xml", true},
		{surefire, "reports/step-03-mvn-test/workspace/target/surefire-reports/calc.CalcTest.txt", "", false},
		{surefire, "reports/step-03-mvn-test/workspace/target/surefire-reports/nested/TEST-x.xml", "", false},
		{surefire, "reports", "", false},
	}
	for _, tt := range tests {
		key, ok := reportMatch(tt.want, tt.artifact)
		if ok != tt.ok || ok && key != tt.key {
			t.Errorf("reportMatch(%q, %q) = %q, %v; want %q, %v", tt.want, tt.artifact, key, ok, tt.key, tt.ok)
		}
	}
}
