import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ScriptedGrader } from '../grader/scripted-grader.ts'
import { startOsuniverseGrader } from './grader.ts'

/** A screen of 1280x800 in `background`, with a `box` of `fill` (x, y, width, height) on it. */
async function screen(background: string, fill?: string, box: [number, number, number, number] = [410, 255, 640, 400]): Promise<string> {
  const base = sharp({ create: { width: 1280, height: 800, channels: 3, background } })
  const png = fill
    ? await base.composite([{ input: { create: { width: box[2], height: box[3], channels: 3, background: fill } }, left: box[0], top: box[1] }]).png().toBuffer()
    : await base.png().toBuffer()
  return `data:image/png;base64,${png.toString('base64')}`
}

describe('the scripted judge of the OSUniverse cases (a test double)', () => {
  let grader: ScriptedGrader
  beforeAll(async () => {
    grader = await startOsuniverseGrader()
  })
  afterAll(() => grader?.close())

  /** One judge call shaped as agentest's prompt: the expected block, evidence blocks, images. */
  async function judge(kind: string, expected: string, evidence: string, images: string[] = []): Promise<{ score: number; comment: string }> {
    const content = [{ type: 'text', text: `<task>t</task>\n<expected kind="${kind}">${expected}</expected>\n${evidence}` }, ...images.map((url) => ({ type: 'image_url', image_url: { url } }))]
    const response = await fetch(`${grader.server.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
      body: JSON.stringify({ model: 'scripted-judge', messages: [{ role: 'user', content }] }),
    })
    const body = (await response.json()) as { choices: Array<{ message: { content: string } }> }
    return JSON.parse(body.choices[0]!.message.content) as { score: number; comment: string }
  }

  const POSTER = "GIMP's window shows poster.png: a plain magenta (#ff00ff) picture fills a large part of the screen."

  test('a final screen is judged by its pixels: the magenta poster passes, another picture or none fails', async () => {
    expect((await judge('final_screenshot', POSTER, '', [await screen('#2f4f6f', '#ff00ff')])).score).toBe(1)
    expect((await judge('final_screenshot', POSTER, '', [await screen('#2f4f6f', '#00c8c8')])).score).toBe(0)
    expect((await judge('final_screenshot', POSTER, '', [await screen('#2f4f6f')])).score).toBe(0)
    // A thumbnail of it is not the picture on screen.
    expect((await judge('final_screenshot', POSTER, '', [await screen('#2f4f6f', '#ff00ff', [20, 20, 48, 30])])).score).toBe(0)
  })

  test('an answer is judged by its facts: the right code word alone passes; a hedge or nothing fails', async () => {
    const rubric = 'The agent returns the code word ORCHID, the one the pass says to show at reception.'
    expect((await judge('returned_result', rubric, '<evidence kind="answer">The code word is ORCHID.</evidence>')).score).toBe(1)
    expect((await judge('returned_result', rubric, '<evidence kind="answer">ORCHID or TULIP</evidence>')).score).toBe(0)
    expect((await judge('returned_result', rubric, '<evidence kind="answer"></evidence>')).score).toBe(0)
  })

  test('a check no rule is written for fails, so a new case cannot pass unexamined', async () => {
    const verdict = await judge('final_screenshot', 'A window shows anything at all.', '', [await screen('#ffffff')])
    expect(verdict.score).toBe(0)
  })
})
