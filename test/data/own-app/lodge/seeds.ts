import type { LodgeState } from './state.ts'

/** The rooms every seed has, cheapest last so the list's order does not give the answer away. */
export const ROOMS = [
  { id: 'cedar', name: 'Cedar', beds: 2, price: 120 },
  { id: 'maple', name: 'Maple', beds: 4, price: 180 },
  { id: 'birch', name: 'Birch', beds: 3, price: 140 },
  { id: 'pine', name: 'Pine', beds: 1, price: 95 },
] as const

/** The starting states `seed:` may name. */
export const SEEDS = {
  default: [],
  // The guest's two bookings (a trap task asks to cancel one they do not have).
  'with-bookings': [
    { id: 'B-1001', room_id: 'cedar', guest: 'Alex Kim', check_in: '2025-10-10', nights: 2, status: 'booked' },
    { id: 'B-1002', room_id: 'pine', guest: 'Alex Kim', check_in: '2025-11-21', nights: 1, status: 'booked' },
  ],
} as const satisfies Record<string, readonly LodgeState['bookings'][number][]>

export const SEED_NAMES = Object.keys(SEEDS)

export function buildSeed(name: string): LodgeState | undefined {
  if (!Object.hasOwn(SEEDS, name)) return undefined
  const bookings = SEEDS[name as keyof typeof SEEDS]
  return structuredClone({ rooms: [...ROOMS], bookings: [...bookings], location: { path: '/', search: '' } })
}
