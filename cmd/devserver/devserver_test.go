package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/bizplatform/api/internal/testenv"
)

const demoToken = "bpt_DemoAllScopesAlphaLocal0000000011xFMXT"

type devserver struct {
	cmd    *exec.Cmd
	lines  chan string
	url    string
	engine string
}

// start runs the built devserver as make run does and waits until it serves.
func start(t *testing.T, bin string, env []string) (*devserver, []string) {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = filepath.Join("..", "..")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = io.Discard
	require.NoError(t, cmd.Start())
	d := &devserver{cmd: cmd, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			d.lines <- sc.Text()
		}
		close(d.lines)
	}()
	var banner []string
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-d.lines:
			require.True(t, ok, "devserver exited early: %v", banner)
			banner = append(banner, line)
			if m := regexp.MustCompile(`dynalite at (http://\S+)`).FindStringSubmatch(line); m != nil {
				d.engine = m[1]
			}
			if m := regexp.MustCompile(`on (http://\S+) `).FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "Serving") {
				d.url = m[1]
				return d, banner
			}
		case <-timeout:
			_ = cmd.Process.Kill()
			t.Fatalf("devserver did not start: %v", banner)
		}
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (d *devserver) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, d.cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case err := <-done:
		assert.NoError(t, err, "exit status after SIGTERM")
	case <-time.After(20 * time.Second):
		_ = d.cmd.Process.Kill()
		t.Fatal("devserver did not stop within 20s of SIGTERM")
	}
}

func freePort(t *testing.T) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func TestDevserverServesTheDemoAndKeepsDataAcrossRestarts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the local server")
	}
	testenv.Endpoint(t) // fails early with a clear message when dynalite is not installed
	bin := filepath.Join(t.TempDir(), "devserver")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	env := []string{
		fmt.Sprintf("PORT=%d", freePort(t)), "DYNALITE_PORT=0", "DYNALITE_DATA_DIR=" + t.TempDir(),
		"TABLE_NAME=platform", "DYNAMODB_ENDPOINT=",
	}

	d, banner := start(t, bin, env)
	text := strings.Join(banner, "\n")
	assert.Contains(t, text, "demo dataset loaded")
	assert.Contains(t, text, demoToken, "the demo tokens are printed on first start")
	assert.Contains(t, text, "Serving 21 operations of 15 areas")

	call := func(method, path string) int {
		req, _ := http.NewRequest(method, d.url+path, nil)
		req.Header.Set("Authorization", "Bearer "+demoToken)
		req.Header.Set("Version", "2021-07-28")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp.StatusCode
	}
	assert.Equal(t, 200, call("GET", "/contacts/?locationId=demoLocAlpha00000001"))
	assert.Equal(t, 200, call("DELETE", "/contacts/demoCtcAlpha00000001/tasks/demoTskAlpha00000001"))
	engine := d.engine
	d.stop(t)
	_, err = http.Get(engine)
	assert.Error(t, err, "the engine stopped with the server")

	d, banner = start(t, bin, env)
	defer d.stop(t)
	text = strings.Join(banner, "\n")
	assert.Contains(t, text, "keeping its data")
	assert.NotContains(t, text, demoToken, "tokens are shown once")
	assert.Equal(t, 404, call("DELETE", "/contacts/demoCtcAlpha00000001/tasks/demoTskAlpha00000001"), "the deletion survived the restart")
	assert.Equal(t, 200, call("GET", "/contacts/?locationId=demoLocAlpha00000001"))
}
