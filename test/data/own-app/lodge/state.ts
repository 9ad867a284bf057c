import { z } from 'zod'
import { ConfigQueryFields, finishSchema } from '../../../../fixtures/apps/kit/state.ts'

/**
 * Lakeside Lodge's state contract: `/finish` answers `LodgeFinish`, which the tasks parse from
 * `await app.state<LodgeFinish>()`. A small app of its own, not Omnizon, for the gate's tests.
 */
export const LODGE_SCHEMA = 'lodge.finish/v1'

export const Room = z.object({
  /** "cedar", "pine", ... (the page ids use it: #open-cedar). */
  id: z.string(),
  name: z.string(),
  beds: z.number().int().positive(),
  /** Dollars a night. */
  price: z.number().positive(),
})
export type Room = z.infer<typeof Room>

export const Booking = z.object({
  /** "B-1001", "B-1002", ...: the next number for each booking made. */
  id: z.string(),
  room_id: z.string(),
  guest: z.string(),
  /** ISO date, as typed: "2025-10-06". */
  check_in: z.string(),
  nights: z.number().int().positive(),
  status: z.enum(['booked', 'cancelled']),
})
export type Booking = z.infer<typeof Booking>

export const LodgeState = z.object({
  rooms: z.array(Room),
  bookings: z.array(Booking),
  /** The last HTML page loaded. */
  location: z.object({ path: z.string(), search: z.string() }),
})
export type LodgeState = z.infer<typeof LodgeState>

export const LodgeFinish = finishSchema(LODGE_SCHEMA, LodgeState, { seed: z.string() })
export type LodgeFinish = z.infer<typeof LodgeFinish>

/** `/config`'s query: whose session, and the seed (absent or empty: "default"). */
export const LodgeConfigQuery = z.object({
  ...ConfigQueryFields,
  seed: z
    .string()
    .optional()
    .transform((seed) => seed || 'default'),
})
