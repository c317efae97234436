package portal

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/marketplace"
)

// installRow is one app installed in the account, as the API settings page
// shows it.
type installRow struct {
	marketplace.Install
	Installed bool
	Status    string
	LastUsed  string
	Summary   scopeSummary
}

func installRows(list []marketplace.Install) []installRow {
	rows := make([]installRow, 0, len(list))
	for _, inst := range list {
		row := installRow{Install: inst, Installed: inst.Installed(), LastUsed: formatTime(inst.LastUsedAt),
			Summary: summarize(inst.Scopes, auth.KindMarketplace)}
		row.Status = "Installed"
		if inst.ViaCompany {
			row.Status = "Installed by the agency"
		}
		if !row.Installed {
			row.Status = "Uninstalled at " + formatTime(inst.UninstalledAt)
		}
		rows = append(rows, row)
	}
	// Installed apps first, newest install first within each group.
	sortLiveFirst(rows, func(r installRow) (bool, string) { return r.Installed, r.InstalledAt })
	return rows
}

// accountInstall is the path's app as installed in the visit's account.
func (p *Portal) accountInstall(r *http.Request, v *visit) (installRow, error) {
	list, err := p.apps.AccountInstalls(r.Context(), v.account.ID)
	if err != nil {
		return installRow{}, err
	}
	for _, row := range installRows(list) {
		if row.AppID == r.PathValue("app") {
			return row, nil
		}
	}
	return installRow{}, &pageError{Status: http.StatusNotFound, Title: "No such app",
		Message: "No app with this id was installed in this account, so nothing was changed.",
		Back:    accountPath(v.account.ID), BackLabel: "Back to API settings"}
}

func (p *Portal) uninstallPage(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountInstall(r, v)
	if err != nil {
		return err
	}
	p.render(w, http.StatusOK, "uninstall", &view{Title: "Uninstall app", Person: v.person, CSRF: v.session.CSRF, Account: v.account, Data: row})
	return nil
}

// uninstall removes the app from the account: every token of the install
// for the account is revoked at once (docs/portal.md).
func (p *Portal) uninstall(w http.ResponseWriter, r *http.Request, v *visit) error {
	row, err := p.accountInstall(r, v)
	if err != nil {
		return err
	}
	notice := "uninstalled"
	switch err := p.apps.Uninstall(r.Context(), v.account.ID, row.AppID, actor(v)); {
	case errors.Is(err, marketplace.ErrNotInstalled):
		notice = "already-uninstalled"
	case err != nil:
		return err
	}
	return redirect{fmt.Sprintf("%s?notice=%s&app=%s", accountPath(v.account.ID), notice, row.AppID)}
}
