// Command webhooks delivers marketplace apps' webhook events
// (WebhookFunction): invoked by the table's stream when an event is written
// and every minute for the retries.
package main

import (
	"github.com/bizplatform/api/shared/lambdatask"
	"github.com/bizplatform/api/webhooks"
)

func main() { lambdatask.Run("webhooks", webhooks.LambdaTask) }
