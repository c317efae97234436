package identity

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
	"github.com/bizplatform/api/shared/clock"
)

func TestPasswordsAreStoredAsArgon2idHashes(t *testing.T) {
	h, err := HashPassword("correct horse battery")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$"))
	ok, err := VerifyPassword(h, "correct horse battery")
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = VerifyPassword(h, "correct horse batterY")
	require.NoError(t, err)
	assert.False(t, ok)
	_, err = VerifyPassword("plain", "plain")
	assert.Error(t, err)
}

// An unknown address and a wrong password do the same work: one password
// hash and the same storage calls, so neither the answer nor its time tells
// which addresses exist.
func TestAnUnknownAddressCostsWhatAWrongPasswordCosts(t *testing.T) {
	table := testenv.NewTable(t)
	counted, calls := testenv.CountingTable(t, table)
	clk := clock.NewManual(testenv.Start)
	s := New(counted, clk, oneUser{companyID: "co1", user: User{ID: "usrA", Name: "A", Email: "a@co1.example", Role: "admin", Type: "account"}})
	_, err := s.SetPasswordDirectly(context.Background(), "co1", "usrA", "the right password")
	require.NoError(t, err)
	verified := 0
	s.verify = func(encoded, password string) (bool, error) {
		verified++
		return VerifyPassword(encoded, password)
	}
	work := func(email string) (string, map[string]int, int) {
		verified = 0
		calls.Take()
		_, _, err := s.SignIn(context.Background(), email, "a wrong password", "192.0.2.1")
		clk.Advance(time.Second)
		return err.Error(), calls.Take(), verified
	}
	work("first@co1.example") // the client's first attempt starts its counter
	unknownMsg, unknownCalls, unknownHashes := work("nobody@co1.example")
	wrongMsg, wrongCalls, wrongHashes := work("a@co1.example")
	assert.Equal(t, unknownMsg, wrongMsg)
	assert.Equal(t, unknownCalls, wrongCalls)
	assert.Equal(t, 1, unknownHashes)
	assert.Equal(t, 1, wrongHashes)
}

// oneUser is a directory holding one user of one company.
type oneUser struct {
	companyID string
	user      User
}

func (d oneUser) PortalUser(_ context.Context, companyID, userID string) (*User, error) {
	if companyID != d.companyID || userID != d.user.ID {
		return nil, nil
	}
	u := d.user
	return &u, nil
}

func (d oneUser) PortalUsersByEmail(_ context.Context, companyID, lowerEmail string) ([]User, error) {
	if companyID != d.companyID || lowerEmail != strings.ToLower(d.user.Email) || d.user.Deleted {
		return nil, nil
	}
	return []User{d.user}, nil
}
