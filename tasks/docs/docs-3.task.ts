import { agentTest } from 'agentest'

// The upgrade guide (/upgrade-3.html) is not in the top menu: the install page and the 3.0.0
// changelog entry link to it. Both of those pages talk about upgrading, and are not the guide.
const GUIDE = '/upgrade-3.html'

const test = agentTest({
  id: 'docs-3',
  app: 'docs',
  goal: 'Open the Brindle documentation page that explains how to upgrade from Brindle 2.x to 3.0, and leave the browser on that page.',
  difficulty: 'easy',
  challenge_type: 'action',
  max_steps: 10,
  solution: async ({ ui }) => {
    await ui.click('#nav-changelog')
    await ui.click('#changelog-upgrade-link')
  },
  alternatives: {
    'from the install page': async ({ ui }) => {
      await ui.click('#nav-install')
      await ui.click('#install-upgrade-link')
    },
  },
  near_misses: {
    'the changelog entry': async ({ ui }) => {
      await ui.click('#nav-changelog')
    },
    'the install page': async ({ ui }) => {
      await ui.click('#nav-install')
    },
    'opened then left': async ({ ui }) => {
      await ui.click('#nav-install')
      await ui.click('#install-upgrade-link')
      await ui.click('#upgrade-install-link')
    },
  },
})

test('ends on the upgrade guide', async ({ run, page, expect }) => {
  await run()
  expect(new URL(page.url()).pathname, 'the browser is on the upgrade guide').toBe(GUIDE)
  expect(await page.locator('h1').first().textContent(), 'the page loaded: its title').toBe('Upgrading to Brindle 3.0')
})
