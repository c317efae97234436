// Command probe is the synthetic probe (ProbeFunction): every minute it
// calls the deployed API through its public URL as a client would and
// writes a metric of the checks that failed (package probe).
package main

import (
	"github.com/bizplatform/api/probe"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.RunTask("probe", probe.LambdaTask) }
