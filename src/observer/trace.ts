import { posix } from 'node:path'

/**
 * Reads strace's lines (`-ttt -y -z`, one file per thread) into what happened: programs started,
 * files changed, processes and threads made, and calls that would act out of the trace's sight.
 */

export type ChangeOp = 'write' | 'rename' | 'unlink' | 'rmdir' | 'mkdir' | 'link' | 'symlink' | 'truncate' | 'chmod' | 'utime'

export type TraceEvent =
  | { kind: 'change'; at: number; tid: number; op: ChangeOp; path: string; from?: string }
  | { kind: 'exec'; at: number; tid: number; exe: string; argv: string[] }
  | { kind: 'spawn'; at: number; tid: number; child: number; thread: boolean }
  | { kind: 'cwd'; at: number; tid: number; path: string }
  | { kind: 'evasion'; at: number; tid: number; call: string }

/** One argument as strace prints it: a string (decoded), an fd or AT_FDCWD with its path, or anything else as written. */
interface Arg {
  raw: string
  text: string | null
  /** The `<path>` strace's -y adds to an fd (AT_FDCWD's is the working folder). */
  fdPath: string | null
}

const LINE = /^(\d+\.\d+) (\w+)\((.*)\) += (-?\d+|0x[0-9a-f]+)(?:<[^>]*>)?(?: .*)?$/

/** A trace line as events; lines of calls that change nothing give none. */
export function parseLine(tid: number, line: string, cwd: () => string | null): TraceEvent[] {
  const match = LINE.exec(line)
  if (!match) return []
  const [, time, call, body, result] = match as unknown as [string, string, string, string, string]
  const at = Number(time)
  const args = splitArgs(body)
  const events: TraceEvent[] = []
  // Every *at call names the working folder it ran in: the best word on it.
  for (const arg of args) if (arg.raw.startsWith('AT_FDCWD<') && arg.fdPath) events.push({ kind: 'cwd', at, tid, path: arg.fdPath })
  const resolve = (dir: Arg | null, path: Arg | undefined): string | null => {
    const text = path?.text
    if (text === null || text === undefined) return null
    if (text.startsWith('/')) return posix.normalize(text)
    const base = dir ? dir.fdPath : cwd()
    return base ? posix.join(base, text) : null
  }
  const change = (op: ChangeOp, path: string | null, from?: string | null) => {
    // A path the trace could not resolve is still a change: it is named as unknown, never dropped.
    events.push({ kind: 'change', at, tid, op, path: path ?? '?', ...(from !== undefined ? { from: from ?? '?' } : {}) })
  }
  const flags = (arg: Arg | undefined) => arg?.raw ?? ''
  const writes = (f: string) => /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC/.test(f)
  switch (call) {
    case 'execve':
      events.push({ kind: 'exec', at, tid, exe: resolve(null, args[0]) ?? '?', argv: arrayStrings(args[1]?.raw ?? '') })
      break
    case 'execveat':
      events.push({ kind: 'exec', at, tid, exe: resolve(args[0]!, args[1]) ?? args[0]?.fdPath ?? '?', argv: arrayStrings(args[2]?.raw ?? '') })
      break
    case 'open':
      if (writes(flags(args[1]))) change('write', resolve(null, args[0]))
      break
    case 'openat':
      if (writes(flags(args[2]))) change('write', resolve(args[0]!, args[1]))
      break
    case 'openat2':
      if (writes(flags(args[2]))) change('write', resolve(args[0]!, args[1]))
      break
    case 'creat':
      change('write', resolve(null, args[0]))
      break
    case 'rename':
      change('rename', resolve(null, args[1]), resolve(null, args[0]))
      break
    case 'renameat':
    case 'renameat2':
      change('rename', resolve(args[2]!, args[3]), resolve(args[0]!, args[1]))
      break
    case 'link':
      change('link', resolve(null, args[1]), resolve(null, args[0]))
      break
    case 'linkat':
      change('link', resolve(args[2]!, args[3]), resolve(args[0]!, args[1]))
      break
    case 'symlink':
      change('symlink', resolve(null, args[1]))
      break
    case 'symlinkat':
      change('symlink', resolve(args[1]!, args[2]))
      break
    case 'unlink':
      change('unlink', resolve(null, args[0]))
      break
    case 'unlinkat':
      change(flags(args[2]).includes('AT_REMOVEDIR') ? 'rmdir' : 'unlink', resolve(args[0]!, args[1]))
      break
    case 'rmdir':
      change('rmdir', resolve(null, args[0]))
      break
    case 'mkdir':
      change('mkdir', resolve(null, args[0]))
      break
    case 'mkdirat':
      change('mkdir', resolve(args[0]!, args[1]))
      break
    case 'truncate':
      change('truncate', resolve(null, args[0]))
      break
    case 'chmod':
      change('chmod', resolve(null, args[0]))
      break
    case 'fchmodat':
      change('chmod', resolve(args[0]!, args[1]))
      break
    case 'utime':
    case 'utimes':
      change('utime', resolve(null, args[0]))
      break
    case 'utimensat':
      // A NULL path means the fd itself.
      change('utime', args[1]?.raw === 'NULL' ? (args[0]?.fdPath ?? null) : resolve(args[0]!, args[1]))
      break
    case 'chdir': {
      const path = resolve(null, args[0])
      if (path) events.push({ kind: 'cwd', at, tid, path })
      break
    }
    case 'fchdir':
      if (args[0]?.fdPath) events.push({ kind: 'cwd', at, tid, path: args[0].fdPath })
      break
    case 'clone':
    case 'clone3':
    case 'fork':
    case 'vfork': {
      const child = Number(result)
      if (child > 0) events.push({ kind: 'spawn', at, tid, child, thread: body.includes('CLONE_THREAD') })
      break
    }
    case 'io_uring_setup':
    case 'process_vm_writev':
    case 'ptrace':
      events.push({ kind: 'evasion', at, tid, call })
      break
  }
  return events
}

/** Splits strace's argument list at its top-level commas: strings, arrays, structs and `<path>`s kept whole. */
export function splitArgs(body: string): Arg[] {
  const args: Arg[] = []
  let depth = 0
  let start = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i]
    if (c === '"') {
      for (i++; i < body.length && body[i] !== '"'; i++) if (body[i] === '\\') i++
    } else if (c === '[' || c === '{' || c === '(' || (c === '<' && /[\w)]/.test(body[i - 1] ?? ''))) depth++
    else if (c === ']' || c === '}' || c === ')' || (c === '>' && depth > 0)) depth--
    else if (c === ',' && depth === 0) {
      args.push(toArg(body.slice(start, i).trim()))
      start = i + 1
    }
  }
  if (body.trim()) args.push(toArg(body.slice(start).trim()))
  return args
}

function toArg(raw: string): Arg {
  const fd = /^(?:AT_FDCWD|-?\d+)<(.*)>$/.exec(raw)
  return { raw, text: raw.startsWith('"') ? decodeString(raw) : null, fdPath: fd ? fd[1]! : null }
}

/** A C string as strace writes it; null when strace cut it short (`"..."...`). */
function decodeString(raw: string): string | null {
  const end = raw.lastIndexOf('"')
  if (end <= 0 || raw.slice(end + 1).startsWith('...')) return null
  const bytes: number[] = []
  const inner = raw.slice(1, end)
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'))
      continue
    }
    const next = inner[++i]!
    const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, '\\': 92 }
    if (next in simple) bytes.push(simple[next]!)
    else if (next === 'x') {
      bytes.push(parseInt(inner.slice(i + 1, i + 3), 16))
      i += 2
    } else if (/[0-7]/.test(next)) {
      let digits = next
      while (digits.length < 3 && /[0-7]/.test(inner[i + 1] ?? '')) digits += inner[++i]
      bytes.push(parseInt(digits, 8))
    } else bytes.push(...Buffer.from(next, 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

/** `["mv", "a", "b"]` as its strings (a cut-short one as "..."). */
function arrayStrings(raw: string): string[] {
  if (!raw.startsWith('[')) return []
  return splitArgs(raw.slice(1, raw.lastIndexOf(']'))).map((arg) => arg.text ?? '...')
}
