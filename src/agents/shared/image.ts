import sharp from 'sharp'
import type { ComputerAction, ComputerActionInput } from '../../schema/action.ts'
import type { ImageFit } from './options.ts'

/**
 * Maps between the screen and the (possibly smaller) image the model sees. The model's
 * coordinates and scroll distances are in image pixels; the Computer's in screen pixels.
 */
export class ScreenScale {
  /** Image pixels per screen pixel (1 when screenshots go as they are). */
  readonly factor: number
  readonly image: { width: number; height: number }

  constructor(
    readonly screen: { width: number; height: number },
    fit: ImageFit | null,
  ) {
    this.factor = fit ? Math.min(1, fit.width / screen.width, fit.height / screen.height) : 1
    this.image = { width: Math.round(screen.width * this.factor), height: Math.round(screen.height * this.factor) }
  }

  /** The screenshot as the model should see it (PNG). */
  async encode(png: Buffer): Promise<Buffer> {
    if (this.factor === 1) return png
    return sharp(png).resize(this.image.width, this.image.height, { fit: 'fill' }).png().toBuffer()
  }

  /** A coordinate on the image -> on the screen, kept inside it. */
  x(value: number): number {
    return clamp(Math.round(value / this.factor), this.screen.width - 1)
  }
  y(value: number): number {
    return clamp(Math.round(value / this.factor), this.screen.height - 1)
  }
  distance(value: number): number {
    return Math.round(value / this.factor)
  }

  /** Rewrites an action's coordinates (and scroll distances) from image to screen pixels. */
  toScreen(action: ComputerAction): ComputerActionInput {
    switch (action.type) {
      case 'click':
      case 'double_click':
      case 'triple_click':
      case 'move':
        return { ...action, x: this.x(action.x), y: this.y(action.y) }
      case 'scroll':
        return {
          ...action,
          x: this.x(action.x),
          y: this.y(action.y),
          scroll_x: this.distance(action.scroll_x),
          scroll_y: this.distance(action.scroll_y),
        }
      case 'drag':
        return { ...action, path: action.path.map((p) => ({ x: this.x(p.x), y: this.y(p.y) })) }
      default:
        return action
    }
  }
}

function clamp(value: number, max: number): number {
  return Math.max(0, Math.min(max, value))
}

export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString('base64')}`
}
