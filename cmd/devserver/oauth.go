package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"time"

	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/oauth"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/webhooks"
)

// mountOAuth serves the OAuth server's routes on mux beside the API, as
// OAuthFunction does deployed (its own handling: form bodies, no Version
// header; company tokens where it takes a bearer token).
func mountOAuth(mux *http.ServeMux, cfg config.Config, srv *apiserver.Server) {
	h := oauth.New(srv.Core, cfg.OAuthAccessTokenTTL, cfg.RequestTimeout)
	for _, route := range oauth.Routes {
		mux.Handle(route, h)
	}
}

// deliveryInterval is how often the local server looks for due webhook
// events.
const deliveryInterval = 2 * time.Second

// startDeliveries runs the webhook deliverer in a loop, as WebhookFunction
// runs deployed, signing with WEBHOOK_KEY_FILE or the repository's
// .local/webhook-ed25519.pem (created on first start; platformctl apps
// webhook-key prints its public key). The returned function stops it and
// waits for the sweep under way.
func startDeliveries(ctx context.Context, cfg config.Config, srv *apiserver.Server, out io.Writer) (func(), error) {
	if cfg.WebhookKeyFile == "" && cfg.WebhookKeyParameter == "" {
		root, err := dynamodblocal.FindRoot(".")
		if err != nil {
			return nil, err
		}
		cfg.WebhookKeyFile = filepath.Join(root, filepath.FromSlash(signingkey.LocalFile))
	}
	key, err := signingkey.Load(ctx, cfg, wiring.EnvAWSConfig)
	if err != nil {
		return nil, err
	}
	schedule, err := deliveries.ScheduleFor(cfg.WebhookRetryFor, dynamo.IsLocalEndpoint(cfg.Endpoint))
	if err != nil {
		return nil, err
	}
	if schedule != deliveries.Default {
		fmt.Fprintf(out, "Webhook deliveries are retried for %s (WEBHOOK_RETRY_FOR): first after %s, at most %s apart; an endpoint failing that long is disabled\n",
			clock.Span(schedule.GiveUp), schedule.FirstRetry, schedule.MaxRetry)
	}
	if cfg.WebhookKeyFile != "" {
		fmt.Fprintf(out, "Webhooks are signed with the key in %s\n", cfg.WebhookKeyFile)
	}
	d := webhooks.New(srv.Core.Deps.Table, srv.Core.Deps.Clock, key, nil, srv.Core.Deps.Logger, srv.Core.Meter).WithSecrets(srv.Core.Deps.Secrets).OnSchedule(schedule)
	if err := d.PublishKey(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		d.Loop(ctx, deliveryInterval)
	}()
	return func() { cancel(); <-done }, nil
}
