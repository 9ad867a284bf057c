import { agentTest } from 'agentest'
import { launch } from './support.ts'

const test = agentTest({
  id: 'desktop-editor-note',
  desktop_image: 'agentest/desktop',
  category: 'editor',
  level: 'paper',
  goal: 'The text editor has ~/note.txt open. Type "Meeting moved to 10:30" into it and save the file.',
  setup_cmd: ['touch ~/note.txt', launch('mousepad ~/note.txt', 'Mousepad$')].join('\n'),
  solution: async ({ computer }) => {
    await computer.type('Meeting moved to 10:30')
    await computer.keypress(['ctrl', 's'])
  },
})

test('saves the note', async ({ run, shell, expect }) => {
  await run()
  const note = await shell('cat /home/agent/note.txt')
  expect(note.stdout.trim(), 'the saved note').toBe('Meeting moved to 10:30')
})
