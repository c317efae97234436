package marketplace

import (
	"context"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/storage"
)

// ReceiversOf returns the apps installed in the account that have a
// webhook URL and chose at least one event type, as receivers of its
// events (each with its install's scopes).
func ReceiversOf(ctx context.Context, table *storage.Table, accountID string) ([]deliveries.Receiver, error) {
	return receiversIn(ctx, table, storage.AccountPK(accountID))
}

// ReceiversOfCompany returns the apps installed for the company (target
// company) that have a webhook URL and chose at least one event type: the
// receivers of its company events (UserCreate).
func ReceiversOfCompany(ctx context.Context, table *storage.Table, companyID string) ([]deliveries.Receiver, error) {
	return receiversIn(ctx, table, storage.CompanyPK(companyID))
}

// receiversIn reads the installs kept in the owner's partition pk.
func receiversIn(ctx context.Context, table *storage.Table, pk string) ([]deliveries.Receiver, error) {
	installs, err := storage.QueryPartition[installItem](ctx, table, pk, "INSTALL#")
	if err != nil {
		return nil, err
	}
	var out []deliveries.Receiver
	for _, inst := range installs {
		if !inst.Installed() {
			continue
		}
		app, err := storage.Get[appItem](ctx, table, appKey(inst.AppID))
		if err != nil {
			return nil, err
		}
		if app != nil && app.WebhookURL != "" && len(app.Events) > 0 {
			out = append(out, deliveries.Receiver{ID: app.ID, URL: app.WebhookURL, Types: app.Events, App: true, Scopes: inst.Scopes})
		}
	}
	return out, nil
}
