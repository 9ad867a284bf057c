import { agentTest, expectAnswer, type SolutionContext } from 'agentest'

// The changelog: 3.1.0 (2025-05-02) added the Backblaze B2 backend. The other releases a
// reader could confuse it with: 2.4.0 (2024-10-21, Amazon S3), 3.0.0 (2025-02-10), 3.2.0 (2025-07-15), 3.2.1 (2025-08-28).
const DATE = /2025-05-02|\bMay\s+2(nd)?\b,?\s*2025|\b2(nd)?\s+May,?\s+2025|\b0?5\/0?2\/2025\b/i
const VERSION = /(?<![\d.])3\.1(\.0)?(?!\.?\d)/

/** The changelog entry that mentions `words`: its version and date, as its heading shows them. */
async function release({ ui }: SolutionContext, words: string): Promise<{ version: string; date: string }> {
  const entry = ui.locator('section.release', { hasText: words })
  const version = (await entry.locator('h2').first().evaluate((h) => h.firstChild?.textContent ?? '')).trim()
  const date = await ui.text(entry.locator('.date'))
  return { version, date }
}

const test = agentTest({
  id: 'docs-1',
  app: 'docs',
  goal: 'In which version of Brindle was the Backblaze B2 backend added, and on what date was that version released?',
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: async (context) => {
    await context.ui.click('#nav-changelog')
    const { version, date } = await release(context, 'Backblaze B2')
    return `Brindle ${version} added the Backblaze B2 backend; it was released on ${date}.`
  },
  alternatives: {
    // The FAQ names the version; the changelog gives its date.
    'from the faq': async (context) => {
      await context.ui.click('#nav-faq')
      const faq = await context.ui.text('#faq-cloud + p')
      const version = /Backblaze B2 since version (\d+(?:\.\d+)+)/.exec(faq)?.[1]
      if (!version) throw new Error(`no version in the FAQ: ${faq}`)
      await context.ui.click('#nav-changelog')
      const date = await context.ui.text(`#v${version.replaceAll('.', '-')} .date`)
      return `Version ${version}, released ${date}.`
    },
  },
  near_misses: {
    'the s3 release': async () => 'Brindle 2.4.0, released on 2024-10-21.',
    'no date': async () => 'It was added in Brindle 3.1.0.',
    'two releases': async () => 'Brindle 3.1.0 (2025-05-02), or maybe 3.2.0 (2025-07-15).',
  },
})

test('names version 3.1.0 and its release date', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, {
    what: 'Brindle 3.1.0, released on May 2, 2025',
    names: [VERSION, DATE],
    // The other releases and their dates (2024 is the year of the releases before 3.0).
    notNaming: [/\b2\.4\.0\b/, /\b3\.0\.0\b/, /\b3\.2\.[01]\b/, /2025-07-15|July\s+15/i, /2025-02-10|February\s+10/i, /2024-10-21|October\s+21/i, 2024],
  })
})
