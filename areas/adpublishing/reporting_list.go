package adpublishing

import (
	"net/http"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// List types: the public API's names for its campaign and ad-group lists.
// (It also names ads and keywords lists; those levels are not stored here.)
const (
	ListCampaigns = "campaigns"
	ListAdGroups  = "adGroups"
)

// ListTypes lists the listType values in the order error messages name them.
var ListTypes = []string{ListCampaigns, ListAdGroups}

// MaxRangeDays bounds a report's range, both ends counted: a year, leap
// years included. It bounds the rows one request reads.
const MaxRangeDays = 366

const dateLayout = "2006-01-02"

// datePattern is compiled on first use, not at every cold start.
var datePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`) })

// ReportingListResponse is the answer: the request's selection, one row per
// campaign or ad group that has reporting rows in the range, and the totals
// over those rows.
type ReportingListResponse struct {
	LocationID string `json:"locationId"`
	ListType   string `json:"listType"`
	Type       string `json:"type"`
	StartDate  string `json:"startDate"`
	EndDate    string `json:"endDate"`
	// CampaignID is the narrowing campaign, when the request named one.
	CampaignID string      `json:"campaignId,omitempty"`
	Rows       []ReportRow `json:"rows"`
	Totals     Metrics     `json:"totals"`
}

// ReportRow is one campaign or ad group with its metrics over the range.
// CampaignID and CampaignName are set on ad-group rows only.
type ReportRow struct {
	ID           string  `json:"id"`
	Name         string  `json:"name"`
	Status       string  `json:"status"`
	CampaignID   string  `json:"campaignId,omitempty"`
	CampaignName string  `json:"campaignName,omitempty"`
	Metrics      Metrics `json:"metrics"`
}

type reportingListRequest struct {
	locationID string
	listType   string
	typ        string
	start, end string
	campaignID string
}

func parseReportingList(q httpio.Query, v *validate.Errors) reportingListRequest {
	req := reportingListRequest{
		locationID: q.RequiredID("locationId"),
		listType:   q.OneOf("listType", ListTypes...),
		typ:        q.OneOf("type", IntegrationTypes...),
	}
	start, startOK := parseDate(v, q, "startDate")
	end, endOK := parseDate(v, q, "endDate")
	if startOK && endOK {
		switch days := int(end.Sub(start).Hours()/24) + 1; {
		case end.Before(start):
			v.Add("startDate must not be after endDate")
		case days > MaxRangeDays:
			v.Addf("endDate must be at most %d days from startDate, both counted (the range spans %d days)", MaxRangeDays, days)
		}
		req.start, req.end = start.Format(dateLayout), end.Format(dateLayout)
	}
	if q.Has("campaignId") {
		req.campaignID = q.String("campaignId")
		if req.campaignID == "" {
			v.Add("campaignId must not be empty when given")
		} else {
			v.ID("campaignId", req.campaignID)
		}
	}
	return req
}

// parseDate reads a required YYYY-MM-DD date that must exist in the calendar.
func parseDate(v *validate.Errors, q httpio.Query, name string) (time.Time, bool) {
	s := q.Required(name)
	if s == "" {
		return time.Time{}, false
	}
	if !datePattern().MatchString(s) {
		v.Addf("%s must be a date in the form YYYY-MM-DD", name)
		return time.Time{}, false
	}
	d, err := time.Parse(dateLayout, s)
	if err != nil {
		v.Addf("%s must be a real calendar date (%s does not exist)", name, s)
		return time.Time{}, false
	}
	return d, true
}

func (h *handler) reportingList(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	req := parseReportingList(in.Query(), in.Errors())
	_, err := in.Account(&req.locationID)
	if err != nil {
		return err
	}
	ctx := r.Context()

	// The campaign names, needed for campaign rows and ad-group rows alike.
	var campaigns []Campaign
	if req.campaignID != "" {
		c, err := h.store.Campaign(ctx, req.locationID, req.typ, req.campaignID)
		if err != nil {
			return err
		}
		if c == nil {
			return apierror.NotFound("Campaign %s was not found among this account's %s campaigns", req.campaignID, req.typ)
		}
		campaigns = []Campaign{*c}
	} else if campaigns, err = h.store.Campaigns(ctx, req.locationID, req.typ); err != nil {
		return err
	}

	level := levelCampaign
	if req.listType == ListAdGroups {
		level = levelAdGroup
	}
	items, err := h.store.reportRows(ctx, reportRange{
		accountID: req.locationID, typ: req.typ, level: level,
		start: req.start, end: req.end, campaignID: req.campaignID,
	})
	if err != nil {
		return err
	}

	resp := ReportingListResponse{
		LocationID: req.locationID, ListType: req.listType, Type: req.typ,
		StartDate: req.start, EndDate: req.end, CampaignID: req.campaignID,
	}
	if level == levelCampaign {
		resp.Rows, resp.Totals = campaignRows(items, campaigns)
	} else {
		groups, err := h.store.AdGroups(ctx, req.locationID, req.typ, req.campaignID)
		if err != nil {
			return err
		}
		resp.Rows, resp.Totals = adGroupRows(items, campaigns, groups)
	}
	return httpio.WriteJSON(w, http.StatusOK, resp)
}

// entityRef names a campaign (adGroupID "") or one of its ad groups.
type entityRef struct{ campaignID, adGroupID string }

// sumByEntity sums the rows per entity, and all of them.
func sumByEntity(items []reportItem) (map[entityRef]*sums, sums) {
	by := map[entityRef]*sums{}
	var total sums
	for _, it := range items {
		ref := entityRef{it.CampaignID, it.AdGroupID}
		s := by[ref]
		if s == nil {
			s = &sums{}
			by[ref] = s
		}
		s.add(it.DailyMetrics)
		total.add(it.DailyMetrics)
	}
	return by, total
}

// campaignRows answers one row per campaign with rows in the range, by id.
func campaignRows(items []reportItem, campaigns []Campaign) ([]ReportRow, Metrics) {
	by, total := sumByEntity(items)
	names := map[string]Campaign{}
	for _, c := range campaigns {
		names[c.ID] = c
	}
	rows := make([]ReportRow, 0, len(by))
	for ref, s := range by {
		c := describeCampaign(names, ref.campaignID)
		rows = append(rows, ReportRow{ID: ref.campaignID, Name: c.Name, Status: c.Status, Metrics: s.metrics()})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ID < rows[j].ID })
	return rows, total.metrics()
}

// adGroupRows answers one row per ad group with rows in the range, by
// campaign id then ad group id.
func adGroupRows(items []reportItem, campaigns []Campaign, groups []AdGroup) ([]ReportRow, Metrics) {
	by, total := sumByEntity(items)
	campaignNames := map[string]Campaign{}
	for _, c := range campaigns {
		campaignNames[c.ID] = c
	}
	groupNames := map[entityRef]AdGroup{}
	for _, g := range groups {
		groupNames[entityRef{g.CampaignID, g.ID}] = g
	}
	rows := make([]ReportRow, 0, len(by))
	for ref, s := range by {
		g, ok := groupNames[ref]
		if !ok {
			g = AdGroup{Status: statusUnknown}
		}
		rows = append(rows, ReportRow{
			ID: ref.adGroupID, Name: g.Name, Status: g.Status,
			CampaignID: ref.campaignID, CampaignName: describeCampaign(campaignNames, ref.campaignID).Name,
			Metrics: s.metrics(),
		})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].CampaignID != rows[j].CampaignID {
			return rows[i].CampaignID < rows[j].CampaignID
		}
		return rows[i].ID < rows[j].ID
	})
	return rows, total.metrics()
}

// statusUnknown marks a row whose entity record is missing. Loads write an
// entity before its rows, so it shows only if an entity is removed while its
// history stays; the row is still listed, so rows always add up to totals.
const statusUnknown = "UNKNOWN"

func describeCampaign(byID map[string]Campaign, id string) Campaign {
	if c, ok := byID[id]; ok {
		return c
	}
	return Campaign{ID: id, Status: statusUnknown}
}
