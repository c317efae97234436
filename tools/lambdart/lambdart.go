// Package lambdart is a minimal AWS Lambda Runtime API (2018-06-01) for tests:
// it hands invocations to a function binary started with
// AWS_LAMBDA_RUNTIME_API pointing at it, and collects the answers, the way
// the Lambda service (or sam local invoke's emulator) does.
package lambdart

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

const prefix = "/2018-06-01/runtime"

// Result is a function's answer to one invocation.
type Result struct {
	// Payload is the response, or the error document when Error is set.
	Payload []byte
	Error   bool
}

type invocation struct {
	id      string
	payload []byte
	done    chan Result
}

// Server is a Runtime API endpoint serving one function process.
type Server struct {
	// Addr is host:port, the value of AWS_LAMBDA_RUNTIME_API.
	Addr string

	srv     *http.Server
	queue   chan *invocation
	mu      sync.Mutex
	pending map[string]*invocation
	initErr chan []byte
	seq     int
	// firstPoll is when the function first asked for an invocation: the
	// end of its initialisation.
	firstPoll time.Time
}

// Start listens on a free loopback port.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{
		Addr:    ln.Addr().String(),
		queue:   make(chan *invocation),
		pending: map[string]*invocation{},
		initErr: make(chan []byte, 1),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+prefix+"/invocation/next", s.next)
	mux.HandleFunc("POST "+prefix+"/invocation/{id}/response", s.answer(false))
	mux.HandleFunc("POST "+prefix+"/invocation/{id}/error", s.answer(true))
	mux.HandleFunc("POST "+prefix+"/init/error", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		select {
		case s.initErr <- body:
		default:
		}
		w.WriteHeader(http.StatusAccepted)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server.
func (s *Server) Close() error { return s.srv.Close() }

// Invoke hands payload to the function and waits for its answer.
func (s *Server) Invoke(ctx context.Context, payload []byte) (Result, error) {
	s.mu.Lock()
	s.seq++
	inv := &invocation{id: "req-" + strconv.Itoa(s.seq), payload: payload, done: make(chan Result, 1)}
	s.pending[inv.id] = inv
	s.mu.Unlock()
	select {
	case s.queue <- inv:
	case body := <-s.initErr:
		return Result{}, fmt.Errorf("function failed to initialise: %s", body)
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
	select {
	case res := <-inv.done:
		return res, nil
	case body := <-s.initErr:
		return Result{}, fmt.Errorf("function failed to initialise: %s", body)
	case <-ctx.Done():
		return Result{}, ctx.Err()
	}
}

// FirstPoll is when the function first asked for an invocation, i.e. when
// its initialisation ended; zero before that.
func (s *Server) FirstPoll() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.firstPoll
}

// next is the function's long poll for its next invocation.
func (s *Server) next(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.firstPoll.IsZero() {
		s.firstPoll = time.Now()
	}
	s.mu.Unlock()
	select {
	case inv := <-s.queue:
		h := w.Header()
		h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
		h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(time.Now().Add(30*time.Second).UnixMilli(), 10))
		h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:123456789012:function:test")
		h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
		h.Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(inv.payload)
	case <-r.Context().Done():
	}
}

func (s *Server) answer(isError bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		inv := s.pending[r.PathValue("id")]
		delete(s.pending, r.PathValue("id"))
		s.mu.Unlock()
		if inv == nil {
			http.Error(w, "unknown invocation", http.StatusBadRequest)
			return
		}
		inv.done <- Result{Payload: body, Error: isError}
		w.WriteHeader(http.StatusAccepted)
	}
}

// GatewayResponse is an API Gateway HTTP API (payload 2.0) proxy response.
type GatewayResponse struct {
	StatusCode      int               `json:"statusCode"`
	Headers         map[string]string `json:"headers"`
	Body            string            `json:"body"`
	IsBase64Encoded bool              `json:"isBase64Encoded"`
	Cookies         []string          `json:"cookies"`
}

// DecodeGatewayResponse reads a function's answer as an API Gateway response.
func DecodeGatewayResponse(res Result) (GatewayResponse, error) {
	if res.Error {
		return GatewayResponse{}, fmt.Errorf("function returned an error: %s", res.Payload)
	}
	var gr GatewayResponse
	if err := json.Unmarshal(res.Payload, &gr); err != nil {
		return GatewayResponse{}, fmt.Errorf("answer is not an API Gateway response: %w (%s)", err, res.Payload)
	}
	if gr.StatusCode == 0 {
		return GatewayResponse{}, errors.New("answer has no statusCode")
	}
	return gr, nil
}
