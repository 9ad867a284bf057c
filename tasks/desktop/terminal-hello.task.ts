import { agentTest } from 'agentest'

const test = agentTest({
  id: 'desktop-terminal-hello',
  desktop_image: 'agentest/desktop',
  category: 'terminal',
  level: 'paper',
  goal: 'In the open terminal, create the file ~/hello.txt containing the single word hello.',
  setup_cmd: 'xterm &',
  solution: async ({ computer }) => {
    await computer.type('echo hello > ~/hello.txt\n')
  },
})

test('writes hello.txt from the terminal', async ({ run, shell, expect }) => {
  await run()
  const file = await shell('cat ~/hello.txt')
  expect(file.exitCode, 'the file exists').toBe(0)
  expect(file.stdout.trim(), 'it says hello').toBe('hello')
})
