package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/bizplatform/api/internal/demo"
	"github.com/bizplatform/api/portal"
	"github.com/bizplatform/api/shared/apiserver"
	"github.com/bizplatform/api/shared/config"
	"github.com/bizplatform/api/shared/deliveries"
	"github.com/bizplatform/api/shared/storage/dynamo"
)

// mountPortal serves the portal on mux beside the API, outside the API's
// pipeline (no Version header, no bearer token).
func mountPortal(mux *http.ServeMux, cfg config.Config, srv *apiserver.Server) (*portal.Portal, error) {
	schedule, err := deliveries.ScheduleFor(cfg.WebhookRetryFor, dynamo.IsLocalEndpoint(cfg.Endpoint))
	if err != nil {
		return nil, err
	}
	p, err := portal.New(srv.Core, portal.Options{RequestTimeout: cfg.RequestTimeout, LocalURLs: dynamo.IsLocalEndpoint(cfg.Endpoint), Schedule: schedule})
	if err != nil {
		return nil, fmt.Errorf("build the portal: %w", err)
	}
	mux.Handle(portal.Base, p)
	mux.Handle(portal.Base+"/", p)
	for _, path := range portal.ConsentPaths { // marketplace apps' consent page
		mux.Handle("GET "+path, p)
	}
	return p, nil
}

// printDemoSignIn creates and prints the demo sign-in on a local engine's
// new table.
func printDemoSignIn(ctx context.Context, p *portal.Portal, endpoint string, out io.Writer) error {
	email, err := demo.CreateSignIn(ctx, p.Identities(), endpoint)
	if errors.Is(err, demo.ErrNotLocal) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("demo sign-in: %w", err)
	}
	fmt.Fprintf(out, "Demo portal sign-in (an admin of %s): %s / %s\n", demo.AccountAlpha, email, demo.SignInPassword)
	return nil
}
