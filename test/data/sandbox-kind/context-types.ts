/**
 * The task context is typed per kind of sandbox: `npm test` runs tsc, which fails if one of the
 * lines marked @ts-expect-error compiles (a part of another kind reached) or another does not.
 * Never run; only type-checked.
 */
import type { TaskContextOf } from 'agentest'
import './notes-kind.ts'

export function browserTask({ page, app }: TaskContextOf<'browser'>, other: TaskContextOf<'browser'>): void {
  void page.url()
  void app.finish()
  // @ts-expect-error a browser task has no container
  void other.desktop
  // @ts-expect-error nor an observer
  void other.observed
}

export function desktopTask({ desktop, observed, shell }: TaskContextOf<'desktop'>, other: TaskContextOf<'desktop'>): void {
  void desktop.name
  void observed.start
  void shell('true')
  // @ts-expect-error a desktop task has no page
  void other.page
  // @ts-expect-error nor a web app
  void other.app
}

export function notesTask({ notes }: TaskContextOf<'notes'>, other: TaskContextOf<'notes'>): void {
  void notes.text()
  // @ts-expect-error a kind of its own has only its own parts
  void other.page
  // @ts-expect-error and the base context's
  void other.desktop
}
