// Package perf holds the measuring instruments of `make bench`: a counting
// proxy in front of the DynamoDB engine, the API Gateway sample events as
// HTTP requests, and the statistics the reports print. The figures
// themselves come from tools/bench and the benchmarks in this package.
package perf
