#!/bin/sh
# The image's entry point: sizes V8's heap and the gateway's caches from the memory the container is
# given, then replaces itself with node (so node is PID 1 and receives SIGTERM itself, and the drain runs).
# A shell script rather than code in src/: memory is sized where operators size it, not in the product.
#
# The figure M, in MiB: MEMORY_LIMIT_MB when set, else the container's cgroup limit (v2 memory.max,
# v1 memory/memory.limit_in_bytes). With neither (no limit), nothing is sized: V8 and the caches keep
# their own defaults. From M (docs/operations.md, "Sizing memory"):
#   --max-old-space-size   M/2      V8's old generation: the caches' bounds, the code and the garbage between collections
#   --min-semi-space-size  M/16, at most 16   each of the young generation's two halves, fixed at this size:
#   --max-semi-space-size                     left to V8 they start at 1 MiB and some processes never grow them
#   CACHE_MAX_MB           M/16     unless set: the in-memory cache (its parsed copies take up to M/128 more)
#   CACHE_RESULTS_MB       M/64     unless set: the remembered results
#   DOCUMENT_CACHE_MB      M/32     unless set: parsed, validated and compiled documents, kept by their text
# The rest of M (about 62 MiB at 256) is node's own binary and native memory. A --max-old-space-size
# already in NODE_OPTIONS wins: the heap flags are then left out (the cache bounds are still derived).
#
# Usage: entrypoint.sh <node arguments...>   (the image runs `entrypoint.sh dist/main.js`)
# CGROUP_ROOT (default /sys/fs/cgroup) exists for the tests, which read a cgroup file of their own.
set -eu

MIN_MB=192
cgroup_root="${CGROUP_ROOT:-/sys/fs/cgroup}"

fail() {
  echo "Invalid configuration:" >&2
  echo "  - $1" >&2
  exit 78
}

limit_mb=""
source=""
if [ -n "${MEMORY_LIMIT_MB:-}" ]; then
  case "$MEMORY_LIMIT_MB" in
    *[!0-9]*) fail "MEMORY_LIMIT_MB must be a whole number of MiB, got \"$MEMORY_LIMIT_MB\"" ;;
  esac
  limit_mb=$MEMORY_LIMIT_MB
  source=MEMORY_LIMIT_MB
else
  bytes=""
  if [ -r "$cgroup_root/memory.max" ]; then
    bytes=$(cat "$cgroup_root/memory.max")
    source=cgroup-v2
  elif [ -r "$cgroup_root/memory/memory.limit_in_bytes" ]; then
    bytes=$(cat "$cgroup_root/memory/memory.limit_in_bytes")
    source=cgroup-v1
  fi
  case "$bytes" in
    "" | max | *[!0-9]*) ;;
    # cgroup v1 writes "no limit" as a number near 2^63: 16 digits or more (about 1 PB) is no limit.
    *) if [ "${#bytes}" -lt 16 ]; then limit_mb=$((bytes / 1048576)); fi ;;
  esac
fi

if [ -z "$limit_mb" ]; then
  exec node "$@"
fi

if [ "$limit_mb" -lt "$MIN_MB" ]; then
  fail "the gateway needs at least $MIN_MB MiB of memory, got $limit_mb MiB (from $source); give the container more or set MEMORY_LIMIT_MB"
fi

CACHE_MAX_MB="${CACHE_MAX_MB:-$((limit_mb / 16))}"
CACHE_RESULTS_MB="${CACHE_RESULTS_MB:-$((limit_mb / 64))}"
DOCUMENT_CACHE_MB="${DOCUMENT_CACHE_MB:-$((limit_mb / 32))}"
export CACHE_MAX_MB CACHE_RESULTS_MB DOCUMENT_CACHE_MB

case " ${NODE_OPTIONS:-} " in
  *" --max-old-space-size="*) exec node "$@" ;;
esac

semi_mb=$((limit_mb / 16))
if [ "$semi_mb" -gt 16 ]; then semi_mb=16; fi
exec node --max-old-space-size=$((limit_mb / 2)) --min-semi-space-size="$semi_mb" --max-semi-space-size="$semi_mb" "$@"
