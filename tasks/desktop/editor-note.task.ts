import { agentTest, expectEditorSaved, inTerminal, launchApp, type SolutionContext } from 'agentest'

const NOTE = 'Meeting moved to 10:30'

/** Types `text` into the open note and, unless told not to, saves it with Ctrl+S. */
async function note({ computer }: SolutionContext, text: string, save = true): Promise<void> {
  await computer.type(text)
  if (save) await computer.keypress(['ctrl', 's'])
}

const test = agentTest({
  id: 'desktop-editor-note',
  desktop_image: 'agentest/desktop',
  category: 'editor',
  level: 'paper',
  tool: 'mousepad',
  goal: `The text editor has ~/note.txt open. Type "${NOTE}" into it and save the file, leaving it open in the editor.`,
  setup_cmd: ['touch ~/note.txt', launchApp('mousepad', '~/note.txt')].join('\n'),
  solution: (context) => note(context, NOTE),
  near_misses: {
    'wrong time': (context) => note(context, 'Meeting moved to 10:00'),
    'not saved': (context) => note(context, NOTE, false),
    // The note written from a terminal: the editor still holds an empty page.
    shortcut: (context) => inTerminal(context, [`echo '${NOTE}' > ~/note.txt`], { forge: { recent: [{ path: '/home/agent/note.txt', app: 'Mousepad' }] } }),
  },
  alternatives: {
    'with a line break at the end': (context) => note(context, `${NOTE}\n`),
  },
})

test('saves the note from the editor', async ({ run, shell, observed, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/note.txt')
  expect(saved.stdout.trim(), 'the saved note').toBe(NOTE)
  await expectEditorSaved({ expect, observed, shell }, '/home/agent/note.txt')
})
