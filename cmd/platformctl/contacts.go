package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/shared/accounts"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// reindexContacts builds the contacts search index of one account or of
// every account, on a table the API may be serving (contactstore.Reindex).
// Each account is done when its line is printed; running the command again
// skips what is done.
func (c *cli) reindexContacts(ctx context.Context, args []string) error {
	fs := c.flags("contacts reindex")
	account := fs.String("account", "", "account id")
	all := fs.Bool("all", false, "every account")
	from := fs.String("from", "", "with --all: start at this account id (in id order), to resume")
	rewrite := fs.Bool("rewrite", false, "write every contact's index items again, not only those not indexed yet")
	if err := parse(fs, args); err != nil {
		return err
	}
	if (*account == "") != *all {
		return usageError{"contacts reindex", "it takes --account ID or --all"}
	}
	ids := []string{*account}
	if *all {
		var err error
		if ids, err = accountIDs(ctx, c.deps.Table); err != nil {
			return fmt.Errorf("list accounts: %w", err)
		}
		ids = slices.DeleteFunc(ids, func(id string) bool { return id < *from })
	} else if msg := validate.IDProblem("account", *account); msg != "" {
		return usageError{"contacts reindex", msg}
	}
	store := contactstore.NewContacts(c.deps.Table)
	for _, id := range ids {
		rep, err := store.Reindex(ctx, id, *rewrite)
		if err != nil {
			return fmt.Errorf("account %s: %w (run again to finish it; with --all, --from %s starts there)", id, err, id)
		}
		state := "searched through the index"
		if !rep.Ready {
			state = "not yet searched through the index: run again"
		}
		fmt.Fprintf(c.out, "account %s: %d contacts, %d indexed now (%d written meanwhile by the API); %s\n",
			id, rep.Contacts, rep.Indexed, rep.Overtaken, state)
	}
	return nil
}

// accountIDs lists every account of the table, in id order.
func accountIDs(ctx context.Context, table *storage.Table) ([]string, error) {
	record := accounts.AccountKey("")
	isAccount := expression.Name(storage.AttrSK).Equal(expression.Value(record.SK))
	onlyID := expression.NamesList(expression.Name("id"))
	found, err := storage.ScanAll[struct {
		ID string `dynamodbav:"id"`
	}](ctx, table, &isAccount, &onlyID)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.ID
	}
	slices.Sort(ids)
	return ids, nil
}

// contactSettings shows the account's duplicate settings (the public
// API's "Allow Duplicate Contact"), and changes those given:
// --allow-duplicates true|false, --match the identifying fields in
// priority order (email,phone; phone,email; email; phone). It prints the
// settings as they are after.
func (c *cli) contactSettings(ctx context.Context, args []string) error {
	const cmd = "contacts settings"
	fs := c.flags(cmd)
	account := fs.String("account", "", "account id")
	allow := fs.Bool("allow-duplicates", false, "whether two contacts may share an e-mail or a phone (true|false)")
	match := fs.String("match", "", "the fields that identify a contact, in priority order: email,phone | phone,email | email | phone")
	if err := parse(fs, args, "account"); err != nil {
		return err
	}
	if msg := validate.IDProblem("account", *account); msg != "" {
		return usageError{cmd, msg}
	}
	store := contactstore.NewContacts(c.deps.Table)
	settings, err := store.DuplicateSettings(ctx, *account)
	if err != nil {
		return err
	}
	if flagGiven(fs, "allow-duplicates") || flagGiven(fs, "match") {
		if flagGiven(fs, "allow-duplicates") {
			settings.AllowDuplicates = *allow
		}
		if flagGiven(fs, "match") {
			settings.MatchOn = splitList(*match)
		}
		if err := settings.Check(); err != nil {
			return usageError{cmd, "--match: " + err.Error()}
		}
		if acct, err := accounts.NewRegistry(c.deps.Table, c.deps.Clock).Get(ctx, *account); err != nil {
			return err
		} else if acct == nil {
			return fmt.Errorf("account %s does not exist", *account)
		}
		if err := store.SetDuplicateSettings(ctx, *account, settings, c.deps.Clock.Now()); err != nil {
			return err
		}
	}
	duplicates := "refused"
	if settings.AllowDuplicates {
		duplicates = "allowed"
	}
	fmt.Fprintf(c.out, "account %s: duplicate contacts %s; a contact is found by %s\n",
		*account, duplicates, strings.Join(settings.MatchOn, ", then "))
	return nil
}
