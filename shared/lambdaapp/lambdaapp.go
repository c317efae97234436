// Package lambdaapp starts one area, or a site such as the portal, as an AWS
// Lambda function behind an API Gateway HTTP API (payload 2.0): with
// shared/lambdatask (the functions behind no API), the only packages that
// know Lambda, besides CodeDeploy's hook (functions/pretraffic).
package lambdaapp

import (
	"context"
	"fmt"
	"net/http"
	"os"

	"github.com/aws/aws-lambda-go/lambda"
	"github.com/awslabs/aws-lambda-go-api-proxy/core"
	"github.com/awslabs/aws-lambda-go-api-proxy/httpadapter"

	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/app"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/httpserve"
	"github.com/bizplatform/api/shared/lambdatask"
	"github.com/bizplatform/api/shared/wiring"
)

// Run builds the area's server once per cold start and hands it to the
// Lambda runtime. It exits the process when the configuration is unusable.
func Run(area app.Area) {
	h, err := Handler(context.Background(), area, os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", area.Name, err)
		os.Exit(1)
	}
	lambda.Start(httpadapter.NewV2(h).ProxyWithContext)
}

// Handler builds the area's handler from the environment, using API
// Gateway's request id as the request id.
func Handler(ctx context.Context, area app.Area, getenv func(string) string) (http.Handler, error) {
	cfg, deps, err := wiring.Connect(ctx, getenv, os.Stdout)
	if err != nil {
		return nil, err
	}
	if deps.Secrets, err = app.OpenSecrets(ctx, cfg, wiring.EnvAWSConfig, area); err != nil {
		return nil, err
	}
	srv, err := apiserver.New(cfg, deps, area)
	if err != nil {
		return nil, err
	}
	return withGatewayRequestID(srv.Handler), nil
}

// SiteBuilder builds a site's handler from the configuration and
// dependencies every function starts with.
type SiteBuilder func(cfg config.Config, deps wiring.Deps) (http.Handler, error)

// RunSite is Run for a site that is not an API area (the portal): its own
// handler, without the API's pipeline.
func RunSite(name string, build SiteBuilder) {
	h, err := SiteHandler(context.Background(), build, os.Getenv)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
	lambda.Start(httpadapter.NewV2(h).ProxyWithContext)
}

// SiteHandler builds a site's handler from the environment, using API
// Gateway's request id as the request id.
func SiteHandler(ctx context.Context, build SiteBuilder, getenv func(string) string) (http.Handler, error) {
	cfg, deps, err := wiring.Connect(ctx, getenv, os.Stdout)
	if err != nil {
		return nil, err
	}
	h, err := build(cfg, deps)
	if err != nil {
		return nil, err
	}
	return withGatewayRequestID(h), nil
}

// withGatewayRequestID gives each request API Gateway's request id and the
// invocation's X-Ray trace id (lambdatask.WithInvocationTrace).
func withGatewayRequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := lambdatask.WithInvocationTrace(r.Context())
		if gw, ok := core.GetAPIGatewayV2ContextFromContext(ctx); ok && gw.RequestID != "" {
			ctx = httpserve.WithRequestID(ctx, gw.RequestID)
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}
