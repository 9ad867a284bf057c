import type { Browser } from 'playwright'
import type Docker from 'dockerode'
import type { z } from 'zod'
import type { Computer } from '../computer/computer.ts'
import type { DockerProvision } from '../docker/images.ts'
import type { PreparedImage } from '../docker/task-images.ts'
import type { ExecResult } from '../docker/exec.ts'
import type { Fault } from '../faults/kinds.ts'
import type { ResolvedRun } from '../schema/config.ts'
import type { TestCaseRun } from '../schema/run.ts'
import type { AgentServerClient } from '../agent-images/client.ts'
import type { Recorder } from '../trajectory/recorder.ts'

/** Skips a task whose sandbox cannot exist here (no Docker engine, no environment), with the reason. */
export class SandboxUnavailable extends Error {
  override name = 'SandboxUnavailable'
}

/** A check asked a reused result for evidence it does not hold. */
export class EvidenceNotRecorded extends Error {
  override name = 'EvidenceNotRecorded'
}

/** The fields of a task's options that say which sandbox it runs in and how it starts. */
export interface SandboxFields {
  app?: string | undefined
  start_path: string
  seed?: string | undefined
  popup: boolean
  desktop_image?: string | undefined
  setup_cmd?: string | undefined
  network: boolean
  /** A registered kind by name, with its own options (checked by the kind's schema). */
  sandbox?: { kind: string; [option: string]: unknown } | undefined
}

/** What a kind may ask of the worker running its task: the run and what the worker shares. */
export interface SandboxServices {
  readonly run: ResolvedRun
  /** The values a run must never write down (keys, a packaged agent's secrets). */
  secrets(): string[]
  browser(): Promise<Browser>
  /** Where a declared environment runs; throws why it does not. */
  appUrl(name: string): Promise<string>
  docker(): Docker
  dockerProvision(): Promise<DockerProvision>
  /** A task's own desktop image, built or found once per worker; null for a bundled one. */
  taskImage(image: string, taskFile: string): Promise<PreparedImage | null>
  /** Before the first container: the run's reaper of containers is started. */
  watchContainers(): Promise<void>
  /** The worker's shared resources by name, made on first use and closed with the worker. */
  shared<T extends { close(): Promise<void> }>(name: string, make: () => T): T
  /** Runs `close` in the background; the worker waits for it before it ends. */
  later(close: () => Promise<void>): void
}

/** One task's sandbox request. */
export interface SandboxRequest<Options = unknown> {
  taskId: string
  taskFile: string
  fields: SandboxFields
  /** The kind's own options (`sandbox:` in the task), parsed by its schema. */
  options: Options
  services: SandboxServices
}

/** Whose a check's command is: root's, or the agent's (to run the agent's own work). */
export type ShellUser = 'root' | 'agent'

/**
 * A task's sandbox, whichever kind, as the session needs it. `parts` are what the kind adds to
 * the task's context (a browser's page and app, a desktop's container and observer) and
 * `solutionParts` what a reference solution gets to look with.
 */
export interface TaskSandbox<Parts extends object = object> {
  readonly computer: Computer
  readonly parts: Parts
  solutionParts(computer: Computer): object
  /** A packaged agent's server in the sandbox (image agents only). */
  readonly agentServer: AgentServerClient | null
  /** Blocklisted URLs the pages tried to load. */
  violations(): readonly string[]
  /** Why the sandbox stopped working (a killed container, a dead clone), or null while it is fine. */
  gone(): Promise<Fault | null>
  /** Runs a check's command, for kinds with a shell. */
  shell?(command: string, timeoutMs: number, as: ShellUser): Promise<ExecResult>
  /** The agent's turn starts: what it does is watched from here (the desktop's observer). */
  turnStarts?(): Promise<void>
  /** The agent's turn is over: nothing of its keeps running into the checks; `note` says what was stopped. */
  turnEnds?(note: (message: string) => Promise<void>): Promise<void>
  /** After a failed check: a fault the sandbox met that explains it (a container killed at its memory limit). */
  whyFailed?(): Promise<Fault | null>
  /** Saves the graded state as evidence; returns its path in the run folder, or null. */
  saveEvidence(recorder: Recorder): Promise<string | null>
  finalUrl(): string | null
  /** Removes the sandbox; a failed task's container is kept when the config says so. */
  close(failed: boolean): Promise<void>
}

/** How a failed start is told apart: is the engine there, is the clone up? */
export interface StartProbes {
  engine?: () => Promise<boolean>
  clone?: () => Promise<Fault | null>
}

/**
 * A kind of sandbox: how a task asks for it, how it opens, and what a reused result of it
 * answers. Register one with registerSandboxKind(); a task names it with `sandbox: { kind }`.
 */
export interface SandboxKind<Parts extends object = object, Options = unknown> {
  readonly name: string
  /** What its Computer reports to agents. */
  readonly environment: Computer['environment']
  /** The kind's options under `sandbox:` in a task (zod). */
  readonly options?: z.ZodType<Options>
  /** Whether a task's fields ask for this kind without naming it (`app:` is a browser's, `desktop_image:` a desktop's). */
  claims(fields: SandboxFields): boolean
  open(request: SandboxRequest<Options>): Promise<TaskSandbox<Parts>>
  /** How a failed start of this kind is told apart (the machine's fault, or the sandbox's). */
  probes(request: SandboxRequest<Options>): StartProbes
  /** What the result cache keys on beside the task file (a task's own image id). */
  cacheKey?(request: SandboxRequest<Options>): Promise<string | null>
  /** Work before a file's tasks start their timers (building a task's own image); declared once per file. */
  prepare?(fields: SandboxFields, taskFile: string): ((services: SandboxServices) => Promise<void>) | null
  /** A reused result's parts: answered from what the earlier run recorded, or refusing with why. */
  recordedParts(record: TestCaseRun, finalState: unknown, refuse: (what: string) => never): Partial<Parts>
}
