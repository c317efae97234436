package contacts

import (
	"net/http"

	"github.com/bizplatform/api/areas/contacts/contactstore"
	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/validate"
)

// A contact's notes: list, create, get, update, delete, as the tasks are
// (tasks.go): by path, in the token's account, 404 for another account's.

// noteAnswer is the public API's answer holding one note.
type noteAnswer struct {
	Note contactstore.Note `json:"note"`
}

// createNoteRequest is the body of POST /contacts/{contactId}/notes.
type createNoteRequest struct {
	UserID *string `json:"userId"`
	Body   *string `json:"body"`
	Title  *string `json:"title"`
	Color  *string `json:"color"`
	Pinned *bool   `json:"pinned"`

	note contactstore.Note // the note the request describes, once checked
}

func (req *createNoteRequest) check(v *validate.Errors) {
	n := &req.note
	if req.UserID != nil && v.ID("userId", *req.UserID) {
		n.UserID = *req.UserID
	}
	if v.Required("body", req.Body) {
		n.Body = longText(v, "body", *req.Body)
	}
	if req.Title != nil {
		n.Title = oneLineText(v, "title", *req.Title)
	}
	if req.Color != nil {
		n.Color = color(v, "color", *req.Color)
	}
	if req.Pinned != nil {
		n.Pinned = *req.Pinned
	}
}

// updateNoteRequest is the body of PUT /contacts/{contactId}/notes/{id}: the
// fields sent change, the others stay. null removes an optional value
// (userId, title, color) and is refused for body and pinned.
type updateNoteRequest struct {
	UserID httpio.Field[string] `json:"userId"`
	Body   httpio.Field[string] `json:"body"`
	Title  httpio.Field[string] `json:"title"`
	Color  httpio.Field[string] `json:"color"`
	Pinned httpio.Field[bool]   `json:"pinned"`

	apply []func(*contactstore.Note) // the changes, once checked
}

func (req *updateNoteRequest) check(v *validate.Errors) {
	change := func(f func(*contactstore.Note)) { req.apply = append(req.apply, f) }
	if req.UserID.Set && (req.UserID.Null || v.ID("userId", req.UserID.V)) {
		user := req.UserID.V // null: "", none
		change(func(n *contactstore.Note) { n.UserID = user })
	}
	if s, ok := notNull(v, "body", req.Body); ok && v.Required("body", &s) {
		body := longText(v, "body", s)
		change(func(n *contactstore.Note) { n.Body = body })
	}
	if req.Title.Set {
		title := ""
		if !req.Title.Null {
			title = oneLineText(v, "title", req.Title.V)
		}
		change(func(n *contactstore.Note) { n.Title = title })
	}
	if req.Color.Set {
		c := ""
		if !req.Color.Null {
			c = color(v, "color", req.Color.V)
		}
		change(func(n *contactstore.Note) { n.Color = c })
	}
	if pinned, ok := notNull(v, "pinned", req.Pinned); ok {
		change(func(n *contactstore.Note) { n.Pinned = pinned })
	}
}

func (h *handler) listNotes(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID := in.ID("contactId")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	notes, err := h.store.ListNotes(r.Context(), p.AccountID, contactID)
	if err != nil {
		return contactError(err, contactID)
	}
	return httpio.WriteJSON(w, http.StatusOK, struct {
		Notes []contactstore.Note `json:"notes"`
	}{notes})
}

func (h *handler) createNote(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID := in.ID("contactId")
	var body createNoteRequest
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	note, err := h.store.CreateNote(r.Context(), p.AccountID, contactID, body.note, h.clock.Now())
	if err != nil {
		return contactError(err, contactID)
	}
	return httpio.WriteJSON(w, http.StatusCreated, noteAnswer{note})
}

func (h *handler) getNote(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, noteID := in.ID("contactId"), in.ID("id")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	note, err := h.store.GetNote(r.Context(), p.AccountID, contactID, noteID)
	if err != nil {
		return err
	}
	if note == nil {
		return noteNotFound(contactID, noteID)
	}
	return httpio.WriteJSON(w, http.StatusOK, noteAnswer{*note})
}

func (h *handler) updateNote(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, noteID := in.ID("contactId"), in.ID("id")
	var body updateNoteRequest
	in.Body(&body, body.check)
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	note, err := h.store.UpdateNote(r.Context(), p.AccountID, contactID, noteID, func(n *contactstore.Note) {
		for _, c := range body.apply {
			c(n)
		}
	}, h.clock.Now())
	if err != nil {
		return err
	}
	if note == nil {
		return noteNotFound(contactID, noteID)
	}
	return httpio.WriteJSON(w, http.StatusOK, noteAnswer{*note})
}

func (h *handler) deleteNote(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	contactID, noteID := in.ID("contactId"), in.ID("id")
	p, err := in.TokenAccount()
	if err != nil {
		return err
	}
	deleted, err := h.store.DeleteNote(r.Context(), p.AccountID, contactID, noteID, h.clock.Now())
	if err != nil {
		return err
	}
	if !deleted {
		return noteNotFound(contactID, noteID)
	}
	return httpio.WriteJSON(w, http.StatusOK, deleteTaskResponse{Succeded: true})
}

func noteNotFound(contactID, noteID string) error {
	return apierror.NotFound("Note %s of contact %s was not found", noteID, contactID)
}
