package webhooks

import (
	"context"
	"slices"
	"sync"

	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/marketplace"
)

// fanOut hands on the events waiting in the fan-out index (up to a batch
// per shard, the shards read at once: handOn) and returns how many events
// it found waiting and how many first attempts it made.
func (d *Deliverer) fanOut(ctx context.Context) (waiting, sent int, err error) {
	pages := make([][]events.Recorded, events.FanOutShards)
	if _, err := each(events.FanOutShards, func(n int) error {
		var err error
		pages[n], err = events.WaitingFanOut(ctx, d.table, n, batch)
		return err
	}); err != nil {
		return 0, 0, err
	}
	found := slices.Concat(pages...)
	sent, err = d.handOn(ctx, found)
	return len(found), sent, err
}

// handOn hands each waiting event to its receivers (deliveries.FanOut):
// the apps installed in its account (a company's event: for its company)
// and the account's own endpoints, read once an owner, up to parallel
// events at once. Each delivery is made already claimed for its first
// attempt, which follows at once (attemptClaimed), so that an event
// reaches its receivers in the invocation that hands it on and the claim
// saves a write per delivery. It returns how many attempts it made.
func (d *Deliverer) handOn(ctx context.Context, waiting []events.Recorded) (int, error) {
	var owners []events.Owner
	for _, ev := range waiting {
		if ev.Route == nil && !slices.Contains(owners, ev.Owner) {
			owners = append(owners, ev.Owner)
		}
	}
	receivers := make([][]deliveries.Receiver, len(owners))
	own := make([][]endpoints.Endpoint, len(owners))
	if _, err := each(len(owners), func(i int) error {
		var err error
		receivers[i], own[i], err = d.receiversOf(ctx, owners[i])
		return err
	}); err != nil {
		return 0, err
	}
	targets := map[string]*target{}
	for _, eps := range own {
		for _, e := range eps {
			targets[e.ID] = d.newTarget(ctx, e)
		}
	}
	var (
		mu    sync.Mutex
		added []deliveries.Item
	)
	_, err := each(len(waiting), func(i int) error {
		ev := waiting[i]
		var to []deliveries.Receiver
		if o := slices.Index(owners, ev.Owner); o >= 0 {
			to = receivers[o]
		}
		now := d.clock.Now()
		made, err := deliveries.FanOut(ctx, d.table, to, ev, now, now.Add(deliveries.Lease))
		mu.Lock()
		added = append(added, made...)
		mu.Unlock()
		return err
	})
	sent, aerr := d.attemptAll(ctx, added, targets, d.attemptClaimed)
	if err == nil {
		err = aerr
	}
	return sent, err
}

// receiversOf reads who may receive owner's events: the apps installed
// for it, and an account's own endpoints (also returned as they are, for
// their health).
func (d *Deliverer) receiversOf(ctx context.Context, owner events.Owner) ([]deliveries.Receiver, []endpoints.Endpoint, error) {
	if owner.LocationID == "" { // a company's event: its company installs'
		apps, err := marketplace.ReceiversOfCompany(ctx, d.table, owner.CompanyID)
		return apps, nil, err
	}
	apps, err := marketplace.ReceiversOf(ctx, d.table, owner.LocationID)
	if err != nil {
		return nil, nil, err
	}
	eps, err := d.endpoints.List(ctx, owner.LocationID)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range eps {
		apps = append(apps, e.Receiver())
	}
	return apps, eps, nil
}
