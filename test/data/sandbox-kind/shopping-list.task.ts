import { agentTest } from 'agentest'
import './notes-kind.ts'

const test = agentTest({
  id: 'shopping-list',
  sandbox: { kind: 'notes', title: 'Groceries' },
  goal: 'Write a shopping list in the note pad: milk, eggs and bread, one per line.',
  max_steps: 10,
  solution: async ({ computer }) => {
    for (const item of ['milk', 'eggs', 'bread']) {
      await computer.type(item)
      await computer.keypress(['enter'])
    }
  },
  near_misses: {
    'bread missing': async ({ computer }) => {
      await computer.type('milk\neggs\n')
    },
  },
})

test('lists milk, eggs and bread', async ({ run, notes, expect }) => {
  await run()
  expect(notes.title).toBe('Groceries')
  expect(notes.text().trim().split('\n'), 'the three items, one per line').toEqual(['milk', 'eggs', 'bread'])
})
