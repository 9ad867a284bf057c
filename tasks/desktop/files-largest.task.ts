import { agentTest, expectAnswer, launchApp, type SolutionContext } from 'agentest'

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
// A file is named by its name with or without the extension.
const stem = (name: string) => name.replace(/\.[^.]+$/, '')

const setup = [
  'cd ~/Documents',
  ...FILES.map((f) => `head -c ${f.kb * 1024} /dev/urandom > ${f.name} && touch -d '${f.age}' ${f.name}`),
  launchApp('pcmanfm', '~/Documents'),
].join('\n')

/** Switches the file manager to its detailed list (Ctrl+4), which shows sizes, and answers `name`. */
async function answer({ computer }: SolutionContext, name: string): Promise<string> {
  await computer.keypress(['ctrl', '4'])
  return name
}

const test = agentTest({
  id: 'desktop-files-largest',
  desktop_image: 'agentest/desktop',
  category: 'files',
  level: 'paper',
  challenge_type: 'retrieval',
  goal: 'Which file in the Documents folder, open in the file manager, takes up the most space? Tell me its name.',
  setup_cmd: setup,
  solution: async (context) => {
    // The answer is read from the folder itself, as the detailed list shows it.
    const largest = await context.desktop.shell('ls -S /home/agent/Documents | head -n 1')
    return answer(context, largest.stdout.toString().trim())
  },
  near_misses: {
    'newest file': (context) => answer(context, 'team-photo.jpg'),
    'biggest sounding name': (context) => answer(context, 'very-long-letter.txt'),
  },
  alternatives: {
    'name without extension and its size': (context) => answer(context, 'It is budget-2024 (212 KB), the spreadsheet.'),
  },
})

test('names the largest file', async ({ run, shell, expect }) => {
  const { answer } = await run()
  const listing = await shell('ls -S /home/agent/Documents')
  expect(listing.stdout.trim().split('\n')[0], 'the folder still holds the prepared files').toBe(LARGEST)
  expectAnswer(expect, answer, {
    names: stem(LARGEST),
    notNaming: FILES.filter((f) => f.name !== LARGEST).map((f) => stem(f.name)),
    what: `the largest file, ${LARGEST}`,
  })
})
