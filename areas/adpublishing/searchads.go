package adpublishing

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/shared/storage"
)

// Integration types of the search ad network, the public API's `type`
// values. Every campaign belongs to exactly one: AD_MANAGER campaigns are
// created and run through the platform's own ad manager, INTEGRATION
// campaigns are the other campaigns of the connected ads account. A report
// request names one type and sees only that type's campaigns, their ad groups
// and their reporting rows.
const (
	TypeAdManager   = "AD_MANAGER"
	TypeIntegration = "INTEGRATION"
)

// IntegrationTypes lists the `type` values in the order error messages name them.
var IntegrationTypes = []string{TypeAdManager, TypeIntegration}

// Statuses a campaign or ad group can have, as the ad network names them.
var entityStatuses = []string{"ENABLED", "PAUSED", "REMOVED"}

// Report levels: which entity a daily reporting row measures.
const (
	levelCampaign = "CAMPAIGN"
	levelAdGroup  = "ADGROUP"
)

// Campaign is a search-ad campaign of an account.
type Campaign struct {
	ID         string `dynamodbav:"id" json:"id"`
	LocationID string `dynamodbav:"locationId" json:"locationId"`
	Type       string `dynamodbav:"type" json:"type"`
	Name       string `dynamodbav:"name" json:"name"`
	Status     string `dynamodbav:"status" json:"status"`
}

// AdGroup is an ad group of a campaign; it has the campaign's type.
type AdGroup struct {
	ID         string `dynamodbav:"id" json:"id"`
	CampaignID string `dynamodbav:"campaignId" json:"campaignId"`
	LocationID string `dynamodbav:"locationId" json:"locationId"`
	Type       string `dynamodbav:"type" json:"type"`
	Name       string `dynamodbav:"name" json:"name"`
	Status     string `dynamodbav:"status" json:"status"`
}

// DailyMetrics are one entity's raw figures for one calendar day (the ad
// account's day). Cost is in micros of the account currency (1 unit =
// 1,000,000 micros), as the ad network reports it, so sums are exact and
// rounding happens once, in the answer.
type DailyMetrics struct {
	Date        string `dynamodbav:"date" json:"date"`
	Impressions int64  `dynamodbav:"impressions" json:"impressions"`
	Clicks      int64  `dynamodbav:"clicks" json:"clicks"`
	CostMicros  int64  `dynamodbav:"costMicros" json:"costMicros"`
	Conversions int64  `dynamodbav:"conversions" json:"conversions"`
}

// Keys.
//
// Campaigns and ad groups are small items keyed by type first, so the
// entities of one type (and the ad groups of one campaign) are one
// begins_with Query of the account's partition.
//
// Daily reporting rows are keyed date-first within (type, level):
//
//	SK     SEARCHADS_REPORT#<type>#CAMPAIGN#<yyyy-mm-dd>#<campaignId>
//	SK     SEARCHADS_REPORT#<type>#ADGROUP#<yyyy-mm-dd>#<campaignId>#<adGroupId>
//
// so the report over a range for ALL campaigns (or all ad groups) of a type,
// the list's main use, is one Query with SK BETWEEN the first and the last
// day: it reads exactly the rows summed, whatever the history's length.
// (Entity-first keys would make that request read every entity's whole
// history and filter it.)
//
// A campaignId narrows the list to one campaign. Date-first keys would read
// every campaign's rows of the range and filter them, so each row is also
// indexed on GSI1 per campaign, entity level then date:
//
//	GSI1PK SEARCHADS_REPORT#<account>#<type>#<campaignId>
//	GSI1SK CAMPAIGN#<yyyy-mm-dd>  |  ADGROUP#<yyyy-mm-dd>#<adGroupId>
//
// and the narrowed report is one BETWEEN Query of that index. The price is a
// second write per row, paid once when rows are loaded.
func campaignID(typ, id string) string { return typ + "#" + id }

// adGroupID is an ad group's id within its account; with adGroupID "" it is
// the prefix of the ad groups of one campaign, and with campaignID "" too,
// of every campaign of the type.
func adGroupID(typ, campaignID, adGroupID string) string {
	id := typ + "#"
	if campaignID != "" {
		id += campaignID + "#" + adGroupID
	}
	return id
}

// reportDayPrefix is the sort-key prefix of the rows of one level and day.
func reportDayPrefix(typ, level, date string) string {
	return "SEARCHADS_REPORT#" + typ + "#" + level + "#" + date
}

func campaignReportKey(accountID, typ, date, campaignID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: reportDayPrefix(typ, levelCampaign, date) + "#" + campaignID}
}

func adGroupReportKey(accountID, typ, date, campaignID, adGroupID string) storage.Key {
	return storage.Key{PK: storage.AccountPK(accountID), SK: reportDayPrefix(typ, levelAdGroup, date) + "#" + campaignID + "#" + adGroupID}
}

// campaignReportsPK is the GSI1 partition of one campaign's reporting rows.
func campaignReportsPK(accountID, typ, campaignID string) string {
	return "SEARCHADS_REPORT#" + accountID + "#" + typ + "#" + campaignID
}

// campaignReportsSK is a row's GSI1 sort key; adGroupID is "" for the
// campaign's own rows.
func campaignReportsSK(level, date, adGroupID string) string {
	sk := level + "#" + date
	if adGroupID != "" {
		sk += "#" + adGroupID
	}
	return sk
}

// afterAllIDs sorts after every id (ids are [A-Za-z0-9_-]): "<day>#~" bounds
// every key of that day from above.
const afterAllIDs = "~"

// reportItem is one entity's reporting row of one day. Level says which
// entity: the campaign itself, or AdGroupID of CampaignID.
type reportItem struct {
	storage.Key
	GSI1PK     string `dynamodbav:"GSI1PK"`
	GSI1SK     string `dynamodbav:"GSI1SK"`
	Level      string `dynamodbav:"level"`
	Type       string `dynamodbav:"type"`
	CampaignID string `dynamodbav:"campaignId"`
	AdGroupID  string `dynamodbav:"adGroupId,omitempty"`
	DailyMetrics
}

func newCampaignReportItem(c Campaign, m DailyMetrics) reportItem {
	return reportItem{
		Key:          campaignReportKey(c.LocationID, c.Type, m.Date, c.ID),
		GSI1PK:       campaignReportsPK(c.LocationID, c.Type, c.ID),
		GSI1SK:       campaignReportsSK(levelCampaign, m.Date, ""),
		Level:        levelCampaign,
		Type:         c.Type,
		CampaignID:   c.ID,
		DailyMetrics: m,
	}
}

func newAdGroupReportItem(g AdGroup, m DailyMetrics) reportItem {
	return reportItem{
		Key:          adGroupReportKey(g.LocationID, g.Type, m.Date, g.CampaignID, g.ID),
		GSI1PK:       campaignReportsPK(g.LocationID, g.Type, g.CampaignID),
		GSI1SK:       campaignReportsSK(levelAdGroup, m.Date, g.ID),
		Level:        levelAdGroup,
		Type:         g.Type,
		CampaignID:   g.CampaignID,
		AdGroupID:    g.ID,
		DailyMetrics: m,
	}
}

// Ads reads and writes the area's records.
type Ads struct {
	table     *storage.Table
	campaigns *storage.AccountItems[Campaign]
	adGroups  *storage.AccountItems[AdGroup]
	social    *storage.AccountItems[SocialIntegration]
}

// NewAds returns the ads on table.
func NewAds(table *storage.Table) *Ads {
	// The report's records are read eventually: no operation writes them (a
	// seed loads them), and a report a moment behind is not wrong.
	return &Ads{
		table: table,
		campaigns: storage.NewAccountItems(table, "SEARCHADS_CAMPAIGN#",
			func(c Campaign) (string, string) { return c.LocationID, campaignID(c.Type, c.ID) }).ReadEventually(),
		adGroups: storage.NewAccountItems(table, "SEARCHADS_ADGROUP#",
			func(g AdGroup) (string, string) { return g.LocationID, adGroupID(g.Type, g.CampaignID, g.ID) }).ReadEventually(),
		// The integration is a singleton of the account's partition: its key
		// holds no id, so "one per account" is the key schema's doing, not a
		// check's.
		social: storage.NewAccountItems(table, "SOCIALADS_INTEGRATION",
			func(i SocialIntegration) (string, string) { return i.LocationID, "" }),
	}
}

// Campaign returns the account's campaign of the integration type, or nil.
func (s *Ads) Campaign(ctx context.Context, accountID, typ, id string) (*Campaign, error) {
	return s.campaigns.Get(ctx, accountID, campaignID(typ, id))
}

// Campaigns returns the account's campaigns of the integration type, by id.
func (s *Ads) Campaigns(ctx context.Context, accountID, typ string) ([]Campaign, error) {
	return s.campaigns.ListUnder(ctx, accountID, campaignID(typ, ""))
}

// AdGroups returns the ad groups of one campaign of the integration type, or
// of all its campaigns when campaignID is "".
func (s *Ads) AdGroups(ctx context.Context, accountID, typ, campaignID string) ([]AdGroup, error) {
	return s.adGroups.ListUnder(ctx, accountID, adGroupID(typ, campaignID, ""))
}

// reportRange asks for the daily rows of one level from start to end (both
// YYYY-MM-DD, inclusive), of every campaign of the type or of one.
type reportRange struct {
	accountID  string
	typ        string
	level      string
	start, end string
	campaignID string
}

// reportRows reads the rows of a range with one Query (paged): the base
// table's date-first keys for every campaign, the per-campaign index for one.
func (s *Ads) reportRows(ctx context.Context, rr reportRange) ([]reportItem, error) {
	if rr.campaignID == "" {
		return storage.QueryAll[reportItem](ctx, s.table, storage.Query{
			Eventual: true,
			Key: expression.Key(storage.AttrPK).Equal(expression.Value(storage.AccountPK(rr.accountID))).
				And(expression.Key(storage.AttrSK).Between(
					expression.Value(reportDayPrefix(rr.typ, rr.level, rr.start)),
					expression.Value(reportDayPrefix(rr.typ, rr.level, rr.end)+"#"+afterAllIDs))),
		})
	}
	// An index read is eventually consistent: a row loaded a moment ago may
	// be missing, which a report tolerates.
	return storage.QueryAll[reportItem](ctx, s.table, storage.Query{
		Index: storage.IndexGSI1,
		Key: expression.Key(storage.AttrGSI1PK).Equal(expression.Value(campaignReportsPK(rr.accountID, rr.typ, rr.campaignID))).
			And(expression.Key(storage.AttrGSI1SK).Between(
				expression.Value(rr.level+"#"+rr.start),
				expression.Value(rr.level+"#"+rr.end+"#"+afterAllIDs))),
	})
}
