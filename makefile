# Builds the engine the way OpenBench asks for it: `make EXE=<path>` leaves a
# release build of `kiln` at <path>. Everyone else can use cargo directly.
#
# The build is `cargo build --release` in this workspace, so it gets the
# release profile of Cargo.toml and the x86-64-v2 CPU baseline of
# .cargo/config.toml (an explicit RUSTFLAGS in the environment replaces it,
# as it does for cargo).
#
# It is also reproducible (docs/reproducible-builds.md): the binary carries
# source paths (debug information, panic locations, the `include!`d files
# the build script generates), and the flags below write them as /kiln (this
# checkout), /kiln-target (the target directory) and /cargo (Cargo's home,
# where the dependencies' sources are), so that the same commit built with
# the same Rust release gives the same bytes in any directory. `make
# reproduce` checks that: it builds this commit in two fresh clones and
# compares the binaries.

EXE ?= kiln
CARGO ?= cargo
# Cargo features, for instance `spsa` (the search tunables as UCI options,
# for an SPSA tune: a tune's branch changes this line to `FEATURES = spsa`;
# by hand, `make FEATURES=spsa`). Not taken from the environment.
FEATURES =
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
CARGO_HOME_DIR := $(or $(CARGO_HOME),$(HOME)/.cargo)

# Joined to .cargo/config.toml's flags; the last prefix that matches wins,
# so the target directory (inside the checkout by default) comes last.
REMAP := \"--remap-path-prefix=$(abspath $(CARGO_HOME_DIR))=/cargo\", \
	\"--remap-path-prefix=$(CURDIR)=/kiln\", \
	\"--remap-path-prefix=$(abspath $(TARGET_DIR))=/kiln-target\"

ifeq ($(OS),Windows_NT)
	SUFFIX := .exe
	NAME := $(EXE:.exe=).exe
else
	SUFFIX :=
	NAME := $(EXE)
endif

.PHONY: all clean reproduce fastchess

all:
	$(CARGO) build --release --locked --bin kiln $(if $(FEATURES),--features "$(FEATURES)") \
		--config "target.'cfg(all())'.rustflags = [$(REMAP)]"
	cp $(TARGET_DIR)/release/kiln$(SUFFIX) $(NAME)

clean:
	$(CARGO) clean
	rm -f $(NAME)

# Two clean builds of the committed HEAD in fresh clones at different
# depths (REPRO_DIR, a new temporary directory by default), then `cmp`.
reproduce:
	@set -e; \
	commit=$$(git rev-parse HEAD); \
	dir=$${REPRO_DIR:-$$(mktemp -d)}; \
	for clone in $$dir/one $$dir/two/levels/down; do \
		git clone --quiet --no-checkout "$(CURDIR)" $$clone; \
		git -C $$clone checkout --quiet $$commit; \
		env -u CARGO_TARGET_DIR $(MAKE) --no-print-directory -C $$clone EXE=kiln-$$commit; \
	done; \
	cmp $$dir/one/kiln-$$commit $$dir/two/levels/down/kiln-$$commit; \
	sha256sum $$dir/one/kiln-$$commit $$dir/two/levels/down/kiln-$$commit; \
	echo "reproducible: $$commit builds the same binary in $$dir/one and $$dir/two/levels/down"

# fastchess, the tournament runner OpenBench's workloads use, built from
# its source (FASTCHESS_SRC, read-only in CI) in a copy under the target
# directory: its makefile writes objects and probe programs beside the
# sources. Built once; an existing binary is kept (delete it to rebuild).
# The workshop's PGN import and SPSA tests (gen/workshop/tests/) play games
# with it, and `kiln-workshop spsa` plays a tune's games with it.
FASTCHESS_SRC ?= ../shared/third-party/fastchess
FASTCHESS_DIR ?= $(TARGET_DIR)/fastchess

fastchess: $(FASTCHESS_DIR)/fastchess$(SUFFIX)

$(FASTCHESS_DIR)/fastchess$(SUFFIX):
	@test -f "$(FASTCHESS_SRC)/app/Makefile" || \
		{ echo "no fastchess source in $(FASTCHESS_SRC) (set FASTCHESS_SRC)"; exit 1; }
	rm -rf "$(FASTCHESS_DIR)/src"
	mkdir -p "$(FASTCHESS_DIR)"
	cp -R "$(FASTCHESS_SRC)" "$(FASTCHESS_DIR)/src"
	chmod -R u+w "$(FASTCHESS_DIR)/src"
	$(MAKE) -C "$(FASTCHESS_DIR)/src/app" BINARY_PATH="$(abspath $(FASTCHESS_DIR))"
