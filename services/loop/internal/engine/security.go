package engine

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// markIntroduced marks the security findings of a patched verification
// that the baseline did not have: the patch introduced them. A finding is
// the same when its rule, file and message are (not its line: a patch
// above it moves it); as many of a kind as the baseline had are old.
func markIntroduced(now, baseline []*glv1.Failure) {
	key := func(f *glv1.Failure) string { return f.GetRule() + "\x00" + f.GetFile() + "\x00" + f.GetMessage() }
	old := map[string]int{}
	for _, f := range baseline {
		if f.GetKind() == glv1.FailureKind_FAILURE_KIND_SECURITY {
			old[key(f)]++
		}
	}
	for _, f := range now {
		if f.GetKind() != glv1.FailureKind_FAILURE_KIND_SECURITY {
			continue
		}
		if k := key(f); old[k] > 0 {
			old[k]--
			continue
		}
		f.Introduced = true
	}
}
