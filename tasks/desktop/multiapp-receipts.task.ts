import { agentTest, altTabTo, expectWrittenBy, gnumericExportCsv, inTerminal, launchApp, parseCsv, readText, type SolutionContext } from 'agentest'

const RECEIPTS = `March receipts

Groceries: 54.20
Pharmacy: 12.85
Fuel: 61.40
Bookshop: 23.99
Groceries: 47.15
Parking: 6.50
Restaurant: 38.90
`
const AMOUNTS = [54.2, 12.85, 61.4, 23.99, 47.15, 6.5, 38.9]
const TOTAL = 244.99

const setup = [
  `cat > ~/Documents/receipts.txt <<'EOF'\n${RECEIPTS}EOF`,
  launchApp('mousepad', '~/Documents/receipts.txt'),
  launchApp('gnumeric'),
].join('\n')

/**
 * Looks at the receipts in the editor (Alt+Tab goes back and forth between the two most recent
 * windows), then types the amounts into column A of the empty sheet with `total` below (by
 * default their SUM), and exports the sheet as CSV. `amounts` are typed as given (a near miss
 * types others).
 */
async function fillSheet(
  context: SolutionContext,
  amounts: string[],
  { path = '/home/agent/total.csv', total = `=SUM(A1:A${amounts.length})` } = {},
): Promise<void> {
  const { computer } = context
  await altTabTo(context, /receipts\.txt - Mousepad$/)
  await altTabTo(context, /Gnumeric$/)
  // A busy openbox may still hold its window-cycling popup (which would take the first line and
  // its Enter): Escape closes it, and Ctrl+Home starts at A1 whatever cell has the cursor.
  await computer.keypress(['Escape'])
  await computer.keypress(['ctrl', 'Home'])
  await computer.type(`${amounts.join('\n')}\n${total}\n`)
  await gnumericExportCsv(context, path)
}

/** The amounts as written in the file, read the way a person reads them off the screen. */
async function readAmounts({ desktop }: SolutionContext): Promise<string[]> {
  const text = (await readText(desktop, '/home/agent/Documents/receipts.txt')) ?? ''
  return [...text.matchAll(/: (\d+\.\d+)$/gm)].map((m) => m[1]!)
}

const test = agentTest({
  id: 'desktop-multiapp-receipts',
  desktop_image: 'agentest/desktop',
  category: 'multiapp',
  level: 'gold',
  tool: 'gnumeric',
  goal: 'The text editor has my March receipts open (~/Documents/receipts.txt) and there is an empty spreadsheet. Put the amounts of the receipts into the spreadsheet, one per row in column A starting at A1 and in the same order as in the file, put their total in column A of the row right below them, and save the sheet as a CSV file ~/total.csv.',
  setup_cmd: setup,
  solution: async (context) => {
    await fillSheet(context, await readAmounts(context))
  },
  near_misses: {
    'last receipt missed': async (context) => {
      await fillSheet(context, (await readAmounts(context)).slice(0, -1))
    },
    'digits swapped': async (context) => {
      const amounts = (await readAmounts(context)).map((a) => (a === '61.40' ? '16.40' : a))
      await fillSheet(context, amounts)
    },
    'saved in documents': async (context) => {
      await fillSheet(context, await readAmounts(context), { path: '/home/agent/Documents/total.csv' })
    },
    // The amounts pulled out of the receipts with awk in a terminal: the spreadsheet stays empty.
    shortcut: (context) =>
      inTerminal(context, ["awk -F': ' 'NF == 2 { print $2; t += $2 } END { print t }' ~/Documents/receipts.txt > ~/total.csv"], {
        forge: { recent: [{ path: '/home/agent/total.csv', app: 'Gnumeric Spreadsheet' }] },
      }),
  },
  alternatives: {
    // The total added up by hand and typed in as a number.
    'total typed as a number': async (context) => {
      await fillSheet(context, await readAmounts(context), { total: TOTAL.toFixed(2) })
    },
  },
})

test('totals the receipts in a CSV saved by the spreadsheet', async ({ run, shell, observed, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/total.csv')
  expect(saved.exitCode, '~/total.csv exists').toBe(0)
  const column = parseCsv(saved.stdout).map((row) => row[0] ?? '')
  expect(column.length, `column A has the ${AMOUNTS.length} amounts and the total`).toBe(AMOUNTS.length + 1)
  expect(column.slice(0, AMOUNTS.length).map(Number), 'the amounts, in the order of the file').toEqual(AMOUNTS)
  expect(Math.abs(Number(column[AMOUNTS.length]) - TOTAL) < 0.005, `the last row holds the total, ${TOTAL}`).toBe(true)
  await expectWrittenBy({ expect, observed, shell }, '/home/agent/total.csv', 'gnumeric')
})
