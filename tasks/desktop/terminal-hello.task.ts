import { agentTest, launchApp, untilShell, type SolutionContext } from 'agentest'

/** Types `command` into the open terminal and waits until ~/hello.txt (or `file`) exists. */
async function inShell({ computer, desktop }: SolutionContext, command: string, file = '~/hello.txt'): Promise<void> {
  await computer.type(`${command}\n`)
  await untilShell(desktop, `test -e ${file}`)
}

const test = agentTest({
  id: 'desktop-terminal-hello',
  desktop_image: 'agentest/desktop',
  category: 'terminal',
  level: 'paper',
  goal: 'In the open terminal, create the file ~/hello.txt containing the single word hello.',
  // Waits for the shell's first prompt: keys typed while xterm starts are lost.
  setup_cmd: launchApp('xterm'),
  solution: (context) => inShell(context, 'echo hello > ~/hello.txt'),
  near_misses: {
    'two words': (context) => inShell(context, 'echo hello world > ~/hello.txt'),
    'wrong folder': (context) => inShell(context, 'echo hello > ~/Documents/hello.txt', '~/Documents/hello.txt'),
  },
  alternatives: {
    'printf without a line break': (context) => inShell(context, 'printf hello > ~/hello.txt'),
    'relative name from the home folder': (context) => inShell(context, 'cd && echo hello >hello.txt'),
  },
})

test('writes hello.txt from the terminal', async ({ run, shell, expect }) => {
  await run()
  const file = await shell('cat /home/agent/hello.txt')
  expect(file.exitCode, 'the file exists').toBe(0)
  expect(file.stdout.trim(), 'it says hello').toBe('hello')
})
