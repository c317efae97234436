package emails

import (
	"context"
	"errors"

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

// Create stores t under a new id and returns that id. A template is one item,
// written with one conditional put: it is either wholly stored or absent.
func (s *Templates) Create(ctx context.Context, t Template) (string, error) {
	for range 3 {
		t.ID = ids.Hex24()
		created, err := s.AccountItems.Create(ctx, t)
		if err != nil || created {
			return t.ID, err
		}
	}
	return "", errIDsExhausted
}
