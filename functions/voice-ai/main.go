// Command voice-ai is the voice-ai area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/voiceai"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(voiceai.Area) }
