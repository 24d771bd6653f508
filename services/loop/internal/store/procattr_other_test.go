//go:build !linux

package store

import "syscall"

// childProcAttr is a no-op where Pdeathsig does not exist; t.Cleanup still
// kills children of tests that end normally.
func childProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{} }
