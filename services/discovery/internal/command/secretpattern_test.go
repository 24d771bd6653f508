package command

import (
	"regexp"
	"testing"
)

// The scan's generic pattern (grep -iE) prints only assignments whose
// variable name ends in a secret word; the loop's parser applies the same
// rule to what it prints.
func TestGenericSecretPatternNames(t *testing.T) {
	re := regexp.MustCompile("(?i)" + GenericSecretPattern)
	const v = `"x9Fq2LmZ8vR4tB7nK1pW3sYd"`
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"client_secret = " + v, true},
		{"SECRET_KEY = " + v, true},
		{"api_token: " + v, true},
		{"auth_token = " + v, true},
		{"author_email = " + v, false},
		{"token_url = " + v, false},
	} {
		if got := re.MatchString(tc.line); got != tc.want {
			t.Errorf("%q matched = %v, want %v", tc.line, got, tc.want)
		}
	}
}
