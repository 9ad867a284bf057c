import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { describeZodError, InputError } from '../errors/input-error.ts'

/** What a task may name, on a desktop image: the apps (by role) and the desktop's features. */
export const APPS = ['terminal', 'text-editor', 'file-manager', 'browser', 'image-viewer', 'calc', 'writer', 'impress', 'gimp', 'inkscape'] as const
export const FEATURES = [
  'panel',
  'clock',
  'applications-menu',
  'menu-section:office',
  'menu-section:graphics',
  'about-xfce',
  'desktop-icons',
  'desktop-settings',
  'desktop-launchers',
] as const

const name = z.string().regex(/^[a-z0-9][a-z0-9.+_-]*$/, 'a lowercase package or program name')

/**
 * An image's declaration of what it has (`capabilities.json` in its Dockerfile folder), the one
 * place the loader learns it from: a case needing anything else is skipped with the reason. The
 * image's own build and `apk` shim read the same file, and a test checks it in a container.
 */
export const ImageCapabilities = z.strictObject({
  $comment: z.string().optional(),
  apps: z.array(z.enum(APPS)),
  features: z.array(z.enum(FEATURES)),
  /** Programs a setup or check command may run, besides the shell's and coreutils'. */
  commands: z.array(name),
  packages: z.strictObject({
    /** Alpine names `apk add` accepts as already there (the image has them from the start). */
    preinstalled: z.array(name),
    /** Alpine name -> the Debian packages kept in the image and their programs, absent until `apk add` links them in. */
    installable: z.record(name, z.strictObject({ debs: z.array(name).min(1), programs: z.array(name).min(1) })),
  }),
  /** Alpine packages the harness itself runs on the agent's PATH: a case cannot ask the agent to install one. */
  harness_tools: z.array(name),
})
export type ImageCapabilities = z.infer<typeof ImageCapabilities>

export const CAPABILITIES_FILE = 'capabilities.json'

/** The declaration in an image's folder, or null when it has none (an image of the user's own). */
export function imageCapabilities(dir: string): ImageCapabilities | null {
  const file = join(dir, CAPABILITIES_FILE)
  if (!existsSync(file)) return null
  let data: unknown
  try {
    data = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw InputError.bare(`${file}: not valid JSON: ${error instanceof Error ? error.message : String(error)}`)
  }
  const parsed = ImageCapabilities.safeParse(data)
  if (!parsed.success) throw InputError.bare(describeZodError(file, parsed.error))
  return parsed.data
}
