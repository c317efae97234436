// Package tools is the root of the measuring tools: what measures, loads,
// fuzzes and breaks the product, kept apart from the product itself.
//
//	tools/bench         make bench: calls, cold start, dataset, load, one table
//	tools/loadfaults    make load-faults: mixed load with the engine restarted
//	tools/perf          counting proxy, DynamoDB stub, pipeline benchmarks
//	tools/perf/hello    the smallest Lambda function, the cold-start yardstick
//	tools/lambdart      a Lambda Runtime API to run function binaries under
//	tools/faults        fault tests: the engine cut off, hung, back
//	tools/iamcheck      the IAM actions each function's code can call
//	tools/fuzz.sh       make fuzz: every fuzz target, one after another
//	tools/repocheck     make lint: no stray binary or large file, short commit subjects
//	tools/githooks      an optional commit-msg hook running repocheck's subject rule
//
// Nothing that ships links this tree: internal/deploytest checks that the
// functions, the local server and the admin CLI import none of it.
package tools
