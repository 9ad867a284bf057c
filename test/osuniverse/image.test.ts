import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ensureImage, imageDir, removeRunContainers } from '../../src/docker/index.ts'
import { ROOT } from '../e2e/run-benchmark.ts'
import { imageCapabilities } from '../../src/osuniverse/capabilities.ts'
import { MAPPED_IMAGE_DIR } from '../../src/osuniverse/images.ts'
import { loadCases } from '../../src/osuniverse/load.ts'
import { apkAdds, installsAsked, programsRun } from '../../src/osuniverse/needs.ts'
import { DesktopSandbox } from '../../src/sandbox/desktop/desktop-sandbox.ts'
import { docker, noDocker } from '../docker/docker-available.ts'

/**
 * agentest's OSUniverse desktop in a real container, as the harness starts it: what its
 * capabilities.json declares is there, what a case installs is not until `apk add` (offline),
 * the harness's ImageMagick is off the agent's PATH, and every runnable upstream case finds the
 * programs its setup and checks run.
 */
const RUN = `osuniverse-image-${process.pid}`
const has = imageCapabilities(MAPPED_IMAGE_DIR)!
const UPSTREAM = join(resolve(process.env.AGENTEST_UPSTREAM ?? resolve(import.meta.dirname, '../../../shared/upstream')), 'osuniverse/testcases')
/** The agent's shell: a login shell, as setup_cmd and the terminal's first shell are. */
const asAgent = (cmd: string) => `bash -lc '${cmd.replaceAll("'", "'\\''")}'`
/** Which of `programs` a shell finds, one a line. */
const found = (programs: readonly string[]) => `for p in ${programs.join(' ')}; do command -v "$p" >/dev/null && echo "$p"; done; true`

describe.skipIf(noDocker)("the OSUniverse desktop (fixtures/images/osuniverse-desktop) has what it declares, and no more", { timeout: 900_000 }, () => {
  let sandbox: DesktopSandbox
  const shell = async (cmd: string, as: 'root' | 'agent' = 'root') => {
    const result = await sandbox.shell(as === 'agent' ? asAgent(cmd) : cmd, 60_000, as)
    return { code: result.exitCode, out: result.stdout.toString().trim(), err: result.stderr.toString().trim() }
  }
  const uninstallAll = () => shell('rm -f /var/lib/agentest-apk/*', 'agent')

  beforeAll(async () => {
    await ensureImage(docker, 'agentest/desktop', imageDir(ROOT, 'agentest/desktop'), () => {})   // its FROM
    const image = await ensureImage(docker, 'agentest-task/osuniverse-desktop', MAPPED_IMAGE_DIR, () => {})
    sandbox = await DesktopSandbox.open({ docker, image, runId: RUN, taskId: 'osuniverse-image', setupCmd: null, network: false })
  }, 1_800_000)
  afterAll(async () => {
    await sandbox?.close()
    await removeRunContainers(docker, RUN)
  })

  test("Xfce is up when the harness calls the desktop ready: the panel (Applications menu, clock) and the desktop's icons", async () => {
    const windows = await shell('for c in xfce4-panel xfdesktop; do xdotool search --onlyvisible --class "^$c$" >/dev/null && echo $c; done; true')
    expect(windows.out.split('\n')).toEqual(['xfce4-panel', 'xfdesktop'])
    const panel = await shell('cat /etc/xdg/xfce4/xfconf/xfce-perchannel-xml/xfce4-panel.xml')
    for (const plugin of ['applicationsmenu', 'clock', 'tasklist', 'launcher']) expect(panel.out, plugin).toContain(`value="${plugin}"`)
    expect(panel.out).toContain('name="digital-date-format"')
    // The menu's Office and Graphics sections hold the apps OSUniverse's cases open from there.
    const menu = await shell('cd /usr/share/applications && grep -l "^Categories=.*Office" libreoffice-calc.desktop libreoffice-writer.desktop libreoffice-impress.desktop; grep -l "^Categories=.*Graphics" gimp.desktop org.inkscape.Inkscape.desktop; test -x /usr/bin/xfce4-about && echo about')
    expect(menu.out.split('\n')).toEqual(['libreoffice-calc.desktop', 'libreoffice-writer.desktop', 'libreoffice-impress.desktop', 'gimp.desktop', 'org.inkscape.Inkscape.desktop', 'about'])
  })

  test('every declared program is on the agent\'s PATH; the harness\'s import is on its own PATH only', async () => {
    expect((await shell(found(has.commands), 'agent')).out.split('\n')).toEqual(has.commands)
    expect((await shell(found(['import', 'convert', 'magick']), 'agent')).out).toBe('')
    const harness = await sandbox.shell('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin command -v import', 10_000)
    expect(harness.stdout.toString().trim()).toBe('/usr/local/sbin/import')
    // The desktop session (the panel, and so the terminals it opens) has the agent's PATH too.
    const session = await shell("tr '\\0' '\\n' </proc/$(pgrep -x xfce4-panel | head -1)/environ | grep ^PATH=", 'agent')
    expect(session.out).toBe('PATH=/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games')
  })

  test('each installable package starts absent, for the agent and for the checks, and `apk add` installs it offline', async () => {
    await uninstallAll()
    for (const [name, pkg] of Object.entries(has.packages.installable)) {
      expect((await shell(found(pkg.programs), 'agent')).out, `${name} before`).toBe('')
      expect((await shell(found(pkg.programs))).out, `${name} before, as the checks see it`).toBe('')
      const add = await shell(`sudo apk add ${name}`, 'agent')
      expect(add.code, `${name}: ${add.err}`).toBe(0)
      expect((await shell(found(pkg.programs), 'agent')).out.split('\n'), `${name} after`).toEqual(pkg.programs)
      expect((await shell(found(pkg.programs))).out.split('\n'), `${name} after, as the checks see it`).toEqual(pkg.programs)
    }
    expect((await shell('convert -version')).out).toMatch(/^Version: ImageMagick 6\./)
    const unknown = await shell('apk add libreoffice pandocx', 'agent')
    expect(unknown).toMatchObject({ code: 1, err: 'apk: not in this image: pandocx (add it to fixtures/images/osuniverse-desktop/capabilities.json)' })
    for (const name of has.packages.preinstalled) expect((await shell(`apk add ${name}`, 'agent')).code, name).toBe(0)
  })

  test.skipIf(!existsSync(UPSTREAM))('every runnable upstream case finds each program its setup and checks run, after its own apk add', async () => {
    const runnable = loadCases(UPSTREAM).filter((c) => !c.skip)
    expect(runnable).toHaveLength(44)
    for (const c of runnable) {
      await uninstallAll()
      const setup = c.case.setup_cmd === 'None' ? '' : (c.case.setup_cmd ?? '')
      const adds = apkAdds(setup)
      if (adds.length) expect((await shell(`sudo apk add ${adds.join(' ')}`, 'agent')).code, c.key).toBe(0)
      const inSetup = [...new Set(programsRun(setup))].filter((p) => p !== 'cd')
      expect((await shell(found(inSetup), 'agent')).out.split('\n').filter(Boolean), `${c.key}: its setup`).toEqual(inSetup)
      // A check runs after the agent: with the packages the task has it install.
      const asked = installsAsked(c.case.task)
      if (asked.length) expect((await shell(`sudo apk add ${asked.join(' ')}`, 'agent')).code, c.key).toBe(0)
      const inChecks = [...new Set(c.case.checks.flatMap((k) => (k.type === 'command_output' ? programsRun(k.command) : [])))].filter((p) => p !== 'cd')
      expect((await shell(found(inChecks))).out.split('\n').filter(Boolean), `${c.key}: its checks`).toEqual(inChecks)
    }
    await uninstallAll()
  })
})
