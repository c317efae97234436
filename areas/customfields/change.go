package customfields

import (
	"fmt"
	"strings"
	"time"
)

// apply returns cur with the change made, or the violations of the rules
// that depend on the stored field. A stored option missing from the request
// is a removal (refused), unless its label is in unseen (see unseenLabels):
// then it is kept.
func apply(cur Field, unseen map[string]bool, c change, now string) (Field, []string) {
	if !isUpdatable(cur.ObjectKey) {
		return cur, []string{fmt.Sprintf(
			"id names a field of the %q object; only fields of custom objects (%s<key>) and of the company object (%s) can be updated",
			cur.ObjectKey, customObjectPrefix, ObjectBusiness)}
	}
	var problems []string
	next := cur
	if c.options != nil {
		opts, msgs := mergeOptions(cur, unseen, c.options)
		problems = append(problems, msgs...)
		next.Options = opts
	}
	if c.acceptedFormats != nil {
		if cur.DataType == TypeFileUpload {
			next.AcceptedFormats = *c.acceptedFormats
		} else {
			problems = append(problems, fmt.Sprintf("acceptedFormats is only allowed on %s fields; this field is %s", TypeFileUpload, cur.DataType))
		}
	}
	if c.maxFileLimit != nil {
		if cur.DataType == TypeFileUpload {
			next.MaxFileLimit = *c.maxFileLimit
		} else {
			problems = append(problems, fmt.Sprintf("maxFileLimit is only allowed on %s fields; this field is %s", TypeFileUpload, cur.DataType))
		}
	}
	if len(problems) > 0 {
		return cur, problems
	}
	if c.name != nil {
		next.Name = *c.name
	}
	if c.description != nil {
		next.Description = *c.description
	}
	if c.placeholder != nil {
		next.Placeholder = *c.placeholder
	}
	next.ShowInForms = c.showInForms
	next.DateUpdated = now
	return next, nil
}

// mergeOptions builds the field's new options from the requested ones: the
// request's order, the stored key kept for every label already stored, a
// new key for every new label, and (after them) the unseen options the
// request left out.
func mergeOptions(cur Field, unseen map[string]bool, requested []optionChange) ([]Option, []string) {
	if !hasOptions(cur.DataType) {
		return nil, []string{fmt.Sprintf("options is only allowed on %s fields; this field is %s",
			strings.Join(optionTypes, ", "), cur.DataType)}
	}
	var problems []string
	if cur.DataType != TypeRadio {
		for i, o := range requested {
			if o.url != "" {
				problems = append(problems, fmt.Sprintf("options[%d].url is only allowed on %s fields; this field is %s", i, TypeRadio, cur.DataType))
			}
		}
	}

	stored := make(map[string]Option, len(cur.Options))
	taken := make(map[string]bool, len(cur.Options))
	for _, o := range cur.Options {
		stored[o.Label] = o
		taken[o.Key] = true
	}
	inRequest := make(map[string]bool, len(requested))
	for _, o := range requested {
		inRequest[o.label] = true
	}
	var missing []string
	var addedMeanwhile []Option
	for _, o := range cur.Options {
		switch {
		case inRequest[o.Label]:
		case unseen[o.Label]:
			addedMeanwhile = append(addedMeanwhile, o)
		default:
			missing = append(missing, fmt.Sprintf("%q", o.Label))
		}
	}
	if len(missing) > 0 {
		problems = append(problems, fmt.Sprintf(
			"options must include every existing option (removing options is not supported); missing: %s",
			strings.Join(missing, ", ")))
	}
	if n := len(requested) + len(addedMeanwhile); n > maxOptions {
		problems = append(problems, fmt.Sprintf("options must hold at most %d options; with the options added meanwhile the field would hold %d", maxOptions, n))
	}
	if len(problems) > 0 {
		return nil, problems
	}

	out := make([]Option, 0, len(requested)+len(addedMeanwhile))
	for _, o := range requested {
		key := stored[o.label].Key
		if key == "" {
			key = newOptionKey(o.label, taken)
		}
		out = append(out, Option{Key: key, Label: o.label, URL: o.url})
	}
	return append(out, addedMeanwhile...), nil
}

// newOptionKey derives a key from label (lower-case letters, digits and
// '_'), unique among taken, and marks it taken. Keys are derived rather than
// random so they read well in records and exports.
func newOptionKey(label string, taken map[string]bool) string {
	var b strings.Builder
	underscore := false
	for _, r := range strings.ToLower(label) {
		if b.Len() >= maxOptionKeyLen {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
			underscore = false
		case !underscore && b.Len() > 0:
			b.WriteByte('_')
			underscore = true
		}
	}
	base := strings.TrimRight(b.String(), "_")
	if base == "" {
		base = "option"
	}
	key := base
	for n := 2; taken[key]; n++ {
		key = fmt.Sprintf("%s_%d", base, n)
	}
	taken[key] = true
	return key
}

// recentWindow is how long after its addition an option counts as possibly
// unseen by a request. Two clients that add an option each to the same list
// at the same moment both send the list without the other's option, and the
// second request may well be read after the first is written; within this
// window its omission is taken for that race, not for a removal. It covers
// requests in flight together (network, queueing, retries), not a user's
// editing time: a list composed longer ago is refused and must be re-read.
const recentWindow = 10 * time.Second

// unseenLabels are the labels of the stored options the request may have
// been composed without: those added since this request first read the
// field (firstLabels are that read's labels) and those added less than
// recentWindow before now.
func unseenLabels(item fieldRecord, firstLabels map[string]bool, now time.Time) map[string]bool {
	since := now.Add(-recentWindow).UnixMilli()
	unseen := map[string]bool{}
	for _, o := range item.Options {
		if addedAt, ok := item.RecentOptions[o.Key]; (ok && addedAt >= since) || !firstLabels[o.Label] {
			unseen[o.Label] = true
		}
	}
	return unseen
}

// nextRecent returns the recent options after next replaces cur at now: the
// options new in next, plus those of prev still inside the window.
func nextRecent(prev map[string]int64, cur, next Field, now time.Time) map[string]int64 {
	since := now.Add(-recentWindow).UnixMilli()
	out := map[string]int64{}
	for key, addedAt := range prev {
		if addedAt >= since {
			out[key] = addedAt
		}
	}
	had := make(map[string]bool, len(cur.Options))
	for _, o := range cur.Options {
		had[o.Key] = true
	}
	for _, o := range next.Options {
		if !had[o.Key] {
			out[o.Key] = now.UnixMilli()
		}
	}
	return out
}

func labelSet(opts []Option) map[string]bool {
	set := make(map[string]bool, len(opts))
	for _, o := range opts {
		set[o.Label] = true
	}
	return set
}
