import sharp from 'sharp'
import { z } from 'zod'
import { registerSandboxKind, type Computer, type SandboxKind } from 'agentest'

/**
 * A kind of sandbox registered from outside the core, to prove that adding one is a folder and a
 * registry line: a note pad held in memory. The agent types into it; the screen is the text drawn
 * as a PNG; a check reads the text back. Its option `title` heads the pad.
 */
export interface NotesParts {
  notes: { text(): string; title: string }
}

declare module 'agentest' {
  interface SandboxKinds {
    notes: NotesParts
  }
}

const Options = z.object({ title: z.string().min(1) }).strict()

class NotePad implements Computer {
  readonly environment = 'linux' as const
  readonly dimensions = { width: 640, height: 400 }
  text = ''
  constructor(readonly title: string) {}

  async screenshot(): Promise<Buffer> {
    const escape = (line: string) => line.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
    const lines = [this.title, ...this.text.split('\n')].map((line, i) => `<text x="16" y="${32 + i * 24}" font-size="18" font-family="monospace">${escape(line)}</text>`)
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="100%" height="100%" fill="white"/>${lines.join('')}</svg>`
    return sharp(Buffer.from(svg)).png().toBuffer()
  }
  async type(text: string): Promise<void> {
    this.text += text
  }
  async keypress(keys: string[]): Promise<void> {
    if (keys.length === 1 && keys[0] === 'backspace') this.text = this.text.slice(0, -1)
    else if (keys.length === 1 && keys[0] === 'enter') this.text += '\n'
  }
  // A pad has no pointer: the other actions do nothing.
  async click(): Promise<void> {}
  async doubleClick(): Promise<void> {}
  async tripleClick(): Promise<void> {}
  async scroll(): Promise<void> {}
  async mouseDown(): Promise<void> {}
  async mouseUp(): Promise<void> {}
  async wait(ms = 0): Promise<void> {
    await new Promise((done) => setTimeout(done, Math.min(ms, 1_000)))
  }
  async move(): Promise<void> {}
  async holdKey(): Promise<void> {}
  async drag(): Promise<void> {}
  async cursorPosition() {
    return { x: 0, y: 0 }
  }
  async currentUrl(): Promise<string | null> {
    return null
  }
}

export const notesKind: SandboxKind<NotesParts, z.infer<typeof Options>> = {
  name: 'notes',
  environment: 'linux',
  options: Options,
  claims: () => false,
  async open({ options }) {
    const pad = new NotePad(options.title)
    return {
      computer: pad,
      parts: { notes: { text: () => pad.text, title: pad.title } },
      solutionParts: () => ({}),
      agentServer: null,
      violations: () => [],
      gone: async () => null,
      saveEvidence: (recorder) => recorder.saveJson('notes.json', { title: pad.title, text: pad.text }),
      finalUrl: () => null,
      close: async () => {},
    }
  },
  probes: () => ({}),
  recordedParts: (_record, finalState, refuse) => {
    const saved = z.object({ title: z.string(), text: z.string() }).safeParse(finalState)
    return { notes: saved.success ? { text: () => saved.data.text, title: saved.data.title } : { text: () => refuse('read the notes: it recorded none'), title: '' } }
  },
}

registerSandboxKind(notesKind)
