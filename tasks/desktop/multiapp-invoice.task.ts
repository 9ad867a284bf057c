import { agentTest, type SolutionContext } from 'agentest'
import { launch, untilMenuOpen, untilShell, untilWindow } from './support.ts'

// 37 boxes × $12.45 = $460.65, plus 8% tax = $497.502 → $497.50.
const TOTAL = '497.50'

const setup = [
  launch('pcmanfm ~', '^agent$'),
  launch('mousepad', 'Mousepad$'),
  launch('galculator', '^galculator$'),
].join('\n')

/**
 * The whole errand, keyboard only. Calculator: Paper Mode (View menu) takes a typed formula;
 * closing it (Ctrl+Q) brings back the editor, whose Ctrl+S on a new document asks for a name;
 * closing the editor brings back the file manager, where Ctrl+Shift+N makes a folder and a file
 * is picked by typing its name, cut, and pasted inside the folder opened the same way.
 */
async function errand(context: SolutionContext, formula: string, total: string, keep: 'move' | 'copy' = 'move'): Promise<void> {
  const { computer, desktop } = context
  await computer.keypress(['alt', 'v'])
  await untilMenuOpen(desktop)
  await computer.keypress(['p'])
  await computer.type(`${formula}\n`)
  await computer.keypress(['ctrl', 'q'])
  await untilWindow(desktop, /Mousepad$/)
  await computer.type(`Total: $${total}`)
  await computer.keypress(['ctrl', 's'])
  await untilWindow(desktop, /^Save As$/)
  // Whatever the name field proposes, select all of it and type the full path over it.
  await computer.keypress(['end'])
  await computer.keypress(['shift', 'home'])
  await computer.type('/home/agent/invoice.txt\n')
  await untilShell(desktop, 'test -s ~/invoice.txt')
  await computer.keypress(['ctrl', 'q'])
  await untilWindow(desktop, /^agent$/)
  await computer.keypress(['ctrl', 'shift', 'n'])
  await untilWindow(desktop, /^Creating New Folder$/)
  await computer.type('Invoices\n')
  await untilShell(desktop, 'test -d ~/Invoices')
  await untilWindow(desktop, /^agent$/)
  await computer.type('invoice.')
  await computer.keypress(['escape'])
  await computer.keypress(['ctrl', keep === 'move' ? 'x' : 'c'])
  await computer.type('invoices\n')
  await untilWindow(desktop, /^Invoices$/)
  await computer.keypress(['ctrl', 'v'])
  await untilShell(desktop, 'test -f ~/Invoices/invoice.txt')
}

const test = agentTest({
  id: 'desktop-multiapp-invoice',
  desktop_image: 'agentest/desktop',
  category: 'multiapp',
  level: 'gold',
  goal: 'A customer ordered 37 boxes at $12.45 each, plus 8% sales tax. Work out the total with the calculator, then write it with the text editor into a new file ~/invoice.txt as the single line "Total: $<amount>" (rounded to the cent), and finally use the file manager to create a folder Invoices in my home folder and move invoice.txt into it.',
  setup_cmd: setup,
  solution: async (context) => {
    await errand(context, '37*12.45*1.08', TOTAL)
  },
  near_misses: {
    'tax left out': async (context) => {
      await errand(context, '37*12.45', '460.65')
    },
    'copied instead of moved': async (context) => {
      await errand(context, '37*12.45*1.08', TOTAL, 'copy')
    },
  },
})

test('files the invoice total in ~/Invoices', async ({ run, shell, expect }) => {
  await run()
  const invoice = await shell('cat /home/agent/Invoices/invoice.txt')
  expect(invoice.exitCode, '~/Invoices/invoice.txt exists').toBe(0)
  expect(invoice.stdout.trim(), `it says "Total: $${TOTAL}"`).toBe(`Total: $${TOTAL}`)
  const left = await shell('test -e /home/agent/invoice.txt')
  expect(left.exitCode, 'invoice.txt is no longer in the home folder').not.toBe(0)
})
