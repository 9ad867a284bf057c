import { posix } from 'node:path'
import type { ReadReply, ObservedWindow } from './schema.ts'
import { parseLine, type ChangeOp } from './trace.ts'

/** The process that did something, as it was at that moment. */
export interface Actor {
  pid: number
  exe: string | null
  argv: string[]
  /** It was running when the agent's turn started (setup or the desktop started it) and still ran the same program. */
  present: boolean
}

export interface Change {
  at: number
  op: ChangeOp
  path: string
  /** Where a moved or linked file came from. */
  from?: string
  by: Actor
}

export interface Program {
  at: number
  exe: string
  argv: string[]
  /** The process that started it (before it became this program). */
  parent: Actor
}

/** How much later than the traced change a file's ctime may be: the kernel's clock is coarse. */
const CTIME_SLACK_S = 1

/**
 * What the agent's processes did during its turn and the checks after it, read from the trace
 * the observer kept as root. Checks ask it who wrote a file, which programs ran, and what changed.
 */
export class Observation {
  private constructor(
    readonly turnStart: number,
    readonly turnEnd: number | null,
    private readonly allChanges: Change[],
    private readonly allPrograms: Program[],
    readonly evasions: Array<{ at: number; call: string; by: Actor }>,
    private readonly ctimes: Record<string, number | null>,
    /** Present processes by pid, as they were when the turn started. */
    readonly present: ReadonlyMap<number, Actor>,
    /** Why the record cannot be trusted whole (the tracer stopped), or null. */
    readonly gap: string | null,
  ) {}

  static from(reply: Extract<ReadReply, { ok: true }>): Observation {
    const tgidOf = new Map<number, number>()
    const cwdOf = new Map<number, string>()
    const actors = new Map<number, Actor>()
    const present = new Map<number, Actor>()
    for (const p of reply.processes) {
      if (p.uid !== reply.agent_uid) continue
      // The packaged agent's server was there first, but it is the agent's.
      const actor: Actor = { pid: p.pid, exe: p.exe, argv: p.argv, present: !reply.server.includes(p.pid) }
      actors.set(p.pid, actor)
      if (actor.present) present.set(p.pid, { ...actor })
      for (const tid of p.tasks) {
        tgidOf.set(tid, p.pid)
        if (p.cwd) cwdOf.set(tid, p.cwd)
      }
    }
    const lines = Object.entries(reply.traces)
      .flatMap(([tid, list]) => list.map((line) => ({ tid: Number(tid), line, at: Number(line.slice(0, line.indexOf(' '))) })))
      .sort((a, b) => a.at - b.at)
    const changes: Change[] = []
    const programs: Program[] = []
    const evasions: Array<{ at: number; call: string; by: Actor }> = []
    const actorOf = (tid: number): Actor => {
      const tgid = tgidOf.get(tid) ?? tid
      let actor = actors.get(tgid)
      // A thread or process whose start the trace missed: nothing is known of it, so it is no one's tool.
      if (!actor) actors.set(tgid, (actor = { pid: tgid, exe: null, argv: [], present: false }))
      return actor
    }
    for (const { tid, line } of lines) {
      for (const event of parseLine(tid, line, () => cwdOf.get(tid) ?? null)) {
        const actor = actorOf(tid)
        if (event.kind === 'cwd') cwdOf.set(tid, event.path)
        else if (event.kind === 'spawn') {
          const cwd = cwdOf.get(tid)
          if (cwd) cwdOf.set(event.child, cwd)
          if (event.thread) tgidOf.set(event.child, actor.pid)
          else {
            tgidOf.set(event.child, event.child)
            actors.set(event.child, { pid: event.child, exe: actor.exe, argv: actor.argv, present: false })
          }
        } else if (event.kind === 'exec') {
          programs.push({ at: event.at, exe: event.exe, argv: event.argv, parent: { ...actor } })
          // The same process, another program: no longer what was there when the turn started.
          Object.assign(actor, { exe: event.exe, argv: event.argv, present: false })
        } else if (event.kind === 'change') {
          changes.push({ at: event.at, op: event.op, path: event.path, ...(event.from ? { from: event.from } : {}), by: { ...actor } })
        } else evasions.push({ at: event.at, call: event.call, by: { ...actor } })
      }
    }
    const gap = reply.tracer_running ? null : `the observer's trace stopped (${reply.tracer_log.trim().split('\n').at(-1) || 'no reason given'})`
    return new Observation(reply.turn_start, reply.turn_end, changes, programs, evasions, reply.ctimes, present, gap)
  }

  /** Every change, in order. */
  changes(): readonly Change[] {
    return this.allChanges
  }

  /** Every program started, in order. */
  programs(): readonly Program[] {
    return this.allPrograms
  }

  /** The last change to `path` (written, moved or linked there, removed). */
  lastChange(path: string): Change | null {
    const target = posix.normalize(path)
    return this.allChanges.findLast((c) => c.path === target) ?? null
  }

  /**
   * The write that made the content now at `path`: its last change, followed back through moves
   * and links to where the bytes were written. Null when nothing traced made it.
   */
  contentWriter(path: string, before = Infinity): Change | null {
    let target = posix.normalize(path)
    let until = before
    for (let hops = 0; hops < 50; hops++) {
      // A mode or time set on the file leaves its bytes as they were.
      const last = this.allChanges.findLast((c) => c.at <= until && c.path === target && c.op !== 'chmod' && c.op !== 'utime')
      if (!last) return null
      if ((last.op === 'rename' || last.op === 'link') && last.from) {
        target = last.from
        until = last.at
        continue
      }
      return last.op === 'write' || last.op === 'truncate' ? last : null
    }
    return null
  }

  /**
   * Whether `path` changed after the trace last saw it change (or, untouched in the trace, since
   * the turn started): a change no traced process made. Paths must have been asked for in read().
   */
  changedUnseen(path: string): boolean | 'unknown' {
    const ctime = this.ctimes[path]
    if (ctime === undefined) return 'unknown'
    if (ctime === null) return false
    const seen = this.lastChange(path)?.at ?? this.turnStart
    return ctime > seen + CTIME_SLACK_S
  }

  /** The windows a process present at the turn's start owns, by the X server's word. */
  static windowsOf(windows: readonly ObservedWindow[], pid: number): ObservedWindow[] {
    return windows.filter((w) => w.pid === pid)
  }
}
