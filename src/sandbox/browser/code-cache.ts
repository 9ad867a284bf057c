import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import Module, { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { Script, constants as vmConstants } from 'node:vm'

/**
 * V8's code cache for Playwright's two bundles (playwright-core's coreBundle.js and
 * utilsBundle.js, 7 MB of JavaScript), which every process that drives a browser compiles again:
 * a script that loads Playwright, launches a browser and takes its first page spent 0.57-0.86
 * CPU-s in Node, against 0.40-0.54 with this cache (2 cores). Node 20 has no compile cache of
 * its own (Node 22's `module.enableCompileCache`), so the two files are compiled here with the
 * cache Node would otherwise throw away.
 *
 * A process that finds no cache for them writes one once its browser is up (or as it exits), so
 * it holds the functions that process ran to get there, not only the bundles' top level: with
 * them, the same work took 0.40-0.54 CPU-s against 0.53-0.56 for a cache of the top level. A cache is
 * named by Node's version and the file's content, and V8 rejects one that does not fit its build;
 * then the file compiles as usual. Nothing else is cached, and any failure here only costs the time.
 */
const BUNDLE = /[\\/]playwright-core[\\/]lib[\\/](coreBundle|utilsBundle)\.js$/

interface CompilingModule {
  exports: unknown
  require(id: string): unknown
  _compile(content: string, filename: string, ...rest: unknown[]): unknown
}

const prototype = (Module as unknown as { prototype: CompilingModule }).prototype
const internals = Module as unknown as {
  _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: unknown): string
  _cache: unknown
  wrap(code: string): string
}

/** How each bundle was compiled in this process: from the cache, or without one (none, or one V8 rejected). */
export type CodeCacheUse = 'from-cache' | 'no-cache' | 'rejected'
const uses = new Map<string, CodeCacheUse>()
const toWrite: Array<{ script: Script; file: string }> = []

/** Playwright's bundles and how they were compiled here, by file name (empty before Playwright loads). */
export function codeCacheUses(): Record<string, CodeCacheUse> {
  return Object.fromEntries(uses)
}

/** node_modules/.cache/agentest-v8, beside the Playwright it caches (null without one: its load says why). */
export function defaultCodeCacheFolder(): string | null {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), '..', '.cache', 'agentest-v8')
  } catch {
    return null
  }
}

/** Runs `load` (which requires Playwright) with its bundles compiled from, or into, the code cache. */
export function withPlaywrightCodeCache<T>(load: () => T, folder = defaultCodeCacheFolder()): T {
  if (!folder) return load()
  const original = prototype._compile
  prototype._compile = function (this: CompilingModule, content: string, filename: string, ...rest: unknown[]) {
    if (!BUNDLE.test(filename)) return original.call(this, content, filename, ...rest)
    return compileCached(this, content, filename, folder)
  }
  try {
    return load()
  } finally {
    prototype._compile = original
  }
}

function compileCached(module: CompilingModule, content: string, filename: string, folder: string): unknown {
  const name = basename(filename, '.js')
  const digest = createHash('sha256').update(content).digest('hex').slice(0, 20)
  const file = join(folder, `${name}-${digest}-${process.version}-${process.arch}.bin`)
  const cachedData = readIfThere(file)
  const script = new Script(internals.wrap(content), {
    filename,
    cachedData,
    // Playwright's bundles use import() (node:crypto among others): Node's own loader answers it.
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  })
  const use: CodeCacheUse = !cachedData ? 'no-cache' : script.cachedDataRejected ? 'rejected' : 'from-cache'
  uses.set(name, use)
  if (use !== 'from-cache') {
    if (toWrite.length === 0) process.once('exit', writePlaywrightCodeCache)
    toWrite.push({ script, file })
  }
  // The module wrapper's arguments, as Node's own compile passes them.
  const require = Object.assign((id: string) => module.require(id), {
    resolve: (request: string, options?: unknown) => internals._resolveFilename(request, module, false, options),
    cache: internals._cache,
    main: (process as { mainModule?: unknown }).mainModule,
  })
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown
  return wrapper.call(module.exports, module.exports, require, module, filename, dirname(filename))
}

function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file)
  } catch {
    return undefined
  }
}

/**
 * Writes the caches this process compiled without one. The browser's launch calls it once the
 * browser is up, so the cache holds the launch's functions too (a Vitest worker is ended without
 * an exit event); other processes write theirs as they exit.
 */
export function writePlaywrightCodeCache(): void {
  for (const { script, file } of toWrite.splice(0)) {
    try {
      mkdirSync(dirname(file), { recursive: true })
      // Written whole under another name first: processes starting now never read half a file.
      const partial = `${file}.${process.pid}.tmp`
      writeFileSync(partial, script.createCachedData())
      renameSync(partial, file)
    } catch {
      // A read-only node_modules: the next process compiles as usual.
    }
  }
}
