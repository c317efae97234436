package webhooks

import (
	"context"
	"encoding/json"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/storage"
)

// StreamKeys are the keys of the account and company events a DynamoDB
// stream batch names (its records' Keys); nothing for any other event (the
// schedule's). The function's stream filter lets through the inserts of
// events alone: a delivery is made and first attempted by the deliverer
// that hands its event on, so its insert wakes no one.
func StreamKeys(event json.RawMessage) []storage.Key {
	var batch struct {
		Records []struct {
			Dynamodb struct {
				Keys map[string]struct{ S string } `json:"Keys"`
			} `json:"dynamodb"`
		} `json:"Records"`
	}
	if json.Unmarshal(event, &batch) != nil {
		return nil
	}
	var keys []storage.Key
	for _, r := range batch.Records {
		k := storage.Key{PK: r.Dynamodb.Keys[storage.AttrPK].S, SK: r.Dynamodb.Keys[storage.AttrSK].S}
		if events.IsEventKey(k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// streamBudget bounds the time a stream batch's run starts attempts in:
// the attempts of a receiver slower than that wait their claim's end for
// the sweep, instead of holding up the next batch of the stream's shard.
const streamBudget = 5 * time.Second

// DeliverNamed hands on the events at keys that are still waiting, read
// from their own items (strongly consistent: a stream record names an
// event before the eventually consistent fan-out index may show it), and
// makes their deliveries' first attempts (handOn): an event reaches its
// receivers about a second after its change, not at the next minute's
// sweep. It returns how many attempts it made; a key of an event handed on
// already (the sweep came first, or the stream retried) sends nothing.
func (d *Deliverer) DeliverNamed(ctx context.Context, keys []storage.Key) (int, error) {
	waiting, err := events.StillWaiting(ctx, d.table, keys)
	if err != nil {
		return 0, err
	}
	r := d.newRun(ctx, d.clock.Now().Add(streamBudget))
	_, err = d.handOn(ctx, r, waiting)
	n, werr := r.wait()
	if err == nil {
		err = werr
	}
	return n, err
}
