// Command repocheck keeps the repository readable: no tracked binary or
// large file that is not a documented asset, and commit subjects that fit
// `git log --oneline` on a screen. make lint runs both checks.
//
//	go run ./tools/repocheck files          tracked files against assets.txt
//	go run ./tools/repocheck commits        subjects after the base commit
//	go run ./tools/repocheck msg FILE       one commit message (the commit-msg hook)
//
// Outside a git checkout (a tarball) the git checks say so and pass.
package main

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"strings"
)

const (
	// MaxFileSize is the largest tracked file that needs no entry in assets.txt.
	MaxFileSize = 1 << 20
	// MaxSubject is the longest commit subject, the Go project's own rule.
	MaxSubject = 72
	// BaseCommit is main's HEAD when the subject rule came in: older history
	// is not judged.
	BaseCommit = "0c6d75c8b3a8e791bde075227f362406543c2dc0"
)

//go:embed assets.txt
var assetsFile string

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: repocheck files | commits | msg FILE")
		os.Exit(2)
	}
	var problems []string
	var err error
	switch os.Args[1] {
	case "files":
		problems, err = checkTracked(".")
	case "commits":
		problems, err = checkCommits(".", BaseCommit)
	case "msg":
		if len(os.Args) != 3 {
			fmt.Fprintln(os.Stderr, "usage: repocheck msg FILE")
			os.Exit(2)
		}
		var raw []byte
		raw, err = os.ReadFile(os.Args[2])
		if err == nil {
			problems = subjectProblems(messageSubject(string(raw)))
		}
	default:
		fmt.Fprintf(os.Stderr, "repocheck: unknown check %q\n", os.Args[1])
		os.Exit(2)
	}
	if errors.Is(err, errNoGit) {
		fmt.Printf("repocheck %s: skipped, %v\n", os.Args[1], err)
		return
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "repocheck %s: %v\n", os.Args[1], err)
		os.Exit(2)
	}
	for _, p := range problems {
		fmt.Fprintln(os.Stderr, p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
}

var errNoGit = errors.New("no git history here")

// git runs git in dir. A directory outside any checkout, or a machine
// without git, is errNoGit: a tarball has nothing to judge.
func git(dir string, args ...string) ([]byte, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w (git is not installed)", errNoGit)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if strings.Contains(stderr.String(), "not a git repository") {
			return nil, fmt.Errorf("%w (not a git checkout)", errNoGit)
		}
		return nil, fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// parseAssets reads assets.txt: a path per line, `#` starts a comment.
func parseAssets(text string) map[string]bool {
	allowed := map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			allowed[line] = true
		}
	}
	return allowed
}

// checkTracked judges every file git tracks in the checkout at dir.
func checkTracked(dir string) ([]string, error) {
	out, err := git(dir, "ls-files", "-z", "--full-name")
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	top, err := git(dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	return checkFiles(os.DirFS(strings.TrimSpace(string(top))), paths, parseAssets(assetsFile))
}

// checkFiles refuses each path that is binary or over MaxFileSize and not
// allowed, and each allowed path that is no longer tracked (a stale list
// hides nothing, but it misleads the reader).
func checkFiles(fsys fs.FS, paths []string, allowed map[string]bool) ([]string, error) {
	var problems []string
	tracked := map[string]bool{}
	for _, p := range paths {
		tracked[p] = true
		f, err := fsys.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree, not yet committed
		}
		if err != nil {
			return nil, err
		}
		info, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, err
		}
		binary, err := isBinary(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if allowed[p] {
			continue
		}
		switch {
		case binary:
			problems = append(problems, fmt.Sprintf("%s: a binary file is tracked; remove it (git rm --cached) or, if it is a documented asset, list it in tools/repocheck/assets.txt with its reason", p))
		case info.Size() > MaxFileSize:
			problems = append(problems, fmt.Sprintf("%s: %d bytes is over %d; remove it or list it in tools/repocheck/assets.txt with its reason", p, info.Size(), MaxFileSize))
		}
	}
	for p := range allowed {
		if !tracked[p] {
			problems = append(problems, fmt.Sprintf("tools/repocheck/assets.txt lists %s, which is not tracked: remove the line", p))
		}
	}
	return problems, nil
}

// isBinary applies git's own rule: a NUL byte in the first 8000 bytes.
func isBinary(r io.Reader) (bool, error) {
	head := make([]byte, 8000)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err
	}
	return bytes.IndexByte(head[:n], 0) >= 0, nil
}

// checkCommits judges the subject of each commit reachable from HEAD and
// not from base. A clone without base (shallow, or a history rewritten
// past it) is skipped: there is no fixed point to count from.
func checkCommits(dir, base string) ([]string, error) {
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", "HEAD"); err != nil {
		return nil, err
	}
	if _, err := git(dir, "cat-file", "-e", base+"^{commit}"); err != nil {
		if errors.Is(err, errNoGit) {
			return nil, err
		}
		return nil, fmt.Errorf("%w (the base commit %.7s is not in this clone)", errNoGit, base)
	}
	out, err := git(dir, "log", "--format=%h%x00%s%x00", base+"..HEAD")
	if err != nil {
		return nil, err
	}
	var problems []string
	fields := strings.Split(strings.TrimPrefix(string(out), "\n"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		hash, subject := strings.TrimSpace(fields[i]), fields[i+1]
		for _, p := range subjectProblems(subject) {
			problems = append(problems, hash+": "+p)
		}
	}
	return problems, nil
}

// messageSubject is the first line git keeps of a message: comment lines
// (the editor's template) and leading blank lines are dropped.
func messageSubject(msg string) string {
	for _, line := range strings.Split(msg, "\n") {
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		return strings.TrimRight(line, " \r")
	}
	return ""
}

func subjectProblems(subject string) []string {
	if n := len([]rune(subject)); n > MaxSubject {
		return []string{fmt.Sprintf("the subject is %d characters, at most %d: say what changed in the subject, the why and figures in the body\n    %s", n, MaxSubject, subject)}
	}
	return nil
}
