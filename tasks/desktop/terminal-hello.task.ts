import { agentTest } from 'agentest'
import { launch } from './support.ts'

const test = agentTest({
  id: 'desktop-terminal-hello',
  desktop_image: 'agentest/desktop',
  category: 'terminal',
  level: 'paper',
  goal: 'In the open terminal, create the file ~/hello.txt containing the single word hello.',
  // Waits for the shell's first prompt: keys typed while xterm starts are lost.
  setup_cmd: launch('xterm', '^agent@'),
  solution: async ({ computer }) => {
    await computer.type('echo hello > ~/hello.txt\n')
  },
})

test('writes hello.txt from the terminal', async ({ run, shell, expect }) => {
  await run()
  const file = await shell('cat /home/agent/hello.txt')
  expect(file.exitCode, 'the file exists').toBe(0)
  expect(file.stdout.trim(), 'it says hello').toBe('hello')
})
