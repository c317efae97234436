package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/deliveries/signingkey"
	"github.com/bizplatform/api/shared/marketplace"
	"github.com/bizplatform/api/shared/storage/awschain"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// appsSynopsis is each apps command's usage line (run.go's usage text
// lists the other commands).
var appsSynopsis = map[string]string{
	"apps create":        "apps create --company ID --name NAME --redirect-uri URL [--redirect-uri URL ...] --scopes a,b [--webhook-url URL] [--events T,U] [--target location|company] [--require-pkce]",
	"apps update":        "apps update APP_ID [--events T,U] [--require-pkce=true|false] (--events: the event types it receives; \"\" for none)",
	"apps list":          "apps list --company ID",
	"apps rotate-secret": "apps rotate-secret APP_ID",
	"apps delete":        "apps delete APP_ID",
	"apps webhook-key":   "apps webhook-key",
	"apps deliveries":    "apps deliveries APP_ID [--status " + strings.Join(deliveries.Strings(deliveries.States), "|") + "] [--limit N] [--cursor CURSOR]",
	"apps redeliver":     "apps redeliver APP_ID (--event WEBHOOK_ID | --failed-since RFC3339)",
}

// apps runs one of the marketplace app commands: args[0] is "apps", and
// args[1] one of its verbs (run answers any other with the verbs).
func (c *cli) apps(ctx context.Context, args []string) error {
	cmd := strings.Join(args[:min(2, len(args))], " ")
	rest := args[min(2, len(args)):]
	store := marketplace.New(c.tokens, c.deps.Clock, dynamo.IsLocalEndpoint(c.cfg.Endpoint))
	switch cmd {
	case "apps create":
		return c.createApp(ctx, store, rest)
	case "apps list":
		return c.listApps(ctx, store, rest)
	case "apps update":
		return c.updateApp(ctx, store, rest)
	case "apps rotate-secret":
		return c.rotateAppSecret(ctx, store, rest)
	case "apps delete":
		return c.deleteApp(ctx, store, rest)
	case "apps webhook-key":
		return c.webhookKey(ctx, rest)
	case "apps redeliver":
		return c.redeliverApp(ctx, store, rest)
	default:
		return c.deliveries(ctx, store, rest)
	}
}

func sortedSynopses() []string {
	var out []string
	for _, cmd := range []string{"apps create", "apps update", "apps list", "apps rotate-secret", "apps delete", "apps webhook-key", "apps deliveries", "apps redeliver"} {
		out = append(out, appsSynopsis[cmd])
	}
	return out
}

// appsUsage is a usage error of an apps command (its line names the
// command's synopsis).
func appsUsage(cmd, msg string) error { return usageError{cmd, msg} }

// repeated is a flag that may be given more than once.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, ",") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// appFlags parses an apps command's flags: a usage error names the command.
func appFlags(cmd string, fs *flag.FlagSet, args []string, required ...string) error {
	if err := fs.Parse(args); err != nil {
		return appsUsage(cmd, err.Error())
	}
	for _, name := range required {
		if fs.Lookup(name).Value.String() == "" {
			return appsUsage(cmd, "--"+name+" is required")
		}
	}
	return nil
}

// oneID is the single APP_ID argument of a command.
func oneID(cmd string, args []string) (string, error) {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return "", appsUsage(cmd, "give the app id")
	}
	return args[0], nil
}

// printJSON writes v as one line of JSON on stdout.
func (c *cli) printJSON(v any) error {
	return json.NewEncoder(c.out).Encode(v)
}

func (c *cli) createApp(ctx context.Context, store *marketplace.Apps, args []string) error {
	const cmd = "apps create"
	fs := c.flags(cmd)
	company := fs.String("company", "", "company id")
	name := fs.String("name", "", "app name")
	var redirects repeated
	fs.Var(&redirects, "redirect-uri", "a redirect URI (repeat for more)")
	scopeList := fs.String("scopes", "", "comma-separated scopes")
	webhook := fs.String("webhook-url", "", "where its events go: INSTALL and UNINSTALL, and those of --events")
	target := fs.String("target", marketplace.TargetLocation, "location or company")
	eventList := fs.String("events", "", "comma-separated event types it receives (docs/events.md)")
	requirePKCE := fs.Bool("require-pkce", false, "refuse a consent without a PKCE code_challenge (S256)")
	if err := appFlags(cmd, fs, args, "company", "name", "scopes"); err != nil {
		return err
	}
	// The store refuses an event type the app could never receive, with
	// the reason (marketplace.Receives).
	app, secret, err := store.Create(ctx, marketplace.NewApp{
		CompanyID: *company, Name: *name, RedirectURIs: redirects, Scopes: splitList(*scopeList), WebhookURL: *webhook, Events: splitList(*eventList), Target: *target,
		RequirePKCE: *requirePKCE,
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(c.errOut, "app %s created in company %s; the client secret is shown once\n", app.ID, app.CompanyID)
	return c.printJSON(struct {
		marketplace.App
		ClientSecret string `json:"clientSecret"`
	}{app, secret})
}

func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) { given = given || f.Name == name })
	return given
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func (c *cli) listApps(ctx context.Context, store *marketplace.Apps, args []string) error {
	const cmd = "apps list"
	fs := c.flags(cmd)
	company := fs.String("company", "", "company id")
	if err := appFlags(cmd, fs, args, "company"); err != nil {
		return err
	}
	list, err := store.List(ctx, *company)
	if err != nil {
		return err
	}
	return c.printJSON(list)
}

// updateApp changes an app's settings: the event types it receives
// (--events) and whether it requires PKCE (--require-pkce).
func (c *cli) updateApp(ctx context.Context, store *marketplace.Apps, args []string) error {
	const cmd = "apps update"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return appsUsage(cmd, "give the app id first")
	}
	fs := c.flags(cmd)
	eventList := fs.String("events", "", "comma-separated event types it receives (docs/events.md)")
	requirePKCE := fs.Bool("require-pkce", false, "refuse a consent without a PKCE code_challenge (S256)")
	if err := appFlags(cmd, fs, args[1:]); err != nil {
		return err
	}
	var change marketplace.AppChange
	if flagGiven(fs, "events") {
		types := splitList(*eventList)
		change.Events = &types
	}
	if flagGiven(fs, "require-pkce") {
		change.RequirePKCE = requirePKCE
	}
	if (change.Events == nil && change.RequirePKCE == nil) || fs.NArg() > 0 {
		return appsUsage(cmd, "say what to change: --events, --require-pkce")
	}
	app, err := store.Update(ctx, args[0], change, auth.Operator)
	if err != nil {
		return err
	}
	return c.printJSON(app)
}

func (c *cli) rotateAppSecret(ctx context.Context, store *marketplace.Apps, args []string) error {
	id, err := oneID("apps rotate-secret", args)
	if err != nil {
		return err
	}
	app, secret, err := store.RotateSecret(ctx, id, auth.Operator)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.errOut, "app %s has a new client secret (shown once); the previous one works for %s more\n", app.ID, clock.Span(marketplace.SecretGrace))
	return c.printJSON(map[string]string{"appId": app.ID, "clientId": app.ClientID, "clientSecret": secret})
}

func (c *cli) deleteApp(ctx context.Context, store *marketplace.Apps, args []string) error {
	id, err := oneID("apps delete", args)
	if err != nil {
		return err
	}
	if err := store.Delete(ctx, id, auth.Operator); err != nil {
		return err
	}
	fmt.Fprintf(c.out, "app %s deleted: every install was uninstalled and its tokens revoked\n", id)
	return nil
}

// webhookKey prints the public key apps verify webhooks with (PEM, SPKI):
// the key in the SSM parameter WEBHOOK_KEY_PARAMETER names (the template's
// WebhookKeyParameter output), created on first use as a SecureString, or
// in the file WEBHOOK_KEY_FILE names; on a local engine without either,
// the repository's .local file the local server signs with (created on
// first use, as the local server does). signingkey.Load refuses both.
func (c *cli) webhookKey(ctx context.Context, args []string) error {
	if len(args) != 0 {
		return appsUsage("apps webhook-key", "it takes no argument")
	}
	cfg := c.cfg
	if cfg.WebhookKeyFile == "" && cfg.WebhookKeyParameter == "" {
		if !dynamo.IsLocalEndpoint(cfg.Endpoint) {
			return errors.New("apps webhook-key: set WEBHOOK_KEY_PARAMETER to the stack's WebhookKeyParameter output")
		}
		root, err := dynamodblocal.FindRoot(".")
		if err != nil {
			return err
		}
		cfg.WebhookKeyFile = filepath.Join(root, filepath.FromSlash(signingkey.LocalFile))
	}
	chain := func(ctx context.Context, region string) (aws.Config, error) {
		return awschain.Config(ctx, region, false)
	}
	priv, err := signingkey.LoadOrCreate(ctx, cfg, chain)
	if err != nil {
		return err
	}
	// Published for the portal and webhooks key, as the deliverer does.
	if _, err := deliveries.PublishKey(ctx, c.deps.Table, signingkey.PublicPEM(priv), c.deps.Clock.Now()); err != nil {
		return err
	}
	fmt.Fprint(c.out, signingkey.PublicPEM(priv))
	return nil
}

// deliveries lists the app's deliveries, newest first, a page at a time,
// as webhooks deliveries lists an endpoint's.
func (c *cli) deliveries(ctx context.Context, store *marketplace.Apps, args []string) error {
	const cmd = "apps deliveries"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return appsUsage(cmd, "give the app id first")
	}
	if err := renamedFlags(cmd, args, deliveryRenames); err != nil {
		return err
	}
	fs := c.flags(cmd)
	p := deliveryFlags(fs)
	if err := appFlags(cmd, fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return appsUsage(cmd, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	state, err := p.state(cmd)
	if err != nil {
		return err
	}
	page, next, err := store.Deliveries(ctx, args[0], state, int32(*p.limit), *p.cursor)
	if errors.Is(err, deliveries.ErrBadCursor) {
		return appsUsage(cmd, "--cursor is not a cursor apps deliveries printed")
	}
	if err != nil {
		return err
	}
	return c.printDeliveryPage(page, next)
}

// printDeliveries writes deliveries as a table with their state: attempts,
// the last one's answer, the next one.
func (c *cli) printDeliveries(events []deliveries.Delivery) error {
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tTYPE\tCREATED\tSTATUS\tATTEMPTS\tLAST RESULT\tNEXT ATTEMPT")
	for _, e := range events {
		last := "-"
		if n := len(e.Attempts); n > 0 {
			a := e.Attempts[n-1]
			last = a.Error
			if a.Status != 0 {
				last = fmt.Sprintf("HTTP %d", a.Status)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", e.ID, e.Type, e.CreatedAt, e.Status, len(e.Attempts), last, orDash(e.NextAt))
	}
	return tw.Flush()
}

// redeliverApp sends again one of the app's deliveries, or every one that
// failed since a time (redeliver).
func (c *cli) redeliverApp(ctx context.Context, store *marketplace.Apps, args []string) error {
	const cmd = "apps redeliver"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return appsUsage(cmd, "give the app id first")
	}
	fs := c.flags(cmd)
	r := redeliveryFlags(fs)
	if err := appFlags(cmd, fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return appsUsage(cmd, "give --event or --failed-since")
	}
	return c.redeliver(r, func(msg string) error { return appsUsage(cmd, msg) }, func(rd deliveries.Redelivery) (deliveries.Redelivered, error) {
		return store.Redeliver(ctx, args[0], rd, auth.Operator)
	})
}
