#!/usr/bin/env bash
# npm test: the framework's tests, then the type check. Arguments go to Vitest
# (npm test -- test/unit). Everything the tests put in the temp folder (child runs' records
# and screenshots, browser profiles, configs: about 1.5 GB in a full run) goes into one folder
# of this run, removed when it ends, however it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
base=${TMPDIR:-/tmp}

# Folders of earlier runs that could not remove theirs (killed outright): their owner is gone.
for old in "$base"/agentest-test-*; do
  [ -d "$old" ] || continue
  owner=$(cat "$old/.owner" 2>/dev/null || true)
  if [ -n "$owner" ] && kill -0 "$owner" 2>/dev/null; then continue; fi
  # One without an owner yet may be a run starting this very moment.
  if [ -z "$owner" ] && [ -z "$(find "$old" -maxdepth 0 -mmin +1)" ]; then continue; fi
  rm -rf "$old"
done

scratch=$(mktemp -d "$base/agentest-test-XXXXXX")
echo $$ > "$scratch/.owner"
# An interrupted child run still writes its records for a moment after Ctrl-C: try again.
cleanup() {
  for _ in $(seq 10); do
    rm -rf "$scratch" 2>/dev/null && return
    sleep 1
  done
}
trap cleanup EXIT
export TMPDIR="$scratch"
# Vite parses every file of a bundled config to warn about a loader it may switch to one day:
# 0.3 CPU-s of each run's start, and the tests start some 170 runs. It is a warning for whoever
# writes the config, and says nothing about a test.
export VITE_CONFIG_NATIVE_IGNORE_WARNING=true
# Node reads NODE_EXTRA_CA_CERTS as it starts, before any code runs: when it names a whole CA
# bundle (as on hosts behind a TLS-inspecting proxy), each process parses some 140 certificates,
# 70 ms of CPU against 35 for all the rest of `node -e 0`. The tests start about 470 Node
# processes and make no TLS connection (every server they talk to is local, over HTTP), and
# image builds skip a file that large anyway (MAX_PEM_BYTES in src/agent-images/build.ts), so
# it goes. A small file of extra CAs stays: builds lend it to Dockerfiles that ask for it.
# Agent runs outside the tests keep the variable either way: a model API behind a proxy needs it.
extra_cas=${NODE_EXTRA_CA_CERTS:-}
if [ -n "$extra_cas" ] && [ "$(stat -c %s "$extra_cas" 2>/dev/null || echo 0)" -gt 65536 ]; then
  unset NODE_EXTRA_CA_CERTS
fi
npx vitest run --project framework "$@"
npx tsc --noEmit
