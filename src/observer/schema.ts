import { z } from 'zod'

/** A process as the observer saw it in /proc when the agent's turn started. */
export const ObservedProcess = z.object({
  pid: z.number().int(),
  ppid: z.number().int(),
  start: z.number().int(),
  uid: z.number().int(),
  exe: z.string().nullable(),
  cwd: z.string().nullable(),
  argv: z.array(z.string()),
  tasks: z.array(z.number().int()),
})
export type ObservedProcess = z.infer<typeof ObservedProcess>

const Unavailable = z.object({ ok: z.literal(false), reason: z.string() })

export const StartReply = z.union([z.object({ ok: z.literal(true), traced: z.number().int(), tracer: z.number().int() }), Unavailable])

const Brief = z.object({ pid: z.number().int(), exe: z.string().nullable(), argv: z.array(z.string()) })
export const EndReply = z.union([z.object({ ok: z.literal(true), at: z.number(), killed: z.array(Brief), frozen: z.array(Brief) }), Unavailable])
export type EndReply = z.infer<typeof EndReply>

export const ReadReply = z.union([
  z.object({
    ok: z.literal(true),
    turn_start: z.number(),
    turn_end: z.number().nullable(),
    agent_uid: z.number().int(),
    server: z.array(z.number().int()),
    processes: z.array(ObservedProcess.passthrough()),
    tracer_running: z.boolean(),
    tracer_log: z.string(),
    traces: z.record(z.string(), z.array(z.string())),
    ctimes: z.record(z.string(), z.number().nullable()),
    now: z.number(),
  }),
  Unavailable,
])
export type ReadReply = z.infer<typeof ReadReply>

export const ObservedWindow = z.object({ id: z.number().int(), name: z.string(), viewable: z.boolean(), pid: z.number().int().nullable() })
export type ObservedWindow = z.infer<typeof ObservedWindow>
export const WindowsReply = z.union([z.object({ ok: z.literal(true), windows: z.array(ObservedWindow) }), Unavailable])
