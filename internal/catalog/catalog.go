// Package catalog lists every area of the API, for the binaries and tests
// that serve or check all of them.
package catalog

import (
	"strings"

	"github.com/bizplatform/api/functions/ad-publishing/adpublishing"
	"github.com/bizplatform/api/functions/associations/associations"
	"github.com/bizplatform/api/functions/brand-boards/brandboards"
	"github.com/bizplatform/api/functions/campaigns/campaigns"
	"github.com/bizplatform/api/functions/contacts/contacts"
	"github.com/bizplatform/api/functions/conversations/conversations"
	"github.com/bizplatform/api/functions/custom-fields/customfields"
	"github.com/bizplatform/api/functions/emails/emails"
	"github.com/bizplatform/api/functions/medias/medias"
	"github.com/bizplatform/api/functions/payments/payments"
	"github.com/bizplatform/api/functions/products/products"
	"github.com/bizplatform/api/functions/store/store"
	"github.com/bizplatform/api/functions/surveys/surveys"
	"github.com/bizplatform/api/functions/users/users"
	"github.com/bizplatform/api/functions/voice-ai/voiceai"
	"github.com/bizplatform/api/shared/app"
)

// Areas are the fifteen areas, in the order of operations.Areas.
var Areas = []app.Area{
	contacts.Area,
	payments.Area,
	products.Area,
	store.Area,
	customfields.Area,
	associations.Area,
	brandboards.Area,
	emails.Area,
	voiceai.Area,
	conversations.Area,
	medias.Area,
	users.Area,
	surveys.Area,
	campaigns.Area,
	adpublishing.Area,
}

// FunctionName is the template.yaml logical id of an area's function:
// "custom-fields" becomes "CustomFieldsFunction".
func FunctionName(area string) string {
	var b strings.Builder
	for _, part := range strings.Split(area, "-") {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String() + "Function"
}
