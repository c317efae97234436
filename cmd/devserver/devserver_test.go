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

	"github.com/bizplatform/api/shared/operations"
)

const demoToken = "bpt_DemoAllScopesAlphaLocal0000000011xFMXT"

// startWait bounds a devserver's start (or its refusal) in these tests.
const startWait = 3 * time.Minute

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
	// A first start loads the demo dataset into a new engine: seconds on a
	// quiet machine, a minute or more on a busy one (make test runs other
	// packages beside this one).
	timeout := time.After(startWait)
	for {
		select {
		case line, ok := <-d.lines:
			require.True(t, ok, "devserver exited early: %v", banner)
			banner = append(banner, line)
			if m := regexp.MustCompile(`DynamoDB Local \S+ at (http://\S+)`).FindStringSubmatch(line); m != nil {
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

// buildDevserver builds the devserver as make run does.
func buildDevserver(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "devserver")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
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
	bin := buildDevserver(t)
	env := []string{
		fmt.Sprintf("PORT=%d", freePort(t)), "DYNAMODB_LOCAL_PORT=0", "DYNAMODB_LOCAL_DATA_DIR=" + testenv.DataDir(t),
		"TABLE_NAME=platform", "DYNAMODB_ENDPOINT=",
	}

	d, banner := start(t, bin, env)
	text := strings.Join(banner, "\n")
	assert.Contains(t, text, "Demo dataset loaded")
	assert.Contains(t, text, demoToken, "the demo tokens are printed on first start")
	assert.Contains(t, text, fmt.Sprintf("Serving %d operations of %d areas", len(operations.All), len(operations.Areas)))
	// The lines after the one start waits for: the API reference, the
	// portal, and the portal's address for platformctl's invite links.
	after := []string{<-d.lines, <-d.lines, <-d.lines}
	assert.Equal(t, "  (for the CLI's invite links: export PORTAL_URL="+d.url+")", after[2], "invite links name the port the server is on")

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
	_, err := http.Get(engine)
	assert.Error(t, err, "the engine stopped with the server")

	d, banner = start(t, bin, env)
	defer d.stop(t)
	text = strings.Join(banner, "\n")
	assert.Contains(t, text, "keeping its data")
	assert.NotContains(t, text, demoToken, "tokens are shown once")
	assert.Equal(t, 404, call("DELETE", "/contacts/demoCtcAlpha00000001/tasks/demoTskAlpha00000001"), "the deletion survived the restart")
	assert.Equal(t, 200, call("GET", "/contacts/?locationId=demoLocAlpha00000001"))
}

func TestSIGTERMLetsAnInFlightRequestFinishThenStopsTheEngineWithItsWriteOnDisk(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the local server")
	}
	bin := buildDevserver(t)
	env := []string{
		fmt.Sprintf("PORT=%d", freePort(t)), "DYNAMODB_LOCAL_PORT=0", "DYNAMODB_LOCAL_DATA_DIR=" + testenv.DataDir(t),
		"TABLE_NAME=platform", "DYNAMODB_ENDPOINT=",
	}
	d, _ := start(t, bin, env)
	engine := d.engine

	// A rename whose body arrives in two parts: the request is in flight
	// (headers read, body pending) when the signal comes.
	body := `{"name":"Renamed during shutdown","altType":"account","altId":"demoLocAlpha00000001"}`
	conn, err := net.Dial("tcp", strings.TrimPrefix(d.url, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST /medias/demoFldAlpha00000005 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\nVersion: 2021-07-28\r\n"+
		"Content-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", demoToken, len(body), body[:20])
	require.NoError(t, err)
	time.Sleep(300 * time.Millisecond) // the server has read the headers

	require.NoError(t, d.cmd.Process.Signal(syscall.SIGTERM))
	exited := make(chan error, 1)
	go func() { exited <- d.cmd.Wait() }()
	time.Sleep(500 * time.Millisecond)
	select {
	case err := <-exited:
		t.Fatalf("the server exited (%v) with a request in flight", err)
	default:
	}
	_, err = http.Get(d.url + "/contacts/")
	assert.Error(t, err, "no new connection is accepted once shutting down")

	_, err = io.WriteString(conn, body[20:])
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "the in-flight request got its answer")
	answer, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 200, resp.StatusCode, "body: %s", answer)

	select {
	case err := <-exited:
		assert.NoError(t, err, "clean exit after SIGTERM")
	case <-time.After(20 * time.Second):
		_ = d.cmd.Process.Kill()
		t.Fatal("the server did not exit after its last request")
	}
	var lines []string
	for line := range d.lines {
		lines = append(lines, line)
	}
	assert.Contains(t, strings.Join(lines, "\n"), "Every in-flight request finished.")
	assert.Contains(t, strings.Join(lines, "\n"), "Stopped the local engine.")
	_, err = http.Get(engine)
	assert.Error(t, err, "the engine stopped with the server")

	d, _ = start(t, bin, env)
	defer d.stop(t)
	req, _ := http.NewRequest("GET", d.url+"/medias/files?altType=account&altId=demoLocAlpha00000001&type=folder&fetchAll=true&sortBy=name&sortOrder=asc&limit=100", nil)
	req.Header.Set("Authorization", "Bearer "+demoToken)
	req.Header.Set("Version", "2021-07-28")
	listed, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer listed.Body.Close()
	raw, _ := io.ReadAll(listed.Body)
	require.Equal(t, 200, listed.StatusCode, "%s", raw)
	assert.Contains(t, string(raw), `"name":"Renamed during shutdown"`, "the write finished during shutdown is on disk and seen by the next start")
}

// refused runs the devserver expecting it to refuse to start, and returns
// what it printed on stderr.
func refused(t *testing.T, bin string, env []string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	cmd.Dir = filepath.Join("..", "..")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	require.NoError(t, cmd.Start())
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "the devserver started: %s", stdout.String())
		assert.Equal(t, 1, exit.ExitCode())
	case <-time.After(startWait):
		_ = cmd.Process.Kill()
		t.Fatalf("the devserver neither started nor refused: %s", stdout.String())
	}
	return stderr.String()
}

// fixIn returns the environment the message's suggested command sets.
var suggested = regexp.MustCompile(`: ((?:[A-Z_]+=\S+ )+)make run$`)

func fixIn(t *testing.T, line string) []string {
	t.Helper()
	m := suggested.FindStringSubmatch(line)
	require.NotNil(t, m, "the line ends with a command to run: %s", line)
	return strings.Fields(m[1])
}

func TestASecondMakeRunSaysInOneLineWhatHoldsItAndAFixThatWorks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the local server several times")
	}
	bin := buildDevserver(t)
	env := func(port, enginePort int, dataDir string) []string {
		return []string{fmt.Sprintf("PORT=%d", port), fmt.Sprintf("DYNAMODB_LOCAL_PORT=%d", enginePort), "DYNAMODB_LOCAL_DATA_DIR=" + dataDir, "TABLE_NAME=platform", "DYNAMODB_ENDPOINT="}
	}
	firstPort, firstEngine, firstData := freePort(t), freePort(t), testenv.DataDir(t)
	first, _ := start(t, bin, env(firstPort, firstEngine, firstData))
	defer first.stop(t)

	hold := func(t *testing.T) int { // another program on a port
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		t.Cleanup(func() { ln.Close() })
		return ln.Addr().(*net.TCPAddr).Port
	}
	for _, tc := range []struct {
		name  string
		env   func(t *testing.T) []string
		says  []string
		fixes string // the variable the fix sets
	}{
		{"the same make run again: the API's and the engine's ports are another make run's",
			func(*testing.T) []string { return env(firstPort, firstEngine, firstData) },
			[]string{fmt.Sprintf("port %d (the API) and port %d (its engine) are in use, likely by another make run", firstPort, firstEngine), "Ctrl-C"},
			"DYNAMODB_ENDPOINT=http://127.0.0.1:" + fmt.Sprint(firstEngine)},
		{"another port for the API: the engine's port is another make run's",
			func(*testing.T) []string { return env(freePort(t), firstEngine, firstData) },
			[]string{fmt.Sprintf("port %d is in use by another local engine", firstEngine)},
			"DYNAMODB_ENDPOINT=http://127.0.0.1:" + fmt.Sprint(firstEngine)},
		{"other ports: the data directory is another make run's",
			func(*testing.T) []string { return env(freePort(t), freePort(t), firstData) },
			[]string{"the data directory " + firstData + " is in use by another local engine"},
			"DYNAMODB_LOCAL_DATA_DIR=" + firstData + "-2"},
		{"another program holds the API's port",
			func(t *testing.T) []string { return env(hold(t), 0, testenv.DataDir(t)) },
			[]string{"is in use by another program (lsof -i :", "serve on another port"},
			"PORT="},
		{"another program holds the engine's port",
			func(t *testing.T) []string { return env(freePort(t), hold(t), testenv.DataDir(t)) },
			[]string{"(the local engine) is in use by another program", "choose another port for the engine"},
			"DYNAMODB_LOCAL_PORT="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := tc.env(t)
			stderr := refused(t, bin, base)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			require.Len(t, lines, 1, "one line, no stack trace: %s", stderr)
			line := lines[0]
			for _, part := range tc.says {
				assert.Contains(t, line, part)
			}
			fix := fixIn(t, line)
			assert.Contains(t, strings.Join(fix, " "), tc.fixes)
			for _, v := range fix { // a data directory the fix names is the test's too
				if dir, ok := strings.CutPrefix(v, "DYNAMODB_LOCAL_DATA_DIR="); ok && dir != "" {
					t.Cleanup(func() { _ = os.RemoveAll(dir) })
				}
			}

			d, _ := start(t, bin, append(base, fix...))
			req, _ := http.NewRequest("GET", d.url+"/contacts/?locationId=demoLocAlpha00000001", nil)
			req.Header.Set("Authorization", "Bearer "+demoToken)
			req.Header.Set("Version", "2021-07-28")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusOK, resp.StatusCode, "the fix serves the API")
			d.stop(t)
		})
	}
}

func TestMakeRunWithoutJavaSaysInOneLineWhatToInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the local server")
	}
	bin := buildDevserver(t)
	noJava := t.TempDir() // a PATH where no java is found
	stderr := refused(t, bin, []string{"PATH=" + noJava, fmt.Sprintf("PORT=%d", freePort(t)),
		"DYNAMODB_LOCAL_PORT=0", "DYNAMODB_LOCAL_DATA_DIR=" + testenv.DataDir(t), "DYNAMODB_ENDPOINT="})
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	require.Len(t, lines, 1, "one line: %s", stderr)
	assert.Contains(t, lines[0], "Java 17")
	assert.Contains(t, lines[0], "apt-get install default-jre-headless")
}
