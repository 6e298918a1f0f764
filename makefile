# Builds the engine the way OpenBench asks for it: `make EXE=<path>` leaves a
# release build of `kiln` at <path>. Everyone else can use cargo directly.
#
# The build is `cargo build --release` in this workspace, so it gets the
# release profile of Cargo.toml and the x86-64-v2 CPU baseline of
# .cargo/config.toml (an explicit RUSTFLAGS in the environment replaces it,
# as it does for cargo).

EXE ?= kiln
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

ifeq ($(OS),Windows_NT)
	SUFFIX := .exe
	NAME := $(EXE:.exe=).exe
else
	SUFFIX :=
	NAME := $(EXE)
endif

.PHONY: all clean

all:
	$(CARGO) build --release --locked --bin kiln
	cp $(TARGET_DIR)/release/kiln$(SUFFIX) $(NAME)

clean:
	$(CARGO) clean
	rm -f $(NAME)
