import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import dockerignore from '@balena/dockerignore'
import { join, relative } from 'node:path'
import type Docker from 'dockerode'
import { withBuildLock } from './build-lock.ts'

/** What global setup tells workers about Docker: usable or not (and why), and the built image tags. */
export type DockerProvision =
  | { available: true; images: Record<string, string>; /** The packaged agent's image tag, when the agent is `image`. */ agentImage?: string }
  | { available: false; reason: string }

/** Sandbox images that ship with agentest: name -> folder with its Dockerfile. */
export const SANDBOX_IMAGES = {
  'agentest/desktop': 'fixtures/images/desktop',
} as const
export type SandboxImageName = keyof typeof SANDBOX_IMAGES
export const SANDBOX_IMAGE_NAMES = Object.keys(SANDBOX_IMAGES) as [SandboxImageName, ...SandboxImageName[]]

/**
 * Files of a build context, sorted, as `docker build` would send them: minus what the context's
 * .dockerignore excludes (the Engine API leaves that to the client), and never node_modules or .git.
 */
export function filesOf(dir: string): string[] {
  const ignoreFile = join(dir, '.dockerignore')
  const ignored = existsSync(ignoreFile) ? dockerignore({ ignorecase: false }).add(readFileSync(ignoreFile, 'utf8').split('\n')) : null
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => !file.split(/[\\/]/).some((part) => part === 'node_modules' || part === '.git'))
    .filter((file) => statSync(join(dir, file)).isFile())
    .filter((file) => !ignored?.ignores(file))
    .sort()
}

/** A hash of a folder's files (names and contents) plus any extra inputs, 12 hex digits. */
export function contentHash(dir: string, extra: readonly string[] = []): string {
  const hash = createHash('sha256')
  for (const file of filesOf(dir)) hash.update(file).update('\0').update(readFileSync(join(dir, file))).update('\0')
  for (const input of extra) hash.update(input).update('\0')
  return hash.digest('hex').slice(0, 12)
}

/** The image's tag is a hash of its build context, so a changed Dockerfile means a new build. */
export function contentTag(name: string, dir: string): string {
  return `${name}:${contentHash(dir)}`
}

export async function imageExists(docker: Docker, tag: string): Promise<boolean> {
  try {
    await docker.getImage(tag).inspect()
    return true
  } catch {
    return false
  }
}

export interface BuildRequest {
  tag: string
  context: string
  dockerfile?: string
  buildargs?: Record<string, string>
  labels?: Record<string, string>
}

/** Builds an image from a folder (sent as a tar), printing the build's steps. */
export async function buildImage(docker: Docker, request: BuildRequest, log: (line: string) => void): Promise<void> {
  const { tag, context } = request
  const stream = await docker.buildImage(
    { context, src: filesOf(context) },
    {
      t: tag,
      dockerfile: request.dockerfile ?? 'Dockerfile',
      buildargs: request.buildargs ?? {},
      labels: request.labels ?? {},
      // A failed step's container would otherwise stay behind.
      forcerm: true,
    },
  )
  // The build's own last lines say why it failed; the engine's error only names the command.
  const tail: string[] = []
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null, output: Array<{ error?: string }>) => {
        const failed = error?.message ?? output.find((o) => o.error)?.error
        if (!failed) return resolve()
        const reason = failed.trim().replace(/^The command '[\s\S]*' returned/, 'a RUN step returned')
        reject(new Error(`building ${tag} failed: ${reason}${tail.length ? `; its last output:\n${tail.map((l) => `  | ${l}`).join('\n')}` : ''}`))
      },
      (event: { stream?: string; error?: string }) => {
        for (const line of (event.stream ?? '').split('\n').map((l) => l.trimEnd()).filter(Boolean)) {
          if (/^Step \d+\/\d+/.test(line)) log(`  ${line}`)
          tail.push(line)
          if (tail.length > 12) tail.shift()
        }
      },
    )
  })
}

/**
 * Builds the image from its folder unless the content-hash tag exists already, printing the
 * build's progress. Returns the tag tasks should run.
 */
export async function ensureImage(
  docker: Docker,
  name: string,
  dir: string,
  log: (line: string) => void,
): Promise<string> {
  const tag = contentTag(name, dir)
  if (await imageExists(docker, tag)) return tag
  await withBuildLock(
    tag,
    async () => {
      // Another process may have built it while this one waited for the lock.
      if (await imageExists(docker, tag)) return
      log(`building ${tag} from ${dir} (once; later runs reuse it)`)
      await buildImage(docker, { tag, context: dir, labels: { 'dev.agentest.image': name } }, log)
      await docker.getImage(tag).tag({ repo: name, tag: 'latest' })
      log(`built ${tag}`)
    },
    () => imageExists(docker, tag),
  )
  return tag
}

export function imageDir(root: string, name: SandboxImageName): string {
  return join(root, SANDBOX_IMAGES[name])
}

export function shortPath(root: string, path: string): string {
  return relative(root, path) || path
}
