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
// per shard, the shards read at once: handOn), queueing their first
// attempts in r, and returns how many events it found waiting and how
// many attempts it queued.
func (d *Deliverer) fanOut(ctx context.Context, r *run) (waiting, queued int, err error) {
	pages := make([][]events.Recorded, events.FanOutShards)
	if _, err := each(events.FanOutShards, func(n int) error {
		var err error
		pages[n], err = events.WaitingFanOut(ctx, d.table, n, batch)
		return err
	}); err != nil {
		return 0, 0, err
	}
	found := slices.Concat(pages...)
	queued, err = d.handOn(ctx, r, found)
	return len(found), queued, err
}

// handOn hands each waiting event to its receivers (deliveries.FanOut):
// the apps installed in its account (a company's event: for its company)
// and the account's own endpoints, read once an owner, up to parallel
// events at once. Each delivery is made already claimed for its first
// attempt, queued at once in r (attemptClaimed), so that an event reaches
// its receivers in the run that hands it on and the claim saves a write
// per delivery; but a receiver that is failing (an endpoint's failures,
// or an attempt that stalled here lately) gets its deliveries made due, for the
// sweep, so that its timeouts hold up no run that hands events on. It
// returns how many attempts it queued.
func (d *Deliverer) handOn(ctx context.Context, r *run, waiting []events.Recorded) (int, error) {
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
		mu     sync.Mutex
		queued int
	)
	_, err := each(len(waiting), func(i int) error {
		ev := waiting[i]
		var to []deliveries.Receiver
		if o := slices.Index(owners, ev.Owner); o >= 0 {
			to = receivers[o]
		} else if ev.Route != nil {
			to = []deliveries.Receiver{{ID: ev.Route.AppID, App: true, Failing: d.isDown(ev.Route.AppID)}}
		}
		now := d.clock.Now()
		made, err := deliveries.FanOut(ctx, d.table, to, ev, now, now.Add(deliveries.Lease))
		mu.Lock()
		defer mu.Unlock()
		for _, it := range made {
			if it.LeaseUntil != "" && r.add(it, targets[it.EndpointID], d.attemptClaimed) {
				queued++
			}
		}
		return err
	})
	return queued, err
}

// receiversOf reads who may receive owner's events: the apps installed
// for it, and an account's own endpoints (also returned as they are, for
// their health); those failing are marked so.
func (d *Deliverer) receiversOf(ctx context.Context, owner events.Owner) ([]deliveries.Receiver, []endpoints.Endpoint, error) {
	var (
		apps []deliveries.Receiver
		eps  []endpoints.Endpoint
		err  error
	)
	if owner.LocationID == "" { // a company's event: its company installs'
		apps, err = marketplace.ReceiversOfCompany(ctx, d.table, owner.CompanyID)
	} else {
		apps, err = marketplace.ReceiversOf(ctx, d.table, owner.LocationID)
	}
	if err != nil || owner.LocationID == "" {
		return d.failing(apps), nil, err
	}
	if eps, err = d.endpoints.List(ctx, owner.LocationID); err != nil {
		return nil, nil, err
	}
	for _, e := range eps {
		r := e.Receiver()
		r.Failing = e.FailingSince != ""
		apps = append(apps, r)
	}
	return d.failing(apps), eps, nil
}

// failing marks the receivers whose attempts stalled here lately.
func (d *Deliverer) failing(rs []deliveries.Receiver) []deliveries.Receiver {
	for i := range rs {
		rs[i].Failing = rs[i].Failing || d.isDown(rs[i].ID)
	}
	return rs
}
