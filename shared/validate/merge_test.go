package validate

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/shared/apierror"
)

func TestMergeAddsTheViolationsOfAnotherError(t *testing.T) {
	t.Run("a validation error's violations join the others, in order", func(t *testing.T) {
		var v Errors
		v.Add("name is required")
		v.Merge(apierror.Invalid("items[0].id must be an id", "items[0].qty must be a number"))
		v.Merge(nil)
		e, ok := apierror.As(v.Err())
		require.True(t, ok)
		assert.Equal(t, apierror.CodeValidation, e.Code)
		assert.Equal(t, []string{"name is required", "items[0].id must be an id", "items[0].qty must be a number"}, e.Violations)
	})
	t.Run("a malformed request stays malformed", func(t *testing.T) {
		var v Errors
		v.Add("name is required")
		v.Merge(apierror.BadRequest("items[0] is not valid JSON"))
		assert.True(t, apierror.HasCode(v.Err(), apierror.CodeBadRequest))
		assert.EqualError(t, v.Err(), "items[0] is not valid JSON")
	})
	t.Run("any other error is one violation", func(t *testing.T) {
		var v Errors
		v.Merge(errors.New("options is not valid"))
		e, _ := apierror.As(v.Err())
		assert.Equal(t, []string{"options is not valid"}, e.Violations)
	})
	t.Run("nothing merged is no error", func(t *testing.T) {
		var v Errors
		v.Merge(nil)
		assert.NoError(t, v.Err())
	})
}
