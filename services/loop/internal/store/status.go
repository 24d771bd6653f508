package store

import glv1 "github.com/greenlight-dev/greenlight/pkg/api/greenlight/v1"

// Finished reports whether status is terminal: the run ended and its event
// log is closed.
func Finished(status glv1.RunStatus) bool {
	switch status {
	case glv1.RunStatus_RUN_STATUS_PASSED, glv1.RunStatus_RUN_STATUS_FAILED,
		glv1.RunStatus_RUN_STATUS_ERROR, glv1.RunStatus_RUN_STATUS_CANCELED,
		glv1.RunStatus_RUN_STATUS_INTERRUPTED:
		return true
	}
	return false
}

// active reports whether status is one a live run may have.
func active(status glv1.RunStatus) bool {
	return status == glv1.RunStatus_RUN_STATUS_PENDING || status == glv1.RunStatus_RUN_STATUS_RUNNING
}
