import { PassThrough } from 'node:stream'
import type Docker from 'dockerode'

export interface ExecResult {
  stdout: Buffer
  stderr: Buffer
  exitCode: number
  /** True when the command ran past its timeout and was killed inside the container. */
  timedOut: boolean
}

export interface ExecOptions {
  user?: string
  env?: Record<string, string>
  timeoutMs?: number
  workingDir?: string
}

/**
 * Runs a command in a container and collects its output. The timeout is enforced inside the
 * container by coreutils' `timeout`, so the process is killed there and nothing is orphaned.
 */
export async function execIn(container: Docker.Container, command: string[], options: ExecOptions = {}): Promise<ExecResult> {
  const seconds = Math.max(1, Math.ceil((options.timeoutMs ?? 60_000) / 1000))
  const exec = await container.exec({
    Cmd: ['/usr/bin/timeout', '--kill-after=2s', `${seconds}s`, ...command],
    AttachStdout: true,
    AttachStderr: true,
    User: options.user,
    WorkingDir: options.workingDir,
    Env: Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
  })
  const stream = await exec.start({ hijack: true, stdin: false })
  const stdout: Buffer[] = []
  const stderr: Buffer[] = []
  const out = new PassThrough().on('data', (chunk: Buffer) => stdout.push(chunk))
  const err = new PassThrough().on('data', (chunk: Buffer) => stderr.push(chunk))
  container.modem.demuxStream(stream, out, err)
  await new Promise<void>((resolve, reject) => {
    stream.on('end', resolve)
    stream.on('close', resolve)
    stream.on('error', reject)
  })
  const { ExitCode } = await exec.inspect()
  const exitCode = ExitCode ?? -1
  return { stdout: Buffer.concat(stdout), stderr: Buffer.concat(stderr), exitCode, timedOut: exitCode === 124 || exitCode === 137 }
}
