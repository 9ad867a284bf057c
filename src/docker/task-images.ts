import { existsSync, statSync } from 'node:fs'
import { basename, dirname, isAbsolute, resolve } from 'node:path'
import type Docker from 'dockerode'
import { contentTag, ensureImage, imageExists, SANDBOX_IMAGE_NAMES, type SandboxImageName } from './images.ts'
import { containerLabels } from './labels.ts'

/**
 * Where a task's desktop comes from: a bundled image (built by global setup), a folder with a
 * Dockerfile (built by content hash the first time a task needs it), or an image by name
 * (used as the engine has it, pulled if it does not).
 */
export type DesktopImageRef =
  | { kind: 'bundled'; name: SandboxImageName }
  | { kind: 'folder'; dir: string; name: string }
  | { kind: 'named'; name: string }

/** A Docker image reference: [registry/]name[:tag][@digest], lowercase path components. */
const IMAGE_REFERENCE = /^(?:[a-z0-9.-]+(?::\d+)?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/

/** Reads `desktop_image` as written in a task file; a path is relative to that file. Throws one line on a bad value. */
export function desktopImageRef(value: string, taskFile: string): DesktopImageRef {
  if ((SANDBOX_IMAGE_NAMES as readonly string[]).includes(value)) return { kind: 'bundled', name: value as SandboxImageName }
  if (value.startsWith('.') || isAbsolute(value)) {
    const dir = resolve(dirname(taskFile), value)
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${value} is not a folder (a path is read relative to the task file)`)
    if (!existsSync(resolve(dir, 'Dockerfile'))) throw new Error(`${value} has no Dockerfile`)
    const name = `agentest-task/${basename(dir).toLowerCase().replaceAll(/[^a-z0-9._-]/g, '-')}`
    return { kind: 'folder', dir, name }
  }
  if (!IMAGE_REFERENCE.test(value)) throw new Error(`"${value}" is neither a bundled image (${SANDBOX_IMAGE_NAMES.join(', ')}), an image name, nor a path to a Dockerfile folder ("./images/my-desktop")`)
  return { kind: 'named', name: value }
}

/** What the harness needs of a desktop image, checked by running the image once. */
const NEEDS: ReadonlyArray<[string, string]> = [
  ['xdotool', 'command -v xdotool'],
  ["ImageMagick's import (screenshots)", 'command -v import'],
  ['xdpyinfo (the display check)', 'command -v xdpyinfo'],
  ['bash', 'test -x /bin/bash'],
  ['a user named agent', 'id -u agent'],
]

/** An image that lacks what the harness needs, or that cannot be had; one line says which. */
export class DesktopImageError extends Error {
  override name = 'DesktopImageError'
}

/** The tag a task runs and the image's id (for the result cache's key). */
export interface PreparedImage {
  tag: string
  id: string
}

/**
 * Builds or finds a task's image and checks it has what the harness drives a desktop with, by
 * running a throwaway container of it (labelled with the run, so cleanup finds it).
 */
export async function prepareDesktopImage(docker: Docker, ref: Exclude<DesktopImageRef, { kind: 'bundled' }>, runId: string, log: (line: string) => void): Promise<PreparedImage> {
  const tag = ref.kind === 'folder' ? await build(docker, ref, log) : await findOrPull(docker, ref.name, log)
  const missing = await missingNeeds(docker, tag, runId)
  if (missing.length) {
    throw new DesktopImageError(
      `the desktop image ${ref.kind === 'folder' ? `${ref.dir} (${tag})` : tag} lacks ${missing.join(', ')}: agentest drives a desktop with xdotool, takes screenshots with ImageMagick's import, checks the display with xdpyinfo and acts as the user "agent" (build FROM agentest/desktop to get all of it)`,
    )
  }
  return { tag, id: (await docker.getImage(tag).inspect()).Id }
}

async function build(docker: Docker, ref: { dir: string; name: string }, log: (line: string) => void): Promise<string> {
  try {
    return await ensureImage(docker, ref.name, ref.dir, log)
  } catch (error) {
    throw new DesktopImageError(`the desktop image in ${ref.dir} did not build (${contentTag(ref.name, ref.dir)}): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
}

async function findOrPull(docker: Docker, name: string, log: (line: string) => void): Promise<string> {
  try {
    return await ensurePulled(docker, name, log)
  } catch (error) {
    throw new DesktopImageError(`the desktop image ${error instanceof Error ? error.message : String(error)}`)
  }
}

/** The image as the engine has it, pulled first if it does not; an error reads "<name> is not on this machine ...". */
export async function ensurePulled(docker: Docker, name: string, log: (line: string) => void): Promise<string> {
  if (await imageExists(docker, name)) return name
  log(`pulling ${name}`)
  try {
    const stream = await docker.pull(name)
    await new Promise<void>((done, fail) => docker.modem.followProgress(stream, (error: Error | null) => (error ? fail(error) : done())))
    return name
  } catch (error) {
    throw new Error(`${name} is not on this machine and could not be pulled: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`)
  }
}

/** Runs the image once, as root, without its entrypoint, and asks for each need. */
async function missingNeeds(docker: Docker, tag: string, runId: string): Promise<string[]> {
  const probe = NEEDS.map(([, test], i) => `${test} >/dev/null 2>&1 || echo ${i}`).join('; ')
  const container = await docker.createContainer({
    Image: tag,
    Entrypoint: ['/bin/sh', '-c', probe],
    Cmd: [],
    User: 'root',
    // A terminal: the log is the plain text, without the multiplexed stream's frame headers.
    Tty: true,
    Labels: containerLabels(runId, 'image-check'),
    HostConfig: { NetworkMode: 'none' },
  })
  try {
    try {
      await container.start()
    } catch {
      return ['a shell (/bin/sh)']
    }
    await container.wait()
    const logs = (await container.logs({ stdout: true, stderr: true })).toString('utf8')
    return [...logs.matchAll(/^(\d+)\r?$/gm)].map((m) => NEEDS[Number(m[1])]?.[0]).filter((what): what is string => !!what)
  } finally {
    await container.remove({ force: true }).catch(() => undefined)
  }
}

/** Each worker prepares an image once, whichever task asks first (a file's beforeAll, before any task's timer). */
const prepared = new Map<string, Promise<PreparedImage>>()

export function preparedDesktopImage(docker: Docker, ref: Exclude<DesktopImageRef, { kind: 'bundled' }>, runId: string, log: (line: string) => void): Promise<PreparedImage> {
  const key = ref.kind === 'folder' ? `folder:${ref.dir}` : `named:${ref.name}`
  let image = prepared.get(key)
  if (!image) {
    image = prepareDesktopImage(docker, ref, runId, log)
    prepared.set(key, image)
  }
  return image
}
