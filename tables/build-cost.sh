#!/usr/bin/env bash
# What a new user pays to build a crate that depends on kiln-tables or on
# kiln-board, beside the same scratch crate on cozy-chess, chess and shakmaty.
#
# Creates one scratch binary crate per library in a temporary directory
# (kiln-tables and kiln-board as path dependencies on this checkout, the others from
# crates.io), fetches their sources first (not timed), then builds each from an
# empty target directory in debug and in release, all in one run, and prints
# each wall-clock time and its ratio to kiln-tables'.
#
# Usage: tables/build-cost.sh [ROUNDS]
#   ROUNDS (default 1): builds per crate and profile, interleaved across the
#   crates; the minimum is reported, which damps noise from other work on the
#   machine. Needs network access to crates.io for the first fetch only.
#   COMPARE="cozy-chess" (environment) limits the crates compared with
#   kiln-tables (default: cozy-chess chess shakmaty; chess alone takes
#   minutes, its build script searching magics unoptimised).
set -euo pipefail

rounds=${1:-1}
case $rounds in '' | *[!0-9]* | 0)
  echo "usage: $0 [ROUNDS]  (ROUNDS a positive integer, got '$rounds')" >&2
  exit 2
  ;;
esac

tables_dir=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/kiln-build-cost.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

read -r -a others <<<"${COMPARE:-cozy-chess chess shakmaty}"
for c in "${others[@]}"; do
  case $c in cozy-chess | chess | shakmaty) ;;
  *)
    echo "COMPARE: unknown crate '$c' (expected cozy-chess, chess, shakmaty)" >&2
    exit 2
    ;;
  esac
done
# Each library is built twice over where it matters: a scratch crate that
# only touches its tables or board (a key), and, for the two move
# generators, one that generates moves (perft 2), which is what a user of
# a board crate compiles: cozy-chess's generator is generic over the
# caller's closure, so its code is compiled in the user's crate.
crates=(kiln-tables kiln-board)
for c in "${others[@]}"; do
  crates+=("$c")
  [ "$c" = cozy-chess ] && crates+=(cozy-moves)
done

# scratch NAME DEPENDENCY-LINE MAIN-BODY
scratch() {
  mkdir -p "$scratch/$1/src"
  cat >"$scratch/$1/Cargo.toml" <<EOF
[package]
name = "scratch-$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$2

[workspace]
EOF
  printf 'fn main() {\n    %s\n}\n' "$3" >"$scratch/$1/src/main.rs"
}

scratch kiln-tables "kiln-tables = { path = \"$tables_dir\" }" \
  'println!("{:x}", std::hint::black_box(kiln_tables::START_KEY));'
scratch kiln-board "kiln-board = { path = \"$tables_dir/../board\" }" \
  'println!("{}", kiln_board::perft(&mut kiln_board::Board::startpos(), 2));'
scratch cozy-chess 'cozy-chess = "0.3"' \
  'println!("{:x}", cozy_chess::Board::default().hash());'
scratch cozy-moves 'cozy-chess = "0.3"' \
  'let b = cozy_chess::Board::default(); let mut n = 0; b.generate_moves(|ms| { for m in ms { let mut c = b.clone(); c.play_unchecked(m); c.generate_moves(|x| { n += x.len(); false }); } false }); println!("{n}");'
scratch chess 'chess = "3"' \
  'println!("{:x}", chess::Board::default().get_hash());'
scratch shakmaty 'shakmaty = "0.30"' \
  'println!("{}", shakmaty::Position::legal_moves(&shakmaty::Chess::default()).len());'

echo "== fetching sources (not timed)"
# Resolve to the newest versions this rustc can build (shakmaty's latest
# releases need a newer rustc than some machines have).
for c in "${crates[@]}"; do
  CARGO_RESOLVER_INCOMPATIBLE_RUST_VERSIONS=fallback \
    cargo generate-lockfile --quiet --manifest-path "$scratch/$c/Cargo.toml"
  cargo fetch --quiet --manifest-path "$scratch/$c/Cargo.toml"
done
for c in "${crates[@]}"; do
  lib=${c/cozy-moves/cozy-chess}
  printf '%-12s %s\n' "$c" "$(grep -A1 "^name = \"$lib\"" "$scratch/$c/Cargo.lock" | sed -n 's/^version = "\(.*\)"/\1/p')"
done

declare -A best
for ((round = 1; round <= rounds; round++)); do
  for profile in debug release; do
    for c in "${crates[@]}"; do
      flag=()
      [ "$profile" = release ] && flag=(--release)
      target="$scratch/target-$c-$profile"
      rm -rf "$target"
      start=$(date +%s.%N)
      CARGO_TARGET_DIR=$target cargo build --quiet --offline "${flag[@]}" \
        --manifest-path "$scratch/$c/Cargo.toml"
      end=$(date +%s.%N)
      t=$(echo "$end - $start" | bc)
      key="$c $profile"
      if [ -z "${best[$key]:-}" ] || [ "$(echo "$t < ${best[$key]}" | bc)" = 1 ]; then
        best[$key]=$t
      fi
      printf 'round %d  %-8s %-12s %6.2f s\n' "$round" "$profile" "$c" "$t"
    done
  done
done

echo
echo "== clean build, wall clock (best of $rounds), $(nproc) cores, $(rustc --version)"
printf '%-8s %-12s %8s %12s\n' profile crate seconds "x kiln-tables"
for profile in debug release; do
  base=${best["kiln-tables $profile"]}
  for c in "${crates[@]}"; do
    t=${best["$c $profile"]}
    printf '%-8s %-12s %8.2f %12.2f\n' "$profile" "$c" "$t" "$(echo "scale=4; $t / $base" | bc)"
  done
done
