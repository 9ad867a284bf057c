import { agentTest } from 'agentest'
import { launch, untilShell, untilWindow } from './support.ts'

const LETTER = `Dear Sam,

Thank you for the colour samples. The colour of the curtains
matches the sofa, but the colours of the cushions are too bright.
Could you send two more colour charts before Friday?

Best wishes,
Alex
`
const FIXED = LETTER.replaceAll('colour', 'color')

const test = agentTest({
  id: 'desktop-editor-replace',
  desktop_image: 'agentest/desktop',
  category: 'editor',
  level: 'wood',
  goal: 'The letter open in the text editor uses the British spelling "colour". Change it to "color" everywhere (so "colours" becomes "colors" too) and save the letter.',
  setup_cmd: [`cat > ~/letter.txt <<'EOF'\n${LETTER}EOF`, launch('mousepad ~/letter.txt', 'Mousepad$')].join('\n'),
  solution: async ({ computer, desktop }) => {
    // Mousepad's Find and Replace: Alt+W is "Replace with", Alt+A ticks "Replace all in", Alt+R replaces.
    await computer.keypress(['ctrl', 'r'])
    await untilWindow(desktop, /^Find and Replace$/)
    await computer.type('colour')
    await computer.keypress(['alt', 'w'])
    await computer.type('color')
    await computer.keypress(['alt', 'a'])
    await computer.keypress(['alt', 'r'])
    await computer.keypress(['escape'])
    await untilWindow(desktop, /Mousepad$/)
    await computer.keypress(['ctrl', 's'])
    await untilShell(desktop, '! grep -q colour ~/letter.txt')
  },
  near_misses: {
    // "Match whole word" leaves "colours" alone.
    'whole words only': async ({ computer, desktop }) => {
      await computer.keypress(['ctrl', 'r'])
      await untilWindow(desktop, /^Find and Replace$/)
      await computer.type('colour')
      await computer.keypress(['alt', 'w'])
      await computer.type('color')
      await computer.keypress(['alt', 'm'])
      await computer.keypress(['alt', 'a'])
      await computer.keypress(['alt', 'r'])
      await computer.keypress(['escape'])
      await untilWindow(desktop, /Mousepad$/)
      await computer.keypress(['ctrl', 's'])
      await untilShell(desktop, 'grep -q "color of" ~/letter.txt')
    },
    'not saved': async ({ computer, desktop }) => {
      await computer.keypress(['ctrl', 'r'])
      await untilWindow(desktop, /^Find and Replace$/)
      await computer.type('colour')
      await computer.keypress(['alt', 'w'])
      await computer.type('color')
      await computer.keypress(['alt', 'a'])
      await computer.keypress(['alt', 'r'])
      await computer.keypress(['escape'])
    },
  },
})

test('changes colour to color and saves', async ({ run, shell, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/letter.txt')
  expect(saved.stdout.includes('colour'), 'the saved letter no longer says "colour"').toBe(false)
  expect(saved.stdout.trimEnd(), 'the saved letter is the original with "color" in its place').toBe(FIXED.trimEnd())
})
