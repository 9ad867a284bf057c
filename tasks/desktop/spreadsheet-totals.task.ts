import { agentTest, expectWrittenBy, gnumericRepeatExport, inTerminal, launchApp, parseCsv, untilShell, untilWindow, type SolutionContext } from 'agentest'

const SALES = `month,north,south
Jan,1200,950
Feb,1340,1010
Mar,1185,1120
Apr,1410,1075
May,1502,1190
Jun,1390,1230
`
const ROWS = parseCsv(SALES)
const total = (column: number) => ROWS.slice(1).reduce((sum, row) => sum + Number(row[column]), 0)
const TOTALS = [total(1), total(2)] // 8027 and 6575

/**
 * Types the Total row below the table (ctrl+Home, ctrl+Down to the last row, Down): the label,
 * then the totals as `cells` (by default SUM formulas over rows 2 to `lastRow`), and unless told
 * not to, writes the sheet back to ~/sales.csv (Repeat Export).
 */
async function addTotals(
  context: SolutionContext,
  { lastRow = 7, cells = [`=SUM(B2:B${lastRow})`, `=SUM(C2:C${lastRow})`], save = true }: { lastRow?: number; cells?: string[]; save?: boolean } = {},
): Promise<void> {
  const { computer, desktop } = context
  await computer.keypress(['ctrl', 'home'])
  await computer.keypress(['ctrl', 'down'])
  await computer.keypress(['down'])
  await computer.type(`Total\t${cells.join('\t')}\n`)
  if (!save) return untilWindow(desktop, /Gnumeric$/)
  await gnumericRepeatExport(context)
  await untilShell(desktop, 'grep -q Total ~/sales.csv')
}

const test = agentTest({
  id: 'desktop-spreadsheet-totals',
  desktop_image: 'agentest/desktop',
  category: 'spreadsheet',
  level: 'bronze',
  tool: 'gnumeric',
  goal: 'The spreadsheet open on screen is ~/sales.csv. Add a row at the bottom labelled "Total" that has the total of the north column and the total of the south column, then save the file, keeping it a CSV file.',
  setup_cmd: [`cat > ~/sales.csv <<'EOF'\n${SALES}EOF`, launchApp('gnumeric', '~/sales.csv')].join('\n'),
  solution: (context) => addTotals(context),
  near_misses: {
    'june left out': (context) => addTotals(context, { lastRow: 6 }),
    'not saved': (context) => addTotals(context, { save: false }),
    // The row appended with echo in a terminal: the spreadsheet never wrote the file.
    shortcut: (context) => inTerminal(context, [`echo 'Total,${TOTALS.join(',')}' >> ~/sales.csv`], { forge: { recent: [{ path: '/home/agent/sales.csv', app: 'Gnumeric Spreadsheet' }] } }),
  },
  alternatives: {
    // The totals worked out by hand and typed in as numbers.
    'totals typed as numbers': (context) => addTotals(context, { cells: TOTALS.map(String) }),
  },
})

test('adds a Total row and saves the CSV from the spreadsheet', async ({ run, shell, observed, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/sales.csv')
  const rows = parseCsv(saved.stdout)
  expect(rows.slice(0, ROWS.length), 'the months are unchanged').toEqual(ROWS)
  expect(rows.length, 'exactly one row was added').toBe(ROWS.length + 1)
  const last = rows[rows.length - 1] ?? []
  expect(last[0], 'the new row is labelled Total').toBe('Total')
  expect(last.slice(1, 3).map(Number), `the totals are north ${TOTALS[0]} and south ${TOTALS[1]}`).toEqual(TOTALS)
  await expectWrittenBy({ expect, observed, shell }, '/home/agent/sales.csv', 'gnumeric')
})
