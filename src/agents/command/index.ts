import { spawn, type ChildProcess } from 'node:child_process'
import { resolve } from 'node:path'
import { defineHarnessAgent, type AgentContext, type AgentOutcome, type HarnessAccess } from '../agent.ts'
import { parseOptions } from '../shared/options.ts'
import { serveComputer, type ServedComputer } from '../../computer-service/server.ts'
import { redact } from '../../secrets/redact.ts'
import { TaskAbortedError, abortReason } from '../../trajectory/recording-computer.ts'
import { AgentFailure } from '../failure.ts'
import { servedFinish } from '../shared/served-finish.ts'
import { programEnvironment } from './environment.ts'
import { CommandOptions } from './options.ts'
import { ProgramOutput } from './output.ts'

type Exit = { code: number | null; signal: NodeJS.Signals | null }

/**
 * A program of your own, in any language, run once per task on the host (agent: { name: command,
 * options: { command: [...] } }). It gets the goal, the limits and where the task's Computer is
 * served (MCP and a JSON API) in its environment, and acts only through that Computer: every
 * action is a recorded, budgeted step with the harness's own screenshot. The run ends when it
 * calls finish or exits; whatever it left running is stopped with it.
 */
export const commandAgent = defineHarnessAgent({
  name: 'command',
  run: (context, access) => runProgram(context, access, parseOptions('command', CommandOptions, context.config.options)),
})

/** A command agent declared under the config's `agents:` by name, with its options there. */
export function commandAgentNamed(name: string, options: CommandOptions) {
  return defineHarnessAgent({ name, run: (context, access) => runProgram(context, access, options) })
}

async function runProgram(context: AgentContext, access: HarnessAccess, options: CommandOptions): Promise<AgentOutcome> {
  const served = await serveComputer(context)
  // Every line is on disk before the task's record is: the writes are awaited at the end.
  const writes: Promise<unknown>[] = []
  const output = new ProgramOutput(
    (line) => void writes.push(access.log(line).catch(() => {})),
    (text) => redact(text, [served.token]),
  )
  const program = start(options, programEnvironment(context, served, options))
  program.stdout?.on('data', (chunk: Buffer) => output.add('out', chunk))
  program.stderr?.on('data', (chunk: Buffer) => output.add('err', chunk))
  const exited = exitOf(program)
  const stopped = new Promise<never>((_, reject) => {
    const onAbort = () => reject(new TaskAbortedError(abortReason(context.signal)))
    if (context.signal.aborted) onAbort()
    context.signal.addEventListener('abort', onAbort, { once: true })
  })
  stopped.catch(() => {})
  try {
    const first = await Promise.race([served.outcome.then((done) => ({ done })), exited.then((exit) => ({ exit })), stopped])
    if ('done' in first) {
      // Finished: it may end by itself, briefly; then it is stopped.
      await Promise.race([exited, delay(options.exit_grace_ms)])
      return servedFinish(first.done, context)
    }
    // It exited: a finish that raced the exit still counts.
    const late = await Promise.race([served.outcome.then((done) => done), delay(50).then(() => null)])
    if (late) return servedFinish(late, context)
    throw failureOf(first.exit, options, output)
  } catch (error) {
    served.fail(error)
    throw error
  } finally {
    await stopGroup(program, exited)
    output.end()
    await Promise.all(writes)
    await served.close()
  }
}

function start(options: CommandOptions, env: Record<string, string>): ChildProcess {
  const [file, ...args] = options.command
  // Its own process group, so whatever it starts is stopped with it.
  return spawn(file!, args, { cwd: resolve(process.cwd(), options.cwd ?? '.'), env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
}

/** Resolves when the program exits; a program that could not start rejects with agent_not_started. */
function exitOf(program: ChildProcess): Promise<Exit> {
  return new Promise((resolveExit, reject) => {
    program.once('error', (error: NodeJS.ErrnoException) => {
      if (program.pid === undefined) reject(new AgentFailure('agent_not_started', `the command agent could not start ${program.spawnfile}: ${error.code === 'ENOENT' ? 'not found (is it on PATH, or the path right from the project folder?)' : error.message}`))
    })
    // Its output may still be in the pipes when it exits: read to their end first (a moment at
    // most; a process it left behind may hold them open), so its last lines are in the message.
    program.once('exit', (code, signal) => {
      const drained = [program.stdout, program.stderr].map((stream) => (stream && !stream.readableEnded ? new Promise((done) => stream.once('end', done)) : null))
      void Promise.race([Promise.all(drained), delay(500)]).then(() => resolveExit({ code, signal }))
    })
  })
}

function failureOf(exit: Exit, options: CommandOptions, output: ProgramOutput): AgentFailure {
  const shown = options.command.join(' ')
  const tail = output.tail()
  const said = tail.length ? `; its last lines:\n${tail.map((line) => `  ${line}`).join('\n')}` : ' (it printed nothing)'
  if (exit.signal) return new AgentFailure('agent_crash', `the command agent (${shown}) was killed by ${exit.signal} before it called finish${said}`)
  if (exit.code !== 0) return new AgentFailure('agent_exit', `the command agent (${shown}) exited with code ${exit.code} before it called finish${said}`)
  return new AgentFailure('agent_no_finish', `the command agent (${shown}) exited (code 0) without calling finish: end a run with the finish tool or POST /v1/finish${said}`)
}

/** SIGTERM to the program's whole group, then SIGKILL to what is left after a second. */
async function stopGroup(program: ChildProcess, exited: Promise<Exit>): Promise<void> {
  if (program.pid === undefined) return
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-program.pid!, name)
      return true
    } catch {
      return false // the group is gone
    }
  }
  if (!signal('SIGTERM')) return
  await Promise.race([exited.catch(() => {}), delay(1_000)])
  await delay(100)
  // What is left of the group (or a program deaf to SIGTERM) goes now; the program is reaped before the task ends.
  if (signal('SIGKILL')) await Promise.race([exited.catch(() => {}), delay(2_000)])
}

function delay(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms).unref())
}
