import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { imageCapabilities, type ImageCapabilities } from '../../src/osuniverse/capabilities.ts'
import { internetAllowed, needsInternet } from '../../src/osuniverse/internet.ts'
import { loadCases } from '../../src/osuniverse/load.ts'
import { installsAsked, unmetNeeds } from '../../src/osuniverse/needs.ts'

/** A bare image: a terminal and GIMP, one program, one package to install, one the harness runs. */
const BARE: ImageCapabilities = {
  apps: ['terminal', 'gimp'],
  features: [],
  commands: ['xterm'],
  packages: { preinstalled: ['xdotool', 'gimp'], installable: { htop: { debs: ['htop'], programs: ['htop'] } } },
  harness_tools: ['xdotool'],
}
const check = [{ type: 'returned_result' as const, value: 'ok' }]
const needs = (task: string, setup_cmd: string | null = null, checks: Parameters<typeof unmetNeeds>[0]['checks'] = check) => unmetNeeds({ task, setup_cmd, checks }, BARE)

describe('what a case needs of its desktop', () => {
  test('each unmet need is named with where the case says it; met ones are not', () => {
    expect(needs('Open the terminal. Install htop.')).toEqual([])
    expect(needs('Open LibreOffice Impress from the Applications menu.')).toEqual(['LibreOffice Impress (its task names it)', 'the Applications menu (its task names it)'])
    expect(needs('Tell me the date.', null, [{ type: 'returned_result', value: 'The date visible in the top right corner of the screen.' }])).toEqual(['a clock on the screen (its checks read it)'])
    expect(needs('Make a table.', 'sudo apk add pandoc', [{ type: 'command_output', command: 'pandoc -t gfm x.html', value: 'a table' }])).toEqual([
      'the package pandoc (its setup_cmd installs it)',
      'the program pandoc (the command of its check 1 runs it)',
    ])
    expect(needs('Install xdotool.')).toEqual(['a desktop without xdotool (its task asks the agent to install it, and the harness itself runs it)'])
    expect(needs('Install GIMP.')).toEqual(['a desktop without gimp (its task asks the agent to install it, and the image has it from the start)'])
    expect(needs('Install htop.', 'sudo apk add htop')).toEqual(['a desktop without htop (its task asks the agent to install it, and its setup_cmd already does)'])
    expect(needs('Install the fortune package using apk.')).toEqual(['the package fortune to install offline (its task asks the agent to install it)'])
  })

  test('a package the task installs gives its programs to the checks, not to the setup', () => {
    expect(needs('Install htop.', null, [{ type: 'command_output', command: 'htop --version', value: 'a version' }])).toEqual([])
    expect(needs('Run htop.', 'htop -v')).toEqual(['the program htop (its setup_cmd runs it)'])
    expect(installsAsked("Install ImageMagick. Install the 'htop' package, then install it again.")).toEqual(['imagemagick', 'htop'])
  })

  test('sites named without an address and search-and-download need the internet; a local page does not', () => {
    const online = (task: string) => needsInternet({ task, setup_cmd: null, checks: check })
    expect(online('Please go to Wikipedia and tell me who won.')).toBe('needs the open internet: its task names the site Wikipedia')
    expect(online("Open browser. Search for 'red png' and download an image.")).toBe('needs the open internet: its task searches for something and downloads it')
    expect(online('Open file:///config/Desktop/pass.html and tell me the code word.')).toBeNull()
  })

  test('AGENTEST_OSUNIVERSE_INTERNET: 1 runs internet cases with a network, unset or 0 skips them, anything else is refused', () => {
    expect(internetAllowed({})).toBe(false)
    expect(internetAllowed({ AGENTEST_OSUNIVERSE_INTERNET: '0' })).toBe(false)
    expect(internetAllowed({ AGENTEST_OSUNIVERSE_INTERNET: '1' })).toBe(true)
    expect(() => internetAllowed({ AGENTEST_OSUNIVERSE_INTERNET: 'yes' })).toThrow('AGENTEST_OSUNIVERSE_INTERNET: expected 1 (run the cases that need the internet, with a network) or 0, got "yes"')
  })

  test("an image's capabilities.json is checked at load, one line per mistake; an image without one is taken as is", () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-capabilities-'))
    writeFileSync(join(dir, 'capabilities.json'), JSON.stringify({ ...BARE, apps: ['terminal', 'spreadsheet'] }))
    expect(() => imageCapabilities(dir)).toThrow(/capabilities\.json: apps\[1\]: /)
    const cases = mkdtempSync(join(tmpdir(), 'agentest-osuniverse-'))
    mkdirSync(join(cases, 'images/mine'), { recursive: true })
    writeFileSync(join(cases, 'a.yaml'), 'name: A\nlevel: wood\ntask: Open LibreOffice Impress.\ndesktop_image: ./images/mine\nchecks:\n  - type: returned_result\n    value: ok\n')
    expect(loadCases(cases)[0]).toMatchObject({ skip: null, image: { kind: 'as-named', has: null } })
    writeFileSync(join(cases, 'images/mine/capabilities.json'), JSON.stringify(BARE))
    expect(loadCases(cases)[0]!.skip).toBe(`needs what its desktop (${join(cases, 'images/mine')}) lacks: LibreOffice Impress (its task names it)`)
  })
})
