package contacts

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/validate"
)

// tagsBody is the body of POST and DELETE /contacts/{contactId}/tags
// (TagsDTO).
type tagsBody struct {
	Tags *[]string `json:"tags"`

	tags []string // once checked: trimmed, lower-cased, each once
}

func (b *tagsBody) check(v *validate.Errors) {
	if !validate.RequiredPresent(v, "tags", b.Tags) {
		return
	}
	b.tags, _ = readTags(v, "tags", *b.Tags, true)
}

type tagsAnswer struct {
	Tags []string `json:"tags"`
}

// addTags adds tags to a contact of the token's account, and answers its
// tags. Tags it has already are left as they are; when it has them all,
// nothing is written and no event is made.
func (h *handler) addTags(w http.ResponseWriter, r *http.Request) error {
	return h.changeTags(w, r, http.StatusCreated, func(rec *contactstore.Record, tags []string) error {
		added := false
		for _, t := range tags {
			if !slices.ContainsFunc(rec.Tags, func(have string) bool { return strings.EqualFold(have, t) }) {
				rec.Tags = append(rec.Tags, t)
				added = true
			}
		}
		if len(rec.Tags) > contactstore.MaxTags {
			return apierror.Invalid(fmt.Sprintf("tags: a contact has at most %d tags, and these would make %d; remove some first", contactstore.MaxTags, len(rec.Tags)))
		}
		if !added {
			return storage.ErrNoChange
		}
		return nil
	})
}

// removeTags removes tags from a contact of the token's account, and
// answers the tags it keeps. Tags it does not have are passed over.
func (h *handler) removeTags(w http.ResponseWriter, r *http.Request) error {
	return h.changeTags(w, r, http.StatusOK, func(rec *contactstore.Record, tags []string) error {
		kept := slices.DeleteFunc(slices.Clone(rec.Tags), func(t string) bool { return slices.Contains(tags, strings.ToLower(t)) })
		if len(kept) == len(rec.Tags) {
			return storage.ErrNoChange
		}
		rec.Tags = kept
		return nil
	})
}

func (h *handler) changeTags(w http.ResponseWriter, r *http.Request, status int, change func(*contactstore.Record, []string) error) error {
	in := request.NewReader(r)
	id := in.ID("contactId")
	var body tagsBody
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	rec, err := h.store.Update(r.Context(), p.AccountID, id, h.clock.Now(), func(rec *contactstore.Record) error {
		return change(rec, body.tags)
	})
	if err != nil {
		return err
	}
	if rec == nil {
		return notFound(id)
	}
	tags := rec.Tags
	if tags == nil {
		tags = []string{}
	}
	return httpio.WriteJSON(w, status, tagsAnswer{Tags: tags})
}
