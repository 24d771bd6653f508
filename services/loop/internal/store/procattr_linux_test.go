package store

import "syscall"

// childProcAttr makes the kernel kill a child when the test binary dies.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
