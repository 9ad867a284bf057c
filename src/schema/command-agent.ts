import { z } from 'zod'

const VariableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')

/** `agent.options` of a command agent: a program of your own, run once per task on the host. */
export const CommandOptions = z
  .object({
    /** The program and its arguments, e.g. [python3, agents/my_agent.py]; run from the project's folder. */
    command: z.array(z.string().min(1)).min(1),
    /** Host variables passed to the program besides agentest's own and `agent.api_key_env` (PATH, HOME and the locale always are). */
    pass_env: z.array(VariableName).default([]),
    /** The program's working folder, relative to the project's folder (default: the project's folder). */
    cwd: z.string().min(1).optional(),
    /** How long the program may take to exit after it called finish, before it is stopped. */
    exit_grace_ms: z.number().int().min(0).max(60_000).default(5_000),
    /** Ask for a browser of the task's own over CDP (browser tasks): its endpoint is AGENTEST_CDP_URL. */
    cdp: z.boolean().default(false),
    /** Settings of the program's own, handed over as JSON in AGENTEST_OPTIONS. */
    settings: z.record(z.string(), z.unknown()).default({}),
  })
  .strict()
export type CommandOptions = z.infer<typeof CommandOptions>
