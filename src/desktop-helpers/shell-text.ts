/** Quotes `text` as one word for bash: nothing in it is expanded. */
export function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/**
 * A path for a shell line: `~/x` keeps `~` meaning the agent's home (setup runs as the agent),
 * the rest is quoted, so a name with spaces or quotes is still one word.
 */
export function shellPath(path: string): string {
  if (path === '~') return '"$HOME"'
  return path.startsWith('~/') ? `"$HOME"/${quote(path.slice(2))}` : quote(path)
}

/** `/home/agent/x` as the agent would say it: `~/x`. */
export function home(path: string): string {
  return path.replace(/^\/home\/agent(?=\/|$)/, '~')
}
