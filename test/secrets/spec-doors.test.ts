import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { stringify } from 'yaml'
import { buildContext, loadAgentSpec } from '../../src/agent-images/registry.ts'
import { agentImagePolicy } from '../../src/schema/agent-image.ts'
import { InputError, loadConfig } from '../../src/config/index.ts'
import { ROOT } from '../e2e/run-benchmark.ts'

/**
 * Packaged agents walking through doors a spec might open: host variables the user never
 * allowed, and a build context (or Dockerfile) that reaches out of the spec's folder, directly or
 * through a symlink. Every spec lives in a temp folder made here; each refusal is one line.
 */
const top = realpathSync(mkdtempSync(join(tmpdir(), 'agentest-spec-doors-')))
afterAll(() => rmSync(top, { recursive: true, force: true }))

/** Something on the host a build must never pack. */
const outside = join(top, 'host-files')
mkdirSync(outside)
writeFileSync(join(outside, 'credentials'), 'aws_secret_access_key = nope\n')
writeFileSync(join(outside, 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nCOPY credentials /\n')

const ALLOW_OPENAI = agentImagePolicy({ allow_secrets: ['OPENAI_API_KEY'] })

let specs = 0
/** A spec folder under `top` with a Dockerfile, and the spec's file; `build` and `secrets` as given. */
function specFolder(spec: { build?: Record<string, string>; secrets?: string[] } = {}): { folder: string; file: string } {
  const folder = join(top, 'agents', `demo-${++specs}`)
  mkdirSync(join(folder, 'src'), { recursive: true })
  writeFileSync(join(folder, 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n')
  const file = join(folder, `demo-${specs}.agent.yaml`)
  writeFileSync(
    file,
    stringify({
      apiVersion: 'agentest/v1',
      kind: 'AgentImage',
      metadata: { name: `demo-${specs}`, version: '1.0.0' },
      spec: {
        description: 'An agent with ideas.',
        base: 'agentest/desktop',
        build: spec.build ?? { context: '.' },
        secrets: spec.secrets ?? [],
        ports: [{ name: 'agent', port: 8000 }],
        health: { path: '/health' },
      },
    }),
  )
  return { folder, file }
}

/** The one-line refusal of loading a spec, with its file shown relative to `top`. */
function refusal(file: string, policy = ALLOW_OPENAI): string {
  try {
    loadAgentSpec(file, top, policy)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    const message = (error as Error).message
    expect(message.split('\n')).toHaveLength(1)
    return message
  }
  throw new Error(`${file} was not refused`)
}

describe('spec secrets pass only what the config allows', () => {
  test('AWS_SECRET_ACCESS_KEY, not in agent_images.allow_secrets: refused, naming the spec file and the variable', () => {
    const { file } = specFolder({ secrets: ['OPENAI_API_KEY', 'AWS_SECRET_ACCESS_KEY'] })
    expect(refusal(file)).toBe(
      `${relative(top, file)}: spec.secrets[1]: AWS_SECRET_ACCESS_KEY is not allowed by agentest.config.yaml's agent_images.allow_secrets`,
    )
  })

  test('by default no host variable is allowed at all', () => {
    const { file } = specFolder({ secrets: ['OPENAI_API_KEY'] })
    expect(refusal(file, agentImagePolicy())).toBe(
      `${relative(top, file)}: spec.secrets[0]: OPENAI_API_KEY is not allowed by agentest.config.yaml's agent_images.allow_secrets`,
    )
    expect(loadAgentSpec(file, top, ALLOW_OPENAI).spec.spec.secrets).toEqual(['OPENAI_API_KEY'])
  })

  test('a run that picks such a spec stops at config load with the line (the config file named as loaded)', () => {
    const { folder } = specFolder({ secrets: ['GITHUB_TOKEN'] })
    const name = folder.split('/').pop()!
    const config = join(top, `run-${name}.yaml`)
    writeFileSync(config, stringify({ agent: { name: 'image', spec: name }, agent_images: { folders: [folder], allow_secrets: ['OPENAI_API_KEY'] } }))
    expect(() => loadConfig(top, { AGENTEST_CONFIG: config, GITHUB_TOKEN: 'ghp_never' })).toThrow(
      `agents/${name}/${name}.agent.yaml: spec.secrets[0]: GITHUB_TOKEN is not allowed by run-${name}.yaml's agent_images.allow_secrets`,
    )
  })

  test('npm run agent:check refuses it too, before any image is built', () => {
    const { file } = specFolder({ secrets: ['AWS_SECRET_ACCESS_KEY'] })
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', AWS_SECRET_ACCESS_KEY: 'never-leaves' }
    delete env.AGENTEST_CONFIG // the project's own agentest.config.yaml, which allows OPENAI_API_KEY only
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/agent-check.ts', file], {
      cwd: ROOT,
      encoding: 'utf8',
      env,
      timeout: 60_000,
    })
    expect(result.status, result.stderr).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr.trim()).toBe(
      `agent:check: ${relative(ROOT, file)}: spec.secrets[0]: AWS_SECRET_ACCESS_KEY is not allowed by agentest.config.yaml's agent_images.allow_secrets`,
    )
  })
})

describe('a build packs only the spec\'s own folder', () => {
  test('build.context: ../.. is refused', () => {
    const { file } = specFolder({ build: { context: '../..' } })
    expect(refusal(file)).toBe(`${relative(top, file)}: spec.build.context: ../.. leaves the spec's folder; the build context must be the spec's folder or one inside it`)
  })

  test('an absolute build.context is refused', () => {
    const { file } = specFolder({ build: { context: outside } })
    expect(refusal(file)).toBe(
      `${relative(top, file)}: spec.build.context: ${outside} is an absolute path; the build context must be the spec's folder or one inside it`,
    )
  })

  test('a symlink inside the spec\'s folder that points outside is refused', () => {
    const { folder, file } = specFolder({ build: { context: 'ctx' } })
    symlinkSync(outside, join(folder, 'ctx'))
    expect(refusal(file)).toBe(
      `${relative(top, file)}: spec.build.context: ctx resolves through a symlink to ${outside}; the build context must be the spec's folder or one inside it`,
    )
  })

  test('a Dockerfile outside the context, by path or by symlink, is refused', () => {
    const byPath = specFolder({ build: { context: 'src', dockerfile: '../Dockerfile' } })
    expect(refusal(byPath.file)).toBe(`${relative(top, byPath.file)}: spec.build.dockerfile: ../Dockerfile is outside the build context src`)
    const absolute = specFolder({ build: { context: '.', dockerfile: join(outside, 'Dockerfile') } })
    expect(refusal(absolute.file)).toMatch(/: spec\.build\.dockerfile: .* is an absolute path; give the Dockerfile's path inside the build context$/)
    const linked = specFolder({ build: { context: '.', dockerfile: 'Linked.Dockerfile' } })
    symlinkSync(join(outside, 'Dockerfile'), join(linked.folder, 'Linked.Dockerfile'))
    expect(refusal(linked.file)).toBe(`${relative(top, linked.file)}: spec.build.dockerfile: Linked.Dockerfile is outside the build context .`)
  })

  test('the spec\'s folder, a folder inside it and a symlink that stays inside are fine', () => {
    const here = specFolder()
    expect(buildContext(loadAgentSpec(here.file, top, ALLOW_OPENAI))).toBe(here.folder)
    const sub = specFolder({ build: { context: 'src', dockerfile: 'Dockerfile' } })
    expect(buildContext(loadAgentSpec(sub.file, top, ALLOW_OPENAI))).toBe(join(sub.folder, 'src'))
    const link = specFolder({ build: { context: 'alias' } })
    symlinkSync(join(link.folder, 'src'), join(link.folder, 'alias'))
    expect(buildContext(loadAgentSpec(link.file, top, ALLOW_OPENAI))).toBe(join(link.folder, 'src'))
  })

  test('a context swapped for a symlink after loading is refused when the build packs it', () => {
    const { folder, file } = specFolder({ build: { context: 'src' } })
    const loaded = loadAgentSpec(file, top, ALLOW_OPENAI)
    rmSync(join(folder, 'src'), { recursive: true })
    symlinkSync(outside, join(folder, 'src'))
    expect(() => buildContext(loaded)).toThrow(`${relative(top, file)}: spec.build.context: src resolves through a symlink to ${outside}`)
  })
})
