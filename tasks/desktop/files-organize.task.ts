import { agentTest, expectChangedOnlyBy, inTerminal, launchApp, takeInto, untilShell, untilWindow, type SolutionContext } from 'agentest'

const IMAGES = ['beach.jpg', 'birthday.png', 'cat.jpg', 'sunset.jpeg']
const OTHERS = ['budget.txt', 'invoice.pdf', 'notes.txt']

const setup = [
  'cd ~/Desktop',
  ...IMAGES.map((name, i) => `convert -size 64x48 xc:'#${['3a7bd5', 'f5a623', '7ed321', 'd0021b'][i]}' ${name}`),
  "printf 'rent 900\\nfood 300\\n' > budget.txt",
  "printf '%%PDF-1.4\\n%%%%EOF\\n' > invoice.pdf",
  "printf 'call mum\\n' > notes.txt",
  launchApp('pcmanfm', '~/Desktop'),
].join('\n')

/** Creates ~/Desktop/Pictures with the file manager's New Folder dialog. */
async function newFolder({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.keypress(['ctrl', 'shift', 'n'])
  await untilWindow(desktop, /^Creating New Folder$/)
  await computer.type('Pictures\n')
  await untilShell(desktop, 'test -d ~/Desktop/Pictures')
  await untilWindow(desktop, /^Desktop$/)
}

/**
 * Moves one file into Pictures: select it by typing its name (type-ahead), cut, open Pictures
 * the same way, paste, and go back up with Alt+Up. With `copy`, copies instead.
 */
async function moveFile(context: SolutionContext, name: string, copy = false): Promise<void> {
  const { computer, desktop } = context
  await takeInto(context, name, 'pictures', /^Pictures$/, copy)
  await computer.keypress(['ctrl', 'v'])
  await untilShell(desktop, `test -f ~/Desktop/Pictures/${name}`)
  await computer.keypress(['alt', 'up'])
  await untilWindow(desktop, /^Desktop$/)
}

/** The whole job in the file manager: the folder, then each of `files` moved (or copied) into it. */
async function organize(context: SolutionContext, files: readonly string[] = IMAGES, copy = false): Promise<void> {
  await newFolder(context)
  for (const name of files) await moveFile(context, name, copy)
}

const test = agentTest({
  id: 'desktop-files-organize',
  desktop_image: 'agentest/desktop',
  category: 'files',
  level: 'bronze',
  tool: 'pcmanfm',
  goal: 'Using the file manager, create a folder named "Pictures" on the Desktop and move all the image files from the Desktop into it. Leave the other files where they are.',
  setup_cmd: setup,
  solution: (context) => organize(context),
  near_misses: {
    'jpeg left behind': (context) => organize(context, IMAGES.filter((n) => !n.endsWith('.jpeg'))),
    'copied instead of moved': (context) => organize(context, IMAGES, true),
    'pdf moved too': (context) => organize(context, [...IMAGES, 'invoice.pdf']),
    // The file manager's own terminal (F4) does it in one line: the end state is right.
    shortcut: (context) => inTerminal(context, ['mkdir Pictures && mv *.jpg *.jpeg *.png Pictures/'], { open: 'f4' }),
  },
  alternatives: {
    // The images in another order, and the folder entered from the location bar (Ctrl+L).
    'folder opened from the location bar': async (context) => {
      const { computer, desktop } = context
      await newFolder(context)
      for (const name of [...IMAGES].reverse()) {
        await computer.type(name)
        await computer.keypress(['escape'])
        await computer.keypress(['ctrl', 'x'])
        await computer.keypress(['ctrl', 'l'])
        await computer.type('/home/agent/Desktop/Pictures\n')
        await untilWindow(desktop, /^Pictures$/)
        await computer.keypress(['ctrl', 'v'])
        await untilShell(desktop, `test -f ~/Desktop/Pictures/${name}`)
        await computer.keypress(['alt', 'left'])
        await untilWindow(desktop, /^Desktop$/)
      }
    },
  },
})

test('moves the images into Desktop/Pictures with the file manager', async ({ run, shell, observed, expect, judge }) => {
  await run()
  const pictures = await shell('ls -A /home/agent/Desktop/Pictures')
  expect(pictures.exitCode, 'the Pictures folder exists').toBe(0)
  expect(pictures.stdout.trim().split('\n').sort(), 'it holds exactly the four images').toEqual([...IMAGES].sort())
  const desktop = await shell('ls -A /home/agent/Desktop')
  expect(desktop.stdout.trim().split('\n').sort(), 'the Desktop keeps only the other files and the folder').toEqual(
    ['Pictures', ...OTHERS].sort(),
  )
  // pcmanfm keeps no record of what it moved; the terminal it opens (F4) keeps its history.
  await expectChangedOnlyBy({ expect, observed, shell }, ['pcmanfm'], 'the folder was made and the images moved')
  // OSUniverse judges tasks like this by their flow: the goal asks for the file manager, not a shell.
  await expect(judge, 'done in the file manager').toFollowFlow(
    'works in the file manager window: creates a Pictures folder on the Desktop and moves the four images into it',
  )
})
