/**
 * What /proc says about a process tree: its members, their memory and the CPU time they used.
 * Linux only; every read tolerates a process that exits mid-scan.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

function read(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return null
  }
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number | 'self'): string[] | null {
  const text = read(`/proc/${pid}/stat`)
  if (!text) return null
  return text.slice(text.lastIndexOf(')') + 2).split(' ')
}

/** Every live process's parent. */
function parents(): Map<number, number> {
  const map = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    const fields = statFields(Number(name))
    // After the name: state, ppid, ...
    if (fields) map.set(Number(name), Number(fields[1]))
  }
  return map
}

/** The root and every process descended from it (a process detached into its own group included). */
export function descendants(root: number): number[] {
  if (read(`/proc/${root}/stat`) === null) return []
  const children = new Map<number, number[]>()
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid])
  const found: number[] = []
  const queue = [root]
  while (queue.length) {
    const pid = queue.shift()!
    found.push(pid)
    queue.push(...(children.get(pid) ?? []))
  }
  return found
}

/** A `Key:   1234 kB` line of a /proc file, in kB. */
function kbField(text: string | null, key: string): number | null {
  const match = text ? new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text) : null
  return match ? Number(match[1]) : null
}

/** Resident memory (VmRSS), kB; null once the process is gone. */
export function rssKb(pid: number): number | null {
  return kbField(read(`/proc/${pid}/status`), 'VmRSS')
}

/** Proportional set size (shared pages split among their sharers), kB: sums of it do not double count. */
export function pssKb(pid: number): number | null {
  return kbField(read(`/proc/${pid}/smaps_rollup`), 'Pss')
}

export function commandLine(pid: number): string {
  return (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim()
}

/** The short name the kernel keeps (/proc/<pid>/comm). */
export function processName(pid: number): string {
  return (read(`/proc/${pid}/comm`) ?? '').trim() || 'unknown'
}

let ticks: number | null = null
/** Clock ticks per second of /proc's CPU times. */
function clockTicks(): number {
  if (ticks === null) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
    } catch {
      ticks = 100
    }
  }
  return ticks
}

/**
 * CPU seconds used by this process's children that have been waited for, and theirs in turn
 * (cutime + cstime): read before and after a child run, the difference is the run's whole tree.
 */
export function childrenCpuSeconds(): number {
  const fields = statFields('self')
  // utime is field 14 of stat, so after the name (field 2) cutime/cstime are indices 13 and 14.
  return fields ? (Number(fields[13]) + Number(fields[14])) / clockTicks() : 0
}

/** A live process's CPU seconds so far (utime + stime) and when it started (seconds since boot); null once it is gone. */
export function procStat(pid: number): { cpu_s: number; started_s: number } | null {
  const fields = statFields(pid)
  // After the name: utime and stime are indices 11 and 12, starttime 19 (fields 14, 15 and 22 of stat).
  return fields ? { cpu_s: (Number(fields[11]) + Number(fields[12])) / clockTicks(), started_s: Number(fields[19]) / clockTicks() } : null
}

/** Seconds since boot. */
export function uptimeSeconds(): number {
  return Number((read('/proc/uptime') ?? '0').split(' ')[0])
}

/** Busy and total CPU seconds of the whole machine (all cores), from /proc/stat. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = (read('/proc/stat') ?? '').split('\n')[0] ?? ''
  const values = line.trim().split(/\s+/).slice(1).map(Number)
  const total = values.reduce((sum, v) => sum + v, 0)
  // idle + iowait are not busy.
  const idle = (values[3] ?? 0) + (values[4] ?? 0)
  return { busy: (total - idle) / clockTicks(), total: total / clockTicks() }
}

/** Available memory of the machine (MemAvailable), MB. */
export function availableMb(): number {
  return (kbField(read('/proc/meminfo'), 'MemAvailable') ?? 0) / 1024
}
