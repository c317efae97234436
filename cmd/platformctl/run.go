package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/ratelimit"
	"github.com/bizplatform/api/shared/storage/awschain"
)

const usage = `usage: platformctl <command>

  accounts create --id ID --company ID --name NAME
  tokens create --account ID --scopes a,b [--kind private|marketplace] [--name N]
                 prints the token value alone on stdout (shown once), details on stderr
  tokens list --account ID        never shows token values
  tokens revoke TOKEN_ID          takes effect on the token's next request
  seed [--file F]                 loads the demo dataset (or F); demo tokens only on a local engine
  contacts reindex --account ID | --all [--from ID] [--rewrite]
                 builds the contacts search index of existing contacts and recounts it,
                 while the API serves; run again to resume or repair

Environment: DYNAMODB_ENDPOINT (empty: AWS), TABLE_NAME (default platform), AWS_REGION.
`

// Exit codes.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

type cli struct {
	cfg    config.Config
	deps   app.Deps
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
	cfg, deps, err := app.ConnectWith(ctx, getenv, io.Discard, awschain.NewClient)
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
	case "contacts reindex":
		cmdErr = c.reindexContacts(ctx, args[2:])
	default:
		if args[0] == "seed" {
			cmdErr = c.seed(ctx, args[1:])
			break
		}
		fmt.Fprintf(errOut, "platformctl: unknown command %q\n\n%s", strings.Join(args, " "), usage)
		return exitUsage
	}
	var ue usageError
	switch {
	case cmdErr == nil:
		return exitOK
	case errors.As(cmdErr, &ue):
		fmt.Fprintf(errOut, "platformctl: %v\n\n%s", cmdErr, usage)
		return exitUsage
	default:
		fmt.Fprintln(errOut, "platformctl:", cmdErr)
		return exitError
	}
}

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func (c *cli) flags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parse(fs *flag.FlagSet, args []string, required ...string) error {
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	for _, name := range required {
		if fs.Lookup(name).Value.String() == "" {
			return usageError{"--" + name + " is required"}
		}
	}
	return nil
}

func (c *cli) createAccount(ctx context.Context, args []string) error {
	fs := c.flags("accounts create")
	id := fs.String("id", "", "account id")
	company := fs.String("company", "", "company id")
	name := fs.String("name", "", "account name")
	if err := parse(fs, args, "id", "company", "name"); err != nil {
		return err
	}
	acct, err := accounts.NewRegistry(c.deps.Table, c.deps.Clock).Create(ctx, *id, *company, *name)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "account %s created in company %s\n", acct.ID, acct.CompanyID)
	return nil
}

func (c *cli) createToken(ctx context.Context, args []string) error {
	fs := c.flags("tokens create")
	account := fs.String("account", "", "account id")
	scopeList := fs.String("scopes", "", "comma-separated scopes")
	kind := fs.String("kind", auth.KindPrivate, "private or marketplace")
	name := fs.String("name", "", "a name to recognise the token by")
	if err := parse(fs, args, "account", "scopes"); err != nil {
		return err
	}
	var sc []string
	for _, s := range strings.Split(*scopeList, ",") {
		if s = strings.TrimSpace(s); s != "" {
			sc = append(sc, s)
		}
	}
	value, info, err := c.tokens.Create(ctx, auth.NewToken{AccountID: *account, Kind: *kind, Scopes: sc, Name: *name})
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
	fmt.Fprintln(tw, "ID\tKIND\tNAME\tCREATED\tREVOKED\tSCOPES")
	for _, t := range list {
		revoked := t.RevokedAt
		if revoked == "" {
			revoked = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.TokenID, t.Kind, t.Name, t.CreatedAt, revoked, summarize(t.Scopes))
	}
	return tw.Flush()
}

func summarize(sc []string) string {
	if len(sc) <= 4 {
		return strings.Join(sc, ",")
	}
	return fmt.Sprintf("%s,... (%d scopes)", strings.Join(sc[:3], ","), len(sc))
}

func (c *cli) revokeToken(ctx context.Context, args []string) error {
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return usageError{"tokens revoke takes one TOKEN_ID"}
	}
	info, err := c.tokens.Revoke(ctx, args[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "token %s revoked at %s\n", info.TokenID, info.RevokedAt)
	return nil
}

func (c *cli) seed(ctx context.Context, args []string) error {
	fs := c.flags("seed")
	file := fs.String("file", "", "dataset file (default: the embedded demo dataset)")
	if err := parse(fs, args); err != nil {
		return err
	}
	var ds demo.Dataset
	var err error
	if *file == "" {
		ds, err = demo.Default()
	} else {
		ds, err = demo.ReadFile(*file)
	}
	if err != nil {
		return err
	}
	// On AWS the table comes from template.yaml; only a local engine's table
	// is created here.
	if c.cfg.Endpoint != "" {
		if _, err := c.deps.Table.CreateIfMissing(ctx); err != nil {
			return err
		}
	}
	sum, err := demo.Load(ctx, c.deps, ds, catalog.Areas)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "loaded %d accounts, parts %v\n", sum.Accounts, sum.Parts)
	tokens, err := demo.CreateTokens(ctx, c.tokens, c.cfg.Endpoint)
	if errors.Is(err, demo.ErrNotLocal) {
		fmt.Fprintf(c.errOut, "no demo tokens: %v\n", err)
		return nil
	}
	if err != nil {
		return err
	}
	for _, t := range tokens {
		fmt.Fprintf(c.out, "demo token %-50s %s\n", t.Label, t.Value())
	}
	return nil
}
