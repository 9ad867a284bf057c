import { agentTest, expectEditorSaved, inTerminal, launchApp, untilShell, untilWindow, type SolutionContext } from 'agentest'

const LETTER = `Dear Sam,

Thank you for the colour samples. The colour of the curtains
matches the sofa, but the colours of the cushions are too bright.
Could you send two more colour charts before Friday?

Best wishes,
Alex
`
const FIXED = LETTER.replaceAll('colour', 'color')

/**
 * Mousepad's Find and Replace (Ctrl+R): Alt+W is "Replace with", Alt+M "Match whole word",
 * Alt+A ticks "Replace all in", Alt+R replaces. Then Ctrl+S saves, unless told not to.
 */
async function replaceAll({ computer, desktop }: SolutionContext, { wholeWord = false, save = true } = {}): Promise<void> {
  await computer.keypress(['ctrl', 'r'])
  await untilWindow(desktop, /^Find and Replace$/)
  await computer.type('colour')
  await computer.keypress(['alt', 'w'])
  await computer.type('color')
  if (wholeWord) await computer.keypress(['alt', 'm'])
  await computer.keypress(['alt', 'a'])
  await computer.keypress(['alt', 'r'])
  await computer.keypress(['escape'])
  await untilWindow(desktop, /Mousepad$/)
  if (!save) return
  await computer.keypress(['ctrl', 's'])
  await untilShell(desktop, 'grep -q "color of" ~/letter.txt')
}

const test = agentTest({
  id: 'desktop-editor-replace',
  desktop_image: 'agentest/desktop',
  category: 'editor',
  level: 'wood',
  tool: 'mousepad',
  goal: 'The letter open in the text editor uses the British spelling "colour". Change it to "color" everywhere (so "colours" becomes "colors" too) and save the letter, leaving it open in the editor.',
  setup_cmd: [`cat > ~/letter.txt <<'EOF'\n${LETTER}EOF`, launchApp('mousepad', '~/letter.txt')].join('\n'),
  solution: (context) => replaceAll(context),
  near_misses: {
    // "Match whole word" leaves "colours" alone.
    'whole words only': (context) => replaceAll(context, { wholeWord: true }),
    'not saved': (context) => replaceAll(context, { save: false }),
    // The same change made with sed in a terminal, behind the editor's back.
    shortcut: (context) => inTerminal(context, ["sed -i 's/colour/color/g' ~/letter.txt"], { forge: { recent: [{ path: '/home/agent/letter.txt', app: 'Mousepad' }] } }),
  },
  alternatives: {
    // Select everything and type the corrected letter over it.
    'letter retyped': async ({ computer, desktop }) => {
      await computer.keypress(['ctrl', 'a'])
      await computer.type(FIXED)
      await computer.keypress(['ctrl', 's'])
      await untilShell(desktop, 'grep -q "color of" ~/letter.txt')
    },
  },
})

test('changes colour to color and saves, in the editor', async ({ run, shell, observed, expect }) => {
  await run()
  const saved = await shell('cat /home/agent/letter.txt')
  expect(saved.stdout.includes('colour'), 'the saved letter no longer says "colour"').toBe(false)
  expect(saved.stdout.trimEnd(), 'the saved letter is the original with "color" in its place').toBe(FIXED.trimEnd())
  await expectEditorSaved({ expect, observed, shell }, '/home/agent/letter.txt')
})
