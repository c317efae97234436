package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/gen"
	"github.com/bizplatform/api/shared/operations"
)

// The committed document's table-made lines are what this generator
// makes: change shared/operations and run `go generate ./...`, never those
// lines by hand.
func TestTheCommittedFilesAreWhatTheGeneratorMakes(t *testing.T) {
	root, err := gen.ModuleRoot()
	require.NoError(t, err)
	raw, err := os.ReadFile(filepath.Join(root, path))
	require.NoError(t, err)
	text, err := document(string(raw), operations.All)
	require.NoError(t, err)
	assert.Empty(t, gen.Drift(root, []gen.File{{Path: path, Content: text}}))
}

// fixture is a document of one operation, DELETE /things/{id}, as the
// hand-written parts leave it: prose, a path parameter, its sample, a 200
// and a 404.
const fixture = `paths:
  /things/{id}:
    delete:
      operationId: removeThing
      description: >-
        Deletes a thing.
        Needs a token with the scope ` + "`old.scope`" + `.
      security:
        - bearer: [old.scope]
      x-token-kind: marketplace
      parameters:
        - name: id
          in: path
          required: true
        - $ref: '#/components/parameters/Version'
      x-sample:
        path: /things/t1
        status: 200
      responses:
        '404':
          $ref: '#/components/responses/NotFound'
        '200':
          description: 'Deleted.'
        '403':
          description: 'A hand-written 403 the table overrides.'
components: {}
`

var deleteThing = operations.Operation{Name: "DeleteThing", Method: "DELETE", Path: "/things/{id}", Area: "things", Scope: "things.write", ValidationStatus: 400}

func TestTheTableWritesItsPartOfEachOperation(t *testing.T) {
	got, err := document(fixture, []operations.Operation{deleteThing})
	require.NoError(t, err)

	tests := []struct {
		name, want string
	}{
		{"the operationId is the table's name in lower camel case", "    delete:\n      operationId: deleteThing\n"},
		{"the scope sentence names the table's scope", "        Deletes a thing.\n        Needs a token with the scope `things.write`.\n"},
		{"security names the scope, and a token kind only where the table says marketplace", "      security:\n        - bearer: [things.write]\n      parameters:\n"},
		{"Version and, on a write, Idempotency-Key come first, then the operation's own", "      parameters:\n        - $ref: '#/components/parameters/Version'\n        - $ref: '#/components/parameters/IdempotencyKey'\n        - name: id\n"},
		{"hand-written answers stay, all in the order of their status", "        '200':\n          description: 'Deleted.'\n        '400':\n"},
		{"the 404 a person wrote stays", "        '404':\n          $ref: '#/components/responses/NotFound'\n        '406':\n"},
		{"a write whose field rules answer 400 lists 422 for a reused key only", "        '422':\n          $ref: '#/components/responses/IdempotencyKeyReused'\n"},
		{"a write lists 409", "        '409':\n          $ref: '#/components/responses/IdempotencyConflict'\n"},
		{"the sample request stays as written", "        - name: id\n          in: path\n          required: true\n      x-sample:\n        path: /things/t1\n        status: 200\n      responses:\n"},
		{"what follows the paths stays", "          $ref: '#/components/responses/Unavailable'\ncomponents: {}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Contains(t, got, tt.want)
		})
	}
	t.Run("the table's statuses replace the hand-written ones", func(t *testing.T) {
		assert.NotContains(t, got, "A hand-written 403")
		assert.Contains(t, got, "        '403':\n          $ref: '#/components/responses/Forbidden'\n")
	})
	t.Run("running it again changes nothing", func(t *testing.T) {
		again, err := document(got, []operations.Operation{deleteThing})
		require.NoError(t, err)
		assert.Equal(t, got, again)
	})
}

func TestAReadAndAMarketplaceOperationGetTheirOwnAnswers(t *testing.T) {
	doc := strings.Replace(fixture, "    delete:", "    get:", 1)
	read := deleteThing
	read.Method, read.ValidationStatus = "GET", 400
	got, err := document(doc, []operations.Operation{read})
	require.NoError(t, err)
	assert.NotContains(t, got, "'422':", "a read whose field rules answer 400 lists no 422")
	assert.NotContains(t, got, "'409':", "a read lists no 409")
	assert.NotContains(t, got, "IdempotencyKey'", "a read takes no Idempotency-Key")
	assert.NotContains(t, got, "x-token-kind", "only marketplace operations say their token kind")

	read.ValidationStatus, read.MarketplaceOnly = 422, true
	got, err = document(doc, []operations.Operation{read})
	require.NoError(t, err)
	assert.Contains(t, got, "        '422':\n          $ref: '#/components/responses/Unprocessable'\n")
	assert.Contains(t, got, "        - bearer: [things.write]\n      x-token-kind: marketplace\n")
}

func TestANewPathItemNeedsOnlyWhatAPersonWrites(t *testing.T) {
	doc := "paths:\n  /things/{id}:\n    delete:\n      description: >-\n        Deletes a thing.\n        Needs a token with the scope `x`.\n" +
		"      security:\n      parameters:\n      responses:\n        '200':\n          description: 'Deleted.'\n"
	got, err := document(doc, []operations.Operation{deleteThing})
	require.NoError(t, err)
	for _, want := range []string{"    delete:\n      operationId: deleteThing\n", "        - bearer: [things.write]\n", "parameters/IdempotencyKey'\n", "        '200':\n          description: 'Deleted.'\n        '400':\n", "responses/Unavailable'\n"} {
		assert.Contains(t, got, want)
	}
}

func TestTheDocumentAndTheTableMustNameTheSameOperations(t *testing.T) {
	other := operations.Operation{Name: "ListThings", Method: "GET", Path: "/things/", Scope: "things.readonly", ValidationStatus: 422}
	_, err := document(fixture, []operations.Operation{deleteThing, other})
	assert.ErrorContains(t, err, "GET /things/ has no path item", "an operation of the table the document lacks")

	_, err = document(fixture, nil)
	assert.ErrorContains(t, err, "DELETE /things/{id} is documented but not in shared/operations")

	_, err = document(strings.Replace(fixture, "        Needs a token with the scope `old.scope`.\n", "", 1), []operations.Operation{deleteThing})
	assert.ErrorContains(t, err, "the description needs one line")
}
