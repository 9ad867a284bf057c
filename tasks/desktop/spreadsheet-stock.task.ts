import { agentTest, type SolutionContext } from 'agentest'
import { gnumericRepeatExport, launch, parseCsv, untilShell } from './support.ts'

const INVENTORY = `item,location,stock
Stapler,Shelf A,12
Paper clips,Shelf A,340
Stapler refills,Shelf B,55
Printer paper,Shelf C,18
Highlighters,Shelf B,64
Sticky notes,Shelf C,120
`
const EXPECTED = parseCsv(INVENTORY).map((row) => (row[0] === 'Printer paper' ? [row[0], row[1]!, '81'] : row))

/** Moves the cursor to column C of the 1-based `row` with the keyboard alone. */
async function goToStock({ computer }: SolutionContext, row: number): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  for (let i = 1; i < row; i++) await computer.keypress(['down'])
  await computer.keypress(['right'])
  await computer.keypress(['right'])
}

const test = agentTest({
  id: 'desktop-spreadsheet-stock',
  desktop_image: 'agentest/desktop',
  category: 'spreadsheet',
  level: 'wood',
  goal: 'The spreadsheet open on screen is ~/inventory.csv. The stock of "Printer paper" in it is wrong: it should be 81. Correct it and save the file, keeping it a CSV file.',
  setup_cmd: [`cat > ~/inventory.csv <<'EOF'\n${INVENTORY}EOF`, launch('gnumeric ~/inventory.csv', 'Gnumeric$')].join('\n'),
  solution: async (context) => {
    await goToStock(context, 5)
    await context.computer.type('81\n')
    await gnumericRepeatExport(context)
    await untilShell(context.desktop, 'grep -q 81 ~/inventory.csv')
  },
  near_misses: {
    'wrong row': async (context) => {
      await goToStock(context, 4)
      await context.computer.type('81\n')
      await gnumericRepeatExport(context)
      await untilShell(context.desktop, 'grep -q 81 ~/inventory.csv')
    },
    'not saved': async (context) => {
      await goToStock(context, 5)
      await context.computer.type('81\n')
    },
  },
})

test('corrects the printer paper stock', async ({ run, shell, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/inventory.csv')
  const rows = parseCsv(saved.stdout)
  const paper = rows.find((row) => row[0] === 'Printer paper')
  expect(paper?.[2], 'printer paper has a stock of 81').toBe('81')
  expect(rows, 'the rest of the file is unchanged and it is still CSV').toEqual(EXPECTED)
})
