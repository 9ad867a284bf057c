import { z } from 'zod'
import { ComputerAction } from '../schema/action.ts'

/**
 * agentest's agent protocol, version 1: how the harness drives an agent that runs as a server
 * inside its own image. Written down for agent authors in docs/agent-protocol.md; these schemas
 * are the normative version and the harness validates every message with them.
 */
export const PROTOCOL_VERSION = 'agentest/v1'

/** Where a served agent finds the task's Computer (docs/agent-protocol.md, "The served Computer"). */
export const ServedComputerInfo = z
  .object({
    mcp_url: z.string(),
    api_url: z.string(),
    token: z.string(),
    /** What the Computer is: `browser` (goto and back too) or `linux` (a desktop). */
    environment: z.enum(['browser', 'linux', 'windows', 'mac']),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
  })
  .strict()
export type ServedComputerInfo = z.infer<typeof ServedComputerInfo>

/** `POST /v1/runs`: start one task. The id is the harness's, so it can cancel before any reply. */
export const RunRequest = z
  .object({
    protocol: z.literal(PROTOCOL_VERSION),
    run_id: z.string().regex(/^[A-Za-z0-9._-]{1,128}$/),
    task: z
      .object({
        id: z.string().min(1),
        instruction: z.string().min(1),
        max_steps: z.number().int().positive(),
      })
      .strict(),
    /** Where the agent's model is. The key is never sent: it is in the environment variable named here. */
    model: z
      .object({
        base_url: z.string().nullable(),
        name: z.string().nullable(),
        api_key_env: z.string().nullable(),
      })
      .strict(),
    /** The X display the agent acts on (inside its own container); null for an agent that acts through the served Computer. */
    display: z.object({ name: z.string(), width: z.number().int().positive(), height: z.number().int().positive() }).strict().nullable(),
    /**
     * The task's Computer, served (for a spec with `computer: served`; absent otherwise): its MCP
     * endpoint and JSON API as the container reaches them, and the bearer token every call carries.
     */
    computer: ServedComputerInfo.optional(),
    /** The agent settings from the harness's config (`agent.options`), passed through. */
    options: z.record(z.string(), z.unknown()),
  })
  .strict()
export type RunRequest = z.infer<typeof RunRequest>

/** One action the agent took, with the thought before it and (optionally) the screen after it. */
export const StepEvent = z
  .object({
    type: z.literal('step'),
    action: ComputerAction,
    thought: z.string().optional(),
    /** The screen after the action, base64 PNG; the harness takes its own when this is missing. */
    screenshot: z.string().optional(),
    /** Why the action failed, if it did (a failed action is still a step). */
    error: z.string().nullable().optional(),
  })
  .strict()
export type StepEvent = z.infer<typeof StepEvent>

export const FinalStatus = z.enum(['done', 'max_steps', 'error', 'cancelled'])
export type FinalStatus = z.infer<typeof FinalStatus>

/** The last event of every run, cancelled ones included. */
export const FinalEvent = z
  .object({
    type: z.literal('final'),
    status: FinalStatus,
    /** The agent's answer to the user, for tasks that ask a question. */
    answer: z.string().nullable().optional(),
    usage: z
      .object({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() })
      .strict()
      .optional(),
    /** The model that actually answered, when the agent knows it. */
    model: z.string().nullable().optional(),
    /** What went wrong, when status is "error". */
    error: z.string().nullable().optional(),
  })
  .strict()
export type FinalEvent = z.infer<typeof FinalEvent>

/** One line of the NDJSON reply to `POST /v1/runs`. */
export const RunEvent = z.discriminatedUnion('type', [StepEvent, FinalEvent])
export type RunEvent = z.infer<typeof RunEvent>

export const NDJSON = 'application/x-ndjson'
