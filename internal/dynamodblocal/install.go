// Package dynamodblocal installs and starts DynamoDB Local, AWS's own
// DynamoDB emulator (a Java program), for make run, make test and the
// measuring tools.
//
// The engine comes from the npm registry, by package name and pinned
// version: the npm package amplify-dynamodb-simulator carries it in its
// emulator/ folder. Install fetches that package with `npm pack` (npm's
// cache answers repeated installs), checks it against the integrity pinned
// here, and keeps only the emulator under .local/, which git ignores: the
// repository never holds the engine, whose licence (AWS's, for use with
// AWS, no redistribution) the user accepts by running it.
package dynamodblocal

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The pinned engine: the npm package that carries it, its version and its
// integrity (the registry's dist.integrity of that version), and the
// DynamoDB Local release inside it.
const (
	Package        = "amplify-dynamodb-simulator"
	PackageVersion = "2.9.30"
	Integrity      = "sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ=="
	EngineVersion  = "1.25.1"
)

// jarName is the engine's entry point inside the installed folder.
const jarName = "DynamoDBLocal.jar"

// InstallDir is where the engine lives once installed in the repository
// at root.
func InstallDir(root string) string {
	return filepath.Join(root, ".local", "dynamodb-local", PackageVersion)
}

// Installed reports whether the engine is installed in the repository at
// root.
func Installed(root string) bool {
	_, err := os.Stat(filepath.Join(InstallDir(root), jarName))
	return err == nil
}

// Install puts the engine under InstallDir(root) unless it is there
// already, and returns that folder. Progress (one line) goes to log.
func Install(ctx context.Context, root string, log io.Writer) (string, error) {
	dir := InstallDir(root)
	if Installed(root) {
		return dir, nil
	}
	if log == nil {
		log = io.Discard
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", errors.New("npm is required to fetch DynamoDB Local (install Node.js and npm)")
	}
	fmt.Fprintf(log, "Installing DynamoDB Local %s from the npm registry (%s@%s) into %s\n", EngineVersion, Package, PackageVersion, dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	work, err := os.MkdirTemp(parent, ".install-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(work)

	cmd := exec.CommandContext(ctx, "npm", "pack", "--silent", "--pack-destination", work, Package+"@"+PackageVersion)
	cmd.Dir = work
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("npm pack %s@%s: %w: %s", Package, PackageVersion, err, strings.TrimSpace(stderr.String()))
	}
	tarball := filepath.Join(work, strings.TrimSpace(lastLine(string(out))))
	if err := checkIntegrity(tarball, Integrity); err != nil {
		return "", err
	}
	staged := filepath.Join(work, "emulator")
	if err := extractEmulator(tarball, staged); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(staged, jarName)); err != nil {
		return "", fmt.Errorf("%s@%s holds no emulator/%s", Package, PackageVersion, jarName)
	}
	// Another install may have finished meanwhile: its folder is as good.
	if err := os.Rename(staged, dir); err != nil && !Installed(root) {
		return "", err
	}
	return dir, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// checkIntegrity compares the file's SHA-512 with an npm integrity string
// ("sha512-" + base64 digest).
func checkIntegrity(path, integrity string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha512.New()
	if _, err := io.Copy(h, f); err != nil {
		return err
	}
	got := "sha512-" + base64.StdEncoding.EncodeToString(h.Sum(nil))
	if got != integrity {
		return fmt.Errorf("%s@%s does not match its pinned integrity: got %s, want %s", Package, PackageVersion, got, integrity)
	}
	return nil
}

// extractEmulator writes the files under package/emulator/ of the tarball
// into dir, and nothing else of the package.
func extractEmulator(tarball, dir string) error {
	f, err := os.Open(tarball)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("read %s: %w", filepath.Base(tarball), err)
	}
	const prefix = "package/emulator/"
	r := tar.NewReader(gz)
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", filepath.Base(tarball), err)
		}
		name := filepath.ToSlash(filepath.Clean(h.Name))
		if h.Typeflag != tar.TypeReg || !strings.HasPrefix(name, prefix) {
			continue
		}
		rel := strings.TrimPrefix(name, prefix)
		if rel == "" || strings.Contains(rel, "..") {
			continue
		}
		dst := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := writeFile(dst, r); err != nil {
			return err
		}
	}
}

func writeFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
