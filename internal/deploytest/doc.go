// Package deploytest holds the tests that tie the deployment together the way
// SAM would: template.yaml against the code's routes, the Makefile, the
// sample events and the DynamoDB actions each function calls; and every
// function binary run under a Lambda Runtime API against dynamodblocal.
package deploytest
