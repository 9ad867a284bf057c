import { z } from 'zod'

export const ReplayOptions = z
  .object({
    /** A `<task>.json`, a run folder, or a run id under the results dir. */
    from: z.string().min(1),
    /** Give the recorded final answer too. */
    answer: z.boolean().default(true),
  })
  .strict()
export type ReplayOptions = z.infer<typeof ReplayOptions>
