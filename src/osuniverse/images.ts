import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** agentest's office desktop (fixtures/images/desktop-office): a Dockerfile folder, built by content hash. */
export const OFFICE_IMAGE_DIR = fileURLToPath(new URL('../../fixtures/images/desktop-office', import.meta.url))

/**
 * OSUniverse's desktop images, by repository (any tag or digest). Every one of its 160 cases
 * names desktop-webtop:8ed7f4e, an Alpine XFCE desktop to which the cases add LibreOffice, GIMP
 * and the like at setup; the office image has those apps already.
 */
const OSUNIVERSE_IMAGES = ['us-docker.pkg.dev/agentsea-dev/agentd/desktop-webtop'] as const

/** Where a case's desktop comes from: the office image, or the image as the case names it. */
export type CaseImage = { kind: 'office'; named: string } | { kind: 'as-named'; image: string }

/**
 * Maps a case's `desktop_image`: OSUniverse's images become the office image; anything else
 * (agentest/desktop, another image name) is used as named, and a relative path (a Dockerfile
 * folder) is read from the YAML file's folder.
 */
export function caseImage(desktopImage: string, yamlFile: string): CaseImage {
  const repository = desktopImage.replace(/@sha256:[0-9a-f]+$/, '').replace(/:[\w][\w.-]*$/, '')
  if ((OSUNIVERSE_IMAGES as readonly string[]).includes(repository)) return { kind: 'office', named: desktopImage }
  if (desktopImage.startsWith('.')) return { kind: 'as-named', image: resolve(yamlFile, '..', desktopImage) }
  return { kind: 'as-named', image: desktopImage }
}
