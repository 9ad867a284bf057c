import { agentTest, expectChangedOnlyBy, inTerminal, launchApp, untilShell, untilWindow, type SolutionContext } from 'agentest'

const REPORT = 'Quarterly report\n\nSales grew 12% over the last quarter.\n'

const setup = [
  'cd ~/Documents',
  `cat > report-draft.txt <<'EOF'\n${REPORT}EOF`,
  "printf 'Summary of the summary.\\n' > report-summary.txt",
  "printf 'a,b\\n1,2\\n' > figures.csv",
  "printf 'Buy milk\\n' > notes.txt",
  launchApp('pcmanfm', '~/Documents'),
].join('\n')

/**
 * Selects report-draft.txt by typing its name (type-ahead), opens the rename dialog (F2) and
 * types `name`. The dialog selects the name without its extension, so "report-final" keeps
 * ".txt"; with `whole`, Ctrl+A selects the whole name first. `saved` is the file to wait for.
 */
async function rename({ computer, desktop }: SolutionContext, name: string, { whole = false, saved = `${name}.txt` } = {}): Promise<void> {
  await computer.type('report-d')
  await computer.keypress(['escape'])
  await computer.keypress(['f2'])
  await untilWindow(desktop, /^Rename File$/)
  if (whole) await computer.keypress(['ctrl', 'a'])
  await computer.type(`${name}\n`)
  await untilShell(desktop, `test -f ~/Documents/${saved}`)
}

const test = agentTest({
  id: 'desktop-files-rename',
  desktop_image: 'agentest/desktop',
  category: 'files',
  level: 'wood',
  tool: 'pcmanfm',
  goal: 'In the file manager, rename the file report-draft.txt in Documents to report-final.txt.',
  setup_cmd: setup,
  solution: (context) => rename(context, 'report-final'),
  near_misses: {
    'underscore instead of hyphen': (context) => rename(context, 'report_final'),
    'extension dropped': (context) => rename(context, 'report-final', { whole: true, saved: 'report-final' }),
    // The file manager's own terminal (F4) renames it with mv.
    shortcut: (context) => inTerminal(context, ['mv report-draft.txt report-final.txt'], { open: 'f4' }),
  },
  alternatives: {
    // The whole name typed over, extension and all.
    'whole name typed': (context) => rename(context, 'report-final.txt', { whole: true, saved: 'report-final.txt' }),
  },
})

test('renames the draft to report-final.txt in the file manager', async ({ run, shell, observed, expect }) => {
  await run()
  const renamed = await shell('cat /home/agent/Documents/report-final.txt')
  expect(renamed.exitCode, 'report-final.txt exists').toBe(0)
  expect(renamed.stdout, 'it has the draft report in it').toBe(REPORT)
  const listing = await shell('ls -A /home/agent/Documents')
  expect(listing.stdout.trim().split('\n').sort(), 'the draft is gone and nothing else changed').toEqual(
    ['figures.csv', 'notes.txt', 'report-final.txt', 'report-summary.txt'],
  )
  // pcmanfm keeps no record of a rename; the terminal it opens (F4) keeps its history.
  await expectChangedOnlyBy({ expect, observed, shell }, ['pcmanfm'], 'the file was renamed')
})
