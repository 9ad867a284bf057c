import { defineAgent } from '../../../src/index.ts'

/** Test agent: opens the clone's /finish, the harness's own endpoint, which it must never reach. */
export default defineAgent({
  name: 'seek-finish',
  async run({ computer }) {
    const here = new URL((await computer.currentUrl()) ?? 'http://127.0.0.1/')
    await computer.goto!(new URL('/finish', here.origin).href)
    return { answer: 'tried /finish' }
  },
})
