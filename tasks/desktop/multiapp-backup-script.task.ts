import { agentTest, type SolutionContext } from 'agentest'
import { launch, untilShell, untilWindow } from './support.ts'

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
  launch('xterm', '^agent@'),
  launch('mousepad ~/bin/backup.sh', 'backup\\.sh - Mousepad$'),
].join('\n')

/** Inserts `mkdir -p ~/backups` above the cp line (line 3) and saves with Ctrl+S. */
async function fixScript({ computer, desktop }: SolutionContext): Promise<void> {
  await computer.keypress(['ctrl', 'home'])
  await computer.keypress(['down'])
  await computer.keypress(['down'])
  await computer.type('mkdir -p ~/backups\n')
  await computer.keypress(['ctrl', 's'])
  await untilShell(desktop, 'grep -q mkdir ~/bin/backup.sh')
}

/** Alt+Tab goes back to the terminal (the window used before the editor), which runs the script. */
async function runScript({ computer, desktop }: SolutionContext, command = 'bash ~/bin/backup.sh'): Promise<void> {
  await computer.keypress(['alt', 'tab'])
  await untilWindow(desktop, /^agent@/)
  await computer.type(`${command}\n`)
}

const test = agentTest({
  id: 'desktop-multiapp-backup-script',
  desktop_image: 'agentest/desktop',
  category: 'multiapp',
  level: 'silver',
  goal: 'My backup script ~/bin/backup.sh, open in the text editor, fails because the folder ~/backups does not exist. Fix the script so that it works even when ~/backups is missing (creating the folder by hand is not enough), save it, then run it once in the terminal.',
  setup_cmd: setup,
  solution: async (context) => {
    await fixScript(context)
    await runScript(context)
    await untilShell(context.desktop, 'test -f ~/backups/notes.txt')
  },
  near_misses: {
    'folder made by hand': async (context) => {
      await runScript(context, 'mkdir ~/backups && bash ~/bin/backup.sh')
      await untilShell(context.desktop, 'test -f ~/backups/notes.txt')
    },
    'script never run': async (context) => {
      await fixScript(context)
    },
  },
})

test('fixes the backup script and runs it', async ({ run, shell, expect }) => {
  await run()
  const backup = await shell('cat /home/agent/backups/notes.txt')
  expect(backup.exitCode, 'the script was run: ~/backups/notes.txt exists').toBe(0)
  expect(backup.stdout, 'the backup is a copy of the notes').toBe(NOTES)
  // The fix itself: the saved script must work from scratch, with no ~/backups folder at all.
  // The agent's script runs as the agent, never as root: it is the agent's work, not the check's.
  const rerun = await shell('rm -rf ~/backups && bash ~/bin/backup.sh && cat ~/backups/notes.txt', { as: 'agent' })
  expect(rerun.exitCode, 'the saved script succeeds when ~/backups is missing').toBe(0)
  expect(rerun.stdout, 'and it still copies the notes and reports it').toBe(`backup done\n${NOTES}`)
})
