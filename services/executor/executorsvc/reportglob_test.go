package executorsvc

import (
	"context"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// A report path whose file name is a pattern collects every matching file
// of that directory (Surefire writes one TEST-*.xml per test class), and
// nothing else: not other files there, not files of its subdirectories,
// not links. A pattern in a directory name is refused.
func TestReportFilePatterns(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	step := &glv1.Step{Name: "test", Phase: glv1.Phase_PHASE_TEST,
		Command: "d=target/surefire-reports && mkdir -p $d/nested && echo '<testsuite name=\"a\"/>' > $d/TEST-a.xml && " +
			"echo '<testsuite name=\"b\"/>' > $d/TEST-b.xml && echo x > $d/a.txt && echo '<x/>' > $d/nested/TEST-c.xml && " +
			"ln -s /etc/passwd $d/TEST-link.xml; exit 1",
		ReportFiles: []string{"/workspace/target/surefire-reports/TEST-*.xml", "/workspace/missing/TEST-*.xml"}}
	r := e.mustExecute(context.Background(), e.request(nil, step))
	var got []string
	for _, a := range r.finished.GetArtifacts() {
		if strings.HasPrefix(a.GetPath(), "reports/") {
			got = append(got, a.GetPath()+"="+strings.TrimSpace(e.readBlob(a.GetDigest())))
		}
	}
	slices.Sort(got)
	want := []string{
		`reports/step-01-test/workspace/target/surefire-reports/TEST-a.xml=<testsuite name="a"/>`,
		`reports/step-01-test/workspace/target/surefire-reports/TEST-b.xml=<testsuite name="b"/>`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("reports =\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	bad := e.request(nil, &glv1.Step{Name: "x", Command: "true", ReportFiles: []string{"/workspace/*/TEST-*.xml"}})
	if st, _ := status.FromError(e.execute(context.Background(), bad).err); st.Code() != codes.InvalidArgument {
		t.Errorf("a pattern in a directory name: %v", st)
	}
}
