//go:build !linux

package dynamodblocal

import "os/exec"

// setParentDeathSignal: only Linux can tie a child's life to its parent's;
// elsewhere Stop (or the parent's exit handling) ends the engine.
func setParentDeathSignal(*exec.Cmd) {}
