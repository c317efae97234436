package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"strings"
	"text/tabwriter"

	"github.com/bizplatform/api/areas/users"
	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/portal/userdir"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/auth"
	"github.com/bizplatform/api/shared/clock"
)

func (c *cli) createUser(ctx context.Context, args []string) error {
	fs := c.flags("users create")
	company := fs.String("company", "", "company id")
	email := fs.String("email", "", "e-mail address")
	name := fs.String("name", "", "full name")
	role := fs.String("role", "", "admin or user")
	kind := fs.String("type", "account", "account (a user of the listed accounts) or agency (of the whole company)")
	accountList := fs.String("accounts", "", "comma-separated account ids")
	if err := parse(fs, args, "company", "email", "name", "role"); err != nil {
		return err
	}
	var ids []string
	registry := accounts.NewRegistry(c.deps.Table, c.deps.Clock)
	for _, id := range strings.Split(*accountList, ",") {
		if id = strings.TrimSpace(id); id == "" {
			continue
		}
		acct, err := registry.Get(ctx, id)
		if err != nil {
			return err
		}
		if acct == nil || acct.CompanyID != *company {
			return fmt.Errorf("account %s is not an account of company %s", id, *company)
		}
		ids = append(ids, id)
	}
	if *kind == "account" && len(ids) == 0 {
		return usageError{"users create", "--accounts is required for a user of type account"}
	}
	first, last, _ := strings.Cut(strings.TrimSpace(*name), " ")
	u, err := users.NewDirectory(c.deps.Table).Create(ctx, *company, users.User{
		Name: strings.TrimSpace(*name), FirstName: first, LastName: strings.TrimSpace(last), Email: strings.TrimSpace(*email),
		Permissions: users.DefaultPermissions(),
		Roles:       users.Roles{Type: *kind, Role: *role, LocationIDs: ids},
	}, c.deps.Clock.Now())
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, u.ID)
	fmt.Fprintf(c.errOut, "user %s (%s, %s %s) created in company %s\n", u.ID, u.Email, u.Roles.Type, u.Roles.Role, *company)
	return nil
}

func (c *cli) invite(ctx context.Context, args []string, getenv func(string) string) error {
	fs := c.flags("portal invite")
	company := fs.String("company", "", "company id")
	email := fs.String("email", "", "the user's e-mail address")
	base := fs.String("base-url", "", "the portal's base URL")
	if err := parse(fs, args, "company", "email"); err != nil {
		return err
	}
	if *base == "" {
		*base = getenv("PORTAL_URL")
	}
	if *base == "" {
		*base = fmt.Sprintf("http://127.0.0.1:%d", c.cfg.Port)
	}
	u, err := url.Parse(strings.TrimRight(*base, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return usageError{"portal invite", fmt.Sprintf("--base-url (or PORTAL_URL) %q is not an http(s) URL", *base)}
	}
	code, err := identity.New(c.deps.Table, c.deps.Clock, userdir.New(c.deps.Table)).CreateInvite(ctx, *company, *email)
	if errors.Is(err, identity.ErrNoSuchUser) {
		return fmt.Errorf("company %s has no user with the address %s: add one with `platformctl users create`", *company, *email)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(c.out, "%s/portal/invite/%s\n", strings.TrimSuffix(u.String(), "/portal"), code)
	fmt.Fprintf(c.errOut, "the link works once, for %s; send it to the user privately\n", identity.InviteLifetime)
	return nil
}

func (c *cli) rotateToken(ctx context.Context, args []string) error {
	fs := c.flags("tokens rotate")
	keep := fs.Bool("keep-old", false, "keep the old token working for "+clock.Span(auth.RotationGrace))
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usageError{"tokens rotate", "tokens rotate takes one TOKEN_ID"}
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	info, err := c.tokens.Lookup(ctx, args[0])
	if err != nil {
		return err
	}
	value, created, old, err := c.tokens.Rotate(ctx, auth.Rotation{AccountID: info.AccountID, TokenID: info.TokenID, KeepOld: *keep, By: auth.Operator})
	if err != nil {
		return err
	}
	fmt.Fprintln(c.out, value)
	state := "revoked"
	if old.ExpiresAt != "" {
		state = "working until " + minute(old.ExpiresAt)
	}
	fmt.Fprintf(c.errOut, "token %s replaces %s (%s); the value above is shown only now\n", created.TokenID, old.TokenID, state)
	return nil
}

// editToken gives a token a new name or description (the portal's Edit):
// a flag left out keeps its value; --description "" clears it.
func (c *cli) editToken(ctx context.Context, args []string) error {
	fs := c.flags("tokens edit")
	name := fs.String("name", "", "the token's new name")
	description := fs.String("description", "", "what the token is for (\"\" clears it)")
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usageError{"tokens edit", "tokens edit takes one TOKEN_ID"}
	}
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["name"] && !given["description"] {
		return usageError{"tokens edit", "tokens edit needs --name or --description"}
	}
	info, err := c.tokens.Lookup(ctx, args[0])
	if err != nil {
		return err
	}
	e := auth.Edit{AccountID: info.AccountID, TokenID: info.TokenID, Name: info.Name, Description: info.Description, By: auth.Operator}
	if given["name"] {
		e.Name = strings.TrimSpace(*name)
	}
	if given["description"] {
		e.Description = strings.TrimSpace(*description)
	}
	edited, err := c.tokens.Edit(ctx, e)
	if err != nil {
		return err
	}
	what := "no description"
	if edited.Description != "" {
		what = fmt.Sprintf("description %q", edited.Description)
	}
	fmt.Fprintf(c.out, "token %s: name %q, %s\n", edited.TokenID, edited.Name, what)
	return nil
}

func (c *cli) auditTokens(ctx context.Context, args []string) error {
	fs := c.flags("tokens audit")
	account := fs.String("account", "", "account id")
	if err := parse(fs, args, "account"); err != nil {
		return err
	}
	entries, err := c.tokens.Audit(ctx, *account, 1000)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(c.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AT\tACTION\tTOKEN\tNAME\tBY\tDETAIL")
	for _, e := range entries {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", minute(e.At), e.Action, e.TokenID, e.TokenName, e.By.Name, orDash(e.Detail))
	}
	return tw.Flush()
}
