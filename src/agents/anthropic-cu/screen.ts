/**
 * The largest size Claude takes a screenshot at without the API shrinking it on arrival (which
 * would silently move every coordinate): at most 1568 pixels on the long edge and about 1.15
 * megapixels. A 1280x800 screen fits as it is; a larger one is scaled down, aspect kept, and
 * the model's coordinates are mapped back up.
 */
export const LONG_EDGE_MAX = 1568
export const PIXELS_MAX = 1_150_000

export function fitForClaude(size: { width: number; height: number }): { width: number; height: number } {
  const factor = Math.min(1, LONG_EDGE_MAX / Math.max(size.width, size.height), Math.sqrt(PIXELS_MAX / (size.width * size.height)))
  // The epsilon keeps 1568/3000*3000 from flooring to 1567.
  return { width: Math.floor(size.width * factor + 1e-6), height: Math.floor(size.height * factor + 1e-6) }
}
