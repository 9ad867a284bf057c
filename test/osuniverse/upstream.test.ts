import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { imageCapabilities } from '../../src/osuniverse/capabilities.ts'
import { MAPPED_IMAGE_DIR, OFFICE_IMAGE_DIR } from '../../src/osuniverse/images.ts'
import { needsInternet } from '../../src/osuniverse/internet.ts'
import { loadCases, type LoadedCase } from '../../src/osuniverse/load.ts'
import { apkAdds, programsRun, unmetNeeds } from '../../src/osuniverse/needs.ts'

/**
 * OSUniverse's own 160 cases (agentsea/osuniverse f75e733, unchanged) against what each image
 * declares: which run, and the exact line each skipped one is reported with.
 */
const UPSTREAM = join(resolve(process.env.AGENTEST_UPSTREAM ?? resolve(import.meta.dirname, '../../../shared/upstream')), 'osuniverse/testcases')
const absent = !existsSync(UPSTREAM)
if (absent) console.log(`test/osuniverse/upstream.test.ts: skipped, no OSUniverse cases at ${UPSTREAM} (set AGENTEST_UPSTREAM)`)

const byKey = (cases: LoadedCase[]) => Object.fromEntries(cases.map((c) => [c.key, c]))
const INTERNET = ' (AGENTEST_OSUNIVERSE_INTERNET=1 runs it with a network)'

describe.skipIf(absent)("OSUniverse's upstream cases: run only where their desktop has what they need", () => {
  const mapped = absent ? [] : loadCases(UPSTREAM)
  const office = absent ? [] : loadCases(UPSTREAM, { imageDir: OFFICE_IMAGE_DIR })

  test('on the OSUniverse desktop: 160 loaded, 44 runnable, 116 skipped for the internet, none for a missing app', () => {
    expect(mapped).toHaveLength(160)
    expect(mapped.filter((c) => !c.skip)).toHaveLength(44)
    expect(mapped.filter((c) => c.skip?.startsWith('needs the open internet: '))).toHaveLength(116)
    expect(mapped.filter((c) => c.skip && !c.skip.startsWith('needs the open internet: ')).map((c) => c.key)).toEqual([])
    expect(mapped.every((c) => c.network === false)).toBe(true)
  })

  test('sites named without an address, and search-and-download, are the internet, with the exact reason', () => {
    const cases = byKey(mapped)
    expect(cases['browser/english_king_1']!.skip).toBe(`needs the open internet: its task names the site Wikipedia${INTERNET}`)
    expect(cases['gimp/mandelbrot_jigsaw']!.skip).toBe(`needs the open internet: its task names the site Google${INTERNET}`)
    expect(cases['terminal/fractal']!.skip).toBe(`needs the open internet: its task names the site Google${INTERNET}`)
    expect(cases['multiapp/abstract_background']!.skip).toBe(`needs the open internet: its task searches for something and downloads it${INTERNET}`)
    expect(cases['libreoffice_calc/add_formula']!.skip).toMatch(/^needs the open internet: its setup_cmd names https:\/\/raw\.githubusercontent\.com\//)
  })

  test('no runnable case needs a program, an app, a feature, a package or a site its image does not declare', () => {
    const has = imageCapabilities(MAPPED_IMAGE_DIR)!
    for (const c of mapped.filter((c) => !c.skip)) {
      expect(needsInternet(c.case), c.key).toBeNull()
      expect(unmetNeeds(c.case, has), c.key).toEqual([])
      // Independently of unmetNeeds: every package its setup adds is one the image has or keeps.
      for (const pkg of apkAdds(c.case.setup_cmd ?? '')) expect([...has.packages.preinstalled, ...Object.keys(has.packages.installable)], `${c.key}: ${pkg}`).toContain(pkg)
    }
  })

  test("on the office image (bare openbox, no Xfce, nothing to install) the cases that need more are skipped, each with one exact line", () => {
    const cases = byKey(office)
    expect(office.filter((c) => !c.skip).map((c) => c.key)).toEqual([
      'desktop/open_browser',
      'desktop/open_terminal',
      'libreoffice_calc/create_and_save_new_spreadsheet',
      'libreoffice_calc/diagram_simple',
      'libreoffice_writer/create_and_save_new_doc',
      'terminal/create_and_display_text_file',
    ])
    const lacks = (what: string) => `needs what its desktop (fixtures/images/desktop-office) lacks: ${what}`
    expect(cases['libreoffice_impress/create_and_save_new_deck']!.skip).toBe(lacks('LibreOffice Impress (its task names it)'))
    expect(cases['desktop/about_xfce']!.skip).toBe(lacks("the Applications menu (its task names it); Xfce's About dialog (its task names it)"))
    expect(cases['desktop/date']!.skip).toBe(lacks('a clock on the screen (its checks read it)'))
    expect(cases['desktop/relocate_icons']!.skip).toBe(lacks("the desktop's settings (its task names it); desktop icons (its task names it)"))
    expect(cases['libreoffice_writer/create_table_2_by_2']!.skip).toBe(
      lacks('the package pandoc (its setup_cmd installs it); the program pandoc (the command of its check 1 runs it)'),
    )
    expect(cases['terminal/list_files']!.skip).toBe(lacks('the program xfce4-terminal (its setup_cmd runs it)'))
    expect(cases['terminal/htop']!.skip).toBe(lacks('launchers on the desktop (its task names it); the package htop to install offline (its task asks the agent to install it)'))
    expect(cases['terminal/install_imagemagick']!.skip).toBe(lacks('a desktop without imagemagick (its task asks the agent to install it, and the harness itself runs it)'))
  })

  test('the internet, when the user allows it (AGENTEST_OSUNIVERSE_INTERNET=1), runs all 160, the 116 that need it with a network', () => {
    const online = loadCases(UPSTREAM, { internet: true })
    const cases = byKey(online)
    expect(online.filter((c) => !c.skip)).toHaveLength(160)
    expect(online.filter((c) => c.network)).toHaveLength(116)
    expect(cases['browser/english_king_1']).toMatchObject({ skip: null, network: true })
    expect(cases['terminal/install_imagemagick']).toMatchObject({ skip: null, network: false })
    for (const c of online.filter((c) => !c.skip)) {
      expect(unmetNeeds(c.case, imageCapabilities(MAPPED_IMAGE_DIR)!), c.key).toEqual([])
      expect(c.network, c.key).toBe(needsInternet(c.case) !== null)
    }
  })

  test('the programs a command runs are read past sudo, setsid, quotes, redirections and loops', () => {
    expect(programsRun("sudo apk add libreoffice pandoc && cd /config/Desktop && setsid xfce4-terminal >/dev/null 2>&1 & sleep 1")).toEqual(['apk', 'cd', 'xfce4-terminal', 'sleep'])
    expect(programsRun(`for i in $(seq 100); do xdotool getactivewindow 2>/dev/null | grep -q 'a; b' && break; done`)).toEqual(['seq', 'xdotool', 'grep'])
    expect(programsRun("python3 -c 'import sys; print(1)' x.odt")).toEqual(['python3'])
  })
})
