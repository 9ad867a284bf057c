import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { launch, launchApp } from '../../src/desktop-helpers/index.ts'

/**
 * Runs a setup line with bash, as setup_cmd runs it, in a home of its own, with an `xdotool`
 * that says the focused window is titled `title`, and apps that do nothing.
 */
function runSetup(line: string, title: string): { home: string; started: () => string } {
  const home = mkdtempSync(join(tmpdir(), 'agentest-launch-'))
  const bin = join(home, 'bin')
  execFileSync('mkdir', ['-p', bin])
  const log = join(home, 'started')
  const fake = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`)
    chmodSync(join(bin, name), 0o755)
  }
  fake('xdotool', `echo ${JSON.stringify(title)}`)
  for (const app of ['mousepad', 'gnumeric', 'galculator', 'pcmanfm', 'xterm']) fake(app, `echo "${app} $*" >> ${log}`)
  execFileSync('bash', ['-c', line], { env: { PATH: `${bin}:/usr/bin:/bin`, HOME: home }, cwd: home, timeout: 30_000 })
  // The app runs in the background: the line may return before it has said it started.
  const started = () => {
    for (let i = 0; i < 50 && !existsSync(log); i++) execFileSync('sleep', ['0.05'])
    return existsSync(log) ? execFileSync('cat', [log]).toString().trim() : ''
  }
  return { home, started }
}

describe('launch and launchApp: setup lines that wait for the app\'s window', () => {
  test('launch starts the command and returns once the focused window has the title', () => {
    const { home, started } = runSetup(launch('mousepad ~/note.txt', 'Mousepad$'), '~/note.txt - Mousepad')
    expect(started()).toBe(`mousepad ${home}/note.txt`)
  })

  test('galculator gets its settings folder, however it is launched, so its display can be read', () => {
    for (const line of [launch('galculator', '^galculator$'), launch('/usr/bin/galculator', 'galc'), launchApp('galculator')]) {
      const { home } = runSetup(line, 'galculator')
      expect(existsSync(join(home, '.config/galculator')), line).toBe(true)
    }
    expect(existsSync(join(runSetup(launch('mousepad', 'Mousepad$'), 'Mousepad').home, '.config/galculator'))).toBe(false)
  })

  test('launchApp opens the file or folder in the agent\'s home, quoted, and waits for the title it will have', () => {
    const { home, started } = runSetup(launchApp('mousepad', "~/it's a note.txt"), "it's a note.txt - Mousepad")
    expect(started()).toBe(`mousepad ${home}/it's a note.txt`)
    expect(launchApp('pcmanfm', '~/Documents/')).toContain("grep -qE -- '^Documents$'")
    expect(launchApp('pcmanfm')).toContain("grep -qE -- '^agent$'")
    const folder = runSetup(launchApp('pcmanfm'), 'agent')
    expect(folder.started()).toBe(`pcmanfm ${folder.home}`)
    expect(launchApp('xterm')).toContain("grep -qE -- '^agent@'")
  })
})
