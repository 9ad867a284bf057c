import { agentTest, expectAnswer, type SolutionContext } from 'agentest'

// The configuration reference: retention.keep_weekly defaults to 4, and BRINDLE_CONFIG names
// another configuration file. Nearby numbers a reader could take instead: keep_daily 7,
// keep_monthly 12, compression_level 3, and the example file's keep_weekly = 8 and keep_daily = 14.
async function readReference({ ui }: SolutionContext): Promise<string> {
  const weekly = (await ui.text('#setting-keep-weekly td:nth-child(2)')).trim()
  const variable = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/.exec(await ui.text('#config-env'))?.[0]
  if (!variable) throw new Error('no environment variable on the page')
  return `retention.keep_weekly defaults to ${weekly}, and the ${variable} environment variable points Brindle at another configuration file.`
}

const test = agentTest({
  id: 'docs-2',
  app: 'docs',
  goal: "In Brindle's documentation: what is the default value of the retention.keep_weekly setting, and which environment variable makes Brindle read its configuration file from another path?",
  difficulty: 'easy',
  challenge_type: 'retrieval',
  max_steps: 10,
  solution: async (context) => {
    await context.ui.click('#nav-configuration')
    return readReference(context)
  },
  alternatives: {
    'from the getting started steps': async (context) => {
      await context.ui.click('#home-config-link')
      return readReference(context)
    },
  },
  near_misses: {
    'the example value': async () => 'keep_weekly is 8, and BRINDLE_CONFIG sets the path of the configuration file.',
    'keep daily instead': async () => 'The default is 7, and the variable is BRINDLE_CONFIG.',
    'the flag not a variable': async () => 'The default is 4; use the --config flag to read another file.',
  },
})

test('gives the default of keep_weekly and the config variable', async ({ run, expect }) => {
  const { answer } = await run()
  expectAnswer(expect, answer, {
    what: 'keep_weekly defaults to 4, and BRINDLE_CONFIG',
    names: [4, /\bBRINDLE_CONFIG\b/],
    notNaming: [7, 12, 3, 8, 14],
  })
})
