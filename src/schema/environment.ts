import { z } from 'zod'

/** The state contract of a web app: where the harness resets a session and reads its state. */
export const StateContract = z
  .object({
    /** GET with task_id, run_id and seed: resets the calling browser context's session. */
    config_path: z.string().startsWith('/').default('/config'),
    /** GET: the session's state as JSON (Omnizon's and REAL's: initial, final, diff). */
    finish_path: z.string().startsWith('/').default('/finish'),
  })
  .strict()
export type StateContract = z.infer<typeof StateContract>

/**
 * A web app tasks run against, declared under `environments:`: one already running (`url`), a
 * command that serves it (`{port}` is replaced by a free port), or a Docker image (its `port`
 * published on loopback). The run starts what needs starting when its first task asks for it.
 */
export const EnvironmentSpec = z
  .object({
    url: z.url().optional(),
    command: z.string().min(1).optional(),
    image: z.string().min(1).optional(),
    /** The image's port; for a command, a fixed port instead of a free one. */
    port: z.number().int().min(1).max(65535).optional(),
    /** Answers (any status below 500) once the app is ready. */
    ready_path: z.string().startsWith('/').default('/'),
    ready_timeout_ms: z.number().int().positive().default(60_000),
    /** The state contract, or null: then checks read the page, the answer and the judge. */
    state: StateContract.nullable().default(null),
    /** Hosts the app's pages may load besides its own origin (a CDN, an auth page). */
    allow_hosts: z.array(z.string().min(1)).default([]),
    /**
     * What the app's screens show that a hedging answer could list beside the right one, one line
     * each (the validity gate's hedger: its answers must fail). A function of the app's state goes
     * in its kit (registerAppKit); without either, the hedger is not applicable to its tasks.
     */
    candidates: z.array(z.string().trim().min(1, 'a candidate is a line of text, not empty'), 'a list of lines, e.g. ["Cedar room: $120 a night"]').optional(),
    /** The seeds its `/config` knows, so a task's `seed:` is checked when the task loads (else only by the app). */
    seeds: z.array(z.string().min(1), 'a list of seed names, e.g. [default, with-bookings]').min(1).optional(),
  })
  .strict()
  .refine((spec) => [spec.url, spec.command, spec.image].filter((v) => v !== undefined).length === 1, {
    message: 'give exactly one of url (already running), command (started by the run) or image (a Docker image)',
  })
  .refine((spec) => spec.image === undefined || spec.port !== undefined, { path: ['port'], message: 'an image needs the port its app listens on' })
export type EnvironmentSpec = z.output<typeof EnvironmentSpec>
export type EnvironmentSpecInput = z.input<typeof EnvironmentSpec>

export const EnvironmentName = z.string().regex(/^[a-z][a-z0-9-]*$/, 'environment names are lowercase words like "inbox" or "my-app"')

/** What global setup tells workers of each environment: where it runs, or why it does not. */
/** Where an environment runs, or why it does not. */
export const EnvironmentStatus = z.union([z.object({ url: z.string() }).strict(), z.object({ error: z.string() }).strict()])
export type EnvironmentStatus = z.infer<typeof EnvironmentStatus>

/** Omnizon's declaration: the clone that ships with agentest (started in-process), with its state contract. */
export const OMNIZON_ENVIRONMENT: EnvironmentSpec = {
  ready_path: '/',
  ready_timeout_ms: 60_000,
  state: { config_path: '/config', finish_path: '/finish' },
  allow_hosts: [],
}

/** Why a task's environment cannot start: the config does not declare it. */
export function undeclaredEnvironment(name: string): string {
  return `the ${name} environment is not declared (environments: in agentest.config.yaml)`
}
