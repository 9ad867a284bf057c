import { agentTest, type SolutionContext } from 'agentest'
import { launch, untilShell } from './support.ts'

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
 */
async function cleanUp({ computer }: SolutionContext, keep: string[] = []): Promise<void> {
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
}

const test = agentTest({
  id: 'desktop-editor-todo',
  desktop_image: 'agentest/desktop',
  category: 'editor',
  level: 'bronze',
  goal: 'Clean up my to-do list, open in the text editor: delete every task that is already ticked off ([x]), add a new task "[ ] Buy printer ink" at the end of the list, and save it.',
  setup_cmd: [`cat > ~/todo.txt <<'EOF'\n${TODO}EOF`, launch('mousepad ~/todo.txt', 'Mousepad$')].join('\n'),
  solution: async (context) => {
    await cleanUp(context)
    await context.computer.keypress(['ctrl', 's'])
    await untilShell(context.desktop, 'grep -q ink ~/todo.txt')
  },
  near_misses: {
    'one ticked task kept': async (context) => {
      await cleanUp(context, ['[x] Return library books'])
      await context.computer.keypress(['ctrl', 's'])
      await untilShell(context.desktop, 'grep -q ink ~/todo.txt')
    },
    'not saved': async (context) => {
      await cleanUp(context)
    },
  },
})

test('removes the ticked tasks, adds one and saves', async ({ run, shell, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/todo.txt')
  const lines = saved.stdout.split('\n').map((line) => line.trimEnd()).filter((line) => line !== '')
  expect(lines.filter((line) => line.startsWith('[x]')), 'no ticked task is left').toEqual([])
  expect(lines, 'the open tasks keep their order and the new one comes last').toEqual(EXPECTED)
})
