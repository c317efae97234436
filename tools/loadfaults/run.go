package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/bizplatform/api/internal/dynamodblocal"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// restartGrace is how long after the engine is back a failure still counts
// as part of the outage (the server's first calls find its old connections
// closed and retry).
const restartGrace = time.Second

// outage is when the engine was down, as the load saw it.
type outage struct {
	killedAt, restartedAt time.Time
}

// covers reports whether a request sent at sent and answered at recv
// overlapped the outage (grace included).
func (o outage) covers(sent, recv time.Time) bool {
	return !recv.Before(o.killedAt) && !sent.After(o.restartedAt.Add(restartGrace))
}

func run(ctx context.Context, o options, out io.Writer) (bool, error) {
	if o.window%time.Second != 0 || o.window <= 0 {
		return false, fmt.Errorf("-window must be whole seconds, got %s", o.window)
	}
	wd, err := os.Getwd()
	if err != nil {
		return false, err
	}
	root, err := dynamodblocal.FindRoot(wd)
	if err != nil {
		return false, err
	}
	tmp, err := os.MkdirTemp("", "loadfaults-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	dataDir := o.dataDir
	if dataDir == "" {
		dataDir = filepath.Join(tmp, "data")
	}

	engine, err := dynamodblocal.Start(ctx, dynamodblocal.Options{Root: root, DataDir: dataDir, Port: o.enginePort})
	if err != nil {
		return false, err
	}
	defer func() { _ = engine.Stop() }()
	fmt.Fprintf(out, "engine: DynamoDB Local at %s, data in %s\n", engine.Endpoint, dataDir)

	bin := filepath.Join(tmp, "devserver")
	build := exec.Command("go", "build", "-o", bin, "./cmd/devserver")
	build.Dir = root
	if msg, err := build.CombinedOutput(); err != nil {
		return false, fmt.Errorf("build the server: %v: %s", err, msg)
	}
	port := o.port
	if port == 0 {
		if port, err = dynamodblocal.FreePort(); err != nil {
			return false, err
		}
	}
	srv, err := startServer(ctx, bin, root, []string{
		fmt.Sprintf("PORT=%d", port), "DYNAMODB_ENDPOINT=" + engine.Endpoint, "TABLE_NAME=platform",
		fmt.Sprintf("RATE_LIMIT_BURST=%d", o.burst), fmt.Sprintf("RATE_LIMIT_WINDOW_SECONDS=%d", int(o.window/time.Second)),
		"LOG_LEVEL=warn",
	}, filepath.Join(tmp, "server.log"))
	if err != nil {
		return false, err
	}
	defer srv.stop(out)
	base := fmt.Sprintf("http://127.0.0.1:%d", port)
	fmt.Fprintf(out, "server: %s (RATE_LIMIT_BURST=%d per %s)\n", base, o.burst, o.window)

	w, err := newWorkload(base, o)
	if err != nil {
		return false, err
	}
	runCtx, cancel := context.WithTimeout(ctx, o.duration)
	defer cancel()
	var out2 outage
	faultDone := make(chan error, 1)
	go func() {
		select {
		case <-runCtx.Done():
			faultDone <- errors.New("the run ended before the outage")
			return
		case <-time.After(o.duration / 2):
		}
		out2.killedAt = time.Now()
		if err := engine.Kill(); err != nil {
			faultDone <- err
			return
		}
		fmt.Fprintf(out, "%s engine killed (SIGKILL)\n", out2.killedAt.Format("15:04:05.000"))
		time.Sleep(o.outage)
		restartCtx, c := context.WithTimeout(context.Background(), time.Minute)
		defer c()
		if err := engine.Restart(restartCtx); err != nil {
			faultDone <- err
			return
		}
		out2.restartedAt = time.Now()
		fmt.Fprintf(out, "%s engine back on the same port with the same data\n", out2.restartedAt.Format("15:04:05.000"))
		faultDone <- nil
	}()
	fmt.Fprintf(out, "running the workload for %s (main account %.0f req/s, probe account %.0f req/s)...\n", o.duration, o.rate, o.probeRate)
	w.run(runCtx)
	if err := <-faultDone; err != nil {
		return false, err
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}

	db, err := dynamo.NewClient(ctx, engine.Endpoint, "us-east-1", nil)
	if err != nil {
		return false, err
	}
	items, err := partition(ctx, &storage.Table{DB: db, Name: "platform"}, storage.AccountPK(alpha))
	if err != nil {
		return false, fmt.Errorf("read back: %w", err)
	}
	return report(out, o, w, out2, items), nil
}

type server struct {
	cmd    *exec.Cmd
	exited chan error
}

// startServer runs the devserver and waits until it serves.
func startServer(ctx context.Context, bin, root string, env []string, logFile string) (*server, error) {
	logs, err := os.Create(logFile)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = logs
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, exited: make(chan error, 1)}
	serving := make(chan struct{})
	var banner []string
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			mu.Lock()
			banner = append(banner, sc.Text())
			mu.Unlock()
			if strings.HasPrefix(sc.Text(), "Serving ") {
				close(serving)
			}
		}
	}()
	go func() { s.exited <- cmd.Wait() }()
	select {
	case <-serving:
		return s, nil
	case err := <-s.exited:
		mu.Lock()
		defer mu.Unlock()
		return nil, fmt.Errorf("the server exited: %v: %s", err, strings.Join(banner, "\n"))
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		return nil, errors.New("the server did not start within 2 minutes")
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		return nil, ctx.Err()
	}
}

func (s *server) stop(out io.Writer) {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-s.exited:
		if err != nil {
			fmt.Fprintln(out, "server exit:", err)
		}
	case <-time.After(30 * time.Second):
		_ = s.cmd.Process.Kill()
		fmt.Fprintln(out, "the server did not stop within 30 s of SIGTERM; killed")
	}
}
