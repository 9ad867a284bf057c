import { z } from 'zod'
import { AgentImageMaxima, AgentImageSpec } from './agent-image.ts'
import { EnvironmentName, EnvironmentSpec } from './environment.ts'
import { CommandOptions } from './command-agent.ts'

const AgentName = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'agent names are lowercase words like "oracle" or "my-agent"')

export const AgentConfig = z
  .object({
    /** A built-in agent (oracle, nop) or one declared under `agents:`. */
    name: AgentName.default('oracle'),
    model: z.string().min(1).nullable().default(null),
    base_url: z.url().nullable().default(null),
    /** Name of the environment variable that holds the API key; the key itself never goes in the config. */
    api_key_env: z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name').default('OPENAI_API_KEY'),
    /**
     * Send the key over plain HTTP to a host other than loopback or host.docker.internal (unset:
     * refused, the run stops at config load). Only for a trusted network; https needs no opt-in.
     */
    allow_insecure_key: z.boolean().optional(),
    /** Agent-specific settings, validated by the agent itself. */
    options: z.record(z.string(), z.unknown()).default({}),
    /** For `name: image`: the packaged agent to run, `name:version` or `name` (the latest). */
    spec: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*(:[0-9A-Za-z.+-]+)?$/, 'an agent image reference like my-agent:1.2.0 or my-agent')
      .nullable()
      .default(null),
  })
  .strict()
  .refine((a) => a.name !== 'image' || a.spec !== null, {
    path: ['spec'],
    message: 'the image agent needs a spec: agent.spec (or AGENTEST_AGENT_SPEC) = <name:version>',
  })
export type AgentConfig = z.infer<typeof AgentConfig>

export const BrowserConfig = z
  .object({
    /** Path to a Chromium build; empty means: Playwright's own browser, then a system Chromium. */
    executable_path: z.string().min(1).nullable().default(null),
    headless: z.boolean().default(true),
    viewport: z
      .object({ width: z.number().int().min(320).max(3840), height: z.number().int().min(240).max(2160) })
      .strict()
      .default({ width: 1280, height: 800 }),
    /** URL substrings or /regex/ patterns agents may never load; such a load ends the task with an error. */
    blocklist: z.array(z.string().min(1)).default([]),
    /** Hosts besides the web clones' that pages may reach (everything else is refused). */
    allow_hosts: z.array(z.string().min(1)).default([]),
    /**
     * Who launches the browser: each Vitest worker its own (Playwright runs in the worker, the
     * fastest while there are no more workers than cores), or the run one server every worker
     * connects to (one browser's memory and start-up, for many workers; its protocol then passes
     * through the main process). auto: worker up to one worker per core, run beyond.
     */
    scope: z.enum(['auto', 'worker', 'run']).default('auto'),
    /**
     * A browser elsewhere to open every task's context in, instead of launching one: a Playwright
     * browser server (`ws://host:port/...`, from `launchServer` or `npx playwright run-server`)
     * or a Chromium's CDP endpoint (`http://host:9222`, a browser farm's). Each task still gets a
     * context of its own behind this machine's egress proxy.
     */
    connect: z
      .string()
      .regex(/^(wss?|https?):\/\/[^\s]+$/, 'a ws:// endpoint of a Playwright browser server, or the http:// CDP endpoint of a Chromium')
      .nullable()
      .default(null),
    /**
     * The address of this machine at which that browser reaches the egress proxy (each task's
     * proxy listens there): this machine's LAN address, or for a browser in a container the Docker
     * bridge's gateway. 127.0.0.1 (the default) serves a browser on this machine only.
     */
    proxy_host: z.string().min(1).default('127.0.0.1'),
  })
  .strict()
export type BrowserConfig = z.infer<typeof BrowserConfig>
export type BrowserScope = Exclude<BrowserConfig['scope'], 'auto'>

export const RunConfig = z
  .object({
    /** A label for the run; the run id is `<name>-<timestamp>` (or a timestamp alone). */
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-"')
      .nullable()
      .default(null),
    /**
     * A fixed run id instead of `<name>-<timestamp>`: the shards of a split run and their merge
     * share one, so they write one run folder.
     */
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-"')
      .nullable()
      .default(null),
    results_dir: z.string().min(1).default('runs'),
    /**
     * Attempts per task: each one a fresh sandbox and its own record (`<id>.e2.json` ...), so the
     * summary can give pass@k, pass^k and an interval that accounts for the agent's variance.
     */
    epochs: z.number().int().min(1).max(100).default(1),
    /**
     * Tasks run at once: different task files and a file's tests (its epochs, a gate's variants,
     * a suite file's tasks) alike, sharing a worker's modules and browser, each in its own
     * sandbox. 1 (the default) runs them one after another. Above 1, with no worker count named,
     * one worker holds them all, so a slow model's waits overlap without a process per task.
     */
    concurrency: z.number().int().min(1).max(256).default(1),
    /** Per-task wall-clock limit; the agent loop is stopped when it passes. */
    task_timeout_ms: z.number().int().positive().default(180_000),
    /**
     * Earlier results in results_dir with the same task, agent, model, max_steps and settings:
     * `use` reuses them (re-checking their evidence, no agent step), `refresh` runs everything,
     * `only` runs nothing new (tasks without one are skipped), `rerun-failed` reuses passes only.
     */
    cache: z.enum(['use', 'refresh', 'only', 'rerun-failed']).default('use'),
    /** Replay model replies to requests seen before (kept in <results_dir>/.model-cache): reproducible runs. */
    model_cache: z.boolean().default(false),
    /** How often the terminal shows each running task's step and last action; 0 turns it off. */
    progress_ms: z.number().int().min(0).default(10_000),
    /**
     * A sandbox that fails to start, or dies before the agent's first action, for a reason of the
     * machine's (a container, the engine, the clone) is started again this many times; each try
     * is on the record's `retries`. A task the agent has acted in is never retried.
     */
    infra_retries: z.number().int().min(0).max(5).default(1),
    /**
     * A screenshot after every step (the default), or only of the final screen. A capture is about
     * a quarter of a browser run's CPU, because headless Chromium paints only when asked: off suits
     * runs nobody reads step by step, such as a gate's near misses. An agent that looks at the
     * screen still gets a fresh one, and a judge of the steps sees only the final screen. A desktop
     * paces its own actions (SETTLE_MS in src/computer/xdotool.ts): a replay needs no capture to keep pace.
     */
    step_screenshots: z.boolean().default(true),
  })
  .strict()
export type RunConfig = z.infer<typeof RunConfig>

export const DockerConfig = z
  .object({
    /** Keep a failed task's container (renamed agentest-kept-...) for debugging; its name is printed. */
    keep_on_failure: z.boolean().default(false),
    /** Per-container limits for desktop sandboxes. */
    memory_mb: z.number().int().min(256).max(65_536).default(2048),
    cpus: z.number().positive().max(64).default(1),
    pids: z.number().int().min(64).max(65_536).default(512),
    /**
     * What a desktop container may write, in MB (its writable layer). No single file grows past it
     * (the kernel's file-size limit), and a container found past it in all (checked every 2 s)
     * is stopped and its task ends as `disk_limit` (src/sandbox/desktop/disk-watch.ts).
     */
    disk_mb: z.number().int().min(16).max(1_048_576).default(4096),
    /**
     * Desktop containers each Vitest worker keeps started ahead of its tasks, per image, their
     * display and window manager up and never used by a task; a task takes one (then its
     * setup_cmd runs) and the pool refills in the background. 0 (the default) starts each
     * task's container when the task starts.
     */
    warm_pool: z.number().int().min(0).max(8).default(0),
  })
  .strict()
export type DockerConfig = z.infer<typeof DockerConfig>

export const AppsConfig = z
  .object({
    omnizon: z
      .object({
        /** An Omnizon that is already running; null: the run starts its own on loopback. */
        url: z.url().nullable().default(null),
      })
      .strict()
      .default({ url: null }),
  })
  .strict()
export type AppsConfig = z.infer<typeof AppsConfig>

const EnvName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name')

/** One grader model; an entry may name its own endpoint and key variable (else the grader's). */
export const GraderModel = z.union([
  z.string().min(1),
  z
    .object({
      model: z.string().min(1),
      base_url: z.url().nullable().default(null),
      api_key_env: EnvName.nullable().default(null),
    })
    .strict(),
])
export type GraderModel = z.infer<typeof GraderModel>

/**
 * The LLM grader of judged checks (`expect(judge)...`). Without a model, judged checks are
 * unscored and their tasks end as skipped ("needs a grader model"), never as passed.
 */
export const GraderConfig = z
  .object({
    /** The judge model, or a list of them that decides by majority (use an odd number). */
    model: z.union([GraderModel, z.array(GraderModel).min(1)]).nullable().default(null),
    /** An OpenAI-compatible endpoint; null: OPENAI_BASE_URL, else api.openai.com. */
    base_url: z.url().nullable().default(null),
    /** Name of the variable holding the key; the key itself never goes in the config. */
    api_key_env: EnvName.default('OPENAI_API_KEY'),
    /**
     * Send the grader's keys over plain HTTP to a host other than loopback or host.docker.internal
     * (unset: refused at config load). Covers every grader model's endpoint.
     */
    allow_insecure_key: z.boolean().optional(),
    temperature: z.number().min(0).max(2).nullable().default(0),
    /** One call's limit; a slower call is retried. */
    timeout_ms: z.number().int().positive().default(120_000),
    /** Retries of a failed call (5xx, 429, timeouts) and of an unparsable verdict. */
    retries: z.number().int().min(0).max(10).default(2),
    /** Screenshots are scaled to fit this many pixels on their long side before they are sent. */
    max_image_px: z.number().int().min(64).max(4096).default(768),
    /** A flow check sends at most this many step screenshots (first, last and evenly between). */
    max_flow_screenshots: z.number().int().positive().max(500).default(50),
    /** json_schema: structured output; json_object or text for servers without it (the prompt asks for JSON anyway). */
    response_format: z.enum(['json_schema', 'json_object', 'text']).default('json_schema'),
  })
  .strict()
  .refine((g) => g.model !== null || g.base_url === null, {
    path: ['model'],
    message: 'a grader needs a model (set grader.model or AGENTEST_GRADER_MODEL)',
  })
export type GraderConfig = z.infer<typeof GraderConfig>

/** USD per million tokens, by model name: the summary prices agent and grader tokens with it. */
export const Prices = z.record(
  z.string().min(1),
  z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).strict(),
)
export type Prices = z.infer<typeof Prices>

/**
 * Budgets beside max_steps and the timeout. A task past its own limit ends as `token_limit` or
 * `cost_limit` (not passed); once the run's total passes its limit no new task starts, and the
 * rest are recorded as not run (`run_limit`). Costs are the agent's tokens at the `prices` rate
 * of its model. Null: no limit.
 */
export const LimitsConfig = z
  .object({
    /** Agent tokens (input + output) one task may use. */
    task_tokens: z.number().int().positive().nullable().default(null),
    /** Agent spend in USD one task may use. */
    task_cost_usd: z.number().positive().nullable().default(null),
    /** Agent tokens the whole run may use. */
    run_tokens: z.number().int().positive().nullable().default(null),
    /** Agent spend in USD the whole run may use. */
    run_cost_usd: z.number().positive().nullable().default(null),
  })
  .strict()
export type LimitsConfig = z.infer<typeof LimitsConfig>

/** Agents packaged as images (`agent: { name: image, spec: name:version }`). */
export const AgentImagesConfig = z
  .object({
    /** Folders searched for `*.agent.yaml` specs, relative to the config file; missing ones are skipped. */
    folders: z.array(z.string().min(1)).default(['agents', 'fixtures/agents']),
    /** The most a spec may ask for; a spec above it is refused. */
    max: AgentImageMaxima.default(AgentImageMaxima.parse({})),
    /**
     * Host variables a spec's `secrets:` may pass into its container; a spec asking for any other
     * is refused. None by default: list the ones you trust your packaged agents with.
     */
    allow_secrets: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')).default([]),
  })
  .strict()
export type AgentImagesConfig = z.infer<typeof AgentImagesConfig>

export const Config = z
  .object({
    agent: AgentConfig.default(AgentConfig.parse({})),
    /** When set, overrides every task's own max_steps. */
    max_steps: z.number().int().positive().nullable().default(null),
    run: RunConfig.default(RunConfig.parse({})),
    browser: BrowserConfig.default(BrowserConfig.parse({})),
    apps: AppsConfig.default(AppsConfig.parse({})),
    /** Web apps tasks may name in `app:` besides Omnizon: a URL, a command or a Docker image each. */
    environments: z.record(EnvironmentName, EnvironmentSpec).default({}),
    docker: DockerConfig.default(DockerConfig.parse({})),
    grader: GraderConfig.default(GraderConfig.parse({})),
    prices: Prices.default({}),
    limits: LimitsConfig.default(LimitsConfig.parse({})),
    agent_images: AgentImagesConfig.default(AgentImagesConfig.parse({})),
    /**
     * User agents by name: a module path (relative to the config file) whose default export is
     * defineAgent(...), or a command agent's options (`{ command: [python3, my_agent.py] }`).
     */
    agents: z.record(AgentName, z.union([z.string().min(1), CommandOptions])).default({}),
  })
  .strict()
export type Config = z.infer<typeof Config>
export type ConfigInput = z.input<typeof Config>

/** What the main process hands to workers: the validated config plus run facts. */
export const ResolvedRun = z.object({
  config: Config,
  run_id: z.string(),
  root: z.string(),
  results_path: z.string(),
  config_file: z.string().nullable(),
  /** Absolute module paths of user agents by name. */
  agent_modules: z.record(z.string(), z.string()),
  /** Command agents declared under `agents:`, by name. */
  agent_commands: z.record(z.string(), CommandOptions).default({}),
  /** The packaged agent's spec, when the agent is `image`. */
  agent_image: z.object({ file: z.string(), shown: z.string(), ref: z.string(), spec: AgentImageSpec }).nullable().default(null),
  /**
   * Steps are annotated with their screenshot attached only when a viewer shows attachments (the
   * Vitest UI, the html reporter): Vitest copies every attached file into its attachments folder
   * and never cleans it, so a plain `vitest run` would grow it by a copy of every screenshot.
   */
  attach_screenshots: z.boolean().default(true),
})
export type ResolvedRun = z.infer<typeof ResolvedRun>
