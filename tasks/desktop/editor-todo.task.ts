import { agentTest, expectEditorSaved, inTerminal, launchApp, untilShell, type SolutionContext } from 'agentest'

const TODO = `[ ] Book dentist appointment
[x] Pay electricity bill
[ ] Renew passport
[x] Return library books
[ ] Call the plumber
[x] Send birthday card to Ana
`
const EXPECTED = ['[ ] Book dentist appointment', '[ ] Renew passport', '[ ] Call the plumber', '[ ] Buy printer ink']

/**
 * Deletes the ticked lines with the keyboard: from the top, Down to the line, Shift+Down selects
 * it whole, Delete removes it (the next line moves up under the cursor). `keep` skips lines.
 * Then adds the new task at the end and, unless told not to, saves.
 */
async function cleanUp({ computer, desktop }: SolutionContext, { keep = [] as string[], save = true } = {}): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  for (const line of TODO.trimEnd().split('\n')) {
    if (line.startsWith('[x]') && !keep.includes(line)) {
      await computer.keypress(['shift', 'down'])
      await computer.keypress(['delete'])
    } else {
      await computer.keypress(['down'])
    }
  }
  await computer.keypress(['ctrl', 'end'])
  await computer.type('[ ] Buy printer ink\n')
  if (!save) return
  await computer.keypress(['ctrl', 's'])
  await untilShell(desktop, 'grep -q ink ~/todo.txt')
}

const test = agentTest({
  id: 'desktop-editor-todo',
  desktop_image: 'agentest/desktop',
  category: 'editor',
  level: 'bronze',
  tool: 'mousepad',
  goal: 'Clean up my to-do list, open in the text editor: delete every task that is already ticked off ([x]), add a new task "[ ] Buy printer ink" at the end of the list, and save it, leaving it open in the editor.',
  setup_cmd: [`cat > ~/todo.txt <<'EOF'\n${TODO}EOF`, launchApp('mousepad', '~/todo.txt')].join('\n'),
  solution: (context) => cleanUp(context),
  near_misses: {
    'one ticked task kept': (context) => cleanUp(context, { keep: ['[x] Return library books'] }),
    'not saved': (context) => cleanUp(context, { save: false }),
    // The list filtered with grep in a terminal: the editor still shows the old one.
    shortcut: (context) =>
      inTerminal(context, ["grep -v '^\\[x\\]' ~/todo.txt > /tmp/todo && echo '[ ] Buy printer ink' >> /tmp/todo && cat /tmp/todo > ~/todo.txt"], {
        forge: { recent: [{ path: '/home/agent/todo.txt', app: 'Mousepad' }] },
      }),
  },
  alternatives: {
    // Select everything and type the cleaned-up list over it.
    'list retyped': async ({ computer, desktop }) => {
      await computer.keypress(['ctrl', 'a'])
      await computer.type(`${EXPECTED.join('\n')}\n`)
      await computer.keypress(['ctrl', 's'])
      await untilShell(desktop, 'grep -q ink ~/todo.txt')
    },
  },
})

test('removes the ticked tasks, adds one and saves, in the editor', async ({ run, shell, observed, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/todo.txt')
  const lines = saved.stdout.split('\n').map((line) => line.trimEnd()).filter((line) => line !== '')
  expect(lines.filter((line) => line.startsWith('[x]')), 'no ticked task is left').toEqual([])
  expect(lines, 'the open tasks keep their order and the new one comes last').toEqual(EXPECTED)
  await expectEditorSaved({ expect, observed, shell }, '/home/agent/todo.txt')
})
