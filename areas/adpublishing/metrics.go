package adpublishing

// Metrics are an entity's (or the totals') figures over the requested range
// as the answer shows them.
//
// Counts are exact sums of the daily rows. Money (cost, averageCpc,
// costPerConversion) is in the account currency rounded half-up to cents;
// the money ratios divide the exact micro sum, so they are not skewed by the
// rounding of cost. ctr and conversionRate are fractions (0.0523 = 5.23%)
// rounded half-up to 4 decimal places. A ratio whose denominator is 0 is
// null: "no clicks" has no cost per click, and 0 would claim one.
type Metrics struct {
	Impressions       int64    `json:"impressions"`
	Clicks            int64    `json:"clicks"`
	Cost              float64  `json:"cost"`
	Conversions       int64    `json:"conversions"`
	CTR               *float64 `json:"ctr"`
	AverageCPC        *float64 `json:"averageCpc"`
	ConversionRate    *float64 `json:"conversionRate"`
	CostPerConversion *float64 `json:"costPerConversion"`
}

const (
	microsPerCent = 10_000
	// ratioScale is 10^(decimal places of ctr and conversionRate).
	ratioScale = 10_000
)

// sums accumulates raw daily figures exactly.
type sums struct {
	impressions, clicks, costMicros, conversions int64
}

func (s *sums) add(m DailyMetrics) {
	s.impressions += m.Impressions
	s.clicks += m.Clicks
	s.costMicros += m.CostMicros
	s.conversions += m.Conversions
}

// metrics derives the answer's figures from the sums.
func (s sums) metrics() Metrics {
	return Metrics{
		Impressions:       s.impressions,
		Clicks:            s.clicks,
		Cost:              cents(divRound(s.costMicros, microsPerCent)),
		Conversions:       s.conversions,
		CTR:               ratio(s.clicks, s.impressions),
		AverageCPC:        money(s.costMicros, s.clicks),
		ConversionRate:    ratio(s.conversions, s.clicks),
		CostPerConversion: money(s.costMicros, s.conversions),
	}
}

// ratio is num/den rounded to 4 decimal places, or nil when den is 0.
func ratio(num, den int64) *float64 {
	if den == 0 {
		return nil
	}
	v := float64(divRound(num*ratioScale, den)) / ratioScale
	return &v
}

// money is micros/den in currency units rounded to cents, or nil when den is 0.
func money(micros, den int64) *float64 {
	if den == 0 {
		return nil
	}
	v := cents(divRound(micros, den*microsPerCent))
	return &v
}

// cents turns a whole number of cents into currency units. The division of
// two exact integers is correctly rounded, so the value prints with at most
// two decimals (1999 -> 19.99).
func cents(c int64) float64 { return float64(c) / 100 }

// divRound is n/d rounded half up, for n >= 0 and d > 0 (the figures are
// never negative: the seed refuses negative ones).
func divRound(n, d int64) int64 { return (n + d/2) / d }
