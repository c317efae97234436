package hardening

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
)

// swap replaces one of Alpha's ids in a good request by another account's
// id (foreign) or by an id nothing has (missing, of the same format).
type swap struct{ alpha, foreign, missing string }

// foreignRecord is a request of Alpha's token that names Alpha's own
// account but another account's record.
type foreignRecord struct {
	op    operations.Operation
	desc  string
	swaps []swap
}

// The other accounts' records the matrix reaches for: Bravo's (the same
// company as Alpha) and Charlie's (another company), from the demo dataset.
var foreignRecords = []foreignRecord{
	// Without startAfter, the page starts after the contact startAfterId
	// names, which is looked up.
	{operations.ListContacts, "Bravo's contact as startAfterId", []swap{{"demoCtcAlpha00000005", "demoCtcBravo00000001", "zzMissingContact0001"}, {"&startAfter=1736445310000", "", ""}}},
	{operations.DeleteTask, "Bravo's contact and task", []swap{{"demoCtcAlpha00000001", "demoCtcBravo00000002", "zzMissingContact0001"}, {"demoTskAlpha00000001", "demoTskBravo00000001", "zzMissingTask0000001"}}},
	{operations.DeleteTask, "Bravo's task under Alpha's contact", []swap{{"demoTskAlpha00000001", "demoTskBravo00000001", "zzMissingTask0000001"}}},
	{operations.GetContact, "Bravo's contact", []swap{{"demoCtcAlpha00000002", "demoCtcBravo00000002", "zzMissingContact0001"}}},
	{operations.GetContact, "Charlie's contact", []swap{{"demoCtcAlpha00000002", "demoCtcCharl00000002", "zzMissingContact0001"}}},
	{operations.UpdateContact, "Bravo's contact", []swap{{"demoCtcAlpha00000002", "demoCtcBravo00000002", "zzMissingContact0001"}}},
	{operations.DeleteContact, "Bravo's contact", []swap{{"demoCtcAlpha00000300", "demoCtcBravo00000030", "zzMissingContact0001"}}},
	{operations.AddTags, "Bravo's contact", []swap{{"demoCtcAlpha00000004", "demoCtcBravo00000004", "zzMissingContact0001"}}},
	{operations.RemoveTags, "Charlie's contact", []swap{{"demoCtcAlpha00000004", "demoCtcCharl00000004", "zzMissingContact0001"}}},
	{operations.GetAllTasks, "Bravo's contact", []swap{{"demoCtcAlpha00000006", "demoCtcBravo00000001", "zzMissingContact0001"}}},
	{operations.CreateTask, "Bravo's contact", []swap{{"demoCtcAlpha00000002", "demoCtcBravo00000001", "zzMissingContact0001"}}},
	{operations.GetTask, "Bravo's contact and task", []swap{{"demoCtcAlpha00000005", "demoCtcBravo00000001", "zzMissingContact0001"}, {"demoTskAlpha00000002", "demoTskBravo00000001", "zzMissingTask0000001"}}},
	{operations.GetTask, "Bravo's task under Alpha's contact", []swap{{"demoTskAlpha00000002", "demoTskBravo00000001", "zzMissingTask0000001"}}},
	{operations.UpdateTask, "Bravo's contact and task", []swap{{"demoCtcAlpha00000006", "demoCtcBravo00000001", "zzMissingContact0001"}, {"demoTskAlpha00000003", "demoTskBravo00000001", "zzMissingTask0000001"}}},
	{operations.UpdateTaskCompleted, "Bravo's contact and task", []swap{{"demoCtcAlpha00000006", "demoCtcBravo00000001", "zzMissingContact0001"}, {"demoTskAlpha00000004", "demoTskBravo00000001", "zzMissingTask0000001"}}},
	{operations.GetAllNotes, "Bravo's contact", []swap{{"demoCtcAlpha00000003", "demoCtcBravo00000001", "zzMissingContact0001"}}},
	{operations.CreateNote, "Charlie's contact", []swap{{"demoCtcAlpha00000001", "demoCtcCharl00000001", "zzMissingContact0001"}}},
	{operations.GetNote, "Bravo's contact and note", []swap{{"demoCtcAlpha00000005", "demoCtcBravo00000001", "zzMissingContact0001"}, {"demoNteAlpha00000007", "demoNteBravo00000001", "zzMissingNote0000001"}}},
	{operations.UpdateNote, "Bravo's note under Alpha's contact", []swap{{"demoNteAlpha00000008", "demoNteBravo00000001", "zzMissingNote0000001"}}},
	{operations.DeleteNote, "Bravo's contact and note", []swap{{"demoCtcAlpha00000003", "demoCtcBravo00000001", "zzMissingContact0001"}, {"demoNteAlpha00000005", "demoNteBravo00000001", "zzMissingNote0000001"}}},
	{operations.DeleteCoupon, "Bravo's coupon", []swap{{"demoCpnAlpha00000003", "demoCpnBravo00000001", "zzMissingCoupon00001"}}},
	{operations.UpdateInventory, "Bravo's price", []swap{{"a10200000000000000000202", "b20200000000000000000101", "ffffffffffffffffffffffff"}}},
	{operations.UpdateShippingZone, "Bravo's zone", []swap{{"a10300000000000000000002", "b20300000000000000000001", "ffffffffffffffffffffffff"}}},
	{operations.UpdateShippingRate, "Bravo's zone and rate", []swap{{"a10300000000000000000001", "b20300000000000000000001", "fffffffffffffffffffffff0"}, {"a10400000000000000000102", "b20400000000000000000101", "fffffffffffffffffffffff1"}}},
	{operations.UpdateShippingRate, "Bravo's rate under Alpha's zone", []swap{{"a10400000000000000000102", "b20400000000000000000101", "fffffffffffffffffffffff1"}}},
	{operations.UpdateCustomField, "Bravo's custom field", []swap{{"demoFldPetBreedAlpha", "demoFldPetBreedBravo", "zzMissingFieldBravo1"}}},
	{operations.CreateRelation, "Bravo's association", []swap{{"demoAscAlpha00000001", "demoAscBravo00000001", "zzMissingAssoc000001"}}},
	{operations.CreateRelation, "Bravo's pet record", []swap{{"demoPetAlpha00000003", "demoPetBravo00000001", "zzMissingPet00000001"}}},
	{operations.CreateRelation, "Bravo's contact record", []swap{{"demoCtcAlpha00000010", "demoCtcBravo00000001", "zzMissingContact0001"}}},
	{operations.CreateBrandBoard, "Bravo's brand board", []swap{{"bbd0a1000000000000000001", "bbd0b2000000000000000001", "ffffffffffffffffffffffff"}}},
	{operations.CreateBrandBoard, "Charlie's brand board", []swap{{"bbd0a1000000000000000001", "bbd0c3000000000000000001", "ffffffffffffffffffffffff"}}},
	{operations.CreateEmailTemplate, "Bravo's folder", []swap{{"demoFldAlpha00000002", "demoFldBravo00000001", "zzMissingFolder00001"}}},
	{operations.CreateEmailTemplate, "Charlie's folder", []swap{{"demoFldAlpha00000002", "demoFldCharl00000001", "zzMissingFolder00001"}}},
	{operations.UpdateVoiceAction, "Bravo's agent and action", []swap{{"demoAgtAlpha00000001", "demoAgtBravo00000001", "zzMissingAgent000001"}, {"demoActAlphaCallTransfer", "demoActBravoSms", "zzMissingAction00001"}}},
	{operations.UpdateVoiceAction, "Bravo's action under Alpha's agent", []swap{{"demoActAlphaCallTransfer", "demoActBravoSms", "zzMissingAction00001"}}},
	{operations.GetMessage, "Bravo's message", []swap{{"demoMsgAlpha00000004", "demoMsgBravo00000001", "zzMissingMessage0001"}}},
	{operations.ListMediaFiles, "Bravo's folder as parentId", []swap{{"demoFldAlpha00000003", "demoFldBravo00000001", "zzMissingFolder00001"}}},
	{operations.UpdateMedia, "Bravo's file", []swap{{"demoFldAlpha00000005", "demoFilBravo00000001", "zzMissingFile0000001"}}},
	{operations.UpdateMedia, "Charlie's file", []swap{{"demoFldAlpha00000005", "demoFilCharl00000001", "zzMissingFile0000001"}}},
	{operations.SearchAdsReportingList, "Bravo's campaign", []swap{{"demoSearchCmpAlpha02", "demoSearchCmpBravo01", "zzMissingCampaign001"}}},
	{operations.SearchAdsReportingList, "Charlie's campaign", []swap{{"demoSearchCmpAlpha02", "demoSearchCmpCharlie01", "zzMissingCampaign001"}}},
}

// accountParams says how each operation names its account, when it does:
// the id in the good request to replace by another account's.
var accountParams = map[string]string{}

func init() {
	for _, op := range operations.All {
		switch op {
		case operations.DeleteTask, operations.GetMessage, operations.GetContact, operations.UpdateContact,
			operations.DeleteContact, operations.AddTags, operations.RemoveTags,
			operations.GetAllTasks, operations.CreateTask, operations.GetTask, operations.UpdateTask, operations.UpdateTaskCompleted,
			operations.GetAllNotes, operations.CreateNote, operations.GetNote, operations.UpdateNote, operations.DeleteNote:
			// No account parameter: the record id alone (foreignRecords).
		case operations.FilterUsersByEmail:
			accountParams[op.ID()] = demo.CompanyNorth
		default:
			accountParams[op.ID()] = demo.AccountAlpha
		}
	}
}

// goodInputs returns the first (non-variant) description of op.
func goodInputs(t testing.TB, op operations.Operation) opInputs {
	t.Helper()
	for _, in := range allInputs {
		if in.Op == op && in.variant == "" {
			return in
		}
	}
	t.Fatalf("%s has no inputs described", op.ID())
	return opInputs{}
}

// request builds the good request of in, every old string replaced by new.
func (in opInputs) request(token string, replace ...string) testenv.Request {
	r := strings.NewReplacer(replace...)
	path := r.Replace(in.Path)
	if in.Query != "" {
		path += "?" + r.Replace(in.Query)
	}
	req := testenv.Request{Method: in.Op.Method, Path: path, Token: token}
	if in.Body != "" {
		req.Body = r.Replace(in.Body)
	}
	return req
}

// TestIsolationMatrix runs Alpha's token against the other demo accounts:
// naming another account (in query, body or path) is refused with 403;
// another account's record under Alpha's own account is answered exactly as
// a record that does not exist; nothing of theirs changes.
func TestIsolationMatrix(t *testing.T) {
	d := newDemoEnv(t)
	before := takeSnapshot(t, d.Table)

	t.Run("naming another account is forbidden", func(t *testing.T) {
		for _, op := range operations.All {
			own, ok := accountParams[op.ID()]
			if !ok {
				continue
			}
			in := goodInputs(t, op)
			token := d.tokenFor(demo.AccountAlpha, op.MarketplaceOnly)
			others := []string{demo.AccountBravo, demo.AccountCharlie}
			if own == demo.CompanyNorth {
				others = []string{demo.CompanySouth} // Bravo shares Alpha's company
			}
			for _, other := range others {
				t.Run(op.ID()+" naming "+other, func(t *testing.T) {
					t.Parallel()
					require.True(t, strings.Contains(in.Path+in.Query+in.Body, own), "the good request names %s", own)
					resp := d.Do(t, in.request(token, own, other))
					msg := resp.RequireError(t, http.StatusForbidden)
					assert.Contains(t, msg, "does not have access")
				})
			}
		}
	})

	t.Run("another account's record is answered as a missing one", func(t *testing.T) {
		for _, fr := range foreignRecords {
			in := goodInputs(t, fr.op)
			token := d.tokenFor(demo.AccountAlpha, fr.op.MarketplaceOnly)
			var toForeign, toMissing, foreignIDs, missingIDs []string
			for _, s := range fr.swaps {
				toForeign = append(toForeign, s.alpha, s.foreign)
				toMissing = append(toMissing, s.alpha, s.missing)
				if s.foreign != "" {
					foreignIDs = append(foreignIDs, s.foreign, "<id>")
					missingIDs = append(missingIDs, s.missing, "<id>")
				}
			}
			t.Run(fr.op.ID()+" with "+fr.desc, func(t *testing.T) {
				t.Parallel()
				foreign := d.Do(t, in.request(token, toForeign...))
				missing := d.Do(t, in.request(token, toMissing...))
				require.GreaterOrEqual(t, missing.Status, 400, "body: %s", missing.Body)
				require.Less(t, missing.Status, 500, "body: %s", missing.Body)
				assert.Contains(t, []int{http.StatusNotFound, http.StatusUnprocessableEntity}, foreign.Status, "body: %s", foreign.Body)
				assert.Equal(t, missing.Status, foreign.Status, "foreign: %s\nmissing: %s", foreign.Body, missing.Body)
				assert.Equal(t,
					strings.NewReplacer(missingIDs...).Replace(withoutTraceID(t, missing)),
					strings.NewReplacer(foreignIDs...).Replace(withoutTraceID(t, foreign)),
					"the answers differ only in the id they echo")
			})
			if own, ok := accountParams[fr.op.ID()]; ok && own == demo.AccountAlpha {
				// Naming the other account too: the 403 must not depend on
				// whether the record exists there.
				t.Run(fr.op.ID()+" naming Bravo with "+fr.desc, func(t *testing.T) {
					t.Parallel()
					foreign := d.Do(t, in.request(token, append(toForeign, own, demo.AccountBravo)...))
					missing := d.Do(t, in.request(token, append(toMissing, own, demo.AccountBravo)...))
					foreign.RequireError(t, http.StatusForbidden)
					assert.Equal(t, withoutTraceID(t, missing), withoutTraceID(t, foreign))
				})
			}
		}
	})

	t.Run("a company search never returns another company's users", func(t *testing.T) {
		// casey.morgan@freelance.example is a user of both companies; the
		// other addresses belong to one company each.
		north := []string{"casey.morgan@freelance.example", "ava.anders@northwind.example", "yara.okafor@bravophysio.example"}
		south := []string{"casey.morgan@freelance.example", "dana.brooks@southwind.example", "eric.holm@southwind.example"}
		search := func(token, company string, emails []string) []string {
			resp := d.Do(t, testenv.Request{Method: "POST", Path: "/users/search/filter-by-email", Token: token, Body: map[string]any{
				"companyId": company, "emails": strings.Join(emails, ","), "projection": "all",
			}})
			require.Equal(t, http.StatusOK, resp.Status, "body: %s", resp.Body)
			var got struct {
				Users []struct {
					ID    string `json:"id"`
					Email string `json:"email"`
				} `json:"users"`
				Count int `json:"count"`
			}
			resp.JSON(t, &got)
			assert.Equal(t, len(got.Users), got.Count)
			var ids []string
			for _, u := range got.Users {
				ids = append(ids, u.ID)
			}
			return ids
		}
		all := append(append([]string{}, north...), south...)
		for _, tc := range []struct {
			name, token, company, prefix string
			want                         int
		}{
			{"Alpha's token in Northwind", d.private[demo.AccountAlpha], demo.CompanyNorth, "demoUsrNorth", 3},
			{"Bravo's token in Northwind", d.private[demo.AccountBravo], demo.CompanyNorth, "demoUsrNorth", 3},
			{"Charlie's token in Southwind", d.private[demo.AccountCharlie], demo.CompanySouth, "demoUsrSouth", 3},
		} {
			t.Run(tc.name+" finds only its company's users", func(t *testing.T) {
				ids := search(tc.token, tc.company, all)
				assert.Len(t, ids, tc.want)
				for _, id := range ids {
					assert.True(t, strings.HasPrefix(id, tc.prefix), "%s is not a user of %s", id, tc.company)
				}
			})
		}
		t.Run("an address only another company has finds nothing", func(t *testing.T) {
			assert.Empty(t, search(d.private[demo.AccountAlpha], demo.CompanyNorth, south[1:]))
			assert.Empty(t, search(d.private[demo.AccountCharlie], demo.CompanySouth, north[1:]))
		})
		t.Run("naming the other company is forbidden both ways", func(t *testing.T) {
			for token, company := range map[string]string{
				d.private[demo.AccountAlpha]:   demo.CompanySouth,
				d.private[demo.AccountCharlie]: demo.CompanyNorth,
			} {
				resp := d.Do(t, testenv.Request{Method: "POST", Path: "/users/search/filter-by-email", Token: token, Body: map[string]any{"companyId": company, "emails": strings.Join(all, ",")}})
				assert.Contains(t, resp.RequireError(t, http.StatusForbidden), "does not have access")
			}
		})
	})

	t.Run("no account's data changed", func(t *testing.T) {
		after := takeSnapshot(t, d.Table)
		for _, acct := range []string{demo.AccountBravo, demo.AccountCharlie} {
			pk := storage.AccountPK(acct)
			requireSame(t, before.partition(pk), after.partition(pk))
		}
		requireSame(t, before, after)
	})
}

// withoutTraceID is an answer's body with its own request id (an error's
// traceId) left out, to compare the bodies of two answers.
func withoutTraceID(t *testing.T, r *testenv.Response) string {
	t.Helper()
	id := r.Header.Get("X-Request-Id")
	require.NotEmpty(t, id)
	return strings.ReplaceAll(string(r.Body), id, "<traceId>")
}
