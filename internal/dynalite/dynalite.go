// Package dynalite starts the local DynamoDB-compatible engine (npm package
// dynalite, pinned in package-lock.json) as a child process.
package dynalite

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

//go:embed server.js
var serverJS []byte

// Options say where the engine keeps its data and which port it binds.
type Options struct {
	// Root is the module root, whose node_modules holds dynalite.
	Root string
	// DataDir keeps the data on disk; empty keeps it in memory.
	DataDir string
	// Port to listen on 127.0.0.1; 0 picks a free one.
	Port int
	// Log receives the engine's stderr; nil discards it.
	Log io.Writer
}

// Errors of Start when the engine cannot have what it asked for.
var (
	// ErrPortInUse: something else listens on Options.Port.
	ErrPortInUse = errors.New("port in use")
	// ErrDataDirInUse: another engine holds Options.DataDir (LevelDB locks
	// the directory it opens).
	ErrDataDirInUse = errors.New("data directory in use by another engine")
)

// Server is a running engine.
type Server struct {
	// Endpoint is the engine's URL, for DYNAMODB_ENDPOINT.
	Endpoint string
	Port     int

	opts  Options
	cmd   *exec.Cmd
	stdin io.WriteCloser
	// exited is closed when the process has exited; exitErr is then set.
	exited  chan struct{}
	exitErr error
}

// Pid is the engine process's id (for measuring its CPU time).
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Start launches the engine and waits until it listens.
func Start(ctx context.Context, opts Options) (*Server, error) {
	modules := filepath.Join(opts.Root, "node_modules")
	if _, err := os.Stat(filepath.Join(modules, "dynalite", "package.json")); err != nil {
		return nil, fmt.Errorf("dynalite is not installed under %s: run `npm ci` in %s (make run and make test do it)", modules, opts.Root)
	}
	script, err := os.CreateTemp("", "dynalite-*.js")
	if err != nil {
		return nil, err
	}
	defer os.Remove(script.Name()) // node has read it once it prints its port
	if _, err := script.Write(serverJS); err != nil {
		return nil, err
	}
	_ = script.Close()

	args := []string{script.Name(), "--port", fmt.Sprint(opts.Port)}
	if opts.DataDir != "" {
		if err := os.MkdirAll(opts.DataDir, 0o755); err != nil {
			return nil, err
		}
		args = append(args, "--path", opts.DataDir)
	}
	cmd := exec.Command("node", args...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Stderr = opts.Log
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node (is Node.js installed?): %w", err)
	}
	s := &Server{opts: opts, cmd: cmd, stdin: stdin, exited: make(chan struct{})}

	ready := make(chan int, 1)
	refused := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			var msg struct {
				Port          int
				Error, Detail string
			}
			switch {
			case json.Unmarshal(sc.Bytes(), &msg) != nil:
			case msg.Port > 0:
				ready <- msg.Port
			case msg.Error != "":
				refused <- startError(opts, msg.Error, msg.Detail)
			}
		}
		// Only now: Wait closes stdout, and what the engine said last
		// before exiting must be read first.
		s.exitErr = cmd.Wait()
		close(s.exited)
	}()

	select {
	case port := <-ready:
		s.Port = port
		s.Endpoint = fmt.Sprintf("http://127.0.0.1:%d", port)
		return s, nil
	case err := <-refused:
		<-s.exited
		return nil, err
	case <-s.exited:
		select {
		case err := <-refused: // reported just before exiting
			return nil, err
		default:
		}
		return nil, fmt.Errorf("dynalite exited before listening: %v", s.exitErr)
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		return nil, errors.New("dynalite did not start within 30s")
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		return nil, ctx.Err()
	}
}

func startError(opts Options, reason, detail string) error {
	switch reason {
	case "port-in-use":
		return fmt.Errorf("port %d: %w", opts.Port, ErrPortInUse)
	case "data-dir-locked":
		return fmt.Errorf("%s: %w", opts.DataDir, ErrDataDirInUse)
	default:
		return fmt.Errorf("dynalite could not start (%s): %s", reason, detail)
	}
}

// Stop asks the engine to exit (it flushes its data) and waits for it.
func (s *Server) Stop() error {
	_ = s.stdin.Close()
	select {
	case <-s.exited:
		return nil
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		return errors.New("dynalite did not stop within 10s; killed")
	}
}

// Kill ends the engine abruptly (SIGKILL), as a crash would: open
// connections break and nothing is flushed beyond what it already wrote.
func (s *Server) Kill() error {
	_ = s.cmd.Process.Kill()
	select {
	case <-s.exited:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("dynalite did not exit within 10s of SIGKILL")
	}
}

// Restart starts the engine again on the same port with the same data
// directory, after Stop or Kill (it stops a running engine first). The
// Server is then the new process; it is not safe to call concurrently with
// Stop or Kill.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.Stop(); err != nil { // at once when it has already exited
		return err
	}
	opts := s.opts
	opts.Port = s.Port
	var next *Server
	var err error
	// The old process's port may take a moment to be free again.
	for attempt := 0; attempt < 50; attempt++ {
		if next, err = Start(ctx, opts); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err != nil {
		return fmt.Errorf("restart dynalite on port %d: %w", s.Port, err)
	}
	*s = *next
	return nil
}

// Exited is closed once the engine's process has exited.
func (s *Server) Exited() <-chan struct{} { return s.exited }

// FindRoot walks up from dir to the directory holding go.mod.
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}
