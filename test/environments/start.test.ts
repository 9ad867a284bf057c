import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import { ensureImage } from '../../src/docker/index.ts'
import { LABEL } from '../../src/docker/labels.ts'
import { EnvironmentSpec } from '../../src/schema/environment.ts'
import { OnDemandEnvironments } from '../../src/environments/on-demand.ts'
import { declaredEnvironments, type RunningEnvironment } from '../../src/environments/start.ts'
import { docker, noDocker } from '../docker/docker-available.ts'
import { ROOT } from '../e2e/run-benchmark.ts'

const RUN = `environments-test-${process.pid}`
const started: RunningEnvironment[] = []
const context = {
  cwd: ROOT,
  runId: RUN,
  docker: async () => docker,
  builtin: async (name: string): Promise<RunningEnvironment> => {
    throw new Error(`no built-in ${name} here`)
  },
  log: () => {},
}
const spec = (input: unknown) => EnvironmentSpec.parse(input)
/** Asks for every environment declared, at once, as the tasks of a run would. */
async function start(specs: Record<string, unknown>) {
  const environments = new OnDemandEnvironments(Object.fromEntries(Object.entries(specs).map(([name, s]) => [name, spec(s)])), context)
  started.push({ url: '', close: () => environments.close() })
  const names = Object.keys(specs)
  const statuses = await Promise.all(names.map((name) => environments.status(name)))
  return Object.fromEntries(names.map((name, i) => [name, statuses[i]!]))
}
const SERVE = `node -e "require('http').createServer((q, s) => s.end('up ' + q.url)).listen(Number(process.argv[1]), '127.0.0.1')"`

afterAll(async () => {
  await Promise.all(started.map((env) => env.close()))
})

describe('environments: the web apps tasks run against', { timeout: 120_000 }, () => {
  test('a declaration is a url, a command or an image, exactly one; an image names its port', () => {
    expect(EnvironmentSpec.safeParse({ url: 'http://127.0.0.1:1', command: 'x' }).error?.issues[0]?.message).toMatch(/exactly one of url/)
    expect(EnvironmentSpec.safeParse({}).success).toBe(false)
    expect(EnvironmentSpec.safeParse({ image: 'my/app:1' }).error?.issues[0]).toMatchObject({ path: ['port'], message: 'an image needs the port its app listens on' })
    expect(EnvironmentSpec.parse({ url: 'http://127.0.0.1:1', state: {} }).state).toEqual({ config_path: '/config', finish_path: '/finish' })
  })

  test('Omnizon is declared unless the config declares its own; apps.omnizon.url points it at a running one', () => {
    expect(Object.keys(declaredEnvironments({ environments: { inbox: spec({ command: 'x' }) }, apps: { omnizon: { url: null } } }))).toEqual(['omnizon', 'inbox'])
    expect(declaredEnvironments({ environments: {}, apps: { omnizon: { url: 'http://shop.test' } } }).omnizon).toMatchObject({ url: 'http://shop.test', state: { finish_path: '/finish' } })
  })

  test('a command gets a free port ({port} and PORT) and is stopped with everything it started', async () => {
    const statuses = await start({ app: { command: `${SERVE} {port}`, ready_path: '/health' }, env: { command: SERVE.replace('process.argv[1]', 'process.env.PORT') } })
    for (const status of Object.values(statuses)) {
      expect(status).toMatchObject({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) })
      const url = (status as { url: string }).url
      expect(await (await fetch(`${url}/x`)).text()).toBe('up /x')
    }
    await started.pop()!.close()
    await expect(fetch((statuses.app as { url: string }).url)).rejects.toThrow()
  })

  test('an environment starts when a task first asks for it, once; one nobody asks for never starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentest-environments-'))
    const counted = (name: string) => ({ command: `echo x >> ${dir}/${name}; ${SERVE} {port}` })
    const environments = new OnDemandEnvironments({ asked: spec(counted('asked')), idle: spec(counted('idle')) }, context)
    try {
      const [first, second] = await Promise.all([environments.status('asked'), environments.status('asked')])
      expect(first).toHaveProperty('url')
      expect(second).toEqual(first)
      expect(await environments.status('asked')).toEqual(first)
      expect(await environments.status('nowhere')).toEqual({ error: 'the nowhere environment is not declared (environments: in agentest.config.yaml)' })
      expect(readFileSync(join(dir, 'asked'), 'utf8')).toBe('x\n')
      expect(existsSync(join(dir, 'idle'))).toBe(false)
    } finally {
      await environments.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test('a command that dies or never gets ready is one line with what it said; the other environments start', async () => {
    const statuses = await start({
      broken: { command: 'echo "cannot bind: address in use" >&2; exit 3' },
      slow: { command: 'sleep 30', ready_timeout_ms: 500 },
      fine: { command: `${SERVE} {port}` },
    })
    expect(statuses.broken).toEqual({ error: 'the broken environment (`echo "cannot bind: address in use" >&2; exit 3`) did not start: exited (code 3) before it was ready; it said: cannot bind: address in use' })
    expect((statuses.slow as { error: string }).error).toMatch(/^the slow environment \(`sleep 30`\) did not start: http:\/\/127\.0\.0\.1:\d+\/ was not ready within 500 ms \(ECONNREFUSED\)$/)
    expect(statuses.fine).toHaveProperty('url')
  })

  test("a port another process answers on is not taken for the app's: a declared one is an error, a picked one is picked again", async () => {
    // Someone else's server, already answering on the port (as another run's app may, having picked the same free port).
    const other = createServer((_, res) => res.end('not yours')).listen(0, '127.0.0.1')
    await new Promise((done) => other.once('listening', done))
    const { port } = other.address() as AddressInfo
    try {
      // The app cannot bind, but its readiness probe gets the other server's answer.
      const lingering = `node -e "setTimeout(() => {}, 2000); require('http').createServer().listen(${port}, '127.0.0.1').on('error', () => {})"`
      const statuses = await start({ fixed: { command: lingering, port } })
      expect(statuses.fixed).toEqual({ error: `the fixed environment (\`${lingering}\`) did not start: another process answers on its port` })
    } finally {
      other.close()
    }
  })

  test('a url already running is checked; one that does not answer is an error', async () => {
    const server = createServer((_q, s) => s.writeHead(302, { location: '/login' }).end())
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const statuses = await start({ up: { url: `${url}/` }, down: { url: 'http://127.0.0.1:9/', ready_timeout_ms: 400 } })
    // A redirect to a login page is an app that is up; the trailing slash goes.
    expect(statuses.up).toEqual({ url })
    expect((statuses.down as { error: string }).error).toMatch(/^the down environment at http:\/\/127\.0\.0\.1:9 does not answer: /)
    server.close()
  })

  test.skipIf(noDocker)('an image runs labelled with the run, published on loopback only, and is removed at the end', async () => {
    const image = await ensureImage(docker, 'agentest-test/httpd', `${ROOT}/test/data/environments/httpd-image`, () => {})
    const statuses = await start({ status: { image, port: 8080, ready_path: '/index.html' }, missing: { image: 'agentest-test/nowhere:0', port: 80 } })
    const url = (statuses.status as { url: string }).url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await (await fetch(url)).text()).toContain('All systems operational')
    expect((statuses.missing as { error: string }).error).toMatch(/^the missing environment \(image agentest-test\/nowhere:0\) did not start: agentest-test\/nowhere:0 is not on this machine and could not be pulled/)
    const labelled = () => docker.listContainers({ all: true, filters: { label: [`${LABEL.run}=${RUN}`] } })
    expect((await labelled()).map((c) => c.Ports.map((p) => p.IP))).toEqual([['127.0.0.1']])
    await started.pop()!.close()
    expect(await labelled()).toEqual([])
  })
})
