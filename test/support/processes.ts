import { readdirSync, readFileSync } from 'node:fs'

export interface ProcessInfo {
  pid: number
  parent: number
  command: string
}

/** This machine's processes (read from /proc). */
export function processes(): ProcessInfo[] {
  const found: ProcessInfo[] = []
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim()
      found.push({ pid: Number(pid), parent, command })
    } catch {
      // Gone while we looked.
    }
  }
  return found
}

/** The command lines of this machine's processes that contain `text`. */
export function processesMatching(text: string): string[] {
  return processes()
    .filter((p) => p.command.includes(text))
    .map((p) => p.command)
}

/** The processes below `pid`, its children first, with how deep each is (1: a child). */
export function descendantsOf(pid: number): Array<ProcessInfo & { depth: number }> {
  const all = processes()
  const found: Array<ProcessInfo & { depth: number }> = []
  let level = [pid]
  for (let depth = 1; level.length > 0; depth++) {
    const next = all.filter((p) => level.includes(p.parent))
    found.push(...next.map((p) => ({ ...p, depth })))
    level = next.map((p) => p.pid)
  }
  return found
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
