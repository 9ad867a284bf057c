/**
 * A newcomer's desktop task, written from docs/desktop.md alone: a file written in the editor,
 * saved as a new file, then moved into a folder in the file manager. Type-checked by
 * test/desktop-helpers/newcomer-types.test.ts.
 */
import {
  agentTest,
  expectChangedOnlyBy,
  expectWrittenBy,
  inTerminal,
  launch,
  launchApp,
  parseCsv,
  readText,
  saveAs,
  takeInto,
  untilShell,
  untilWindow,
  type SolutionContext,
  type TaskContextOf,
} from 'agentest'

const LINE = 'Q3,1200'

/** In the editor: types the line, saves it as ~/report.csv, closes the editor; then moves the file into ~/Documents. */
async function file(context: SolutionContext, line = LINE): Promise<void> {
  const { computer, desktop } = context
  await computer.type(line)
  await computer.keypress(['ctrl', 's'])
  await untilWindow(desktop, /^Save As$/)
  await saveAs(context, '/home/agent/report.csv')
  await computer.keypress(['ctrl', 'q'])
  await untilWindow(desktop, /^agent$/)
  await takeInto(context, 'report', 'documents', /^Documents$/)
  await computer.keypress(['ctrl', 'v'])
  await untilShell(desktop, 'test -f ~/Documents/report.csv')
  const saved = await readText(desktop, '/home/agent/Documents/report.csv')
  if (saved === null) throw new Error('the report was not moved')
}

const test = agentTest({
  id: 'newcomer-desktop-files-report',
  desktop_image: 'agentest/desktop',
  category: 'multiapp',
  level: 'silver',
  tool: 'mousepad and pcmanfm',
  goal: `Write "${LINE}" in the text editor, save it as ~/report.csv, close the editor, then use the file manager to move report.csv into Documents.`,
  setup_cmd: [launchApp('pcmanfm'), launch('mousepad', 'Mousepad$')].join('\n'),
  solution: (context) => file(context),
  near_misses: {
    'wrong quarter': (context) => file(context, 'Q2,1200'),
    shortcut: (context) =>
      inTerminal(context, [`echo '${LINE}' > ~/Documents/report.csv`], { forge: { recent: [{ path: '/home/agent/report.csv', app: 'Mousepad' }] } }),
  },
})

/** The checks, as a function of the task's context (the whole context passed to each helper). */
async function checks(context: TaskContextOf<'desktop'>): Promise<void> {
  const { shell, expect } = context
  const saved = await shell('cat /home/agent/Documents/report.csv')
  expect(parseCsv(saved.stdout), 'the report holds the line').toEqual([['Q3', '1200']])
  await expectWrittenBy(context, '/home/agent/report.csv', 'mousepad', { now: '/home/agent/Documents/report.csv' })
  await expectChangedOnlyBy(context, ['mousepad', 'pcmanfm'], 'the report was written and moved', { under: '/home/agent' })
}

test('writes the report in the editor and files it with the file manager', async (context) => {
  await context.run()
  await checks(context)
})
