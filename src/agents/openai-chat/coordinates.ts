import { z } from 'zod'
import type { ScreenScale } from '../shared/image.ts'

/**
 * How a model states a point. Grounding models differ: some answer in pixels of the image they
 * were shown (Qwen2.5-VL, or any model given a resized screenshot), some in pixels of the real
 * screen, some relative to the image on a 0-1000 grid (Qwen3-VL, UI-TARS) or as fractions 0-1.
 */
export const CoordinateConvention = z.enum(['image', 'screen', 'relative_1000', 'normalized'])
export type CoordinateConvention = z.infer<typeof CoordinateConvention>

type Axis = 'x' | 'y'

/** Maps the model's coordinates and distances, in its convention, to screen pixels. */
export class ModelCoordinates {
  constructor(
    readonly convention: CoordinateConvention,
    private readonly scale: ScreenScale,
  ) {}

  /** A point's coordinate on one axis -> a screen pixel, kept inside the screen. */
  point(value: number, axis: Axis): number {
    const size = this.screenSize(axis)
    return Math.max(0, Math.min(size - 1, Math.round(this.inScreenPixels(value, axis))))
  }

  /** A distance (a scroll) on one axis -> screen pixels. */
  distance(value: number, axis: Axis): number {
    return Math.round(this.inScreenPixels(value, axis))
  }

  /** A chat tool's arguments with every coordinate and distance in screen pixels. */
  toScreen(args: Record<string, unknown>): Record<string, unknown> {
    const out = { ...args }
    for (const axis of ['x', 'y'] as const) {
      if (typeof out[axis] === 'number') out[axis] = this.point(out[axis], axis)
      const scroll = `scroll_${axis}`
      if (typeof out[scroll] === 'number') out[scroll] = this.distance(out[scroll], axis)
    }
    if (Array.isArray(out.path)) {
      out.path = (out.path as Array<{ x: number; y: number }>).map((p) => ({ x: this.point(p.x, 'x'), y: this.point(p.y, 'y') }))
    }
    return out
  }

  /** The sentence of the system prompt that tells the model how to state a point. */
  describe(): string {
    const { width, height } = this.scale.image
    const screen = this.scale.screen
    switch (this.convention) {
      case 'image':
        return `The screenshots are ${width}x${height} pixels; tool coordinates and scroll distances are pixels of the screenshot, origin top-left.`
      case 'screen':
        return `The screen is ${screen.width}x${screen.height} pixels (the screenshots may be smaller); tool coordinates and scroll distances are pixels of the screen, origin top-left.`
      case 'relative_1000':
        return 'Tool coordinates are relative, from 0 to 1000 on each axis: (0, 0) is the top-left corner of the screenshot, (1000, 1000) the bottom-right; scroll distances use the same scale.'
      case 'normalized':
        return 'Tool coordinates are fractions from 0 to 1 on each axis: (0, 0) is the top-left corner of the screenshot, (1, 1) the bottom-right; scroll distances use the same scale.'
    }
  }

  private inScreenPixels(value: number, axis: Axis): number {
    const size = this.screenSize(axis)
    switch (this.convention) {
      case 'image':
        return value / this.scale.factor
      case 'screen':
        return value
      case 'relative_1000':
        return (value / 1000) * size
      case 'normalized':
        return value * size
    }
  }

  private screenSize(axis: Axis): number {
    return axis === 'x' ? this.scale.screen.width : this.scale.screen.height
  }
}
