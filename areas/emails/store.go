package emails

import (
	"context"
	"errors"
	"time"

	"github.com/bizplatform/api/shared/events"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/storage"
)

// Template types, as the public API names them. A folder is a template of
// type "folder": templates and folders share one id space, so a parentId is
// checked with a single read.
const (
	TypeHTML    = "html"
	TypeFolder  = "folder"
	TypeImport  = "import"
	TypeBuilder = "builder"
	TypeBlank   = "blank"
)

// Types lists the template types in the public API's order.
var Types = []string{TypeHTML, TypeFolder, TypeImport, TypeBuilder, TypeBlank}

// Template is an e-mail template (or folder) as stored.
type Template struct {
	ID              string `dynamodbav:"id" json:"id"`
	LocationID      string `dynamodbav:"locationId" json:"locationId"`
	Type            string `dynamodbav:"type" json:"type"`
	Title           string `dynamodbav:"title,omitempty" json:"title,omitempty"`
	Name            string `dynamodbav:"name,omitempty" json:"name,omitempty"`
	UpdatedBy       string `dynamodbav:"updatedBy,omitempty" json:"updatedBy,omitempty"`
	BuilderVersion  string `dynamodbav:"builderVersion" json:"builderVersion"`
	ParentID        string `dynamodbav:"parentId,omitempty" json:"parentId,omitempty"`
	TemplateDataURL string `dynamodbav:"templateDataUrl,omitempty" json:"templateDataUrl,omitempty"`
	ImportProvider  string `dynamodbav:"importProvider,omitempty" json:"importProvider,omitempty"`
	ImportURL       string `dynamodbav:"importURL,omitempty" json:"importURL,omitempty"`
	TemplateSource  string `dynamodbav:"templateSource,omitempty" json:"templateSource,omitempty"`
	// IsPlainText is nil when the creator did not say.
	IsPlainText *bool  `dynamodbav:"isPlainText,omitempty" json:"isPlainText,omitempty"`
	DateAdded   string `dynamodbav:"dateAdded" json:"dateAdded"`
	DateUpdated string `dynamodbav:"dateUpdated" json:"dateUpdated"`
}

// IsFolder reports whether the template is a folder.
func (t Template) IsFolder() bool { return t.Type == TypeFolder }

// Templates is the accounts' e-mail templates and folders, stored by id in
// their account's partition.
type Templates struct {
	*storage.AccountItems[Template]
}

// NewTemplates returns the templates on table.
func NewTemplates(table *storage.Table) *Templates {
	return &Templates{storage.NewAccountItems(table, "EMAILTEMPLATE#", func(t Template) (string, string) { return t.LocationID, t.ID })}
}

// errIDsExhausted means every generated id was taken, which with 96 random
// bits does not happen short of a broken random source.
var errIDsExhausted = errors.New("create template: no free id after several attempts")

// TemplateCreated is the event of a created template or folder: the
// template as GET would show it.
var TemplateCreated = events.Type{
	Name: "EmailTemplateCreate", Scope: "emails/builder.write", Version: 1,
	Summary: "An e-mail template or folder was created (POST /emails/builder).",
	Fields:  TemplateEvent{},
}

// TemplateEvent is an EmailTemplateCreate event's fields: the template, its
// type as templateType (an event's "type" is the event's).
type TemplateEvent struct {
	ID              string `json:"id"`
	TemplateType    string `json:"templateType"`
	Title           string `json:"title,omitempty"`
	Name            string `json:"name,omitempty"`
	UpdatedBy       string `json:"updatedBy,omitempty"`
	BuilderVersion  string `json:"builderVersion"`
	ParentID        string `json:"parentId,omitempty"`
	TemplateDataURL string `json:"templateDataUrl,omitempty"`
	ImportProvider  string `json:"importProvider,omitempty"`
	ImportURL       string `json:"importURL,omitempty"`
	TemplateSource  string `json:"templateSource,omitempty"`
	IsPlainText     *bool  `json:"isPlainText,omitempty"`
	DateAdded       string `json:"dateAdded"`
	DateUpdated     string `json:"dateUpdated"`
}

func templateEvent(t Template) TemplateEvent {
	return TemplateEvent{
		ID: t.ID, TemplateType: t.Type, Title: t.Title, Name: t.Name, UpdatedBy: t.UpdatedBy,
		BuilderVersion: t.BuilderVersion, ParentID: t.ParentID, TemplateDataURL: t.TemplateDataURL,
		ImportProvider: t.ImportProvider, ImportURL: t.ImportURL, TemplateSource: t.TemplateSource,
		IsPlainText: t.IsPlainText, DateAdded: t.DateAdded, DateUpdated: t.DateUpdated,
	}
}

// Create stores t under a new id and returns that id. A template is one item,
// written with its EmailTemplateCreate event in one transaction on
// condition that the id is free: it is either wholly stored, with its
// event, or absent.
func (s *Templates) Create(ctx context.Context, t Template, at time.Time) (string, error) {
	for range 3 {
		t.ID = ids.Hex24()
		created, err := s.AccountItems.CreateAlong(ctx, t, func(tx *storage.Tx) {
			TemplateCreated.Add(tx, events.Owner{LocationID: t.LocationID}, templateEvent(t), at)
		})
		if err != nil || created {
			return t.ID, err
		}
	}
	return "", errIDsExhausted
}
