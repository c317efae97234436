package dynamodblocal

import (
	"os/exec"
	"syscall"
)

// setParentDeathSignal ends the engine when the process that started it
// dies, however it dies, so that no engine outlives its parent.
func setParentDeathSignal(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
