import { agentTest } from 'agentest'
import { launch, untilShell } from './support.ts'

const CONFIG = `[server]
host = 127.0.0.1
port = 8080
workers = 4

[metrics]
port = 8081
enabled = true

[logging]
level = info
`
// Only the server's port changes; the metrics port (8081) stays.
const UPDATED = CONFIG.replace('port = 8080', 'port = 9090')

const test = agentTest({
  id: 'desktop-terminal-config',
  desktop_image: 'agentest/desktop',
  category: 'terminal',
  level: 'wood',
  goal: 'Using the terminal, first make a backup copy of ~/app/config.ini named ~/app/config.ini.bak, then change the server port in ~/app/config.ini from 8080 to 9090. Leave everything else as it is.',
  setup_cmd: ['mkdir -p ~/app', `cat > ~/app/config.ini <<'EOF'\n${CONFIG}EOF`, launch('xterm', '^agent@')].join('\n'),
  solution: async ({ computer, desktop }) => {
    await computer.type("cp ~/app/config.ini ~/app/config.ini.bak && sed -i 's/^port = 8080$/port = 9090/' ~/app/config.ini\n")
    await untilShell(desktop, 'grep -q "port = 9090" ~/app/config.ini')
  },
  near_misses: {
    'no backup': async ({ computer, desktop }) => {
      await computer.type("sed -i 's/^port = 8080$/port = 9090/' ~/app/config.ini\n")
      await untilShell(desktop, 'grep -q "port = 9090" ~/app/config.ini')
    },
    'backup taken after the edit': async ({ computer, desktop }) => {
      await computer.type("sed -i 's/^port = 8080$/port = 9090/' ~/app/config.ini && cp ~/app/config.ini ~/app/config.ini.bak\n")
      await untilShell(desktop, 'test -f ~/app/config.ini.bak')
    },
    'every port changed': async ({ computer, desktop }) => {
      await computer.type("cp ~/app/config.ini ~/app/config.ini.bak && sed -i 's/^port = .*/port = 9090/' ~/app/config.ini\n")
      await untilShell(desktop, 'grep -q "port = 9090" ~/app/config.ini')
    },
  },
})

test('backs up the config and changes the port', async ({ run, shell, expect }) => {
  await run()
  const backup = await shell('cat /home/agent/app/config.ini.bak')
  expect(backup.exitCode, 'config.ini.bak exists').toBe(0)
  expect(backup.stdout, 'the backup is the original config').toBe(CONFIG)
  const config = await shell('cat /home/agent/app/config.ini')
  expect(config.stdout, 'config.ini has the server on port 9090 and nothing else changed').toBe(UPDATED)
})
