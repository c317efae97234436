package marketplace

import (
	"context"
	"time"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// The events of an app's installs, the public platform's INSTALL and
// UNINSTALL: each written in the transaction of the change it reports (the
// code exchange, the uninstall), in the account's events partition, and
// routed to the app alone (events.Type.Routed), whatever event types it
// chose and whatever its install's scopes. catalog.EventTypes lists them
// with the areas' types.
var (
	Installed = events.Type{
		Name: "INSTALL", Scope: "oauth.readonly", Version: 1, Routed: true, Fields: InstallFields{},
		Summary: "A marketplace app was installed in the account (its consent's code exchanged, or a company install approved for it); sent to that app alone.",
	}
	Uninstalled = events.Type{
		Name: "UNINSTALL", Scope: "oauth.readonly", Version: 1, Routed: true, Fields: InstallFields{},
		Summary: "A marketplace app was uninstalled from the account (in the portal, or its deletion); sent to that app alone.",
	}
)

// InstallEvents are the event types of this package, for the registry.
var InstallEvents = []events.Type{Installed, Uninstalled}

// InstallFields are the fields of an INSTALL or UNINSTALL, the public
// platform's: the body names the app itself (routed events are sent
// unchanged).
type InstallFields struct {
	AppID               string `json:"appId"`
	VersionID           string `json:"versionId"`
	InstallType         string `json:"installType"`
	CompanyID           string `json:"companyId"`
	UserID              string `json:"userId,omitempty"`
	CompanyName         string `json:"companyName,omitempty"`
	IsWhitelabelCompany bool   `json:"isWhitelabelCompany"`
}

// addEvent adds to tx the event typ (Installed, Uninstalled) of the app's
// install into accountID of company: written in the transaction of the
// change it reports, it exists exactly when the change does, and goes to
// the app's webhook URL (an app without one receives nothing, and the
// event is still listed by GET /events).
func addEvent(tx *storage.Tx, app App, typ events.Type, company companyRef, accountID, userID string, now time.Time) {
	installType := UserLocation
	if accountID == "" {
		installType = UserCompany
	}
	fields := InstallFields{
		AppID: app.ID, VersionID: app.ID, InstallType: installType, CompanyID: company.ID, UserID: userID, CompanyName: company.Name,
	}
	owner := events.Owner{LocationID: accountID, CompanyID: company.ID}
	typ.AddRouted(tx, owner, fields, events.Route{AppID: app.ID, URL: app.WebhookURL}, now)
}

// companyRef is a company as events name it: its id and its name (the id
// when it has none).
type companyRef struct{ ID, Name string }

// CompanyName is the company's name, or its id when it has none (for the
// consent page).
func (a *Apps) CompanyName(ctx context.Context, companyID string) (string, error) {
	return a.accounts.CompanyName(ctx, companyID)
}

// companyOf reads the company's name for its events.
func (a *Apps) companyOf(ctx context.Context, companyID string) (companyRef, error) {
	name, err := a.accounts.CompanyName(ctx, companyID)
	return companyRef{ID: companyID, Name: name}, err
}

// Deliveries is at most limit of the app's deliveries (those in state when
// it is not ""), newest first, with their attempts, older than the cursor
// a page gave ("" for the newest), and the cursor of the next page
// (deliveries.Page), as an endpoint's are listed.
func (a *Apps) Deliveries(ctx context.Context, appID string, state deliveries.State, limit int32, cursor string) ([]deliveries.Delivery, string, error) {
	app, err := a.Get(ctx, appID)
	if err != nil {
		return nil, "", err
	}
	return deliveries.Page(ctx, a.table, app.ID, state, limit, cursor)
}

// Redeliver sends again what r names of the app's deliveries
// (deliveries.Redeliver), with one audit entry in its company's list when
// it sent any, and returns what it queued.
func (a *Apps) Redeliver(ctx context.Context, appID string, r deliveries.Redelivery, by auth.Actor) (deliveries.Redelivered, error) {
	app, err := a.Get(ctx, appID)
	if err != nil {
		return deliveries.Redelivered{}, err
	}
	now := a.clock.Now()
	done, err := deliveries.Redeliver(ctx, a.table, app.ID, r, now)
	if err != nil || done.Queued == 0 {
		return done, err
	}
	return done, auth.AddAuditEntry(a.table.Tx(), storage.CompanyPK(app.CompanyID), now, by, auth.AuditRedelivered, app.ID, app.Name, r.Detail(done.Queued)).Commit(ctx)
}
