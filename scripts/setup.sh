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
  apt-get install -y -qq --no-install-recommends chromium fonts-liberation fonts-dejavu-core >/dev/null
  browser=$(find_browser) || { say "chromium did not install"; exit 1; }
  say "browser: $browser"
else
  say "no browser found. Install one of:"
  say "  npx playwright install chromium        (Playwright's own build)"
  say "  sudo apt-get install chromium           (Debian/Ubuntu)"
  say "or point AGENTEST_BROWSER at a Chromium executable."
  exit 1
fi
