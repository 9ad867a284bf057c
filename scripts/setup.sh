#!/usr/bin/env bash
# Idempotent machine setup for agentest: npm dependencies, then a Chromium for Playwright.
# Safe to run again and again; each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'setup: %s\n' "$*"; }

# 1. npm dependencies, when missing or older than the lockfile.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
else
  say "npm dependencies are up to date"
fi

# 2. A browser: the configured one, Playwright's own, or a system Chromium; else Debian's.
find_browser() {
  node --input-type=module -e "
    import { existsSync } from 'node:fs'
    import { chromium } from 'playwright'
    const candidates = [process.env.AGENTEST_BROWSER, chromium.executablePath(), '/usr/bin/chromium',
      '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable']
    const found = candidates.find((p) => p && existsSync(p))
    if (!found) process.exit(1)
    console.log(found)
  " 2>/dev/null
}

if browser=$(find_browser); then
  say "browser: $browser"
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  say "no browser found: installing Debian's chromium"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell fonts-liberation fonts-dejavu-core >/dev/null
  browser=$(find_browser) || { say "chromium did not install"; exit 1; }
  say "browser: $browser"
else
  say "no browser found. Install one of:"
  say "  npx playwright install chromium        (Playwright's own build)"
  say "  sudo apt-get install chromium           (Debian/Ubuntu)"
  say "or point AGENTEST_BROWSER at a Chromium executable."
  exit 1
fi

# Debian's chromium without its headless shell (the build Playwright runs headless, a third
# cheaper per task): add it, when this is a system chromium we may install packages beside.
if [ "$browser" = /usr/bin/chromium ] && [ ! -x /usr/lib/chromium/chromium-headless-shell ] &&
  command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && dpkg -s chromium >/dev/null 2>&1; then
  say "installing Debian's chromium-headless-shell beside chromium"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null ||
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium-headless-shell >/dev/null; } ||
    say "chromium-headless-shell did not install: headless runs use chromium itself"
fi
if [ -x /usr/lib/chromium/chromium-headless-shell ] && [ -z "${AGENTEST_BROWSER:-}" ]; then
  say "headless runs: /usr/lib/chromium/chromium-headless-shell (unless Playwright's own browser is installed)"
fi

# 3. A Docker engine for desktop sandboxes: DOCKER_HOST or the local socket; on Debian as root,
#    install docker.io and start dockerd. Without one, desktop tasks are skipped (browser tasks run).
docker_ok() { docker info >/dev/null 2>&1; }

start_dockerd() {
  say "starting dockerd (log: /var/log/agentest-dockerd.log)"
  nohup dockerd >/var/log/agentest-dockerd.log 2>&1 &
  for _ in $(seq 1 60); do
    docker_ok && return 0
    sleep 1
  done
  say "dockerd did not answer within 60 s; see /var/log/agentest-dockerd.log"
  return 1
}

if docker_ok; then
  say "docker: engine at ${DOCKER_HOST:-/var/run/docker.sock}"
elif [ -z "${DOCKER_HOST:-}" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  if ! command -v dockerd >/dev/null 2>&1; then
    say "installing Debian's docker.io"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends docker.io >/dev/null
  fi
  # The tests reach the engine over TLS too, with certificates they make with openssl.
  if ! command -v openssl >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssl >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends openssl >/dev/null; }
  fi
  start_dockerd || true
else
  say "no Docker engine answers at ${DOCKER_HOST:-/var/run/docker.sock}: install Docker Engine"
  say "  (https://docs.docker.com/engine/install/) or set DOCKER_HOST; desktop tasks will be skipped."
fi

# 4. Sandbox images. No registry may be reachable: when debian:bookworm-slim cannot be pulled,
#    it is bootstrapped under the same tag, so every Dockerfile stays an ordinary FROM line.
if docker_ok; then
  if ! docker image inspect debian:bookworm-slim >/dev/null 2>&1; then
    if timeout 60 docker pull -q debian:bookworm-slim >/dev/null 2>&1; then
      say "pulled debian:bookworm-slim"
    else
      mirror="${AGENTEST_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
      say "no registry: bootstrapping debian:bookworm-slim with debootstrap from $mirror"
      command -v debootstrap >/dev/null 2>&1 || {
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq && apt-get install -y -qq debootstrap >/dev/null
      }
      rootfs=".cache/debootstrap/bookworm"
      rm -rf "$rootfs" && mkdir -p "$rootfs"
      debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >.cache/debootstrap/log.txt 2>&1 \
        || { say "debootstrap failed; see .cache/debootstrap/log.txt"; exit 1; }
      tar -C "$rootfs" -c . | docker import - debian:bookworm-slim >/dev/null
      rm -rf "$rootfs"
      say "imported debian:bookworm-slim"
    fi
  fi
  npx tsx scripts/build-images.ts
fi
