import type Docker from 'dockerode'

/** A container's last `tail` lines of output (stdout and stderr, in order); '' when it cannot be read. */
export async function containerLogs(container: Docker.Container, tail: number): Promise<string> {
  const raw = await container.logs({ stdout: true, stderr: true, tail, follow: false }).catch(() => null)
  return raw ? demuxLogs(Buffer.isBuffer(raw) ? raw : Buffer.from(String(raw))) : ''
}

/** Docker multiplexes stdout and stderr of a container without a TTY in 8-byte-headed frames. */
export function demuxLogs(raw: Buffer): string {
  const parts: Buffer[] = []
  let offset = 0
  while (offset + 8 <= raw.length && raw[offset]! <= 2 && raw.readUInt16BE(offset + 1) === 0) {
    const size = raw.readUInt32BE(offset + 4)
    parts.push(raw.subarray(offset + 8, offset + 8 + size))
    offset += 8 + size
  }
  return offset === 0 ? raw.toString('utf8') : Buffer.concat(parts).toString('utf8')
}
