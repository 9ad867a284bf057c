import type { EndReply } from './schema.ts'
import type { Actor, Observation } from './observation.ts'

/** How many entries of each list the record keeps (a runaway loop could write thousands). */
const KEEP = 500

const who = (actor: Actor) => ({ pid: actor.pid, exe: actor.exe, started_by_agent: !actor.present })

/**
 * The observer's record as the task's evidence (observed.json beside the steps): the programs the
 * agent's processes started, the files they changed, and what was stopped when its turn ended.
 * Hidden files (apps' settings and caches) are counted but not listed.
 */
export function observedRecord(observation: Observation, ended: EndReply | null) {
  const visible = observation.changes().filter((c) => !c.path.split('/').some((part) => part.startsWith('.')))
  return {
    turn_start: observation.turnStart,
    turn_end: observation.turnEnd,
    complete: observation.gap === null,
    gap: observation.gap,
    programs: observation.programs().slice(0, KEEP).map((p) => ({ at: p.at, exe: p.exe, argv: p.argv.slice(0, 16), parent: who(p.parent) })),
    changes: visible.slice(0, KEEP).map((c) => ({ at: c.at, op: c.op, path: c.path, ...(c.from ? { from: c.from } : {}), by: who(c.by) })),
    hidden_changes: observation.changes().length - visible.length,
    evasions: observation.evasions.map((e) => ({ at: e.at, call: e.call, by: who(e.by) })),
    stopped_at_turn_end: ended?.ok ? { killed: ended.killed, frozen: ended.frozen } : null,
  }
}
