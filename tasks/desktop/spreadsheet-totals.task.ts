import { agentTest, type SolutionContext } from 'agentest'
import { gnumericRepeatExport, launch, parseCsv, untilShell, untilWindow } from './support.ts'

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

/** Types the Total row below the table: ctrl+Home, ctrl+Down (last row), Down. */
async function addTotals({ computer }: SolutionContext, lastRow: number): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  await computer.keypress(['ctrl', 'down'])
  await computer.keypress(['down'])
  await computer.type(`Total\t=SUM(B2:B${lastRow})\t=SUM(C2:C${lastRow})\n`)
}

const test = agentTest({
  id: 'desktop-spreadsheet-totals',
  desktop_image: 'agentest/desktop',
  category: 'spreadsheet',
  level: 'bronze',
  goal: 'The spreadsheet open on screen is ~/sales.csv. Add a row at the bottom labelled "Total" that has the total of the north column and the total of the south column, then save the file, keeping it a CSV file.',
  setup_cmd: [`cat > ~/sales.csv <<'EOF'\n${SALES}EOF`, launch('gnumeric ~/sales.csv', 'Gnumeric$')].join('\n'),
  solution: async (context) => {
    await addTotals(context, 7)
    await gnumericRepeatExport(context)
    await untilShell(context.desktop, 'grep -q Total ~/sales.csv')
  },
  near_misses: {
    'june left out': async (context) => {
      await addTotals(context, 6)
      await gnumericRepeatExport(context)
      await untilShell(context.desktop, 'grep -q Total ~/sales.csv')
    },
    'not saved': async (context) => {
      await addTotals(context, 7)
      await untilWindow(context.desktop, /Gnumeric$/)
    },
  },
})

test('adds a Total row and saves the CSV', async ({ run, shell, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/sales.csv')
  const rows = parseCsv(saved.stdout)
  expect(rows.slice(0, ROWS.length), 'the months are unchanged').toEqual(ROWS)
  expect(rows.length, 'exactly one row was added').toBe(ROWS.length + 1)
  const last = rows[rows.length - 1] ?? []
  expect(last[0], 'the new row is labelled Total').toBe('Total')
  expect(last.slice(1, 3).map(Number), `the totals are north ${TOTALS[0]} and south ${TOTALS[1]}`).toEqual(TOTALS)
})
