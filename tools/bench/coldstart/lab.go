package coldstart

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/bizplatform/api/internal/catalog"
	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/portal/identity"
	"github.com/bizplatform/api/portal/userdir"
	"github.com/bizplatform/api/shared/clock"
	"github.com/bizplatform/api/shared/operations"
	"github.com/bizplatform/api/shared/storage"
	"github.com/bizplatform/api/tools/bench/kit"
	"github.com/bizplatform/api/tools/lambdart"
	"github.com/bizplatform/api/tools/perf"
)

// lambdaFlags are the Makefile's LAMBDA_FLAGS.
var lambdaFlags = []string{"-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w"}

// The yardsticks: the smallest function answering an event, and the
// smallest that makes one DynamoDB GetItem with the functions' client.
const (
	helloPkg   = "./tools/perf/hello"
	getItemPkg = "./tools/perf/getitem"
)

// buildRevision builds the functions of a git revision of the repository
// for arch, from an export of its tree, and returns their directory.
func (l *coldLab) buildRevision(root, rev, arch string) (string, error) {
	src := filepath.Join(l.tmp, "baseline")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return "", err
	}
	archive := exec.Command("git", "archive", "--format=tar", rev)
	archive.Dir = root
	tar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return "", err
	}
	tar.Stdin = pipe
	if err := tar.Start(); err != nil {
		return "", err
	}
	var stderr bytes.Buffer
	archive.Stderr = &stderr
	if err := archive.Run(); err != nil {
		return "", fmt.Errorf("git archive %s: %v: %s", rev, err, stderr.Bytes())
	}
	if err := tar.Wait(); err != nil {
		return "", fmt.Errorf("extract %s: %w", rev, err)
	}
	var pkgs []string
	for _, fn := range l.fns {
		pkgs = append(pkgs, "./functions/"+fn.dir)
	}
	goarch := ""
	if arch == "arm64" {
		goarch = "arm64"
	}
	dir := filepath.Join(l.tmp, "baseline-bin")
	return dir, goBuild(src, dir, goarch, pkgs)
}

// coldWindow is the functions' rate-limit window in the cold starts: an
// hour, so that a cold start finds its account's window current, as under
// steady traffic, instead of a first admission that misses the window in
// a few rounds of ten, as the rounds' pace has it (one more update and a
// read).
const coldWindow = time.Hour

// coldLab is what every cold start runs against: the binaries, a DynamoDB Local
// holding the demo data, the functions' environment and their events.
type coldLab struct {
	binDir string   // the binaries that run
	armDir string   // the linux/arm64 binaries (their sizes)
	wrap   []string // the emulator the binaries run under, if any
	env    []string
	eng    *kit.Engine
	fns    []coldFunction
	tmp    string
	// closers stop what the lab started besides the engine.
	closers []func()
}

// coldFunction is one function and the events of its cold starts.
type coldFunction struct {
	dir        string // functions/<dir>
	authed     []byte // its first authenticated event
	anon       []byte // its first event without credentials
	anonStatus int    // the answer to anon: 401, or the portal's sign-in page
}

// newColdLab builds the binaries for arch and prepares the engine.
func newColdLab(ctx context.Context, root, out, arch string) (*coldLab, error) {
	pkgs := []string{helloPkg, getItemPkg}
	for _, area := range operations.Areas {
		pkgs = append(pkgs, "./functions/"+area)
	}
	pkgs = append(pkgs, "./functions/"+catalog.Portal)
	lab := &coldLab{armDir: filepath.Join(out, "arm64")}
	if err := goBuild(root, lab.armDir, "arm64", pkgs); err != nil {
		return nil, err
	}
	switch arch {
	case "native":
		lab.binDir = filepath.Join(out, "coldstart")
		if err := goBuild(root, lab.binDir, "", pkgs); err != nil {
			return nil, err
		}
	case "arm64":
		lab.binDir = lab.armDir
		wrap, err := arm64Runner()
		if err != nil {
			return nil, err
		}
		lab.wrap = wrap
	default:
		return nil, fmt.Errorf("-arch %q: want native or arm64", arch)
	}

	var err error
	if lab.eng, err = kit.StartEngine(ctx, root); err != nil {
		return nil, err
	}
	if err := lab.prepare(ctx, root); err != nil {
		lab.close()
		return nil, err
	}
	return lab, nil
}

func (l *coldLab) prepare(ctx context.Context, root string) error {
	table, err := l.eng.DemoTable(ctx)
	if err != nil {
		return err
	}
	events, err := perf.ReadEvents(root)
	if err != nil {
		return err
	}
	// The accounts' admission state items a minute old, as in steady
	// operation (a younger one costs a second token read).
	if err := kit.SettleStateItems(table, clock.NewManual(time.Now().Add(-time.Minute)), events, coldWindow); err != nil {
		return err
	}
	if l.tmp, err = os.MkdirTemp("", "coldstart-"); err != nil {
		return err
	}
	// The Lambda's environment: its credentials, and the KMS key the
	// voice-ai function seals with (its client is built at start-up; the
	// first event seals nothing, so no KMS call is made).
	l.env = []string{
		"AWS_LAMBDA_FUNCTION_MEMORY_SIZE=256", "AWS_LAMBDA_FUNCTION_VERSION=$LATEST", "AWS_REGION=us-east-1",
		"AWS_ACCESS_KEY_ID=local", "AWS_SECRET_ACCESS_KEY=local", "AWS_SESSION_TOKEN=local",
		// Lambda's time zone: without it, the first time formatted in local
		// time (every log line's) reads and parses the machine's zone file.
		"TZ=:UTC",
		"TABLE_NAME=" + table.Name, "DYNAMODB_ENDPOINT=" + l.eng.Srv.Endpoint, "LOG_LEVEL=INFO",
		// Limits no measurement reaches (the defaults would refuse rounds).
		"RATE_LIMIT_BURST=100000000", "RATE_LIMIT_DAILY=100000000",
		"RATE_LIMIT_WINDOW_SECONDS=" + strconv.Itoa(int(coldWindow/time.Second)),
		"SECRETS_KEY_ID=alias/bench-coldstart", "HOME=" + l.tmp,
	}
	for _, area := range operations.Areas {
		i := repeatableEvent(events, area)
		if i < 0 {
			return fmt.Errorf("no sample event for %s", area)
		}
		authed, err := eventPayload(root, events[i], true)
		if err != nil {
			return err
		}
		anon, err := eventPayload(root, events[i], false)
		if err != nil {
			return err
		}
		l.fns = append(l.fns, coldFunction{dir: area, authed: authed, anon: anon, anonStatus: 401})
	}
	portal, err := portalEvents(ctx, root, table, l.eng.Srv.Endpoint)
	if err != nil {
		return err
	}
	l.fns = append(l.fns, portal)
	return nil
}

// repeatableEvent is the area's sample event its cold starts answer: the
// first GET, else the first PUT, else the first event, so that as many
// functions as possible answer every round alike (a creation or deletion
// repeated finds what the first round left: 404, 409, 422).
func repeatableEvent(events []perf.Event, area string) int {
	first := -1
	for _, method := range []string{"GET", "PUT", ""} {
		for i, ev := range events {
			if ev.Area != area {
				continue
			}
			if first < 0 {
				first = i
			}
			if ev.Method() == method {
				return i
			}
		}
	}
	return first
}

// portalEvents are the portal function's cold-start events: its sign-in page
// (no DynamoDB call) and, as its first authenticated answer, the demo
// sign-in's accounts page, with a session signed in beforehand.
func portalEvents(ctx context.Context, root string, table *storage.Table, endpoint string) (coldFunction, error) {
	raw, err := os.ReadFile(filepath.Join(root, "events", catalog.Portal, "sign-in-page.json"))
	if err != nil {
		return coldFunction{}, err
	}
	ids := identity.New(table, clock.System{}, userdir.New(table))
	email, err := demo.CreateSignIn(ctx, ids, endpoint)
	if err != nil {
		return coldFunction{}, err
	}
	_, sess, err := ids.SignIn(ctx, email, demo.SignInPassword, "192.0.2.10")
	if err != nil {
		return coldFunction{}, fmt.Errorf("portal sign-in: %w", err)
	}
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		return coldFunction{}, err
	}
	const page = "/portal/accounts"
	ev["rawPath"] = page
	ev["pathParameters"] = map[string]any{"proxy": strings.TrimPrefix(page, "/portal/")}
	ev["requestContext"].(map[string]any)["http"].(map[string]any)["path"] = page
	ev["cookies"] = []string{"portal_session=" + sess.ID}
	authed, err := json.Marshal(ev)
	if err != nil {
		return coldFunction{}, err
	}
	return coldFunction{dir: catalog.Portal, authed: authed, anon: raw, anonStatus: 200}, nil
}

// setEnv sets one variable of the functions' environment.
func (l *coldLab) setEnv(name, value string) {
	l.env = slices.DeleteFunc(l.env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	l.env = append(l.env, name+"="+value)
}

// functions are the functions to measure: every one, or only.
func (l *coldLab) functions(only string) []coldFunction {
	if only == "" {
		return l.fns
	}
	for _, fn := range l.fns {
		if fn.dir == only {
			return []coldFunction{fn}
		}
	}
	return nil
}

func (l *coldLab) close() {
	for _, c := range l.closers {
		c()
	}
	if l.eng != nil {
		l.eng.Stop()
	}
	if l.tmp != "" {
		_ = os.RemoveAll(l.tmp)
	}
}

// arm64Runner is how this machine runs a linux/arm64 binary: directly on
// arm64 or through binfmt_misc, else under qemu-aarch64-static.
func arm64Runner() ([]string, error) {
	if runtime.GOARCH == "arm64" && runtime.GOOS == "linux" {
		return nil, nil
	}
	for _, name := range []string{"qemu-aarch64", "qemu-aarch64-static"} {
		if st, err := os.ReadFile("/proc/sys/fs/binfmt_misc/" + name); err == nil && strings.HasPrefix(string(st), "enabled") {
			return nil, nil
		}
	}
	qemu, err := exec.LookPath("qemu-aarch64-static")
	if err != nil {
		return nil, errors.New("-arch arm64 needs qemu-aarch64-static on this machine (apt-get install qemu-user-static)")
	}
	return []string{qemu}, nil
}

// coldRun is one start of a binary.
type coldRun struct {
	Start    time.Time
	InitEnd  time.Time // its first poll of the Runtime API
	Answered time.Time
	Status   int
	Stderr   string
	// CPU is the process's CPU time (user and system; under an emulator,
	// the emulator's, translation included), until it was stopped after
	// answering: the work, where wall time also holds the waits for a
	// busy machine's cores.
	CPU time.Duration
}

func answerMs(r coldRun) float64 { return ms(r.Answered.Sub(r.Start)) }
func cpuMs(r coldRun) float64    { return ms(r.CPU) }
func initMs(r coldRun) float64   { return ms(r.InitEnd.Sub(r.Start)) }

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// statuses lists the runs' statuses, each once, in the order first seen.
func statuses(runs []coldRun) string {
	var seen []string
	for _, r := range runs {
		if s := strconv.Itoa(r.Status); !slices.Contains(seen, s) {
			seen = append(seen, s)
		}
	}
	return strings.Join(seen, " ")
}

func medianOf(runs []coldRun, f func(coldRun) float64) float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = f(r)
	}
	return kit.Median(xs)
}

// start starts the binary named bin under a fresh Runtime API, hands it
// payload, and returns when it answered. extraEnv is added to the lab's.
func (l *coldLab) start(ctx context.Context, bin string, payload []byte, extraEnv ...string) (coldRun, error) {
	rt, err := lambdart.Start()
	if err != nil {
		return coldRun{}, err
	}
	defer rt.Close()
	path := bin
	if !filepath.IsAbs(bin) {
		path = filepath.Join(l.binDir, bin)
	}
	argv := append(append([]string(nil), l.wrap...), path)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append([]string{"AWS_LAMBDA_RUNTIME_API=" + rt.Addr, "AWS_LAMBDA_FUNCTION_NAME=" + filepath.Base(bin)}, l.env...), extraEnv...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	run := coldRun{Start: time.Now()}
	if err := cmd.Start(); err != nil {
		return coldRun{}, err
	}
	// A process that exits before it answers ends the wait at once.
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
		cancel()
	}()
	defer func() {
		_ = cmd.Process.Kill()
		<-exited
	}()
	res, err := rt.Invoke(ctx, payload)
	run.Answered = time.Now()
	if err != nil {
		select {
		case <-exited:
			return coldRun{}, fmt.Errorf("exited before answering: %s", strings.TrimSpace(stderr.String()))
		default:
			return coldRun{}, err
		}
	}
	gr, err := lambdart.DecodeGatewayResponse(res)
	if err != nil {
		return coldRun{}, err
	}
	run.InitEnd, run.Status = rt.FirstPoll(), gr.StatusCode
	_ = cmd.Process.Kill()
	<-exited
	run.Stderr = stderr.String()
	run.CPU = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	return run, nil
}

func goBuild(root, dir, goarch string, pkgs []string) error {
	args := append([]string{"build"}, lambdaFlags...)
	args = append(args, "-o", dir+string(filepath.Separator))
	args = append(args, pkgs...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if goarch != "" {
		cmd.Env = append(cmd.Env, "GOOS=linux", "GOARCH="+goarch)
	}
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v: %s", err, out)
	}
	return nil
}

// eventPayload is ev's file, with or without its token.
func eventPayload(root string, ev perf.Event, withToken bool) ([]byte, error) {
	raw, err := os.ReadFile(filepath.Join(root, ev.File))
	if err != nil || withToken {
		return raw, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	delete(m["headers"].(map[string]any), "authorization")
	return json.Marshal(m)
}
