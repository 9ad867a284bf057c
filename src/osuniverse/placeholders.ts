/**
 * OSUniverse's placeholders, expanded as its loader does (expand_month_placeholders in
 * osuniverse/data/testcase.py): `[%MONTH+k%]` becomes the English name of the month k months
 * after the current one, by local time, wrapping past December. It is the only placeholder
 * OSUniverse has; only a `+` offset is matched (`[%MONTH-1%]` is left as written, as there).
 * It applies to the task and to each check's rubric and command, not to name or setup_cmd.
 */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const

const MONTH_PLACEHOLDER = /\[%MONTH\+(\d+)%\]/g

export function expandPlaceholders(text: string, now: Date): string {
  return text.replace(MONTH_PLACEHOLDER, (_, offset: string) => MONTHS[(now.getMonth() + Number(offset)) % 12]!)
}
