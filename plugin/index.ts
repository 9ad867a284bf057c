import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Vite } from 'vitest/node'
import type {} from 'vitest/config'
import type { TestProject } from 'vitest/node'
import { InputError, loadConfig, makeRunId } from '../src/config/index.ts'
import { describeKeyRoutes, keyRoutes } from '../src/config/keys.ts'
import type { ResolvedRun } from '../src/schema/config.ts'
import { Difficulty, ChallengeType, Level } from '../src/schema/task.ts'
import TestCaseJsonReporter from '../reporters/testcase-json.ts'
import SummaryReporter from '../reporters/summary.ts'
import ProgressReporter from '../reporters/progress.ts'
import LoadCheckReporter from '../reporters/load-check.ts'
import RunLimitReporter from '../reporters/run-limits.ts'
import { describeLimits } from '../src/limits/index.ts'
import { RunInterrupt } from './interrupt.ts'
import { RETRY_REFUSED, retryCount } from '../src/task/retry.ts'
import { modelEndpointWarning } from '../src/agent-images/model-endpoint.ts'

/** agentest's own folders a failed check passes through on its way to the task's line. */
const CHECK_PLUMBING = ['grading', 'checks', 'desktop-helpers'].map((folder) => `${resolve(import.meta.dirname, '../src', folder)}/`)

export interface AgentestPluginOptions {
  /** Folder holding agentest.config.yaml and runs/; defaults to the Vitest root. */
  root?: string
  /** Test files of the benchmark; default `tasks/**\/*.task.ts`. */
  include?: string[]
}

/** Tasks are tagged with their difficulty, challenge type and level, for --tags-filter. */
const TASK_TAGS = [...Difficulty.options, ...ChallengeType.options, ...Level.options].map((name) => ({ name }))

const GLOBAL_SETUP = fileURLToPath(new URL('./global-setup.ts', import.meta.url))
const TASK_RUNNER = fileURLToPath(new URL('./runner/index.ts', import.meta.url))

/**
 * The Vitest plugin for a benchmark project: task globs, timeouts and tags; the validated
 * config and run id provided to workers; the TestCaseRun and summary reporters (added here so
 * a CLI --reporter does not drop them); and the global setup that starts clones and a browser.
 */
export function agentest(options: AgentestPluginOptions = {}): Vite.Plugin {
  let run: ResolvedRun | null = null
  const interrupt = new RunInterrupt()
  const resolveRun = (root: string): ResolvedRun => {
    if (run) return run
    const loaded = failOnInputError(() => loadConfig(root))
    const results = resolve(root, loaded.config.run.results_dir)
    const run_id = loaded.config.run.id ?? uniqueRunId(results, loaded.config.run.name)
    run = {
      config: loaded.config,
      run_id,
      root,
      results_path: join(results, run_id),
      config_file: loaded.file,
      agent_modules: loaded.agentModules,
      agent_commands: loaded.agentCommands,
      agent_image: loaded.agentImage,
      attach_screenshots: true,
    }
    return run
  }

  return {
    name: 'agentest',
    config(viteConfig) {
      const root = resolve(options.root ?? viteConfig.root ?? process.cwd())
      const { config } = resolveRun(root)
      return {
        test: {
          include: options.include ?? ['tasks/**/*.task.ts'],
          testTimeout: config.run.task_timeout_ms,
          hookTimeout: 60_000,
          globalSetup: [GLOBAL_SETUP],
          // Task files share a worker's modules and browser connection: each task still gets a
          // fresh sandbox, and a fresh module graph per file would cost ~0.5 s of imports each.
          isolate: false,
          // A failed check's code frame is the task's own line, not agentest's check plumbing.
          onStackTrace: (_error: unknown, frame: { file: string }) => !CHECK_PLUMBING.some((folder) => frame.file.startsWith(folder)),
          // How many tasks a worker runs at once: different task files (the runner starts up to this
          // many) and a file's attempts (agentTest marks them concurrent) alike.
          maxConcurrency: config.run.concurrency,
          runner: TASK_RUNNER,
        },
      }
    },
    // Vitest resets an inline project's tags after `config`, so they are added once resolved.
    configResolved(viteConfig) {
      const test = (viteConfig as { test?: { tags?: Array<{ name: string }> } }).test
      if (!test) return
      const declared = new Set((test.tags ?? []).map((t) => t.name))
      test.tags = [...(test.tags ?? []), ...TASK_TAGS.filter((t) => !declared.has(t.name))]
    },
    configureVitest({ vitest, project }) {
      // Containers are labelled with the run's main process, so leftovers of dead runs can be told apart.
      process.env.AGENTEST_MAIN_PID = String(process.pid)
      const resolved = resolveRun(resolve(options.root ?? project.config.root))
      const split = vitest.config.shard ? `--shard=${vitest.config.shard.index}/${vitest.config.shard.count}` : vitest.config.mergeReports ? '--merge-reports' : null
      if (split && !resolved.config.run.id) {
        failOnInputError(() => {
          throw new InputError(`${split}: the shards of a run and their merge write one run folder: set AGENTEST_RUN_ID=<id> (the same on each)`)
        })
      }
      // Tasks in flight are set by run.concurrency: one worker holds them all (Vitest hands a single
      // non-isolated worker every file at once), unless --maxWorkers or the config names workers.
      if (resolved.config.run.concurrency > 1 && !vitest.config.maxWorkers && !project.config.maxWorkers) project.config.maxWorkers = 1
      const retries = retryCount(project.config.retry)
      if (retries > 0) {
        failOnInputError(() => {
          throw new InputError(`--retry ${retries}: ${RETRY_REFUSED}`)
        })
      }
      // Ctrl-C and SIGTERM stop the run with every record written; a second one exits at once.
      if (!vitest.config.watch) interrupt.install(vitest)
      // Watch mode is an author's loop: every save gets a fresh run, never an earlier result.
      if (vitest.config.watch && !process.env.AGENTEST_CACHE) resolved.config.run.cache = 'refresh'
      const reporters = vitest.config.reporters as unknown[]
      resolved.attach_screenshots = attachmentViewer(vitest.config.ui, reporters)
      project.provide('agentest:run', resolved)
      if (!reporters.some((r) => r instanceof TestCaseJsonReporter)) {
        const loadCheck = new LoadCheckReporter()
        reporters.push(loadCheck, new TestCaseJsonReporter(resolved, interrupt), new SummaryReporter(resolved, loadCheck, interrupt, project.name))
        const { limits } = resolved.config
        if (limits.run_tokens !== null || limits.run_cost_usd !== null) reporters.push(new RunLimitReporter(resolved))
        if (resolved.config.run.progress_ms > 0 && !vitest.config.mergeReports) reporters.push(new ProgressReporter(resolved))
      }
      announce(project, resolved)
    },
  }
}

/**
 * Whether anything in this run shows annotation attachments: the Vitest UI or the html reporter
 * (`--reporter=html`, or `['html', options]` in a config). AGENTEST_ATTACH_SCREENSHOTS=1 forces it
 * on for a reporter of your own.
 */
function attachmentViewer(ui: boolean | undefined, reporters: unknown[]): boolean {
  if (ui || process.env.AGENTEST_ATTACH_SCREENSHOTS === '1') return true
  const isHtml = (r: unknown) => r === 'html' || (Array.isArray(r) && r[0] === 'html') || (typeof r === 'object' && r?.constructor?.name === 'HTMLReporter')
  return reporters.some(isHtml)
}

function announce(project: TestProject, run: ResolvedRun): void {
  const { agent } = run.config
  const model = agent.model ? ` · model ${agent.model}` : ''
  const steps = run.config.max_steps ? ` · max_steps ${run.config.max_steps}` : ''
  const graders = [run.config.grader.model].flat().filter((g) => g !== null)
  const grader = graders.length
    ? ` · grader ${graders.map((g) => (typeof g === 'string' ? g : g.model)).join(', ')}`
    : ' · no grader (judged checks unscored)'
  const name = run.agent_image ? `image ${run.agent_image.ref} (${run.agent_image.shown})` : agent.name
  const limits = describeLimits(run.config.limits)
  project.vitest.logger.log(`agentest: evaluating agent ${name}${model}${steps}${limits ? ` · ${limits}` : ''}${grader} · run ${run.run_id} → ${run.results_path}`)
  const keys = keysLine(run)
  if (keys) project.vitest.logger.log(keys)
  const noModel = modelEndpointWarning(run)
  if (noModel) project.vitest.logger.log(noModel)
}

/**
 * Which key variable goes where in this run (never a value), resolved as the code that sends it
 * does: `agentest: keys: OPENAI_API_KEY → 127.0.0.1:8000 (agent), OPENAI_API_KEY → api.openai.com (grader)`.
 * Null when the run sends no key.
 */
export function keysLine(run: Pick<ResolvedRun, 'config' | 'agent_image'>, env: NodeJS.ProcessEnv = process.env): string | null {
  const routes = keyRoutes(run.config, run.agent_image, env)
  return routes.length ? `agentest: keys: ${describeKeyRoutes(routes, env)}` : null
}

/** A second run in the same second gets "-2", "-3", ... rather than sharing a folder. */
function uniqueRunId(resultsDir: string, name: string | null): string {
  const base = makeRunId(name)
  let id = base
  for (let n = 2; existsSync(join(resultsDir, id)); n++) id = `${base}-${n}`
  return id
}

/** Bad input is one line on stderr and exit code 1, not a stack trace. */
export function failOnInputError<T>(work: () => T): T {
  try {
    return work()
  } catch (error) {
    if (error instanceof InputError) {
      process.stderr.write(`agentest: ${error.message}\n`)
      process.exit(1)
    }
    throw error
  }
}
