import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser } from 'playwright'
import { startModelServer, type ModelCall, type ModelServer, type ReplyInput } from '../../fixtures/model-server/index.ts'
import { CommandOptions } from '../agents/command/options.ts'
import { programEnvironment } from '../agents/command/environment.ts'
import { ProgramOutput } from '../agents/command/output.ts'
import type { ServedComputer } from '../computer-service/server.ts'
import { describeAction, type Computer } from '../computer/computer.ts'
import { connectBrowser } from '../sandbox/index.ts'
import { BrowserConfig } from '../schema/config.ts'
import { redact } from '../secrets/redact.ts'
import { Recorder } from '../trajectory/recorder.ts'
import { servePage } from './served-page.ts'
import { TaskAbortedError } from '../trajectory/recording-computer.ts'

/** One check's outcome; `detail` is one line. (The same shape as an image's ConformanceCheck.) */
export interface CommandCheck {
  name: string
  passed: boolean
  detail: string
}

export interface CommandConformanceOptions {
  /** The program and its arguments, as `agent.options.command` takes them: ['python3', 'agents/my_agent.py']. */
  command: string[]
  /** Its working folder (default: this process's). */
  cwd?: string
  /** Variables for the program besides agentest's own (its `pass_env`, with values). */
  env?: Record<string, string>
  /** Its `agent.options.settings` (AGENTEST_OPTIONS). */
  settings?: Record<string, unknown>
  /** How long it may take to call finish once started; 60 s by default. */
  finishTimeoutMs?: number
  /** How long it may take to make its first call (to the model or the computer); 30 s by default. */
  startTimeoutMs?: number
  /** Where the checked tasks' steps and agent.log go; a fresh temp folder by default. */
  dir?: string
  /** A Chromium to run the page on; found as a run finds one by default. */
  browserPath?: string | null
  log?: (check: CommandCheck) => void
  /** Aborted (Ctrl-C): the programs are killed at once (they run in process groups of their own, which a terminal's Ctrl-C does not reach). */
  signal?: AbortSignal
}

/** The goal of the task the program must finish; the scripted model takes one step, then says finish. */
export const COMMAND_RUN_GOAL = 'agentest agent:check: take one action, then call finish with the answer "done".'
/** The goal of the task that is cancelled; the scripted model never answers it. */
export const COMMAND_CANCEL_GOAL = 'agentest agent:check: keep working until you are stopped.'

/** How long a stopped program may take to exit after SIGTERM, as the command agent allows it. */
const TERM_GRACE_MS = 1_000
/** How long a finished program may take to exit by itself (the command agent's default exit_grace_ms). */
const EXIT_GRACE_MS = 5_000
/** The key variable the program is given, with a placeholder: a real key never goes to the scripted model. */
const KEY_VARIABLE = 'OPENAI_API_KEY'


/**
 * Checks a command agent (a program agentest runs once per task, `agent: {name: command}`) the way
 * `npm run agent:check` checks an image: it runs the program as the command agent does (the same
 * environment, its own process group) on a served page in a real browser, with its model calls
 * going to agentest's scripted model server (a test double: one action, then finish), and checks
 * that it starts, reads the task, takes an action, calls finish in time, stops when cancelled
 * (SIGTERM, as when a task times out), and never prints its key. Each check is reported as it ends.
 */
export async function checkCommandAgent(options: CommandConformanceOptions): Promise<CommandCheck[]> {
  const checks: CommandCheck[] = []
  const record = (name: string, passed: boolean, detail: string) => {
    const check = { name, passed, detail: oneLine(detail) }
    checks.push(check)
    options.log?.(check)
    return passed
  }
  const key = `sk-agentest-check-${randomBytes(12).toString('hex')}`
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'agentest-agent-check-'))
  const model = await startModelServer({ policy: scriptedCheckModel(COMMAND_CANCEL_GOAL) })
  let browser: Browser | null = null
  const sessions: Session[] = []
  const killAll = () => sessions.forEach((session) => session.program.signalGroup('SIGKILL'))
  options.signal?.addEventListener('abort', killAll, { once: true })
  const open = async (id: string, goal: string) => {
    browser ??= await connectBrowser(BrowserConfig.parse({ executable_path: options.browserPath ?? null }), undefined)
    const session = await Session.start(browser, model, options, { id, goal, key, dir })
    sessions.push(session)
    return session
  }
  try {
    const run = await open('agent-check', COMMAND_RUN_GOAL)
    if (!record('starts', ...(await checkStart(run, options.startTimeoutMs ?? 30_000)))) return checks
    const finished = await run.finished(options.finishTimeoutMs ?? 60_000)
    const calls = run.modelCalls()
    const read = calls.find((call) => holds(call.body, COMMAND_RUN_GOAL))
    record(
      'reads the task',
      read !== undefined,
      read
        ? read === calls[0]
          ? 'its first model call held the goal'
          : `its model call ${calls.indexOf(read) + 1} held the goal (not its first)`
        : calls.length
          ? `none of its ${calls.length} model call(s) held the goal (AGENTEST_GOAL, or GET /v1/task, or the MCP server's instructions)`
          : `it never called its model (AGENTEST_MODEL_BASE_URL, ${run.program.exitText ?? 'still running'})`,
    )
    const step = run.recorder.steps[0]
    record(
      'takes an action',
      step !== undefined,
      step ? `step 1: ${describeAction(step.action)}, recorded with the harness's screenshot (${step.screenshot})` : `no action reached the computer${run.program.exitText ? `; it ${run.program.exitText}` : ''}`,
    )
    record('calls finish', finished.passed, finished.detail)
    await run.stop()

    const cancel = await open('agent-check-cancel', COMMAND_CANCEL_GOAL)
    record('stops when cancelled', ...(await checkCancel(cancel, options.startTimeoutMs ?? 30_000)))
  } finally {
    await Promise.all(sessions.map((s) => s.stop()))
    if (checks.length) record('no key in its output', ...keyCheck(sessions.map((s) => s.program), key, sessions.flatMap((s) => s.modelCalls())))
    await Promise.all(sessions.map((s) => s.close()))
    await (browser as Browser | null)?.close().catch(() => {})
    await model.close()
    options.signal?.removeEventListener('abort', killAll)
  }
  return checks
}

/** The command line `npm run agent:check -- --command "<program>"` checks, with one line per check; returns the exit code. */
export async function runCommandCheck(commandLine: string, write: (text: string) => void = (text) => void process.stdout.write(text)): Promise<number> {
  const command = commandLine.trim().split(/\s+/).filter(Boolean)
  if (!command.length) {
    write('agent:check: --command needs the program to run, e.g. --command "python3 agents/my_agent.py"\n')
    return 2
  }
  write(`agent:check ${command.join(' ')} (a command agent)\n`)
  const stop = new AbortController()
  const interrupted = () => {
    stop.abort()
    process.exit(130)
  }
  process.once('SIGINT', interrupted)
  let checks: CommandCheck[]
  try {
    checks = await checkCommandAgent({ command, signal: stop.signal, log: (c) => write(`${c.passed ? '✓' : '✗'} ${c.name}: ${c.detail}\n`) })
  } catch (error) {
    // The check's own means failed (no browser, say): not the program's doing.
    write(`agent:check: ${oneLine(error instanceof Error ? error.message : String(error))}\n`)
    return 2
  } finally {
    process.off('SIGINT', interrupted)
  }
  const failed = checks.filter((c) => !c.passed)
  write(
    failed.length === 0
      ? `agent:check: ${command.join(' ')} works as a command agent (${checks.length} checks)\n`
      : `agent:check: ${command.join(' ')} fails ${failed.length} of ${checks.length} checks: ${failed.map((c) => c.name).join(', ')}\n`,
  )
  return failed.length === 0 ? 0 : 1
}

/**
 * The scripted model of a conformance check (a test double): one action on the first turn, then
 * the answer "done" (as a call of the served `finish` tool where it is offered); a goal holding
 * `cancelGoal` gets no answer for a minute, so the check can cancel the run while it waits.
 */
export function scriptedCheckModel(cancelGoal: string): (call: ModelCall) => ReplyInput {
  return (call) => {
    if (holds(call.body, cancelGoal)) return { delay_ms: 60_000, say: 'too late' }
    const offered = toolNames(call.body)
    if (call.turn === 0) return { thought: 'agent:check: one action', actions: [offered.has('move') || !offered.has('click') ? { type: 'move', x: 40, y: 40 } : { type: 'click', x: 40, y: 40 }] }
    // The served tool is `finish`; a program whose own tool is `answer` (openai-chat's name) gets that.
    return offered.has('finish') ? { calls: [{ name: 'finish', arguments: { answer: 'done' } }] } : { answer: 'done' }
  }
}

/** The function names a request offers (Chat Completions or Responses shapes). */
function toolNames(body: Record<string, unknown>): Set<string> {
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ name?: unknown; function?: { name?: unknown } }>) : []
  return new Set(tools.map((t) => t.function?.name ?? t.name).filter((n): n is string => typeof n === 'string'))
}

type Verdict = [passed: boolean, detail: string]

async function checkStart(run: Session, timeoutMs: number): Promise<Verdict> {
  const outcome = await run.until(() => run.firstContact !== null, timeoutMs)
  if (outcome === 'yes') return [true, `it made its first call (to the ${run.firstContact!.to}) ${seconds(run.firstContact!.at - run.program.startedAt)} after it started`]
  if (run.program.spawnError) return [false, run.program.spawnError]
  if (outcome === 'exited') return [false, `it ${run.program.exitText} before it called the model or the computer${run.program.tail()}`]
  return [false, `no call to the model or the computer within ${seconds(timeoutMs)} of its start${run.program.tail()}`]
}

async function checkCancel(run: Session, timeoutMs: number): Promise<Verdict> {
  const started = await run.until(() => run.modelCalls().length > 0, timeoutMs)
  if (started !== 'yes') return [false, `the check cancels it while its first model call is pending, and it made none${run.program.exitText ? `: it ${run.program.exitText}` : ''}${run.program.tail()}`]
  // The call is pending (the scripted model answers it in a minute): stop the task as a timeout does.
  await delay(200)
  const { exited, left } = await run.cancel()
  if (exited === null) return [false, `it was still running ${seconds(TERM_GRACE_MS)} after SIGTERM (agentest then kills it with SIGKILL, and the task ends as stopped)`]
  if (left) return [false, `it exited on SIGTERM, but a process it started was still running ${seconds(TERM_GRACE_MS)} later`]
  return [true, `it stopped ${seconds(exited)} after SIGTERM (it ${run.program.exitText}), with nothing of it left running`]
}

function keyCheck(programs: Program[], key: string, calls: ModelCall[]): Verdict {
  const leaked = programs.find((program) => program.leak !== null)?.leak
  if (leaked) return [false, `its output printed its key (${KEY_VARIABLE}): ${leaked.slice(0, 160)}`]
  const lines = programs.flatMap((program) => program.lines)
  const sent = calls.some((call) => call.headers.authorization === `Bearer ${key}`)
  return [true, `${lines.length} line(s) of output, none with the key${sent ? '; the key went to the model in its Authorization header' : ''}`]
}

/** The running program: its exit, its output lines (scrubbed of the token and the key), its process group. */
class Program {
  readonly lines: string[] = []
  readonly startedAt = Date.now()
  spawnError: string | null = null
  exit: { code: number | null; signal: NodeJS.Signals | null; at: number } | null = null
  /** The first line of its output that held the key, with the key taken out. */
  leak: string | null = null
  readonly exited: Promise<void>
  private readonly output: ProgramOutput

  constructor(
    readonly child: ChildProcess,
    shown: string,
    secrets: { token: string; key: string },
    logLine: (text: string) => void,
  ) {
    this.output = new ProgramOutput(
      (text) => {
        this.lines.push(text.trimEnd())
        logLine(text)
      },
      (text) => {
        const clean = redact(text, [secrets.token, secrets.key])
        if (text.includes(secrets.key)) this.leak ??= clean
        return clean
      },
    )
    child.stdout?.on('data', (chunk: Buffer) => this.output.add('out', chunk))
    child.stderr?.on('data', (chunk: Buffer) => this.output.add('err', chunk))
    this.exited = new Promise<void>((done) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        if (child.pid !== undefined) return
        this.spawnError = `could not start ${shown}: ${error.code === 'ENOENT' ? 'not found (is it on PATH, or the path right from this folder?)' : error.message}`
        done()
      })
      child.once('exit', (code, signal) => {
        this.exit = { code, signal, at: Date.now() }
        done()
      })
    }).then(() => this.output.end())
  }

  /** How it ended, e.g. "exited with code 1", or null while it runs. */
  get exitText(): string | null {
    if (this.spawnError) return this.spawnError
    if (!this.exit) return null
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code}`
  }

  /** Its last lines, for a one-line reason. */
  tail(): string {
    const last = this.output.tail().slice(-3)
    return last.length ? `; its last lines: ${last.join(' | ')}` : ' (it printed nothing)'
  }

  signalGroup(signal: NodeJS.Signals): boolean {
    if (this.child.pid === undefined) return false
    try {
      process.kill(-this.child.pid, signal)
      return true
    } catch {
      return false // the group is gone
    }
  }

  /** Whether any process of its group is still running. */
  groupAlive(): boolean {
    return this.signalGroup(0 as unknown as NodeJS.Signals)
  }
}

/** One task served to the program: a page in a fresh browser context, its recorded Computer, the served API, the program. */
class Session {
  firstContact: { at: number; to: 'model' | 'computer' } | null = null
  private stopped = false

  private constructor(
    readonly program: Program,
    readonly recorder: Recorder,
    private readonly served: ServedComputer,
    private readonly abort: AbortController,
    private readonly model: ModelServer,
    private readonly goal: string,
    private readonly closeContext: () => Promise<void>,
  ) {}

  static async start(browser: Browser, model: ModelServer, options: CommandConformanceOptions, task: { id: string; goal: string; key: string; dir: string }): Promise<Session> {
    let session: Session | null = null
    const page = await servePage(browser, {
      id: task.id,
      goal: task.goal,
      maxSteps: 5,
      timeoutMs: options.finishTimeoutMs ?? 60_000,
      dir: task.dir,
      secrets: [task.key],
      model: { url: model.url, keyVariable: KEY_VARIABLE },
      wrap: (computer) => noticing(computer, () => session?.contact('computer')),
    })
    const { context: agentContext, recorder, served, abort } = page
    const extra = options.env ?? {}
    const commandOptions = CommandOptions.parse({ command: options.command, pass_env: Object.keys(extra), settings: options.settings ?? {} })
    const env = programEnvironment(agentContext, served, commandOptions, { ...process.env, ...extra, [KEY_VARIABLE]: task.key })
    const [file, ...args] = options.command
    // Its own process group, as the command agent runs it, so whatever it starts is stopped with it.
    const child = spawn(file!, args, { cwd: resolve(options.cwd ?? '.'), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    // One write after another: appends in flight together may land out of order.
    let logged: Promise<unknown> = Promise.resolve()
    const logLine = (text: string) => void (logged = logged.then(() => recorder.appendText('agent.log', text)).catch(() => {}))
    const program = new Program(child, options.command.join(' '), { token: served.token, key: task.key }, logLine)
    session = new Session(program, recorder, served, abort, model, task.goal, async () => {
      await logged
      await page.close()
    })
    return session
  }

  contact(to: 'model' | 'computer'): void {
    this.firstContact ??= { at: Date.now(), to }
  }

  /** The model calls of this session's task. */
  modelCalls(): ModelCall[] {
    return this.model.requests.filter((call) => holds(call.body, this.goal))
  }

  /** Waits until `condition` holds ('yes'), the program exits ('exited') or the time is up ('timeout'). */
  async until(condition: () => boolean, timeoutMs: number): Promise<'yes' | 'exited' | 'timeout'> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const call = this.modelCalls()[0]
      if (call && !this.firstContact) this.firstContact = { at: call.receivedAt, to: 'model' }
      if (condition()) return 'yes'
      if (this.program.exit || this.program.spawnError) return 'exited'
      if (Date.now() >= deadline) return 'timeout'
      await delay(50)
    }
  }

  /** Waits for finish; then it may exit by itself for a while, as under the command agent. */
  async finished(timeoutMs: number): Promise<{ passed: boolean; detail: string }> {
    const left = timeoutMs - (Date.now() - this.program.startedAt)
    const first = await Promise.race([
      this.served.outcome.then((done) => ({ done }), (error: unknown) => ({ error })),
      this.program.exited.then(() => 'exited' as const),
      delay(Math.max(0, left)).then(() => 'timeout' as const),
    ])
    // A finish that raced the exit still counts.
    const outcome = first === 'exited' ? await Promise.race([this.served.outcome.then((done) => ({ done }), () => 'exited' as const), delay(50).then(() => 'exited' as const)]) : first
    if (outcome === 'timeout') return { passed: false, detail: `no finish within ${seconds(timeoutMs)} of its start (POST /v1/finish, or the MCP tool finish)${this.program.tail()}` }
    if (outcome === 'exited') return { passed: false, detail: `it ${this.program.exitText} before it called finish${this.program.tail()}` }
    if ('error' in outcome) return { passed: false, detail: `the run ended before finish: ${outcome.error instanceof Error ? outcome.error.message : String(outcome.error)}` }
    const at = seconds(Date.now() - this.program.startedAt)
    const exited = await Promise.race([this.program.exited.then(() => true), delay(EXIT_GRACE_MS).then(() => false)])
    const after = exited ? `, then ${this.program.exitText}` : `; it was still running ${seconds(EXIT_GRACE_MS)} later and is stopped then`
    return { passed: true, detail: `it called finish ${at} after it started, with the answer ${JSON.stringify(outcome.done.answer)}${after}` }
  }

  /**
   * Stops the task as a timeout does: the served Computer refuses further calls and the program's
   * group gets SIGTERM. Says how long it took to exit (null: it did not within the grace) and
   * whether a process of its group outlived the grace.
   */
  async cancel(): Promise<{ exited: number | null; left: boolean }> {
    const error = new TaskAbortedError('agent:check cancelled the task')
    this.abort.abort(error)
    this.served.fail(error)
    const sent = Date.now()
    if (!this.program.signalGroup('SIGTERM')) return { exited: this.program.exit ? 0 : null, left: false }
    const exited = await Promise.race([this.program.exited.then(() => true), delay(TERM_GRACE_MS).then(() => false)])
    if (!exited) return { exited: null, left: true }
    const took = this.program.exit!.at - sent
    await delay(Math.max(0, TERM_GRACE_MS - (Date.now() - sent)))
    return { exited: took, left: this.program.groupAlive() }
  }

  /** Ends the program as the command agent does: SIGTERM to its group, SIGKILL to what is left a second later. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    this.served.fail(new TaskAbortedError('agent:check is over'))
    if (this.program.signalGroup('SIGTERM')) {
      await Promise.race([this.program.exited, delay(TERM_GRACE_MS)])
      if (this.program.signalGroup('SIGKILL')) await Promise.race([this.program.exited, delay(2_000)])
    }
    await this.program.exited.catch(() => {})
  }

  async close(): Promise<void> {
    await this.closeContext()
  }
}

/** The computer, telling `onCall` when the program first reaches it (a screenshot or an action). */
function noticing(computer: Computer, onCall: () => void): Computer {
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(computer)) {
    wrapped[name] =
      typeof value === 'function'
        ? (...args: unknown[]) => {
            onCall()
            return (value as (...a: unknown[]) => unknown)(...args)
          }
        : value
  }
  return Object.freeze(wrapped) as unknown as Computer
}

/** Whether a request body holds `text` (as a JSON string's content, so quotes and line breaks compare right). */
function holds(body: unknown, text: string): boolean {
  return JSON.stringify(body).includes(JSON.stringify(text).slice(1, -1))
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' | ').trim()
  return line.length > 400 ? `${line.slice(0, 399)}…` : line
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref())
}
