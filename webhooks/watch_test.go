package webhooks_test

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/metrics/emftest"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/wiring"
	"github.com/bizplatform/api/webhooks"
)

// What the stream hands on is not counted; what a sweep finds waiting is:
// deployed, that is an event whose stream batch failed or was dropped,
// recovered by the sweep (WebhookRecovered, docs/operations.md).
func TestASweepCountsTheEventsItRecoveredFromTheStream(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, _, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	logs := &testenv.LogBuffer{}
	d := f.reporting(logs)

	f.write(t, taskDelete, "acctHook", "t1")
	stored := testenv.Events(t, f.env.Table, events.Owner{LocationID: "acctHook"})
	require.Len(t, stored, 1)
	_, err := d.DeliverNamed(ctx, []storage.Key{stored[0].Key()})
	require.NoError(t, err)
	require.NoError(t, d.Report(ctx, false))
	assert.NotContains(t, lastReport(t, logs), "WebhookRecovered", "handed on by the stream: nothing recovered")

	f.write(t, taskDelete, "acctHook", "t2") // its stream batch is lost
	f.write(t, taskDelete, "acctHook", "t3")
	_, err = d.Sweep(ctx)
	require.NoError(t, err)
	require.NoError(t, d.Report(ctx, true))
	assert.Equal(t, 2.0, lastReport(t, logs)["WebhookRecovered"])
	assert.Len(t, v.events(), 3, "and delivered")
}

// The one place endpoints are disabled (their failing for
// endpoints.FailingLimit) is counted on the deliverer's line.
func TestDisablingAFailingEndpointIsCounted(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, _, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	v.answer = func(w http.ResponseWriter, _ *http.Request) bool {
		w.WriteHeader(http.StatusBadGateway)
		return true
	}
	logs := &testenv.LogBuffer{}
	d := f.reporting(logs)
	for hour := range 4 * 24 {
		if hour%12 == 0 {
			f.write(t, taskDelete, "acctHook", fmt.Sprint("t", hour))
		}
		_, err := d.Sweep(ctx)
		require.NoError(t, err)
		require.NoError(t, d.Report(ctx, true))
		f.env.Clock.Advance(time.Hour)
	}
	assert.Equal(t, 1.0, emftest.Sum(logs.String(), "WebhookEndpointsDisabled", map[string]string{"Function": "webhooks"}), "disabled once")
}

// The deploy hook checks a new version with a dry run: it reads, and
// neither hands on, attempts nor records anything.
func TestADryRunDeliversNothing(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	v, _, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	f.write(t, taskDelete, "acctHook", "t1")
	f.installAndUninstall(t)
	before := f.deliveries(t)
	require.Empty(t, before, "nothing handed on yet")

	require.NoError(t, f.deliverer().DryRun(ctx))
	assert.Empty(t, v.events(), "nothing sent to the account's endpoint")
	assert.Empty(t, f.deliveries(t), "no delivery made for the app either")
	waiting := 0
	for shard := range events.FanOutShards {
		page, err := events.WaitingFanOut(ctx, f.env.Table, shard, 10)
		require.NoError(t, err)
		waiting += len(page)
	}
	assert.Equal(t, 3, waiting, "the account's event, the INSTALL and the UNINSTALL still wait for their hand-on")
	n, err := f.deliverer().Sweep(ctx)
	require.NoError(t, err)
	assert.Positive(t, n, "the real sweep does the work")
}

// WEBHOOK_RETRY_FOR shortens the schedule on a local engine alone: the
// deployed function refuses to start with it, saying why.
func TestTheDeployedDelivererRefusesAShortenedSchedule(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	deps := wiring.Deps{Table: f.env.Table, Clock: f.env.Clock, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))}
	_, err := webhooks.LambdaTask(ctx, config.Config{WebhookRetryFor: 10 * time.Minute, WebhookKeyFile: filepath.Join(t.TempDir(), "k.pem")}, deps)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "WEBHOOK_RETRY_FOR=10m0s is refused: it shortens the retries for a local engine only")
	_, err = webhooks.LambdaTask(ctx, config.Config{WebhookRetryFor: 10 * time.Minute, WebhookKeyFile: filepath.Join(t.TempDir(), "k.pem"), Endpoint: testenv.Endpoint(t), SecretsLocalKeyFile: filepath.Join(t.TempDir(), "secrets.key")}, deps)
	assert.NoError(t, err, "a local engine takes it")
}

// A key put in place of the old one signs once the warm deliverer reads it
// again (KeyReread), with no new version: rotating the key needs no deploy.
func TestARotatedSigningKeySignsWithinKeyRereadWithoutADeploy(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, 0, 0)
	path := filepath.Join(t.TempDir(), "webhook.pem")
	old, err := signingkey.Load(ctx, config.Config{WebhookKeyFile: path}, nil)
	require.NoError(t, err)
	cfg := config.Config{WebhookKeyFile: path, Endpoint: testenv.Endpoint(t), SecretsLocalKeyFile: filepath.Join(t.TempDir(), "secrets.key")}
	task, err := webhooks.LambdaTask(ctx, cfg, wiring.Deps{Table: f.env.Table, Clock: f.env.Clock, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(t, err)
	// The endpoint's secret is sealed with the key the task opens it with.
	f.env.Deps.Secrets, err = wiring.OpenKeeper(ctx, cfg, nil, "the test", nil)
	require.NoError(t, err)
	v, _, _ := f.endpointTo(t, "acctHook", []string{"TaskDelete"})
	v.key = old.Public().(ed25519.PublicKey)
	schedule := []byte(`{"source":"aws.events","detail-type":"Scheduled Event"}`)

	f.write(t, taskDelete, "acctHook", "t1")
	require.NoError(t, task(ctx, schedule))
	require.Len(t, v.events(), 1, "signed with the key read at start")

	require.NoError(t, os.Remove(path))
	rotated, err := signingkey.Load(ctx, config.Config{WebhookKeyFile: path}, nil)
	require.NoError(t, err)
	v.mu.Lock()
	v.key = rotated.Public().(ed25519.PublicKey) // the receiver switched to the new key
	v.mu.Unlock()
	f.env.Clock.Advance(webhooks.KeyReread - time.Second)
	f.write(t, taskDelete, "acctHook", "t2")
	require.NoError(t, task(ctx, schedule))
	require.Len(t, v.events(), 1, "before KeyReread the old key still signs, which the switched receiver refuses")

	f.env.Clock.Advance(time.Second + deliveries.NextRetry(1))
	f.write(t, taskDelete, "acctHook", "t3")
	require.NoError(t, task(ctx, schedule))
	assert.Len(t, v.events(), 3, "read again: the new key signs the new event and the refused one's retry")
}
