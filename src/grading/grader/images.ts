import { createRequire } from 'node:module'
import type Sharp from 'sharp'

// Required on first use: most runs judge nothing, and sharp's import costs about 0.1 CPU-seconds.
const load = createRequire(import.meta.url)

/**
 * Scales a screenshot to fit `maxSide` pixels on its long side (never enlarging) and encodes it
 * as PNG. sharp does the work on libuv's thread pool, so judging a long trajectory does not
 * block the event loop the agents and the recorder run on.
 */
export async function fitImage(image: Buffer, maxSide: number): Promise<Buffer> {
  const sharp = load('sharp') as typeof Sharp
  return sharp(image).resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true }).png().toBuffer()
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`
}
