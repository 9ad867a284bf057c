import { agentTest, launchApp, untilShell, type SolutionContext } from 'agentest'

/**
 * Log lines are "<time> <LEVEL> <message>". Only the level counts: some INFO and WARN messages
 * mention "error" or even "ERROR" in their text, and notes.txt in the same folder is not a log.
 */
const LOGS: Record<string, Array<[string, string]>> = {
  'api.log': [
    ['INFO', 'server started on :8080'],
    ['ERROR', 'upstream timeout for /orders'],
    ['WARN', 'slow response, previous ERROR cleared'],
    ['ERROR', 'upstream timeout for /cart'],
    ['INFO', 'GET /health 200'],
    ['ERROR', 'database connection refused'],
  ],
  'auth.log': [
    ['INFO', 'login ok for ana'],
    ['ERROR', 'invalid token for user 42'],
    ['INFO', 'retrying after error in the token cache'],
  ],
  'billing.log': [
    ['ERROR', 'card declined for order 1001'],
    ['ERROR', 'card declined for order 1002'],
    ['INFO', 'invoice 77 sent'],
    ['ERROR', 'currency service unavailable'],
    ['WARN', 'ERROR rate above 1%'],
    ['ERROR', 'card declined for order 1009'],
    ['ERROR', 'refund failed for order 988'],
  ],
  'search.log': [
    ['INFO', 'index rebuilt'],
    ['WARN', 'query took 2.3s'],
  ],
}
const COUNTS = Object.entries(LOGS).map(([file, lines]) => ({ file, errors: lines.filter(([level]) => level === 'ERROR').length }))
// billing.log: 5, api.log: 3, auth.log: 1, search.log: 0
const EXPECTED = [...COUNTS].sort((a, b) => b.errors - a.errors).map(({ file, errors }) => `${file}: ${errors}`)

const setup = [
  'mkdir -p ~/logs && cd ~/logs',
  ...Object.entries(LOGS).map(
    ([file, lines]) =>
      `cat > ${file} <<'EOF'\n${lines.map(([level, message], i) => `2024-05-01T10:${String(i).padStart(2, '0')}:00 ${level} ${message}`).join('\n')}\nEOF`,
  ),
  "printf 'ERROR ERROR ERROR: remember to rotate the logs\\n' > notes.txt",
  launchApp('xterm'),
].join('\n')

/**
 * One pipeline typed into the terminal: for each log, `count` (a grep -c pattern; by default a
 * line whose second field is ERROR), then `order`, into ~/error-report.txt.
 */
async function report(
  { computer, desktop }: SolutionContext,
  { count = "'^[^ ]* ERROR '", order = ' | sort -t: -k2,2nr' } = {},
): Promise<void> {
  await computer.type(`cd ~/logs && for f in *.log; do echo "$f: $(grep -c ${count} "$f")"; done${order} > ~/error-report.txt\n`)
  await untilShell(desktop, 'test -s ~/error-report.txt')
}

const test = agentTest({
  id: 'desktop-terminal-errors',
  desktop_image: 'agentest/desktop',
  category: 'terminal',
  level: 'silver',
  goal: 'The folder ~/logs has one log file (*.log) per service; each line is a time, a level (INFO, WARN or ERROR) and a message. Using the terminal, create ~/error-report.txt with one line per log file in the form "api.log: 3", giving the number of lines whose level is ERROR, with the file that has the most errors first.',
  setup_cmd: setup,
  solution: (context) => report(context),
  near_misses: {
    'every mention of error counted': (context) => report(context, { count: 'ERROR' }),
    'alphabetical order': (context) => report(context, { order: '' }),
  },
  alternatives: {
    // awk reads the level field itself; sort -rn on the count after the colon.
    'counted with awk': async ({ computer, desktop }) => {
      await computer.type(
        `cd ~/logs && for f in *.log; do awk -v f="$f" '$2 == "ERROR" { n++ } END { print f ": " n+0 }' "$f"; done | sort -k2 -rn > ~/error-report.txt\n`,
      )
      await untilShell(desktop, 'test -s ~/error-report.txt')
    },
  },
})

test('writes the per-file error counts, most first', async ({ run, shell, expect }) => {
  await run()
  const report = await shell('cat /home/agent/error-report.txt')
  expect(report.exitCode, 'error-report.txt exists').toBe(0)
  const lines = report.stdout.split('\n').map((line) => line.trim()).filter((line) => line !== '')
  expect(lines, 'one "file: count" line per log, most errors first').toEqual(EXPECTED)
})
