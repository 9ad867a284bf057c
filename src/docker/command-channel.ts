import { PassThrough } from 'node:stream'
import type Docker from 'dockerode'
import type { ExecResult } from './exec.ts'

/**
 * The channel's side in the container: a POSIX shell that reads one command per line and answers
 * with a header line and the command's output. A request is `ID SECONDS ARG...`, each argument
 * single-quoted (a quote inside as '\'', a newline as '"$nl"'), so `eval "set -- ..."` rebuilds the
 * list without a process per argument: the shell spawns only `timeout`, the command, `stat` and
 * `cat`. The answer is `ID EXIT OUTBYTES ERRBYTES`, then stdout's bytes, then stderr's. Each
 * command runs under coreutils' `timeout`, as `execIn`'s do.
 */
const SERVE = `
dir=$(mktemp -d) || exit 1
nl='
'
while IFS= read -r line; do
  id=\${line%% *}; line=\${line#* }
  seconds=\${line%% *}; line=\${line#* }
  eval "set -- $line"
  timeout --kill-after=2s "\${seconds}s" "$@" </dev/null >"$dir/out" 2>"$dir/err"
  code=$?
  set -- $(stat -c %s "$dir/out" "$dir/err")
  printf '%s %s %s %s\\n' "$id" "$code" "$1" "$2"
  cat "$dir/out" "$dir/err"
done
`

/** One argument as the channel's shell reads it back: single-quoted, its newlines spelt "$nl". */
function quoted(arg: string): string {
  return `'${arg.replaceAll("'", "'\\''").replaceAll('\n', `'"$nl"'`)}'`
}

interface Pending {
  id: number
  /** The command's own time limit; its wait for an answer starts once the commands before it are done. */
  seconds: number
  silence?: NodeJS.Timeout
  resolve: (result: ExecResult) => void
  reject: (error: Error) => void
}

/** How long past a command's own timeout the channel may stay silent before it is given up. */
const GRACE_MS = 5_000

export interface CommandChannelOptions {
  user: string
  env: Record<string, string>
  workingDir: string
}

/**
 * One long-lived exec into a container that runs many short commands. Every `docker exec` costs
 * the engine about 50 ms of CPU (measured: 100 execs of `true` kept the machine busy for 5.2 CPU-s),
 * and a desktop task runs two per step, its action and its screenshot; through the channel a
 * command costs what the command costs. Commands run one at a time, in order.
 */
export class CommandChannel {
  private readonly pending: Pending[] = []
  private buffered: Buffer = Buffer.alloc(0)
  private nextId = 1
  private closedWith: Error | null = null

  private constructor(private readonly input: NodeJS.WritableStream & { destroy(): void }) {}

  static async open(container: Docker.Container, options: CommandChannelOptions): Promise<CommandChannel> {
    const exec = await container.exec({
      Cmd: ['/bin/sh', '-c', SERVE],
      AttachStdin: true,
      AttachStdout: true,
      AttachStderr: true,
      User: options.user,
      WorkingDir: options.workingDir,
      Env: Object.entries(options.env).map(([k, v]) => `${k}=${v}`),
    })
    const stream = await exec.start({ hijack: true, stdin: true })
    const channel = new CommandChannel(stream)
    const stdout = new PassThrough().on('data', (chunk: Buffer) => channel.received(chunk))
    container.modem.demuxStream(stream, stdout, new PassThrough().resume())
    const ended = (error?: Error) => channel.fail(error ?? new Error('the command channel closed'))
    stream.on('end', () => ended())
    stream.on('close', () => ended())
    stream.on('error', ended)
    return channel
  }

  /** Whether the channel can still take commands (its exec, or the container, has not ended). */
  get open(): boolean {
    return this.closedWith === null
  }

  run(command: string[], timeoutMs = 60_000): Promise<ExecResult> {
    if (this.closedWith) return Promise.reject(this.closedWith)
    const id = this.nextId++
    const seconds = Math.max(1, Math.ceil(timeoutMs / 1000))
    return new Promise<ExecResult>((resolve, reject) => {
      const waiting: Pending = {
        id,
        seconds,
        resolve: (result) => (clearTimeout(waiting.silence), resolve(result)),
        reject: (error) => (clearTimeout(waiting.silence), reject(error)),
      }
      this.pending.push(waiting)
      this.watchFirst()
      this.input.write(`${id} ${seconds} ${command.map(quoted).join(' ')}\n`)
    })
  }

  /**
   * A frozen container (paused, or its engine stuck) never answers, and `timeout` in it cannot
   * act: the command being run now (the first waiting; the shell runs them in order) gets its
   * time limit and a grace. A command queued behind a long one waits for it first.
   */
  private watchFirst(): void {
    const first = this.pending[0]
    if (!first || first.silence) return
    const limit = first.seconds * 1000 + GRACE_MS
    first.silence = setTimeout(() => {
      this.fail(new Error(`the command channel did not answer within ${limit} ms`))
      this.input.destroy()
    }, limit)
  }

  close(): void {
    this.fail(new Error('the command channel was closed'))
    this.input.destroy()
  }

  private fail(error: Error): void {
    if (this.closedWith) return
    this.closedWith = error
    for (const waiting of this.pending.splice(0)) waiting.reject(error)
  }

  /** Answers arrive in order: a header line, then exactly the bytes it announces. */
  private received(chunk: Buffer): void {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk
    for (;;) {
      const newline = this.buffered.indexOf(0x0a)
      if (newline < 0) return
      const [id, exitCode, outBytes, errBytes] = this.buffered.subarray(0, newline).toString('latin1').split(' ').map(Number)
      const waiting = this.pending[0]
      if (!waiting || waiting.id !== id || [exitCode, outBytes, errBytes].some((n) => !Number.isInteger(n))) {
        this.fail(new Error(`the command channel sent an answer it was not asked for: ${this.buffered.subarray(0, Math.min(newline, 80)).toString('latin1')}`))
        return
      }
      const end = newline + 1 + outBytes! + errBytes!
      if (this.buffered.length < end) return
      const stdout = Buffer.from(this.buffered.subarray(newline + 1, newline + 1 + outBytes!))
      const stderr = Buffer.from(this.buffered.subarray(newline + 1 + outBytes!, end))
      this.buffered = this.buffered.subarray(end)
      this.pending.shift()
      waiting.resolve({ stdout, stderr, exitCode: exitCode!, timedOut: exitCode === 124 || exitCode === 137 })
      this.watchFirst()
    }
  }
}
