package parse

import (
	"github.com/greenlight-dev/greenlight/pkg/lazyregexp"

	"strings"

	glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"
)

// reException matches messages that start with an exception or error type:
// `ZeroDivisionError: …`, `Error: average of empty list`, `java.lang.ArithmeticException: …`.
var reException = lazyregexp.New(`^(?:[\w$]+\.)*\w*(?:Error|Exception|Panic|Fault)\b`)

// assertionMarkers are fragments of assertion failures across runners.
var assertionMarkers = []string{
	"AssertionError", "assert ", "assertion", "expect(", "Expected", "expected", "ComparisonFailure",
	"ERR_ASSERTION", "want ", "Want ", "got ",
}

// classify decides between an assertion failure, an error in a test, and a
// compile error, from the failure message and exception type. Without an
// assertion marker a failure is an error in the test (an exception).
func classify(msg, typ string, st Status) glv1.FailureKind {
	head := msg
	if i := strings.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	switch {
	case strings.Contains(typ, "SyntaxError") || strings.Contains(head, "SyntaxError") || strings.Contains(head, "IndentationError"):
		return glv1.FailureKind_FAILURE_KIND_COMPILE
	case strings.Contains(typ, "Assert") || strings.Contains(typ, "ComparisonFailure"):
		return glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
	}
	if reException.MatchString(head) && !strings.Contains(head, "Assert") && !strings.Contains(head, "expect(") {
		return glv1.FailureKind_FAILURE_KIND_TEST_ERROR
	}
	for _, m := range assertionMarkers {
		if strings.Contains(head, m) {
			return glv1.FailureKind_FAILURE_KIND_TEST_ASSERTION
		}
	}
	return glv1.FailureKind_FAILURE_KIND_TEST_ERROR
}
