import { agentTest, type SolutionContext } from 'agentest'
import { launch, untilShell, untilWindow } from './support.ts'

const REPORT = 'Quarterly report\n\nSales grew 12% over the last quarter.\n'

const setup = [
  'cd ~/Documents',
  `cat > report-draft.txt <<'EOF'\n${REPORT}EOF`,
  "printf 'Summary of the summary.\\n' > report-summary.txt",
  "printf 'a,b\\n1,2\\n' > figures.csv",
  "printf 'Buy milk\\n' > notes.txt",
  launch('pcmanfm ~/Documents', '^Documents$'),
].join('\n')

/** Selects report-draft.txt by typing its name (type-ahead) and opens the rename dialog. */
async function openRename({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.type('report-d')
  await computer.keypress(['escape'])
  await computer.keypress(['f2'])
  await untilWindow(desktop, /^Rename File$/)
}

const test = agentTest({
  id: 'desktop-files-rename',
  desktop_image: 'agentest/desktop',
  category: 'files',
  level: 'wood',
  goal: 'In the file manager, rename the file report-draft.txt in Documents to report-final.txt.',
  setup_cmd: setup,
  solution: async (context) => {
    await openRename(context)
    // The dialog selects the name without its extension, so typing keeps ".txt".
    await context.computer.type('report-final\n')
    await untilShell(context.desktop, 'test -f ~/Documents/report-final.txt')
  },
  near_misses: {
    'underscore instead of hyphen': async (context) => {
      await openRename(context)
      await context.computer.type('report_final\n')
      await untilShell(context.desktop, 'test -f ~/Documents/report_final.txt')
    },
    'extension dropped': async (context) => {
      await openRename(context)
      await context.computer.keypress(['ctrl', 'a'])
      await context.computer.type('report-final\n')
      await untilShell(context.desktop, 'test -f ~/Documents/report-final')
    },
  },
})

test('renames the draft to report-final.txt', async ({ run, shell, expect }) => {
  await run()
  const renamed = await shell('cat /home/agent/Documents/report-final.txt')
  expect(renamed.exitCode, 'report-final.txt exists').toBe(0)
  expect(renamed.stdout, 'it has the draft report in it').toBe(REPORT)
  const listing = await shell('ls -A /home/agent/Documents')
  expect(listing.stdout.trim().split('\n').sort(), 'the draft is gone and nothing else changed').toEqual(
    ['figures.csv', 'notes.txt', 'report-final.txt', 'report-summary.txt'],
  )
})
