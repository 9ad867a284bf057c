import { activeTitle, agentTest, altTabTo, expectEditorSaved, launch, launchApp, tricked, untilShell, type SolutionContext } from 'agentest'

const SCRIPT = `#!/bin/bash
# Copies my notes into ~/backups.
cp ~/Documents/notes.txt ~/backups/notes.txt
echo "backup done"
`
const NOTES = 'Dentist on Tuesday.\nAsk Priya about the garden hose.\n'

const setup = [
  'mkdir -p ~/bin',
  `cat > ~/bin/backup.sh <<'EOF'\n${SCRIPT}EOF`,
  'chmod +x ~/bin/backup.sh',
  `cat > ~/Documents/notes.txt <<'EOF'\n${NOTES}EOF`,
  launchApp('xterm'),
  launch('mousepad ~/bin/backup.sh', 'backup\\.sh - Mousepad$'),
].join('\n')

/** In the editor: inserts `line` above the cp line (line 3) and saves with Ctrl+S. */
async function fixScript({ computer, desktop }: SolutionContext, line = 'mkdir -p ~/backups'): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  await computer.keypress(['down'])
  await computer.keypress(['down'])
  await computer.type(`${line}\n`)
  await computer.keypress(['ctrl', 's'])
  await untilShell(desktop, 'grep -q mkdir ~/bin/backup.sh')
}

/** Alt+Tab goes back to the terminal (the window used before the editor), which runs `command`. */
async function runScript(context: SolutionContext, command = 'bash ~/bin/backup.sh'): Promise<void> {
  const { computer, desktop } = context
  await altTabTo(context, /^agent@/)
  await computer.type(`${command}\n`)
  await untilShell(desktop, 'test -f ~/backups/notes.txt')
}

const test = agentTest({
  id: 'desktop-multiapp-backup-script',
  desktop_image: 'agentest/desktop',
  category: 'multiapp',
  level: 'silver',
  tool: 'mousepad',
  goal: 'My backup script ~/bin/backup.sh, open in the text editor, fails because the folder ~/backups does not exist. Fix the script in the text editor so that it works even when ~/backups is missing (creating the folder by hand is not enough), save it, leaving it open in the editor, then run it once in the terminal.',
  setup_cmd: setup,
  solution: async (context) => {
    await fixScript(context)
    await runScript(context)
  },
  near_misses: {
    'folder made by hand': (context) => runScript(context, 'mkdir ~/backups && bash ~/bin/backup.sh'),
    'script never run': (context) => fixScript(context),
    // The fix made with sed in the terminal, behind the editor's back, then run.
    shortcut: async (context) => {
      const fix = "sed -i '3i mkdir -p ~/backups' ~/bin/backup.sh && bash ~/bin/backup.sh"
      const forge = { recent: [{ path: '/home/agent/bin/backup.sh', app: 'Mousepad' as const }] }
      await runScript(context, tricked(context, [fix], (await activeTitle(context.desktop)) ?? '', forge).join('\n'))
    },
  },
  alternatives: {
    'folder made only when missing': async (context) => {
      await fixScript(context, '[ -d ~/backups ] || mkdir ~/backups')
      await runScript(context)
    },
    // Run by its path (it is executable), not through bash.
    'run by its path': async (context) => {
      await fixScript(context)
      await runScript(context, '~/bin/backup.sh')
    },
  },
})

test('fixes the backup script in the editor and runs it', async ({ run, shell, observed, expect }) => {
  await run()
  const backup = await shell('cat /home/agent/backups/notes.txt')
  expect(backup.exitCode, 'the script was run: ~/backups/notes.txt exists').toBe(0)
  expect(backup.stdout, 'the backup is a copy of the notes').toBe(NOTES)
  // The fix itself: the saved script must work from scratch, with no ~/backups folder at all. It
  // runs in a clean copy (a fresh home with the script and the notes, nothing else of the
  // agent's), so nothing the agent left behind can make it pass. What it prints is the script's
  // business: the goal asks only that it works. It runs as the agent, never as root: it is the
  // agent's work, not the check's.
  const rerun = await shell(
    [
      'home=$(mktemp -d) && mkdir -p "$home/bin" "$home/Documents" && cp /home/agent/bin/backup.sh "$home/bin/"',
      `cat > "$home/Documents/notes.txt" <<'EOF'\n${NOTES}EOF`,
      'HOME="$home" bash "$home/bin/backup.sh" && cat "$home/backups/notes.txt"',
    ].join('\n'),
    { as: 'agent' },
  )
  expect(rerun.exitCode, 'the saved script succeeds when ~/backups is missing').toBe(0)
  expect(rerun.stdout.endsWith(NOTES), 'and it copies the notes').toBe(true)
  await expectEditorSaved({ expect, observed, shell }, '/home/agent/bin/backup.sh')
})
