// Command medias is the medias area as an AWS Lambda function.
package main

import (
	"github.com/bizplatform/api/areas/medias"
	"github.com/bizplatform/api/shared/lambdaapp"
)

func main() { lambdaapp.Run(medias.Area) }
