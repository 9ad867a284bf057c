import { agentTest, expectWrittenBy, gnumericRepeatExport, inTerminal, launchApp, parseCsv, untilShell, untilWindow, type SolutionContext } from 'agentest'

const INVENTORY = `item,location,stock
Stapler,Shelf A,12
Paper clips,Shelf A,340
Stapler refills,Shelf B,55
Printer paper,Shelf C,18
Highlighters,Shelf B,64
Sticky notes,Shelf C,120
`
const EXPECTED = parseCsv(INVENTORY).map((row) => (row[0] === 'Printer paper' ? [row[0], row[1]!, '81'] : row))

/**
 * Types `stock` into column C of the 1-based `row`, reached with the keyboard alone, and unless
 * told not to, writes the sheet back to ~/inventory.csv (Data > Export Data > Repeat Export).
 */
async function setStock(context: SolutionContext, { row = 5, stock = '81', save = true } = {}): Promise<void> {
  const { computer, desktop } = context
  await computer.keypress(['ctrl', 'home'])
  for (let i = 1; i < row; i++) await computer.keypress(['down'])
  await computer.keypress(['right'])
  await computer.keypress(['right'])
  await computer.type(`${stock}\n`)
  if (!save) return
  await gnumericRepeatExport(context)
  await untilShell(desktop, `grep -q ${stock} ~/inventory.csv`)
}

const test = agentTest({
  id: 'desktop-spreadsheet-stock',
  desktop_image: 'agentest/desktop',
  category: 'spreadsheet',
  level: 'wood',
  tool: 'gnumeric',
  goal: 'The spreadsheet open on screen is ~/inventory.csv. The stock of "Printer paper" in it is wrong: it should be 81. Correct it and save the file, keeping it a CSV file.',
  setup_cmd: [`cat > ~/inventory.csv <<'EOF'\n${INVENTORY}EOF`, launchApp('gnumeric', '~/inventory.csv')].join('\n'),
  solution: (context) => setStock(context),
  near_misses: {
    'wrong row': (context) => setStock(context, { row: 4 }),
    'digits swapped': (context) => setStock(context, { stock: '18' }),
    'not saved': (context) => setStock(context, { save: false }),
    // The same edit made with sed in a terminal: the spreadsheet never wrote the file.
    shortcut: (context) => inTerminal(context, ["sed -i 's/^Printer paper,Shelf C,18$/Printer paper,Shelf C,81/' ~/inventory.csv"], { forge: { recent: [{ path: '/home/agent/inventory.csv', app: 'Gnumeric Spreadsheet' }] } }),
  },
  alternatives: {
    // The cell reached by its address (Ctrl+G, Go To..., "C5", Enter, Escape) instead of the arrow keys.
    'cell reached by its address': async (context) => {
      const { computer, desktop } = context
      await computer.keypress(['ctrl', 'g'])
      await untilWindow(desktop, /^Go To/)
      await computer.type('C5\n')
      await computer.keypress(['escape'])
      await untilWindow(desktop, /Gnumeric$/)
      await computer.type('81\n')
      await gnumericRepeatExport(context)
      await untilShell(desktop, 'grep -q 81 ~/inventory.csv')
    },
  },
})

test('corrects the printer paper stock in the spreadsheet', async ({ run, shell, observed, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/inventory.csv')
  const rows = parseCsv(saved.stdout)
  const paper = rows.find((row) => row[0] === 'Printer paper')
  expect(paper?.[2], 'printer paper has a stock of 81').toBe('81')
  expect(rows, 'the rest of the file is unchanged and it is still CSV').toEqual(EXPECTED)
  await expectWrittenBy({ expect, observed, shell }, '/home/agent/inventory.csv', 'gnumeric')
})
