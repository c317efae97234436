package brandboards

import (
	"fmt"
	"net/http"

	"github.com/bizplatform/api/areas/internal/request"
	"github.com/bizplatform/api/shared/apierror"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/httpio"
	"github.com/bizplatform/api/shared/ids"
	"github.com/bizplatform/api/shared/validate"
)

// Board types: how a board was created.
const (
	TypeTemplate = "template"
	TypeBlank    = "blank"
	TypeSnapshot = "snapshot"
)

// Bounds that keep a board well inside one storage item: 50 logos, colors
// and fonts with every text at its bound in four-byte characters (URLs are
// ASCII) make about 320 KB, below DynamoDB's 400 KB.
const (
	maxNameLength  = 200
	maxLabelLength = 100
	maxFontLength  = 100
	maxURLLength   = 2048
	maxPathLength  = 512
	maxItems       = 50
)

// createRequest is the body of POST /brand-boards/. A list that is absent
// (or null) is copied from the source board; a given list, even empty, is
// the new board's.
type createRequest struct {
	LocationID   *string       `json:"locationId"`
	Name         *string       `json:"name"`
	Logos        *[]logoInput  `json:"logos"`
	Colors       *[]colorInput `json:"colors"`
	Fonts        *[]fontInput  `json:"fonts"`
	Default      *bool         `json:"default"`
	BrandBoardID *string       `json:"brandBoardId"`
	ParentID     *string       `json:"parentId"`
	Type         *string       `json:"type"`
}

type logoInput struct {
	ID    *string `json:"id"`
	URL   *string `json:"url"`
	Label *string `json:"label"`
	Path  *string `json:"path"`
}

type colorInput struct {
	ID    *string `json:"id"`
	Hexa  *string `json:"hexa"`
	Rgba  *string `json:"rgba"`
	Hex   *string `json:"hex"`
	Rgb   *string `json:"rgb"`
	Label *string `json:"label"`
}

type fontInput struct {
	ID       *string `json:"id"`
	Font     *string `json:"font"`
	Fallback *string `json:"fallback"`
	Label    *string `json:"label"`
}

// checker adds the rules of list items to validate.Errors.
type checker struct{ *validate.Errors }

// text checks a required string of at most max characters.
func (c *checker) text(field string, v *string, max int) bool {
	return c.Required(field, v) && c.MaxLen(field, *v, max)
}

// itemID checks an item's id and that no earlier item of the list has it.
func (c *checker) itemID(list string, i int, v *string, seen map[string]int) {
	field := fmt.Sprintf("%s[%d].id", list, i)
	if !c.Required(field, v) || !c.ID(field, *v) {
		return
	}
	if j, dup := seen[*v]; dup {
		c.Addf("%s duplicates %s[%d].id: ids are unique within a board's %s", field, list, j, list)
		return
	}
	seen[*v] = i
}

// format checks a required string against a notation.
func (c *checker) format(field string, v *string, ok func(string) bool, rule string) {
	if c.Required(field, v) {
		c.Check(ok(*v), field+" "+rule)
	}
}

func (c *checker) count(list string, n int) {
	c.Check(n <= maxItems, fmt.Sprintf("%s must hold at most %d items", list, maxItems))
}

// check records every rule the request breaks.
func (req *createRequest) check(v *validate.Errors) {
	c := checker{v}
	if c.Required("locationId", req.LocationID) {
		c.ID("locationId", *req.LocationID)
	}
	c.text("name", req.Name, maxNameLength)
	if req.Logos != nil {
		c.count("logos", len(*req.Logos))
		seen := map[string]int{}
		for i, l := range *req.Logos {
			c.itemID("logos", i, l.ID, seen)
			if f := fmt.Sprintf("logos[%d].url", i); c.text(f, l.URL, maxURLLength) {
				c.OutsideURL(f, *l.URL)
			}
			c.text(fmt.Sprintf("logos[%d].label", i), l.Label, maxLabelLength)
			c.text(fmt.Sprintf("logos[%d].path", i), l.Path, maxPathLength)
		}
	}
	if req.Colors != nil {
		c.count("colors", len(*req.Colors))
		seen := map[string]int{}
		for i, col := range *req.Colors {
			c.itemID("colors", i, col.ID, seen)
			c.format(fmt.Sprintf("colors[%d].hexa", i), col.Hexa, isHexa, hexaRule)
			c.format(fmt.Sprintf("colors[%d].rgba", i), col.Rgba, isRGBA, rgbaRule)
			c.format(fmt.Sprintf("colors[%d].hex", i), col.Hex, isHex, hexRule)
			c.format(fmt.Sprintf("colors[%d].rgb", i), col.Rgb, isRGB, rgbRule)
			c.text(fmt.Sprintf("colors[%d].label", i), col.Label, maxLabelLength)
		}
	}
	if req.Fonts != nil {
		c.count("fonts", len(*req.Fonts))
		seen := map[string]int{}
		for i, f := range *req.Fonts {
			c.itemID("fonts", i, f.ID, seen)
			c.text(fmt.Sprintf("fonts[%d].font", i), f.Font, maxFontLength)
			c.text(fmt.Sprintf("fonts[%d].fallback", i), f.Fallback, maxFontLength)
			c.text(fmt.Sprintf("fonts[%d].label", i), f.Label, maxLabelLength)
		}
	}
	if req.BrandBoardID != nil {
		c.ID("brandBoardId", *req.BrandBoardID)
	}
	if req.ParentID != nil {
		c.ID("parentId", *req.ParentID)
	}
	if req.Type != nil && c.OneOf("type", *req.Type, TypeTemplate, TypeBlank, TypeSnapshot) {
		c.Check(*req.Type != TypeBlank || req.BrandBoardID == nil, "type blank cannot be combined with brandBoardId: a blank board copies nothing")
	}
}

func (h *handler) create(w http.ResponseWriter, r *http.Request) error {
	in := request.NewReader(r)
	var body createRequest
	in.Body(&body, body.check)
	p, err := in.Account(body.LocationID)
	if err != nil {
		return err
	}
	ctx := r.Context()
	sourceID := ""
	if body.BrandBoardID != nil {
		sourceID = *body.BrandBoardID
	}
	makeDefault := body.Default != nil && *body.Default
	// One round trip of reads, while admission runs: the source (looked up
	// in the caller's account only: another account's board is not found)
	// and, for a default board, the pointer.
	c, err := h.store.prepare(ctx, p.AccountID, sourceID, makeDefault)
	if err != nil {
		return err
	}

	at := h.clock.Now()
	now := clock.Timestamp(at)
	b := Board{
		ID:         ids.Hex24(),
		LocationID: p.AccountID,
		Name:       *body.Name,
		Logos:      []Logo{},
		Colors:     []Color{},
		Fonts:      []Font{},
		Default:    makeDefault,
		Meta:       Meta{SourceType: TypeBlank},
		CreatedAt:  now,
		UpdatedAt:  now,
	}
	if body.ParentID != nil {
		b.ParentID = *body.ParentID
	}
	if sourceID != "" {
		src := c.source
		if src == nil || src.Deleted {
			return apierror.Invalid(fmt.Sprintf("brandBoardId %q does not name a brand board of this account", *body.BrandBoardID))
		}
		b.Logos, b.Colors, b.Fonts = orEmpty(src.Logos), orEmpty(src.Colors), orEmpty(src.Fonts)
		b.OriginID = src.ID
		b.Meta = Meta{SourceID: src.ID, SourceType: TypeTemplate}
	}
	if body.Type != nil {
		b.Meta.SourceType = *body.Type
	}
	if body.Logos != nil {
		b.Logos = logos(*body.Logos)
	}
	if body.Colors != nil {
		b.Colors = colors(*body.Colors)
	}
	if body.Fonts != nil {
		b.Fonts = fonts(*body.Fonts)
	}

	if err := h.store.create(ctx, b, c, at); err != nil {
		return err
	}
	return httpio.WriteJSON(w, http.StatusCreated, b)
}

func logos(in []logoInput) []Logo {
	out := make([]Logo, len(in))
	for i, l := range in {
		out[i] = Logo{ID: *l.ID, URL: *l.URL, Label: *l.Label, Path: *l.Path}
	}
	return out
}

func colors(in []colorInput) []Color {
	out := make([]Color, len(in))
	for i, c := range in {
		out[i] = Color{ID: *c.ID, Hexa: *c.Hexa, Rgba: *c.Rgba, Hex: *c.Hex, Rgb: *c.Rgb, Label: *c.Label}
	}
	return out
}

func fonts(in []fontInput) []Font {
	out := make([]Font, len(in))
	for i, f := range in {
		out[i] = Font{ID: *f.ID, Font: *f.Font, Fallback: *f.Fallback, Label: *f.Label}
	}
	return out
}

// orEmpty answers an absent list as an empty one.
func orEmpty[T any](list []T) []T {
	if list == nil {
		return []T{}
	}
	return list
}
