// Package kit is what the bench's commands share: the flags every command
// takes and the results directory they name, DynamoDB Local behind a
// counting proxy with the demo dataset, servers with limits no measurement
// reaches, and the median.
package kit

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"

	"github.com/bizplatform/api/internal/dynamodblocal"
)

// Command is a bench command's flags (-out, then its own) and, once
// parsed, its results directory.
type Command struct {
	*flag.FlagSet
	// Dir is the directory of the command's JSON results (-out).
	Dir string
	// Root is the module root, which Dir is resolved against.
	Root string
}

// NewCommand is the command name with -out defined.
func NewCommand(name string) *Command {
	c := &Command{FlagSet: flag.NewFlagSet(name, flag.ExitOnError)}
	c.StringVar(&c.Dir, "out", "bin/bench", "directory of the JSON results")
	return c
}

// Parse parses args (a bad flag exits), finds the module root, resolves Dir
// against it and makes it.
func (c *Command) Parse(args []string) error {
	_ = c.FlagSet.Parse(args)
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	if c.Root, err = dynamodblocal.FindRoot(wd); err != nil {
		return err
	}
	if !filepath.IsAbs(c.Dir) {
		c.Dir = filepath.Join(c.Root, c.Dir)
	}
	return os.MkdirAll(c.Dir, 0o755)
}

// Save writes v as the results file name.
func (c *Command) Save(name string, v any) error {
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(c.Dir, name), raw, 0o644)
}

// Load reads the results file name into v.
func (c *Command) Load(name string, v any) error {
	raw, err := os.ReadFile(filepath.Join(c.Dir, name))
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, v)
}

// Median is the middle of xs (the mean of the two middle ones for an even
// count), 0 for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
