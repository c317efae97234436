package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The exit statuses scripts rely on are the built binary's (make
// platformctl): go run answers 1 for any failure of the program it runs.
func TestTheBuiltBinaryExitsZeroOneOrTwo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	c, _ := setup(t)
	bin := filepath.Join(t.TempDir(), "platformctl")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"help is no error", []string{"--help"}, exitOK},
		{"a command that failed is 1", []string{"tokens", "revoke", "tok_nothing"}, exitError},
		{"an unknown command is a usage error", []string{"frobnicate"}, exitUsage},
		{"a missing flag is a usage error", []string{"tokens", "list"}, exitUsage},
		{"a value its rule refuses is a usage error", []string{"tokens", "create", "--account", "acctNone", "--scopes", "contacts.everything"}, exitUsage},
		{"no command is a usage error", nil, exitUsage},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = append(os.Environ(), "DYNAMODB_ENDPOINT="+c.env["DYNAMODB_ENDPOINT"], "TABLE_NAME="+c.env["TABLE_NAME"])
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			if tc.code == exitOK {
				require.NoError(t, err)
				assert.Contains(t, strings.Join(strings.Fields(stderr.String()), " "), "Scripts run the built binary (make platformctl builds bin/platformctl", "the help says what to script")
				return
			}
			require.True(t, errors.As(err, &exit), "%v", err)
			assert.Equal(t, tc.code, exit.ExitCode())
		})
	}
}
