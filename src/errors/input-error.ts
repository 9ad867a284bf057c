import type { z } from 'zod'

/** A problem with user input, already phrased as the one line a user should read. */
export class InputError extends Error {
  override name = 'InputError'

  /** The same error without stack frames, so a test runner prints just the line. */
  static bare(message: string): InputError {
    const error = new InputError(message)
    error.stack = `${error.name}: ${message}`
    return error
  }
}

/** Formats a zod issue path as `agent.name` or `browser.viewport.width`. */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join('')
}

/** One line per zod issue: `<where>: <field>: <message>`. */
export function describeZodError(where: string, error: z.ZodError, prefix: ReadonlyArray<PropertyKey> = []): string {
  return error.issues
    .map((issue) => {
      const field = issuePath([...prefix, ...issue.path])
      return field ? `${where}: ${field}: ${issue.message}` : `${where}: ${issue.message}`
    })
    .join('\n')
}
