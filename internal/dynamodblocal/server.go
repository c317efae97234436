package dynamodblocal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Options say where the engine keeps its data and which port it binds.
type Options struct {
	// Root is the repository root: the engine is installed under it
	// (InstallDir), fetched on first use.
	Root string
	// DataDir keeps the data on disk, across restarts (-dbPath); empty keeps
	// it in memory.
	DataDir string
	// Port to listen on; 0 picks a free one.
	Port int
	// Log receives what the engine prints once it answers (Java's errors,
	// never its start-up banner); nil discards it.
	Log io.Writer
}

// Errors of Start when the engine cannot have what it asked for.
var (
	// ErrPortInUse: something else listens on Options.Port.
	ErrPortInUse = errors.New("port in use")
	// ErrDataDirInUse: another engine holds Options.DataDir.
	ErrDataDirInUse = errors.New("data directory in use by another engine")
	// ErrNoJava: no Java 17 or later on the PATH.
	ErrNoJava = errors.New("DynamoDB Local needs Java 17 or later: install it (Debian/Ubuntu: sudo apt-get install default-jre-headless; macOS: brew install openjdk@17)")
)

// startTimeout bounds the wait for a new engine to answer; a JVM on a
// loaded machine (a test run compiling beside it) needs a few seconds.
const startTimeout = 60 * time.Second

// Server is a running engine.
type Server struct {
	// Endpoint is the engine's URL, for DYNAMODB_ENDPOINT.
	Endpoint string
	Port     int

	opts Options
	cmd  *exec.Cmd
	lock *os.File // the data directory's lock, held while the engine runs
	// exited is closed when the process has exited; exitErr is then set.
	exited  chan struct{}
	exitErr error
	output  *tailBuffer
}

// Pid is the engine process's id (for measuring its CPU time).
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Start installs the engine when needed, launches it and waits until it
// answers DynamoDB requests.
func Start(ctx context.Context, opts Options) (*Server, error) {
	if err := CheckJava(); err != nil {
		return nil, err
	}
	dir, err := Install(ctx, opts.Root, opts.Log)
	if err != nil {
		return nil, err
	}
	// The port first: on a port another engine holds, that engine (and the
	// data it serves) is what the caller wants to hear about.
	if opts.Port != 0 && !portFree(opts.Port) {
		return nil, fmt.Errorf("port %d: %w", opts.Port, ErrPortInUse)
	}
	var lock *os.File
	if opts.DataDir != "" {
		if err := os.MkdirAll(opts.DataDir, 0o755); err != nil {
			return nil, err
		}
		if lock, err = lockDataDir(opts.DataDir); err != nil {
			return nil, err
		}
	}
	s, err := launch(ctx, dir, opts, lock)
	if err != nil && lock != nil {
		_ = lock.Close()
	}
	return s, err
}

func launch(ctx context.Context, dir string, opts Options, lock *os.File) (*Server, error) {
	for attempt := 0; ; attempt++ {
		port := opts.Port
		if port == 0 {
			p, err := FreePort()
			if err != nil {
				return nil, err
			}
			port = p
		} else if !portFree(port) {
			return nil, fmt.Errorf("port %d: %w", port, ErrPortInUse)
		}
		s, err := launchOn(ctx, dir, opts, lock, port)
		// A port picked free may be taken before the engine binds it.
		if errors.Is(err, ErrPortInUse) && opts.Port == 0 && attempt < 5 {
			continue
		}
		return s, err
	}
}

func launchOn(ctx context.Context, dir string, opts Options, lock *os.File, port int) (*Server, error) {
	args := []string{
		"-Djava.library.path=" + filepath.Join(dir, "DynamoDBLocal_lib"),
		// Only the engine's warnings: its INFO lines would drown a test run.
		"-Dlog4j2.level=WARN",
		"-jar", filepath.Join(dir, jarName),
		"-port", strconv.Itoa(port),
		"-sharedDb", "-disableTelemetry",
	}
	if opts.DataDir != "" {
		abs, err := filepath.Abs(opts.DataDir)
		if err != nil {
			return nil, err
		}
		args = append(args, "-dbPath", abs)
	} else {
		args = append(args, "-inMemory")
	}
	cmd := exec.Command("java", args...)
	cmd.Dir = dir
	setParentDeathSignal(cmd)
	// The engine's banner stays out of the log; what it says once it
	// answers (Java's errors) goes there. Its last words are kept for the
	// error when it fails to start.
	output := &tailBuffer{limit: 8 << 10}
	w := &afterStart{tail: output, log: opts.Log}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start java: %w", err)
	}
	s := &Server{opts: opts, cmd: cmd, lock: lock, exited: make(chan struct{}), output: output, Port: port,
		Endpoint: fmt.Sprintf("http://127.0.0.1:%d", port)}
	go func() {
		s.exitErr = cmd.Wait()
		close(s.exited)
	}()

	deadline := time.Now().Add(startTimeout)
	for {
		if Answers(ctx, s.Endpoint) {
			w.started()
			return s, nil
		}
		select {
		case <-s.exited:
			if bindFailed(output.String()) {
				return nil, fmt.Errorf("port %d: %w", port, ErrPortInUse)
			}
			return nil, fmt.Errorf("DynamoDB Local exited before answering (%v): %s", s.exitErr, strings.TrimSpace(output.String()))
		case <-ctx.Done():
			_ = s.Kill()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			_ = s.Kill()
			return nil, fmt.Errorf("DynamoDB Local did not answer within %s: %s", startTimeout, strings.TrimSpace(output.String()))
		}
	}
}

var bindFailure = regexp.MustCompile(`(?i)address already in use|BindException`)

func bindFailed(output string) bool { return bindFailure.MatchString(output) }

// Answers reports whether a DynamoDB engine answers at endpoint: a
// ListTables request gets its JSON.
func Answers(ctx context.Context, endpoint string) bool {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader("{}"))
	if err != nil {
		return false
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return bytes.Contains(body, []byte(`"TableNames"`)) || bytes.Contains(body, []byte(`"__type"`))
}

// Stop ends the engine (SIGTERM: it closes its database) and waits for it.
func (s *Server) Stop() error {
	defer s.unlock()
	select {
	case <-s.exited:
		return nil
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
		return nil
	case <-time.After(10 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.exited
		return errors.New("DynamoDB Local did not stop within 10s; killed")
	}
}

// Kill ends the engine abruptly (SIGKILL), as a crash would: open
// connections break and nothing is flushed beyond what it already wrote.
func (s *Server) Kill() error {
	defer s.unlock()
	_ = s.cmd.Process.Kill()
	select {
	case <-s.exited:
		return nil
	case <-time.After(10 * time.Second):
		return errors.New("DynamoDB Local did not exit within 10s of SIGKILL")
	}
}

func (s *Server) unlock() {
	if s.lock != nil {
		_ = s.lock.Close()
		s.lock = nil
	}
}

// Restart starts the engine again on the same port with the same data
// directory, after Stop or Kill (it stops a running engine first). The
// Server is then the new process; it is not safe to call concurrently with
// Stop or Kill.
func (s *Server) Restart(ctx context.Context) error {
	if err := s.Stop(); err != nil {
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
		return fmt.Errorf("restart DynamoDB Local on port %d: %w", s.Port, err)
	}
	*s = *next
	return nil
}

// CheckJava reports ErrNoJava unless `java -version` names version 17 or
// later.
func CheckJava() error {
	out, err := exec.Command("java", "-version").CombinedOutput()
	if err != nil {
		return ErrNoJava
	}
	m := javaVersion.FindSubmatch(out)
	if m == nil {
		return ErrNoJava
	}
	if major, _ := strconv.Atoi(string(m[1])); major < 17 {
		return fmt.Errorf("found Java %s: %w", m[1], ErrNoJava)
	}
	return nil
}

var javaVersion = regexp.MustCompile(`version "(\d+)`)

// lockDataDir takes the data directory's lock file, or fails with
// ErrDataDirInUse when another engine holds it.
func lockDataDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ".engine.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", dir, ErrDataDirInUse)
		}
		return nil, err
	}
	return f, nil
}

// FreePort is a TCP port nothing listens on at 127.0.0.1 now (another
// process may take it before the caller binds it).
func FreePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// portFree reports whether nothing listens on port (the engine binds every
// interface, so the wildcard address is what must be free).
func portFree(port int) bool {
	ln, err := net.Listen("tcp", ":"+strconv.Itoa(port))
	if err != nil {
		return false
	}
	_ = ln.Close()
	return true
}

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

// afterStart writes the engine's output to tail, and to log once started.
type afterStart struct {
	mu   sync.Mutex
	tail *tailBuffer
	log  io.Writer
	on   bool
}

func (w *afterStart) started() {
	w.mu.Lock()
	w.on = true
	w.mu.Unlock()
}

func (w *afterStart) Write(p []byte) (int, error) {
	_, _ = w.tail.Write(p)
	w.mu.Lock()
	on := w.on
	w.mu.Unlock()
	if on && w.log != nil {
		_, _ = w.log.Write(p)
	}
	return len(p), nil
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.limit {
		b.buf = b.buf[len(b.buf)-b.limit:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
