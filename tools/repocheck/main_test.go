package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckFiles(t *testing.T) {
	big := strings.Repeat("a", MaxFileSize+1)
	files := fstest.MapFS{
		"main.go":            {Data: []byte("package main\n")},
		"platformctl":        {Data: []byte("\x7fELF\x02\x01\x01\x00\x00")},
		"docs/portal.png":    {Data: []byte("\x89PNG\r\n\x1a\n\x00\x00")},
		"data/huge.json":     {Data: []byte(big)},
		"data/exactly1mb.go": {Data: []byte(strings.Repeat("b", MaxFileSize))},
	}
	tests := []struct {
		name    string
		paths   []string
		allowed map[string]bool
		want    []string // a fragment of each problem, in order
	}{
		{"a text file under 1 MB passes", []string{"main.go", "data/exactly1mb.go"}, nil, nil},
		{"a tracked executable is refused", []string{"main.go", "platformctl"}, nil, []string{"platformctl: a binary file is tracked"}},
		{"a text file over 1 MB is refused", []string{"data/huge.json"}, nil, []string{"data/huge.json: 1048577 bytes is over 1048576"}},
		{"a listed asset passes though binary", []string{"docs/portal.png"}, map[string]bool{"docs/portal.png": true}, nil},
		{"an unlisted image is refused", []string{"docs/portal.png"}, nil, []string{"docs/portal.png: a binary file is tracked"}},
		{"a listed asset no longer tracked is reported", []string{"main.go"}, map[string]bool{"docs/gone.png": true}, []string{"lists docs/gone.png, which is not tracked"}},
		{"a file deleted in the work tree is not judged", []string{"removed.bin"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := checkFiles(files, tt.paths, tt.allowed)
			require.NoError(t, err)
			require.Len(t, got, len(tt.want), "problems: %q", got)
			for i, w := range tt.want {
				assert.Contains(t, got[i], w)
			}
		})
	}
}

func TestAssetsListNamesOnlyPathsWithReasons(t *testing.T) {
	allowed := parseAssets(assetsFile)
	require.NotEmpty(t, allowed, "assets.txt lists the screenshot at least")
	for _, line := range strings.Split(assetsFile, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		path, reason, ok := strings.Cut(line, "#")
		assert.True(t, ok && strings.TrimSpace(reason) != "", "%s: each asset says why it is kept", strings.TrimSpace(path))
	}
}

func TestSubjects(t *testing.T) {
	tests := []struct {
		name    string
		message string
		ok      bool
	}{
		{"a subject of 72 characters passes", strings.Repeat("x", 72) + "\n\nbody " + strings.Repeat("y", 200), true},
		{"a subject of 73 characters is refused", strings.Repeat("x", 73), false},
		{"characters are counted, not bytes", strings.Repeat("é", 72), true},
		{"the editor's comment lines are not the subject", "# Please enter the commit message\n\nauth: hash tokens\n# " + strings.Repeat("z", 100), true},
		{"a long body line is the body's business", "short\n\n" + strings.Repeat("w", 300), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problems := subjectProblems(messageSubject(tt.message))
			assert.Equal(t, tt.ok, len(problems) == 0, "problems: %q", problems)
		})
	}
}

// gitRepo makes a repository in a temporary directory with one commit per
// subject, and returns it with the hash of each commit.
func gitRepo(t *testing.T, subjects ...string) (string, []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
		return strings.TrimSpace(string(out))
	}
	run("init", "-q")
	var hashes []string
	for i, s := range subjects {
		require.NoError(t, os.WriteFile(filepath.Join(dir, "f.txt"), []byte(strings.Repeat("x", i+1)), 0o644))
		run("add", "f.txt")
		run("commit", "-q", "-m", s+"\n\nthe body may be as long as it needs "+strings.Repeat("b", 100))
		hashes = append(hashes, run("rev-parse", "HEAD"))
	}
	return dir, hashes
}

func TestCheckCommits(t *testing.T) {
	long := strings.Repeat("L", 80)
	dir, hashes := gitRepo(t, long, "base: the rule starts here", "ok: a short subject", long+" again")

	t.Run("only commits after the base are judged", func(t *testing.T) {
		problems, err := checkCommits(dir, hashes[1])
		require.NoError(t, err)
		require.Len(t, problems, 1)
		assert.True(t, strings.HasPrefix(problems[0], hashes[3][:7]), problems[0])
		assert.Contains(t, problems[0], "the subject is 86 characters, at most 72")
	})
	t.Run("a history with only short subjects after the base passes", func(t *testing.T) {
		problems, err := checkCommits(dir, hashes[3])
		require.NoError(t, err)
		assert.Empty(t, problems)
	})
	t.Run("a clone without the base commit is skipped", func(t *testing.T) {
		_, err := checkCommits(dir, strings.Repeat("1", 40))
		assert.ErrorIs(t, err, errNoGit)
	})
	t.Run("a directory outside any checkout is skipped", func(t *testing.T) {
		_, err := checkCommits(t.TempDir(), hashes[0])
		if err == nil || !strings.Contains(err.Error(), "not a git checkout") {
			// TempDir may sit inside a checkout on some machines; then
			// git answers for that checkout and this case says nothing.
			t.Skipf("the temporary directory is inside a git checkout: %v", err)
		}
		assert.ErrorIs(t, err, errNoGit)
	})
}

func TestCheckTrackedSkipsOutsideGit(t *testing.T) {
	_, err := checkTracked(t.TempDir())
	if err == nil {
		t.Skip("the temporary directory is inside a git checkout")
	}
	assert.ErrorIs(t, err, errNoGit)
}
