import { agentTest } from 'agentest'
import { launch } from './support.ts'

// Sizes are chosen so the largest file is neither the first by name, nor the newest, nor the
// one whose name sounds biggest.
const FILES = [
  { name: 'annual-report.pdf', kb: 96, age: '3 days ago' },
  { name: 'budget-2024.ods', kb: 212, age: '20 days ago' },
  { name: 'meeting-notes.txt', kb: 4, age: '1 day ago' },
  { name: 'team-photo.jpg', kb: 180, age: '2 hours ago' },
  { name: 'very-long-letter.txt', kb: 12, age: '9 days ago' },
]
const LARGEST = 'budget-2024.ods'

const setup = [
  'cd ~/Documents',
  ...FILES.map((f) => `head -c ${f.kb * 1024} /dev/urandom > ${f.name} && touch -d '${f.age}' ${f.name}`),
  launch('pcmanfm ~/Documents', '^Documents$'),
].join('\n')

const test = agentTest({
  id: 'desktop-files-largest',
  desktop_image: 'agentest/desktop',
  category: 'files',
  level: 'paper',
  goal: 'Which file in the Documents folder, open in the file manager, takes up the most space? Tell me its name.',
  setup_cmd: setup,
  solution: async ({ computer, desktop }) => {
    // The detailed list view shows sizes; the answer is read from the folder itself.
    await computer.keypress(['ctrl', '4'])
    const largest = await desktop.shell('ls -S /home/agent/Documents | head -n 1')
    return largest.stdout.toString().trim()
  },
  near_misses: {
    'newest file': async ({ computer }) => {
      await computer.keypress(['ctrl', '4'])
      return 'team-photo.jpg'
    },
    'biggest sounding name': async () => 'very-long-letter.txt',
  },
})

test('names the largest file', async ({ run, shell, expect }) => {
  const { answer } = await run()
  const listing = await shell('ls -S /home/agent/Documents')
  const [largest, ...others] = listing.stdout.trim().split('\n')
  expect(largest, 'the folder still holds the prepared files').toBe(LARGEST)
  const said = (answer ?? '').toLowerCase()
  const stem = (name: string) => name.replace(/\.[^.]+$/, '')
  expect(said.includes(stem(LARGEST)), `the answer names ${LARGEST}`).toBe(true)
  expect(others.filter((name) => said.includes(stem(name))), 'the answer names no other file').toEqual([])
})
