/**
 * Which addresses listen on which TCP ports inside a container, from the kernel's own tables
 * (`/proc/net/tcp` and `/proc/net/tcp6`, read as root in the container's network namespace).
 * A packaged agent's server that listens on 127.0.0.1 there answers nobody: agentest reaches it
 * through the container's published port, which arrives on the container's own address.
 */
export interface Listener {
  /** `127.0.0.1`, `0.0.0.0`, `::`, `::1`, ... */
  address: string
  port: number
}

const LISTEN = '0A'

/** The sockets in LISTEN state in the text of /proc/net/tcp and /proc/net/tcp6 (either or both). */
export function parseListeners(text: string): Listener[] {
  const found: Listener[] = []
  for (const line of text.split('\n')) {
    // "  0: 0100007F:1F40 00000000:0000 0A ...": the local address, the remote one, the state.
    const match = /^\s*\d+:\s+([0-9A-F]+):([0-9A-F]{4})\s+[0-9A-F]+:[0-9A-F]{4}\s+([0-9A-F]{2})\s/i.exec(line)
    if (!match || match[3]!.toUpperCase() !== LISTEN) continue
    const address = match[1]!.length === 8 ? ipv4(match[1]!) : match[1]!.length === 32 ? ipv6(match[1]!) : null
    if (address) found.push({ address, port: parseInt(match[2]!, 16) })
  }
  return found
}

/** The kernel prints an IPv4 address as one 32-bit word in the machine's order (little-endian here). */
function ipv4(hex: string): string {
  return [6, 4, 2, 0].map((at) => parseInt(hex.slice(at, at + 2), 16)).join('.')
}

/** An IPv6 address is four such words; written out in its shortest form (`::`, `::1`, `::ffff:127.0.0.1`). */
function ipv6(hex: string): string {
  const bytes: number[] = []
  for (let word = 0; word < 4; word++) {
    const chunk = hex.slice(word * 8, word * 8 + 8)
    for (const at of [6, 4, 2, 0]) bytes.push(parseInt(chunk.slice(at, at + 2), 16))
  }
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${bytes.slice(12).join('.')}`
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[i * 2]! << 8) | bytes[i * 2 + 1]!)
  // The longest run of zero groups (two or more) becomes "::".
  let best = { at: -1, length: 0 }
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++
      continue
    }
    let j = i
    while (j < 8 && groups[j] === 0) j++
    if (j - i > best.length) best = { at: i, length: j - i }
    i = j
  }
  const text = (list: number[]) => list.map((g) => g.toString(16)).join(':')
  if (best.length < 2) return text(groups)
  return `${text(groups.slice(0, best.at))}::${text(groups.slice(best.at + best.length))}`
}

/** Whether an address is the loopback (reachable only from inside the container). */
export function isLoopbackAddress(address: string): boolean {
  return /^127\./.test(address) || address === '::1' || /^::ffff:127\./.test(address)
}

/** An address with its port, IPv6 in brackets: `127.0.0.1:8000`, `[::1]:8000`. */
export function showListener({ address, port }: Listener): string {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`
}
