package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/secrets"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/awschain"
	"github.com/bizplatform/api/shared/storage/dynamo"
	"github.com/bizplatform/api/shared/wiring"
)

// usage is the CLI's help; its spans are the constants' (clock.Span).
var usage = strings.NewReplacer(
	"{inviteLifetime}", clock.Span(identity.InviteLifetime),
	"{rotationGrace}", clock.Span(auth.RotationGrace),
	"{eventsKept}", clock.Span(events.Lifetime),
).Replace(`usage: platformctl <command>

  accounts create --id ID --company ID --name NAME [--company-name NAME]
  users create --company ID --email E --name "N" --role admin|user --accounts A[,B] [--type account|agency]
                 adds a user of the company; prints its id alone on stdout
  portal invite --company ID --email E [--base-url URL]
                 prints, alone on stdout, a link (valid {inviteLifetime}, once) where the
                 company's user with that address sets their portal password
  tokens create --account ID --scopes a,b [--kind private|marketplace] [--name N] [--description D]
                 prints the token value alone on stdout (shown once), details on stderr
  tokens list --account ID        never shows token values
  tokens revoke TOKEN_ID          takes effect on the token's next request
  tokens rotate TOKEN_ID [--keep-old]
                 prints the new value alone on stdout (shown once); the old token is
                 revoked now, or with --keep-old keeps working for {rotationGrace}
  tokens edit TOKEN_ID [--name N] [--description D]
                 renames a token or changes its description (--description "" clears it)
  tokens audit --account ID       who created, rotated, edited and revoked which token
  seed [--file F]                 loads the demo dataset, or the dataset file F: one JSON object of
                                  record lists, {"accounts": [...], "contacts": [...], ...}, named as
                                  in the demo data's part files; a record needs its ids and what the
                                  contract requires, the rest takes a creation's defaults (times:
                                  now); demo tokens only on a local engine
  contacts reindex --account ID | --all [--from ID] [--rewrite]
                 builds the contacts search index of existing contacts and recounts it,
                 while the API serves; run again to resume or repair
  contacts settings --account ID [--allow-duplicates=true|false] [--match email,phone]
                 the account's duplicate contact rule (docs/design.md, Contacts): shows it,
                 or changes what is given; --match is the identifying fields in priority order
  events list --account ID | --company ID [--type T[,U]] [--from T] [--to T] [--start-after T] [--status S] [--limit N] [--cursor CURSOR]
                 the events every change made (docs/events.md), newest first, kept {eventsKept}:
                 one JSON body a line, as signed; the next page's cursor on stderr; the
                 flags are GET /events' query parameters
  apps create|list|update|rotate-secret|delete|webhook-key|deliveries|redeliver   marketplace apps
                 (OAuth clients); --events chooses the event types an app receives from the
                 accounts it is installed in (refused, with the reason, when it never could)
  webhooks add|list|update|remove|deliveries|redeliver|rotate-secret|key   an account's own webhook
                 endpoints (as its admins manage them in the portal): the event types each receives,
                 its deliveries, redelivery of one event (--event) or of every failed one since a
                 time, its signing secret (shown once by add and rotate-secret), and the public key
                 that verifies x-ghl-signature

Listings of events and deliveries show the newest first, --limit a page; the cursor of the
next page is printed on stderr, for --cursor.

Environment: DYNAMODB_ENDPOINT (empty: AWS), TABLE_NAME (default platform), AWS_REGION,
PORTAL_URL (the portal's base URL for invite links; default http://127.0.0.1:$PORT, PORT default 3000);
seed seals the secrets in a dataset with SECRETS_KEY_ID (a KMS key) or SECRETS_LOCAL_KEY_FILE
(on a local engine, by default make run's .local/secrets.key).

Exit status: 0 done; 2 a usage error: an unknown command or flag, a value missing, or a
value its rule refuses (an unknown event type or scope, a malformed time, a URL that is not
https): nothing was done, fix the command; 1 failed: what it names does not exist or is
taken, a dataset does not load, the table cannot be reached. The reason is on stderr.
Scripts run the built binary (make platformctl builds bin/platformctl; or go install
./cmd/platformctl): under go run, every failure exits 1, go run's own status.
`)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

type cli struct {
	cfg    config.Config
	deps   wiring.Deps
	tokens *auth.Tokens
	out    io.Writer
	errOut io.Writer
}

func run(ctx context.Context, args []string, getenv func(string) string, out, errOut io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(errOut, usage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if lines := groupSynopses(args[0]); lines != nil {
		// A group without a verb it knows ("platformctl apps") is answered
		// here, before any connection: with the group's commands.
		if code, done := groupUsage(args, lines, errOut); done {
			return code
		}
	}
	cfg, deps, err := wiring.ConnectWith(ctx, getenv, io.Discard, awschain.NewClient)
	if err != nil {
		fmt.Fprintln(errOut, "platformctl:", err)
		return exitError
	}
	limiter := ratelimit.New(deps.Table, deps.Clock, ratelimit.Limits{Burst: cfg.Burst, Window: cfg.Window, Daily: cfg.Daily})
	c := &cli{cfg: cfg, deps: deps, tokens: auth.NewTokens(deps.Table, deps.Clock, limiter), out: out, errOut: errOut}

	var cmdErr error
	switch strings.Join(args[:min(2, len(args))], " ") {
	case "accounts create":
		cmdErr = c.createAccount(ctx, args[2:])
	case "tokens create":
		cmdErr = c.createToken(ctx, args[2:])
	case "tokens list":
		cmdErr = c.listTokens(ctx, args[2:])
	case "tokens revoke":
		cmdErr = c.revokeToken(ctx, args[2:])
	case "tokens rotate":
		cmdErr = c.rotateToken(ctx, args[2:])
	case "tokens edit":
		cmdErr = c.editToken(ctx, args[2:])
	case "tokens audit":
		cmdErr = c.auditTokens(ctx, args[2:])
	case "users create":
		cmdErr = c.createUser(ctx, args[2:])
	case "portal invite":
		cmdErr = c.invite(ctx, args[2:], getenv)
	case "contacts reindex":
		cmdErr = c.reindexContacts(ctx, args[2:])
	case "contacts settings":
		cmdErr = c.contactSettings(ctx, args[2:])
	case "events list":
		cmdErr = c.listEvents(ctx, args[2:])
	case "apps create", "apps list", "apps rotate-secret", "apps delete", "apps webhook-key", "apps deliveries", "apps update", "apps redeliver":
		cmdErr = c.apps(ctx, args)
	case "webhooks add", "webhooks list", "webhooks update", "webhooks remove", "webhooks deliveries", "webhooks redeliver", "webhooks retry", "webhooks test", "webhooks rotate-secret", "webhooks key":
		cmdErr = c.webhooks(ctx, args)
	default:
		if args[0] == "seed" {
			cmdErr = c.seed(ctx, args[1:])
			break
		}
		fmt.Fprintln(errOut, usageError{msg: fmt.Sprintf("unknown command %q", strings.Join(args, " "))}.line())
		return exitUsage
	}
	var ue usageError
	switch {
	case cmdErr == nil:
		return exitOK
	case errors.As(cmdErr, &ue):
		fmt.Fprintln(errOut, ue.line())
		return exitUsage
	case refusesValue(cmdErr) && args[0] != "seed":
		// A value of the command line broke a rule, and nothing was done:
		// a usage error too. A dataset's records are not the command line
		// (seed may have loaded parts before the one refused): 1.
		fmt.Fprintln(errOut, failureLine(cmdErr))
		return exitUsage
	default:
		fmt.Fprintln(errOut, failureLine(dynamo.Unreachable(cmdErr, cfg.Endpoint)))
		return exitError
	}
}

// refusesValue reports whether err is the refusal of values that break
// their rules (each named), as a store checks them before it writes.
func refusesValue(err error) bool {
	a, ok := apierror.As(err)
	return ok && a.Code == apierror.CodeValidation
}

// failureLine is the one line a failed command prints, the same for every
// command: "platformctl: " and what failed; a refusal of the input names
// every rule it breaks, separated by "; ".
func failureLine(err error) string {
	text := err.Error()
	if a, ok := apierror.As(err); ok && a.Code == apierror.CodeValidation {
		text = strings.Replace(text, a.Error(), strings.Join(a.Violations, "; "), 1)
	}
	return "platformctl: " + text
}

// groups are the commands that take a verb ("tokens create").
var groups = []string{"accounts", "users", "portal", "tokens", "contacts", "events", "apps", "webhooks"}

// groupSynopses are the usage lines of the commands of group ("tokens":
// "tokens create --account ID ...", ...), nil when group is no group of
// commands.
func groupSynopses(group string) []string {
	if !slices.Contains(groups, group) {
		return nil
	}
	switch group {
	case "apps":
		return sortedSynopses()
	case "webhooks":
		return webhooksSynopses()
	}
	var out []string
	for _, l := range strings.Split(usage, "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, group+" ") {
			syn, _, _ := strings.Cut(l, "  ")
			out = append(out, syn)
		}
	}
	return out
}

// groupUsage answers a group command line whose verb is missing, a request
// for help, or unknown, by listing the group's commands; done is false
// when the verb is one of the group's.
func groupUsage(args, lines []string, errOut io.Writer) (code int, done bool) {
	group := args[0]
	code = exitUsage
	var head string
	switch {
	case len(args) == 1:
		head = fmt.Sprintf("platformctl %s: give one of its commands:", group)
	case args[1] == "-h" || args[1] == "--help" || args[1] == "help":
		head, code = fmt.Sprintf("platformctl %s commands:", group), exitOK
	default:
		for _, l := range lines {
			if strings.HasPrefix(l+" ", group+" "+args[1]+" ") {
				return 0, false
			}
		}
		head = fmt.Sprintf("platformctl: unknown command %q; the %s commands:", strings.Join(args[:2], " "), group)
	}
	fmt.Fprintln(errOut, head)
	for _, l := range lines {
		fmt.Fprintln(errOut, "  platformctl "+l)
	}
	return code, true
}

// usageError is a command line the command cannot take (an unknown flag, a
// flag without its value, an argument it does not know); cmd names the
// command ("tokens create").
type usageError struct{ cmd, msg string }

func (e usageError) Error() string { return e.msg }

// line is the one line a usage error prints: what is wrong and how the
// command is used.
func (e usageError) line() string {
	if syn := synopsis(e.cmd); syn != "" {
		return fmt.Sprintf("platformctl %s: %s (usage: platformctl %s)", e.cmd, e.msg, syn)
	}
	return fmt.Sprintf("platformctl: %s (platformctl help lists the commands)", e.msg)
}

// synopsis is cmd's line of the usage text without its description:
// "seed [--file F]".
func synopsis(cmd string) string {
	if cmd == "" {
		return ""
	}
	for _, synopses := range []map[string]string{appsSynopsis, webhooksSynopsis} {
		if syn, ok := synopses[cmd]; ok {
			return syn
		}
	}
	for _, l := range strings.Split(usage, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, cmd+" ") || l == cmd {
			syn, _, _ := strings.Cut(l, "  ")
			return syn
		}
	}
	return ""
}

func (c *cli) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parse(fs *flag.FlagSet, args []string, required ...string) error {
	if err := fs.Parse(args); err != nil {
		return usageError{fs.Name(), err.Error()}
	}
	for _, name := range required {
		if fs.Lookup(name).Value.String() == "" {
			return usageError{fs.Name(), "--" + name + " is required"}
		}
	}
	return nil
}

func (c *cli) createAccount(ctx context.Context, args []string) error {
	fs := c.flags("accounts create")
	id := fs.String("id", "", "account id")
	company := fs.String("company", "", "company id")
	name := fs.String("name", "", "account name")
	companyName := fs.String("company-name", "", "the company's name (shown on the consent page and in app webhooks)")
	if err := parse(fs, args, "id", "company", "name"); err != nil {
		return err
	}
	if *companyName != "" {
		if err := accounts.CheckCompanyName(*company, *companyName); err != nil {
			return err
		}
	}
	registry := accounts.NewRegistry(c.deps.Table, c.deps.Clock)
	acct, err := registry.Create(ctx, *id, *company, *name)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "account %s created in company %s\n", acct.ID, acct.CompanyID)
	if *companyName != "" {
		if err := registry.SetCompanyName(ctx, *company, *companyName); err != nil {
			return err
		}
		fmt.Fprintf(c.out, "company %s is named %s\n", *company, strings.TrimSpace(*companyName))
	}
	return nil
}

func (c *cli) createToken(ctx context.Context, args []string) error {
	fs := c.flags("tokens create")
	account := fs.String("account", "", "account id")
	scopeList := fs.String("scopes", "", "comma-separated scopes")
	kind := fs.String("kind", auth.KindPrivate, "private or marketplace")
	name := fs.String("name", "", "a name to recognise the token by")
	description := fs.String("description", "", "what the token is for")
	if err := parse(fs, args, "account", "scopes"); err != nil {
		return err
	}
	var sc []string
	for _, s := range strings.Split(*scopeList, ",") {
		if s = strings.TrimSpace(s); s != "" {
			sc = append(sc, s)
		}
	}
	value, info, err := c.tokens.Create(ctx, auth.NewToken{AccountID: *account, Kind: *kind, Scopes: sc, Name: *name, Description: *description, By: auth.Operator})
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, value)
	fmt.Fprintf(c.errOut, "token %s (%s) for account %s with scopes %s; the value above is shown only now\n",
		info.TokenID, info.Kind, info.AccountID, strings.Join(info.Scopes, ","))
	return nil
}

func (c *cli) listTokens(ctx context.Context, args []string) error {
	fs := c.flags("tokens list")
	account := fs.String("account", "", "account id")
	if err := parse(fs, args, "account"); err != nil {
		return err
	}
	list, err := c.tokens.List(ctx, *account)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tKIND\tNAME\tCREATED\tREVOKED\tEXPIRES\tLAST USED\tSCOPES")
	for _, t := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t.TokenID, t.Kind, t.Name, minute(t.CreatedAt),
			minute(t.RevokedAt), minute(t.ExpiresAt), minute(t.LastUsedAt), summarize(t.Scopes))
	}
	return tw.Flush()
}

// minute writes a stored time to the minute, in UTC (2026-11-24T21:58Z),
// "-" for none. Last uses are recorded to the minute; every time is shown
// so, so that a token used in the minute it was made never reads as used
// before it was made.
func minute(stored string) string {
	if stored == "" {
		return "-"
	}
	t := clock.Parse(stored)
	if t.IsZero() {
		return stored
	}
	return t.Format("2006-01-02T15:04Z")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func summarize(sc []string) string {
	if len(sc) <= 4 {
		return strings.Join(sc, ",")
	}
	return fmt.Sprintf("%s,... (%d scopes)", strings.Join(sc[:3], ","), len(sc))
}

func (c *cli) revokeToken(ctx context.Context, args []string) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return usageError{"tokens revoke", "tokens revoke takes one TOKEN_ID"}
	}
	info, err := c.tokens.Revoke(ctx, args[0])
	switch {
	case errors.Is(err, auth.ErrAlreadyRevoked):
		fmt.Fprintf(c.out, "token %s was revoked already, at %s: nothing changed\n", info.TokenID, minute(info.RevokedAt))
		return nil
	case err != nil:
		return err
	}
	fmt.Fprintf(c.out, "token %s revoked at %s\n", info.TokenID, minute(info.RevokedAt))
	return nil
}

func (c *cli) seed(ctx context.Context, args []string) error {
	fs := c.flags("seed")
	file := fs.String("file", "", "dataset file (default: the embedded demo dataset)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{"seed", fmt.Sprintf("unexpected argument %q", fs.Arg(0))}
	}
	fileGiven := false
	fs.Visit(func(f *flag.Flag) { fileGiven = fileGiven || f.Name == "file" })
	var ds demo.Dataset
	var err error
	switch {
	case fileGiven && *file == "":
		return usageError{"seed", "--file needs a file name"}
	case fileGiven:
		ds, err = demo.ReadFile(*file)
	default:
		ds, err = demo.Default()
	}
	var unknown *demo.UnknownNameError
	if errors.As(err, &unknown) {
		return usageError{"seed", fmt.Sprintf("--file %s: %v", *file, err)}
	}
	if err != nil {
		return err
	}
	if c.deps.Secrets, err = c.openSecrets(ctx, ds); err != nil {
		return err
	}
	// On AWS the table comes from template.yaml; only a local engine's table
	// is created here.
	if c.cfg.Endpoint != "" {
		admin, ok := c.deps.Table.DB.(storage.TableAdmin)
		if !ok {
			return errors.New("the client cannot create tables")
		}
		if _, err := storage.CreateTable(ctx, admin, c.deps.Table.Name); err != nil {
			return err
		}
	}
	sum, err := demo.Load(ctx, c.deps, ds, catalog.Areas)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "loaded %d accounts, parts %v\n", sum.Accounts, sum.Parts)
	tokens, err := demo.CreateTokens(ctx, c.tokens, c.cfg.Endpoint)
	for _, t := range tokens {
		fmt.Fprintf(c.out, "demo token %-50s %s\n", t.Label, t.Value())
	}
	switch {
	case errors.Is(err, demo.ErrNotLocal):
		fmt.Fprintf(c.errOut, "no demo tokens: %v\n", err)
		return nil
	case errors.Is(err, auth.ErrNoAccount) && fileGiven:
		// The demo tokens belong to the demo accounts, which a dataset
		// file need not hold.
		fmt.Fprintf(c.errOut, "not every demo token: %v (the dataset does not hold that demo account)\n", err)
		return nil
	}
	return err
}

// openSecrets builds the keeper that seals the secrets in the dataset's
// parts (nil when no part keeps any): with the KMS key or key file the
// environment names (SECRETS_KEY_ID, SECRETS_LOCAL_KEY_FILE), else, on a
// local engine, with make run's key in the repository's .local folder.
func (c *cli) openSecrets(ctx context.Context, ds demo.Dataset) (*secrets.Keeper, error) {
	var areas []app.Area
	for _, a := range catalog.Areas {
		if _, ok := ds[a.Name]; ok {
			areas = append(areas, a)
		}
	}
	cfg := c.cfg
	if cfg.SecretsKeyID == "" && cfg.SecretsLocalKeyFile == "" && dynamo.IsLocalEndpoint(cfg.Endpoint) {
		if root, err := dynamodblocal.FindRoot("."); err == nil {
			cfg.SecretsLocalKeyFile = filepath.Join(root, filepath.FromSlash(secrets.LocalKeyFile))
		}
	}
	chain := func(ctx context.Context, region string) (aws.Config, error) {
		return awschain.Config(ctx, region, false)
	}
	return app.OpenSecrets(ctx, cfg, chain, areas...)
}
