import { readdirSync, readFileSync, readlinkSync } from 'node:fs'

/**
 * Whether the process group `group` holds the socket listening on TCP `port`, read from /proc.
 * Two runs that pick the same free port at once each start their app on it; the loser exits on
 * EADDRINUSE, but its run's readiness probe already had an answer, from the winner's app. null
 * where /proc cannot tell (not Linux): the caller then goes by whether its process still runs.
 */
export function groupListensOn(group: number, port: number): boolean | null {
  let inodes: Set<string>
  try {
    inodes = listeningInodes(port)
  } catch {
    return null
  }
  if (inodes.size === 0) return false
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== group) continue
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`)
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '')) return true
      }
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return false
}

/** The inodes of the sockets listening on `port` (IPv4 and IPv6). */
function listeningInodes(port: number): Set<string> {
  const hex = port.toString(16).toUpperCase().padStart(4, '0')
  const found = new Set<string>()
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string
    try {
      text = readFileSync(table, 'utf8')
    } catch (error) {
      if (table.endsWith('6')) continue
      throw error
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/)
      if (fields.length > 9 && fields[1]!.endsWith(`:${hex}`) && fields[3] === '0A') found.add(fields[9]!)
    }
  }
  return found
}
