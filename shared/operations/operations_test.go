package operations

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestEveryOperationIsListedOnceInAKnownAreaAndEveryAreaServesOne(t *testing.T) {
	seen := map[string]bool{}
	camelCase := regexp.MustCompile(`^[A-Z][a-z]+(?:[A-Z][a-z]+)*$`)
	for _, op := range All {
		assert.False(t, seen[op.ID()], "%s listed twice", op.ID())
		assert.False(t, seen[op.Name], "the name %s is given twice", op.Name)
		seen[op.ID()], seen[op.Name] = true, true
		assert.Regexp(t, camelCase, op.Name, "%s's name is words in CamelCase (it names files and template events)", op.ID())
		assert.Contains(t, Areas, op.Area)
		assert.Contains(t, []int{400, 422}, op.ValidationStatus)
	}
	for _, a := range Areas {
		assert.NotEmpty(t, OfArea(a), "area %s serves something", a)
	}
}

func TestPathsWithATrailingSlashAreAlsoServedWithoutIt(t *testing.T) {
	assert.Equal(t, []string{"GET /contacts/{$}", "GET /contacts"}, ListContacts.Patterns())
	assert.Equal(t, []string{"/contacts/", "/contacts"}, ListContacts.Paths())
	assert.Equal(t, []string{"POST /associations/relations"}, CreateRelation.Patterns())
	assert.True(t, CreateWhitelabelProvider.MarketplaceOnly)
}

func TestOnlyTheOperationsTheSpecGivesABodyTakeOne(t *testing.T) {
	for _, op := range All {
		switch {
		case op.Method == "GET":
			assert.False(t, op.Body, "%s: reads never take a body", op.ID())
		case op.Method != "DELETE":
			assert.True(t, op.Body, "%s: writes carry their values in a body", op.ID())
		}
	}
	for _, op := range []Operation{ListContacts, DeleteTask, DeleteNote, DeleteContact, GetContact, GetAllTasks, GetTask, GetAllNotes, GetNote, GetDuplicateContact, GetMessage, ListMediaFiles, ListSurveys, ListCampaigns, SearchAdsReportingList} {
		assert.False(t, op.Body, "the contract gives %s no body", op.ID())
	}
	for _, op := range []Operation{DeleteCoupon, DeleteSocialAdsIntegration, RemoveTags} {
		assert.True(t, op.Body, "%s: a delete that names what it deletes in the body", op.ID())
	}
}

// Each operation's Name is its variable's name, so that the name in the
// template and in events/ is the one the code uses.
func TestEachOperationIsNamedAsItsVariable(t *testing.T) {
	file, err := parser.ParseFile(token.NewFileSet(), "operations.go", nil, 0)
	require.NoError(t, err)
	named := 0
	ast.Inspect(file, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok {
			return true
		}
		for i, value := range spec.Values {
			lit, ok := value.(*ast.CompositeLit)
			if !ok {
				continue
			}
			if typ, ok := lit.Type.(*ast.Ident); !ok || typ.Name != "Operation" {
				continue
			}
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok && kv.Key.(*ast.Ident).Name == "Name" {
					name, err := strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
					require.NoError(t, err)
					assert.Equal(t, spec.Names[i].Name, name)
					named++
				}
			}
		}
		return true
	})
	assert.Equal(t, len(All), named, "every operation of All is declared with its Name")
}
