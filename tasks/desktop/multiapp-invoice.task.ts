import { agentTest, expectCalculatorShows, expectChangedOnlyBy, expectWrittenBy, inTerminal, launchApp, paperMode, saveAs, takeInto, untilShell, untilWindow, type SolutionContext } from 'agentest'
import { calculate } from './support.ts'

// 37 boxes × $12.45 = $460.65, plus 8% tax = $497.502 → $497.50.
const TOTAL = 37 * 12.45 * 1.08
const LINE = `Total: $${TOTAL.toFixed(2)}`

const setup = [launchApp('pcmanfm'), launchApp('mousepad'), launchApp('galculator')].join('\n')

/**
 * The whole errand, keyboard only. Calculator: `formula` on its keypad (or, with `paper`, on its
 * paper); closing it (Ctrl+Q) brings back the editor, whose Ctrl+S on a new document asks for a
 * name; closing the editor brings back the file manager, where Ctrl+Shift+N makes a folder and a
 * file is picked by typing its name, cut (or with `keep: 'copy'`, copied), and pasted inside the
 * folder opened the same way.
 */
async function errand(
  context: SolutionContext,
  { formula = '37*12.45*1.08', line = LINE, keep = 'move' as 'move' | 'copy', paper = false } = {},
): Promise<void> {
  const { computer, desktop } = context
  if (paper) {
    await paperMode(context)
    await computer.type(`${formula}\n`)
  } else {
    await calculate(context, `${formula}\n`)
  }
  await computer.keypress(['ctrl', 'q'])
  await untilWindow(desktop, /Mousepad$/)
  await computer.type(line)
  await computer.keypress(['ctrl', 's'])
  await untilWindow(desktop, /^Save As$/)
  await saveAs(context, '/home/agent/invoice.txt')
  await computer.keypress(['ctrl', 'q'])
  await untilWindow(desktop, /^agent$/)
  await computer.keypress(['ctrl', 'shift', 'n'])
  await untilWindow(desktop, /^Creating New Folder$/)
  await computer.type('Invoices\n')
  await untilShell(desktop, 'test -d ~/Invoices')
  await untilWindow(desktop, /^agent$/)
  await takeInto(context, 'invoice.', 'invoices', /^Invoices$/, keep === 'copy')
  await computer.keypress(['ctrl', 'v'])
  await untilShell(desktop, 'test -f ~/Invoices/invoice.txt')
}

const test = agentTest({
  id: 'desktop-multiapp-invoice',
  desktop_image: 'agentest/desktop',
  category: 'multiapp',
  level: 'gold',
  tool: 'galculator, mousepad and pcmanfm',
  goal: 'A customer ordered 37 boxes at $12.45 each, plus 8% sales tax. Work out the total with the calculator, then write it with the text editor into a new file ~/invoice.txt as the single line "Total: $<amount>" (rounded to the cent), and finally use the file manager to create a folder Invoices in my home folder and move invoice.txt into it.',
  setup_cmd: setup,
  solution: (context) => errand(context),
  near_misses: {
    'tax left out': (context) => errand(context, { formula: '37*12.45', line: 'Total: $460.65' }),
    'copied instead of moved': (context) => errand(context, { keep: 'copy' }),
    // Everything from a terminal: the right file in the right place, and no app used.
    shortcut: (context) => inTerminal(context, [`mkdir ~/Invoices && echo '${LINE}' > ~/Invoices/invoice.txt`], {
        forge: { calculator: TOTAL, recent: [{ path: '/home/agent/invoice.txt', app: 'Mousepad' }] },
      }),
  },
  alternatives: {
    // The calculator's paper mode takes the formula as a line of text.
    'total worked out on paper mode': (context) => errand(context, { paper: true }),
  },
})

test('files the invoice total in ~/Invoices, with the three apps', async ({ run, shell, observed, expect }) => {
  await run()
  const invoice = await shell('cat /home/agent/Invoices/invoice.txt')
  expect(invoice.exitCode, '~/Invoices/invoice.txt exists').toBe(0)
  expect(invoice.stdout.trim(), `it says "${LINE}"`).toBe(LINE)
  const left = await shell('test -e /home/agent/invoice.txt')
  expect(left.exitCode, 'invoice.txt is no longer in the home folder').not.toBe(0)
  // Each app the goal names, by what it leaves behind: the calculator's last result, the
  // editor's entry for the file it saved, and no terminal command doing the file manager's part.
  await expectCalculatorShows({ expect, observed, shell }, TOTAL, { tolerance: 0.01 })
  await expectWrittenBy({ expect, observed, shell }, '/home/agent/invoice.txt', 'mousepad', { now: '/home/agent/Invoices/invoice.txt' })
  await expectChangedOnlyBy({ expect, observed, shell }, ['mousepad', 'pcmanfm'], 'the folder was made and the invoice moved')
})
