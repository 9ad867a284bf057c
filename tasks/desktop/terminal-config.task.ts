import { agentTest, launchApp, untilShell, type SolutionContext } from 'agentest'

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

const BACKUP = 'cp ~/app/config.ini ~/app/config.ini.bak'
/** The edit: sed on the lines matching `line` (by default the server's port line only). */
const edit = (line = '^port = 8080$') => `sed -i 's/${line}/port = 9090/' ~/app/config.ini`

/** Types the `commands` joined by && into the open terminal and waits until `done` holds. */
async function inShell({ computer, desktop }: SolutionContext, commands: string[], done = 'test -f ~/app/config.ini.bak && grep -q "port = 9090" ~/app/config.ini'): Promise<void> {
  await computer.type(`${commands.join(' && ')}\n`)
  await untilShell(desktop, done)
}

const test = agentTest({
  id: 'desktop-terminal-config',
  desktop_image: 'agentest/desktop',
  category: 'terminal',
  level: 'wood',
  goal: 'Using the terminal, first make a backup copy of ~/app/config.ini named ~/app/config.ini.bak, then change the server port in ~/app/config.ini from 8080 to 9090. Leave everything else as it is.',
  setup_cmd: ['mkdir -p ~/app', `cat > ~/app/config.ini <<'EOF'\n${CONFIG}EOF`, launchApp('xterm')].join('\n'),
  solution: (context) => inShell(context, [BACKUP, edit()]),
  near_misses: {
    'no backup': (context) => inShell(context, [edit()], 'grep -q "port = 9090" ~/app/config.ini'),
    'backup taken after the edit': (context) => inShell(context, [edit(), BACKUP]),
    'every port changed': (context) => inShell(context, [BACKUP, edit('^port = .*')]),
  },
  alternatives: {
    // sed keeps the original as config.ini.bak itself, before it writes the change.
    'backup made by sed': (context) => inShell(context, [edit().replace('sed -i ', 'sed -i.bak ')]),
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
