// Command webhooks is the webhook deliverer (WebhookFunction): it hands
// each event to the marketplace apps and account endpoints that receive it
// and delivers it, invoked by the table's stream when an event is written
// and every minute for the retries.
package main

import (
	"github.com/bizplatform/api/shared/lambdatask"
	"github.com/bizplatform/api/webhooks"
)

func main() { lambdatask.Run("webhooks", webhooks.LambdaTask) }
