// Package faults is the fault tests (this package's tests): the whole API
// with its engine cut off, hung or losing an answer, through a proxy in
// front of the test engine. They send the operations' sample events
// (perf.ReadEvents) and hold every answer to the API's error shape
// (testenv.CheckErrorBody).
package faults
