import { dirname, basename } from 'node:path'
import type Docker from 'dockerode'
import tar from 'tar-stream'

/** Reads one file out of a container through the archive API (no shell, any bytes). */
export async function readFileFrom(container: Docker.Container, path: string): Promise<Buffer> {
  const stream = await container.getArchive({ path })
  const extract = tar.extract()
  return new Promise<Buffer>((resolve, reject) => {
    let content: Buffer | null = null
    extract.on('entry', (header, entry, next) => {
      const chunks: Buffer[] = []
      entry.on('data', (chunk: unknown) => chunks.push(chunk as Buffer))
      entry.on('end', () => {
        if (content === null && header.type === 'file') content = Buffer.concat(chunks)
        next()
      })
    })
    extract.on('finish', () => (content ? resolve(content) : reject(new Error(`${path} is not a file`))))
    extract.on('error', reject)
    stream.pipe(extract)
  })
}

/** Writes one file into a container through the archive API, owned by the given uid/gid. */
export async function writeFileTo(
  container: Docker.Container,
  path: string,
  content: Buffer | string,
  owner: { uid: number; gid: number } = { uid: 1000, gid: 1000 },
): Promise<void> {
  const pack = tar.pack()
  const body = typeof content === 'string' ? Buffer.from(content) : content
  pack.entry({ name: basename(path), mode: 0o644, uid: owner.uid, gid: owner.gid, mtime: new Date(0) }, body)
  pack.finalize()
  const chunks: Buffer[] = []
  for await (const chunk of pack) chunks.push(chunk as Buffer)
  await container.putArchive(Buffer.concat(chunks), { path: dirname(path) })
}
