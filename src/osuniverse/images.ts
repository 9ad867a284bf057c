import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { imageCapabilities, type ImageCapabilities } from './capabilities.ts'

/** agentest's office desktop (fixtures/images/desktop-office): bare openbox with Calc, Writer, GIMP, Firefox. */
export const OFFICE_IMAGE_DIR = fileURLToPath(new URL('../../fixtures/images/desktop-office', import.meta.url))

/** agentest's OSUniverse desktop (fixtures/images/osuniverse-desktop): Xfce as OSUniverse's image has it. */
export const OSUNIVERSE_IMAGE_DIR = fileURLToPath(new URL('../../fixtures/images/osuniverse-desktop', import.meta.url))

/** The folder OSUniverse's own image maps to: a Dockerfile folder, built by content hash. */
export const MAPPED_IMAGE_DIR = OSUNIVERSE_IMAGE_DIR

/**
 * OSUniverse's desktop images, by repository (any tag or digest). Every one of its 160 cases
 * names desktop-webtop:8ed7f4e, an Alpine Xfce 4.18 desktop to which the cases add LibreOffice,
 * GIMP and the like at setup.
 */
const OSUNIVERSE_IMAGES = ['us-docker.pkg.dev/agentsea-dev/agentd/desktop-webtop'] as const

/**
 * Where a case's desktop comes from: agentest's image for OSUniverse's (a folder), or the image
 * as the case names it. `has` is the image's declaration of what it has, when it has one.
 */
export type CaseImage =
  | { kind: 'mapped'; named: string; dir: string; has: ImageCapabilities | null }
  | { kind: 'as-named'; image: string; has: ImageCapabilities | null }

/**
 * Maps a case's `desktop_image`: OSUniverse's images become agentest's OSUniverse desktop (`dir`,
 * MAPPED_IMAGE_DIR by default); anything else (agentest/desktop, another image name) is used as
 * named, and a relative path (a Dockerfile folder) is read from the YAML file's folder.
 */
export function caseImage(desktopImage: string, yamlFile: string, dir: string = MAPPED_IMAGE_DIR): CaseImage {
  const repository = desktopImage.replace(/@sha256:[0-9a-f]+$/, '').replace(/:[\w][\w.-]*$/, '')
  if ((OSUNIVERSE_IMAGES as readonly string[]).includes(repository)) return { kind: 'mapped', named: desktopImage, dir, has: imageCapabilities(dir) }
  if (desktopImage.startsWith('.')) {
    const folder = resolve(yamlFile, '..', desktopImage)
    return { kind: 'as-named', image: folder, has: imageCapabilities(folder) }
  }
  return { kind: 'as-named', image: desktopImage, has: null }
}
