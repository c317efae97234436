package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/bizplatform/api/internal/dynamodblocal"
)

// What a second make run meets: the first holds the API's port, the
// engine's port and the engine's data directory (locked while its engine
// runs). Each
// case is explained in one line that says what holds what, and ends with a
// command that works: it keeps the environment make run was given and
// changes only what must change.

// launch is the environment make run was given.
type launch struct{ getenv func(string) string }

// command is make run with that environment, changed by set.
func (l launch) command(set map[string]string) string {
	value := func(k string) string {
		if v, ok := set[k]; ok {
			return v
		}
		return l.getenv(k)
	}
	vars := []string{"PORT", "DYNAMODB_ENDPOINT", "DYNAMODB_LOCAL_PORT", "DYNAMODB_LOCAL_DATA_DIR"}
	if value("DYNAMODB_ENDPOINT") != "" {
		vars = vars[:2] // no local engine to set up
	}
	var parts []string
	for _, k := range vars {
		if v := value(k); v != "" {
			parts = append(parts, k+"="+shellQuote(v))
		}
	}
	return strings.Join(append(parts, "make run"), " ")
}

// apiPortInUse explains why the API's port cannot be had.
func apiPortInUse(port int, eng engineSettings, endpoint string, l launch) error {
	free := strconv.Itoa(nextFreePort(port))
	if endpoint == "" && speaksDynamoDB(eng.port) {
		return fmt.Errorf("port %d (the API) and port %d (its engine) are in use, likely by another make run: stop it (Ctrl-C where it runs), "+
			"or run a second server on its engine and data: %s", port, eng.port,
			l.command(map[string]string{"PORT": free, "DYNAMODB_ENDPOINT": localURL(eng.port)}))
	}
	return fmt.Errorf("port %d is in use by another program (lsof -i :%d shows which): stop it, or serve on another port: %s",
		port, port, l.command(map[string]string{"PORT": free}))
}

// engineNotStarted explains why the engine could not start.
func engineNotStarted(err error, eng engineSettings, l launch) error {
	switch {
	case errors.Is(err, dynamodblocal.ErrNoJava):
		return err // says what to install
	case errors.Is(err, dynamodblocal.ErrPortInUse) && speaksDynamoDB(eng.port):
		return fmt.Errorf("port %d is in use by another local engine (another make run's?): stop it (Ctrl-C where it runs), "+
			"or serve from that engine and its data: %s", eng.port, l.command(map[string]string{"DYNAMODB_ENDPOINT": localURL(eng.port)}))
	case errors.Is(err, dynamodblocal.ErrPortInUse):
		return fmt.Errorf("port %d (the local engine) is in use by another program (lsof -i :%d shows which): stop it, "+
			"or choose another port for the engine: %s", eng.port, eng.port, l.command(map[string]string{"DYNAMODB_LOCAL_PORT": strconv.Itoa(nextFreePort(eng.port))}))
	case errors.Is(err, dynamodblocal.ErrDataDirInUse):
		return fmt.Errorf("the data directory %s is in use by another local engine (another make run's?): stop it (Ctrl-C where it runs), "+
			"or keep this server's data elsewhere: %s", eng.shownDataDir(), l.command(map[string]string{"DYNAMODB_LOCAL_DATA_DIR": eng.otherDataDir()}))
	default:
		return fmt.Errorf("start the local engine on port %d (set DYNAMODB_LOCAL_PORT to use another): %w", eng.port, err)
	}
}

// engineSettings say where the local engine listens and keeps its data.
type engineSettings struct {
	root    string // the repository root (.local holds the engine and its data)
	port    int
	dataDir string
}

func loadEngineSettings(getenv func(string) string) (engineSettings, error) {
	s := engineSettings{port: defaultEnginePort}
	if v := getenv("DYNAMODB_LOCAL_PORT"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || p < 0 || p > 65535 {
			return engineSettings{}, fmt.Errorf("DYNAMODB_LOCAL_PORT=%q is not a port", v)
		}
		s.port = p
	}
	wd, err := os.Getwd()
	if err != nil {
		return engineSettings{}, err
	}
	if s.root, err = dynamodblocal.FindRoot(wd); err != nil {
		return engineSettings{}, err
	}
	s.dataDir = getenv("DYNAMODB_LOCAL_DATA_DIR")
	if s.dataDir == "" {
		s.dataDir = filepath.Join(s.root, ".local", "dynamodb-data")
	}
	return s, nil
}

// shownDataDir is the data directory relative to the repository root when
// it is inside (as make run's working directory sees it).
func (s engineSettings) shownDataDir() string {
	if rel, err := filepath.Rel(s.root, s.dataDir); err == nil && !strings.HasPrefix(rel, "..") {
		return rel
	}
	return s.dataDir
}

// otherDataDir is a data directory beside this one that does not exist yet.
func (s engineSettings) otherDataDir() string {
	base := strings.TrimRight(s.shownDataDir(), string(filepath.Separator))
	for i := 2; ; i++ {
		dir := fmt.Sprintf("%s-%d", base, i)
		abs := dir
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(s.root, dir)
		}
		if _, err := os.Stat(abs); errors.Is(err, os.ErrNotExist) || i > 99 {
			return dir
		}
	}
}

// portInUse reports whether another process listens on 127.0.0.1:port.
func portInUse(port int) bool {
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return errors.Is(err, syscall.EADDRINUSE)
	}
	_ = ln.Close()
	return false
}

// nextFreePort is the first free port after port (port+1 when none of the
// next hundred is).
func nextFreePort(port int) int {
	for p := port + 1; p <= port+100 && p <= 65535; p++ {
		if !portInUse(p) {
			return p
		}
	}
	return port + 1
}

// speaksDynamoDB reports whether what listens on port answers like a
// DynamoDB engine: a request without credentials gets its JSON error.
func speaksDynamoDB(port int) bool {
	if port == 0 {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", localURL(port), strings.NewReader("{}"))
	if err != nil {
		return false
	}
	req.Header.Set("X-Amz-Target", "DynamoDB_20120810.ListTables")
	req.Header.Set("Content-Type", "application/x-amz-json-1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return strings.Contains(string(body), `"__type"`)
}

func localURL(port int) string { return fmt.Sprintf("http://127.0.0.1:%d", port) }

// shellQuote leaves a value as it is when a shell would, and quotes it
// otherwise.
func shellQuote(v string) string {
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=@%+,", c)) {
			return "'" + strings.ReplaceAll(v, "'", `'\''`) + "'"
		}
	}
	return v
}
