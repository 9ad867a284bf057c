/**
 * What the Lakeside Lodge tasks share (not a task file): the app's state, parsed, and its moves
 * for solutions, each click or key a recorded step.
 */
import type { SolutionContext, WebApp } from 'agentest'
import { LodgeFinish, type Booking } from '../lodge/state.ts'

/** The task's `/finish` answer, typed and checked (a wrong shape fails the task). */
export async function lodge(app: Pick<WebApp, 'state'>): Promise<LodgeFinish> {
  return LodgeFinish.parse(await app.state<LodgeFinish>())
}

/** Bookings made during the task, oldest first. */
export function made(state: LodgeFinish): Booking[] {
  const before = new Set(state.initial.bookings.map((b) => b.id))
  return state.final.bookings.filter((b) => !before.has(b.id))
}

/** Bookings that were there at the start and are cancelled now. */
export function cancelled(state: LodgeFinish): string[] {
  const now = new Map(state.final.bookings.map((b) => [b.id, b.status]))
  return state.initial.bookings.filter((b) => b.status === 'booked' && now.get(b.id) === 'cancelled').map((b) => b.id)
}

export interface Stay {
  room: string
  guest: string
  checkIn: string
  nights: number
}

/** From the rooms list: open the room, fill the form, Book. */
export async function book({ ui }: SolutionContext, stay: Stay): Promise<void> {
  await ui.goto('/')
  await ui.click(`#open-${stay.room}`)
  await ui.fill('#guest', stay.guest)
  await ui.fill('#check-in', stay.checkIn)
  await ui.fill('#nights', String(stay.nights))
  await ui.click('#book')
}

/** My bookings: cancel one. */
export async function cancel({ ui }: SolutionContext, id: string): Promise<void> {
  await ui.click('#nav-bookings')
  await ui.click(`#cancel-${id}`)
}

/** The rooms list as a reader sees it: name, beds and price a night, top to bottom. */
export async function rooms({ ui }: SolutionContext): Promise<Array<{ name: string; beds: number; price: number }>> {
  const out: Array<{ name: string; beds: number; price: number }> = []
  for (const row of await ui.locator('#rooms tr[id^="room-"]').all()) {
    const [name, beds] = (await row.locator('td').allInnerTexts()).map((cell) => cell.trim())
    out.push({ name: name!, beds: Number.parseInt(beds!, 10), price: Number(await row.locator('[data-price]').getAttribute('data-price')) })
  }
  return out
}
