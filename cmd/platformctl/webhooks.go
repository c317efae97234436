package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/endpoints"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/secrets/kmskey"
	"github.com/bizplatform/api/shared/storage/awschain"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/validate"
	"github.com/bizplatform/api/shared/wiring"
)

// webhooksSynopsis is each webhooks command's usage line: an account's own
// webhook endpoints, as its admins manage them in the portal.
var webhooksSynopsis = map[string]string{
	"webhooks add":           "webhooks add --account ID --url URL --events T,U [--description D] [--disabled]",
	"webhooks list":          "webhooks list --account ID",
	"webhooks update":        "webhooks update ID --account ID [--url URL] [--events T,U] [--description D] [--enabled=true|false]",
	"webhooks remove":        "webhooks remove ID --account ID",
	"webhooks deliveries":    "webhooks deliveries ID --account ID [--status " + strings.Join(deliveries.Strings(deliveries.States), "|") + "] [--limit N] [--cursor CURSOR]",
	"webhooks redeliver":     "webhooks redeliver ID --account ID (--event WEBHOOK_ID | --failed-since RFC3339)",
	"webhooks retry":         "webhooks retry ID --account ID --event WEBHOOK_ID",
	"webhooks test":          "webhooks test ID --account ID [--wait DURATION]",
	"webhooks rotate-secret": "webhooks rotate-secret ID --account ID [--keep-old]",
	"webhooks key":           "webhooks key",
}

var webhooksVerbs = []string{"webhooks add", "webhooks list", "webhooks update", "webhooks remove", "webhooks deliveries", "webhooks redeliver", "webhooks retry", "webhooks test", "webhooks rotate-secret", "webhooks key"}

func webhooksSynopses() []string {
	out := make([]string, len(webhooksVerbs))
	for i, cmd := range webhooksVerbs {
		out[i] = webhooksSynopsis[cmd]
	}
	return out
}

// webhooksUsage is a usage error of a webhooks command, with its synopsis.
func webhooksUsage(cmd, msg string) error {
	return usageError{cmd, msg}
}

// webhooks runs one of the endpoint commands: args[0] is "webhooks", and
// args[1] one of webhooksVerbs. The changes are the operator's in the
// account's audit list.
func (c *cli) webhooks(ctx context.Context, args []string) error {
	cmd := strings.Join(args[:2], " ")
	rest := args[2:]
	local := dynamo.IsLocalEndpoint(c.cfg.Endpoint)
	schedule, err := deliveries.ScheduleFor(c.cfg.WebhookRetryFor, local)
	if err != nil {
		return err
	}
	store := endpoints.New(c.deps.Table, c.deps.Clock, local).OnSchedule(schedule)
	switch cmd {
	case "webhooks add":
		err = c.addWebhook(ctx, store, rest)
	case "webhooks list":
		err = c.listWebhooks(ctx, store, rest)
	case "webhooks update":
		err = c.updateWebhook(ctx, store, rest)
	case "webhooks remove":
		err = c.removeWebhook(ctx, store, rest)
	case "webhooks deliveries":
		err = c.webhookDeliveries(ctx, store, rest)
	case "webhooks retry":
		err = c.retryWebhook(ctx, store, rest)
	case "webhooks test":
		err = c.testWebhook(ctx, store, rest)
	case "webhooks rotate-secret":
		err = c.rotateWebhookSecret(ctx, store, rest)
	case "webhooks key":
		err = c.webhookPublicKey(ctx, rest)
	default:
		err = c.redeliverWebhook(ctx, store, rest)
	}
	// Its failures print as every command's do (failureLine).
	return err
}

// hookArgs parses a webhooks command's ID argument (when withID) and its
// flags, in either order; --account is always required.
func hookArgs(cmd string, fs *flag.FlagSet, args []string, withID bool) (string, error) {
	var id string
	if withID && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		id, args = args[0], args[1:]
	}
	if err := fs.Parse(args); err != nil {
		return "", webhooksUsage(cmd, err.Error())
	}
	if withID && id == "" && fs.NArg() > 0 {
		id = fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return "", webhooksUsage(cmd, err.Error())
		}
	}
	switch {
	case fs.NArg() > 0:
		return "", webhooksUsage(cmd, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	case withID && id == "":
		return "", webhooksUsage(cmd, "give the endpoint id")
	case fs.Lookup("account").Value.String() == "":
		return "", webhooksUsage(cmd, "--account is required")
	}
	return id, nil
}

// checkAccount refuses an account that does not exist: an endpoint of a
// mistyped account would receive nothing, silently.
func (c *cli) checkAccount(ctx context.Context, id string) error {
	if validate.IDProblem("account", id) != "" {
		return fmt.Errorf("account %q does not exist", id)
	}
	acct, err := accounts.NewRegistry(c.deps.Table, c.deps.Clock).Get(ctx, id)
	if err != nil {
		return err
	}
	if acct == nil {
		return fmt.Errorf("account %s does not exist", id)
	}
	return nil
}

func (c *cli) addWebhook(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks add"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account whose events it receives")
	u := fs.String("url", "", "where the events are sent (https, a public host)")
	eventList := fs.String("events", "", "comma-separated event types (docs/events.md)")
	description := fs.String("description", "", "what receives the events")
	disabled := fs.Bool("disabled", false, "add it disabled: it receives nothing until enabled")
	if _, err := hookArgs(cmd, fs, args, false); err != nil {
		return err
	}
	if err := c.checkAccount(ctx, *account); err != nil {
		return err
	}
	enabled := !*disabled
	events := splitList(*eventList)
	sealing, err := c.sealing(ctx, store)
	if err != nil {
		return err
	}
	e, err := sealing.Add(ctx, *account, endpoints.Input{URL: u, Description: description, Events: &events, Enabled: &enabled}, auth.Operator)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.errOut, "webhook endpoint %s added to account %s (%s); its signingSecret is shown only now\n", e.ID, e.AccountID, state(store, e))
	return c.printJSON(e)
}

// sealing is store sealing signing secrets with the KMS key or key file
// the environment names (SECRETS_KEY_ID, SECRETS_LOCAL_KEY_FILE), else, on
// a local engine, with make run's key in the repository's .local folder.
func (c *cli) sealing(ctx context.Context, store *endpoints.Store) (*endpoints.Store, error) {
	cfg := c.cfg
	if cfg.SecretsKeyID == "" && cfg.SecretsLocalKeyFile == "" && dynamo.IsLocalEndpoint(cfg.Endpoint) {
		if root, err := dynamodblocal.FindRoot("."); err == nil {
			cfg.SecretsLocalKeyFile = filepath.Join(root, filepath.FromSlash(secrets.LocalKeyFile))
		}
	}
	chain := func(ctx context.Context, region string) (aws.Config, error) {
		return awschain.Config(ctx, region, false)
	}
	keeper, err := wiring.OpenKeeper(ctx, cfg, chain, "platformctl webhooks (an endpoint's signing secret)", kmskey.Open)
	if err != nil {
		return nil, err
	}
	return store.Sealing(keeper), nil
}

// rotateWebhookSecret gives an endpoint a new signing secret, printed once
// in the endpoint's JSON (signingSecret); the old one signs no more, or
// with --keep-old beside it for endpoints.SecretGrace.
func (c *cli) rotateWebhookSecret(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks rotate-secret"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	keep := fs.Bool("keep-old", false, "keep the current secret signing too for "+clock.Span(endpoints.SecretGrace))
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	sealing, err := c.sealing(ctx, store)
	if err != nil {
		return err
	}
	e, err := sealing.RotateSecret(ctx, endpoints.Rotation{AccountID: *account, EndpointID: id, KeepOld: *keep, By: auth.Operator})
	if err != nil {
		return err
	}
	old := "the previous one signs no more"
	if e.PreviousSecretUntil != "" {
		old = "the previous one signs too until " + minute(e.PreviousSecretUntil)
	}
	fmt.Fprintf(c.errOut, "webhook endpoint %s has a new signing secret, shown only now; %s\n", e.ID, old)
	return c.printJSON(e)
}

// webhookPublicKey prints the public key receivers verify x-ghl-signature
// with, as the portal shows it (deliveries.PublishedKey).
func (c *cli) webhookPublicKey(ctx context.Context, args []string) error {
	if len(args) != 0 {
		return webhooksUsage("webhooks key", "it takes no argument")
	}
	k, err := deliveries.PublishedKey(ctx, c.deps.Table)
	if err != nil {
		return err
	}
	fmt.Fprint(c.out, k.PEM)
	fmt.Fprintf(c.errOut, "x-ghl-signature is the base64 Ed25519 signature of a delivery's raw body, made with this key (published %s); an endpoint's deliveries also carry webhook-id, webhook-timestamp and webhook-signature, made with its own signing secret (docs/webhook-signatures.md)\n", minute(k.Since))
	return nil
}

// state says whether the endpoint of store receives events, and why not.
func state(store *endpoints.Store, e endpoints.Endpoint) string {
	switch {
	case e.Enabled && e.FailingSince != "":
		return "failing since " + clock.Parse(e.FailingSince).UTC().Format(time.RFC3339)
	case e.Enabled:
		return "enabled"
	case e.DisabledReason == endpoints.DisabledFailing:
		return "disabled after " + clock.Span(store.FailingLimit()) + " of failures"
	default:
		return "disabled by an admin"
	}
}

func (c *cli) listWebhooks(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks list"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	if _, err := hookArgs(cmd, fs, args, false); err != nil {
		return err
	}
	list, err := store.List(ctx, *account)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tURL\tSTATE\tLAST SUCCESS\tLAST ANSWER\tEVENTS\tDESCRIPTION")
	for _, e := range list {
		h, err := store.Health(ctx, e)
		if err != nil {
			return err
		}
		success, answer := "-", "-"
		if h.LastSuccess.At != "" {
			success = clock.Parse(h.LastSuccess.At).UTC().Format(time.RFC3339)
		}
		if h.Last.At != "" {
			answer = answerLine(h.Last) + " at " + clock.Parse(h.Last.At).UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.ID, e.URL, state(store, e), success, answer, strings.Join(e.Events, ","), orDash(e.Description))
	}
	return tw.Flush()
}

func (c *cli) updateWebhook(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks update"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	u := fs.String("url", "", "a new URL")
	eventList := fs.String("events", "", "the event types, comma-separated, replacing the endpoint's")
	description := fs.String("description", "", `a new description ("" clears it)`)
	enabled := fs.Bool("enabled", true, "enable (true) or disable (false) it")
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	var in endpoints.Input
	if flagGiven(fs, "url") {
		in.URL = u
	}
	if flagGiven(fs, "events") {
		events := splitList(*eventList)
		in.Events = &events
	}
	if flagGiven(fs, "description") {
		in.Description = description
	}
	if flagGiven(fs, "enabled") {
		in.Enabled = enabled
	}
	if in == (endpoints.Input{}) {
		return webhooksUsage(cmd, "give what to change: --url, --events, --description or --enabled")
	}
	e, err := store.Update(ctx, *account, id, in, auth.Operator)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.errOut, "webhook endpoint %s saved (%s)\n", e.ID, state(store, e))
	return c.printJSON(e)
}

func (c *cli) removeWebhook(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks remove"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	if err := store.Remove(ctx, *account, id, auth.Operator); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "webhook endpoint %s removed: nothing more is sent to it\n", id)
	return nil
}

func (c *cli) webhookDeliveries(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks deliveries"
	if err := renamedFlags(cmd, args, deliveryRenames); err != nil {
		return err
	}
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	p := deliveryFlags(fs)
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	state, err := p.state(cmd)
	if err != nil {
		return err
	}
	page, next, err := store.Deliveries(ctx, *account, id, state, int32(*p.limit), *p.cursor)
	if errors.Is(err, deliveries.ErrBadCursor) {
		return webhooksUsage(cmd, "--cursor is not a cursor webhooks deliveries printed")
	}
	if err != nil {
		return err
	}
	return c.printDeliveryPage(page, next)
}

func (c *cli) redeliverWebhook(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks redeliver"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	r := redeliveryFlags(fs)
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	return c.redeliver(r, func(msg string) error { return webhooksUsage(cmd, msg) }, func(rd deliveries.Redelivery) (deliveries.Redelivered, error) {
		return store.Redeliver(ctx, *account, id, rd, auth.Operator)
	})
}

func (c *cli) retryWebhook(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks retry"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	event := fs.String("event", "", "the webhookId of the pending delivery to try now")
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	if *event == "" {
		return webhooksUsage(cmd, "give --event")
	}
	if err := store.Retry(ctx, *account, id, *event, auth.Operator); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "delivery %s is due now: its next attempt is within a minute\n", *event)
	return nil
}

// answerLine is what an attempt's receiver answered, as the deliveries'
// LAST RESULT column says it.
func answerLine(a deliveries.Attempt) string {
	if a.Status != 0 {
		return fmt.Sprintf("HTTP %d", a.Status)
	}
	return a.Error
}

// testWebhook sends a test event to the endpoint and says its answer; a
// failed one is the command's failure (exit 1).
func (c *cli) testWebhook(ctx context.Context, store *endpoints.Store, args []string) error {
	const cmd = "webhooks test"
	fs := c.flags(cmd)
	account := fs.String("account", "", "the account")
	wait := fs.Duration("wait", 10*time.Second, "how long to wait for its attempt (a deliverer sends it: make run's within seconds, a deployed one within a minute)")
	id, err := hookArgs(cmd, fs, args, true)
	if err != nil {
		return err
	}
	d, err := store.SendTest(ctx, *account, id, *wait)
	if err != nil {
		return err
	}
	switch {
	case d.Status == deliveries.Delivered:
		fmt.Fprintf(c.out, "test event %s delivered: %s\n", d.ID, answerLine(d.Attempts[len(d.Attempts)-1]))
		return nil
	case len(d.Attempts) > 0:
		return fmt.Errorf("test event %s failed: %s", d.ID, answerLine(d.Attempts[len(d.Attempts)-1]))
	default:
		fmt.Fprintf(c.out, "test event %s queued, not tried within %s (is a deliverer running? make run has one): webhooks deliveries shows its answer\n", d.ID, *wait)
		return nil
	}
}
