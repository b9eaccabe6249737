# themed — build, test and run. `make run` and `make test` work on a fresh Debian machine.
SWIFT ?= swift
HOST ?= 127.0.0.1
PORT ?= 8080
CORPUS ?= ../shared/corpus
APT_PACKAGES = libsqlite3-dev zlib1g-dev
PY_PACKAGES = lzfse

.PHONY: deps py-deps build release test bench run inspect-corpus clean

## Install what is missing (Debian packages; skipped when already present).
deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) || exit 1; fi

## Python reference decoder used by benchmarks and vector generators (not by the product).
py-deps:
	@python3 -c "import lzfse" 2>/dev/null || pip install -q $(PY_PACKAGES)

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Tests run optimised (with testability): the corpus tests decode every image of 32 catalogs.
TEST_FLAGS = -c release -Xswiftc -enable-testing

test: deps
	$(SWIFT) build $(TEST_FLAGS) --build-tests
	$(SWIFT) test $(TEST_FLAGS) --skip-build

## Benchmarks (not tests): LZFSE/deepmap decode MB/s against Apple's C lzfse, catalog open/decode times.
bench: release py-deps
	python3 scripts/bench.py --themed-bench .build/release/themed-bench --corpus $(CORPUS)

run: release
	@echo "themed serve is not built yet; inspecting the sample catalogs instead"
	@for f in $(CORPUS)/car/*.car; do .build/release/themed inspect --no-decode "$$f" | tail -1; done

clean:
	$(SWIFT) package clean
