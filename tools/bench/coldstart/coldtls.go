package coldstart

import (
	"encoding/pem"
	"fmt"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// systemRoots is where Debian keeps the system's trusted certificates;
// Lambda's runtimes hold a bundle of the same size, which Go reads on the
// first TLS handshake.
const systemRoots = "/etc/ssl/certs/ca-certificates.crt"

// serveTLS puts a TLS front (HTTPS, a 2048-bit RSA certificate like
// DynamoDB's) in front of the functions' DynamoDB endpoint, so that their
// connections cost a TLS handshake as in Lambda. The functions trust it
// through SSL_CERT_FILE: the system's bundle plus its certificate, so that
// loading the roots costs what loading the system's does.
func (l *coldLab) serveTLS() error {
	var endpoint string
	for _, kv := range l.env {
		if v, ok := strings.CutPrefix(kv, "DYNAMODB_ENDPOINT="); ok {
			endpoint = v
		}
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return err
	}
	front := httptest.NewUnstartedServer(httputil.NewSingleHostReverseProxy(u))
	front.StartTLS()
	l.closers = append(l.closers, front.Close)
	bundle, err := os.ReadFile(systemRoots)
	if err != nil {
		return fmt.Errorf("-tls reads the system's roots: %w", err)
	}
	bundle = append(bundle, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: front.Certificate().Raw})...)
	roots := filepath.Join(l.tmp, "roots.pem")
	if err := os.WriteFile(roots, bundle, 0o644); err != nil {
		return err
	}
	l.setEnv("SSL_CERT_FILE", roots)
	l.setEnv("DYNAMODB_ENDPOINT", front.URL)
	return nil
}
