import { readFileSync } from 'node:fs'
import type { z } from 'zod'
import type { ExecResult } from '../docker/exec.ts'
import { Observation } from './observation.ts'
import { EndReply, ReadReply, StartReply, WindowsReply, type ObservedWindow } from './schema.ts'

/** The script the observer runs in the container, as root (see observer.py). */
const SCRIPT = readFileSync(new URL('./observer.py', import.meta.url), 'utf8')

/** Runs a command in the container as root, out of the agent's reach (the desktop's root channel). */
export type RootCommand = (argv: string[], timeoutMs: number) => Promise<ExecResult>

/**
 * The harness's side of the desktop's observer: starts the trace before the agent's turn, stops
 * the agent's processes when it ends, and reads what was recorded for the checks. An observer that
 * could not start says why, and every check that needs its record fails with that reason.
 */
export class DesktopObserver {
  private unavailable: string | null = null
  private started = false
  /** What endTurn() stopped, once it ran. */
  ended: z.infer<typeof EndReply> | null = null

  constructor(private readonly root: RootCommand) {}

  /** Marks the image as one without an observer (no label): checks that need one say so. */
  static without(reason: string): DesktopObserver {
    const observer = new DesktopObserver(() => Promise.reject(new Error(reason)))
    observer.unavailable = reason
    return observer
  }

  /** Starts observing: the agent's turn begins once every process of its user is traced. */
  async start(): Promise<void> {
    if (this.unavailable || this.started) return
    this.started = true
    const reply = await this.call('start', [], StartReply, 30_000).catch((error: unknown) => ({ ok: false as const, reason: String(error) }))
    if (!reply.ok) this.unavailable = `the observer did not start: ${reply.reason}`
  }

  /** The agent's turn is over: its processes are killed, setup's shells frozen. Null without an observer. */
  async endTurn(): Promise<z.infer<typeof EndReply> | null> {
    if (this.unavailable || !this.started) return null
    this.ended = await this.call('end', [], EndReply, 30_000)
    return this.ended
  }

  /** What was observed, with the current ctimes of `paths` (to tell changes no traced process made). */
  async observation(paths: readonly string[] = []): Promise<Observation> {
    if (this.unavailable) throw new EvidenceMissing(this.unavailable)
    if (!this.started) throw new EvidenceMissing('the observer was not started (the agent never ran)')
    const reply = await this.call('read', [...paths], ReadReply, 60_000)
    if (!reply.ok) throw new EvidenceMissing(reply.reason)
    return Observation.from(reply)
  }

  /** Every named window and the pid of the client that owns it, as the X server says. */
  async windows(): Promise<ObservedWindow[]> {
    if (this.unavailable) throw new EvidenceMissing(this.unavailable)
    const reply = await this.call('windows', [], WindowsReply, 30_000)
    if (!reply.ok) throw new EvidenceMissing(reply.reason)
    return reply.windows
  }

  private async call<T extends z.ZodType>(command: string, args: string[], schema: T, timeoutMs: number): Promise<z.infer<T>> {
    const result = await this.root(['python3', '-I', '-c', SCRIPT, command, ...args], timeoutMs)
    const text = result.stdout.toString().trim().split('\n').at(-1) ?? ''
    if (result.exitCode !== 0 || !text) {
      throw new Error(`the observer's ${command} failed (exit ${result.exitCode}): ${result.stderr.toString().trim().split('\n').at(-1) ?? ''}`)
    }
    return schema.parse(JSON.parse(text))
  }
}

/** A check needed the observer's record and there is none: it fails, with the reason. */
export class EvidenceMissing extends Error {
  override name = 'EvidenceMissing'
}
