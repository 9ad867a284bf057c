/**
 * Checks a packaged agent against agentest's agent protocol (docs/agent-protocol.md), the way
 * an author runs it before submitting:
 *
 *   npm run agent:check -- <name[:version] | path/to/x.agent.yaml> [--base-url <url> --model <name>] [--env KEY=VALUE]...
 *
 * Builds the image if needed, starts it on a fresh desktop, and prints one line per check.
 * Without --base-url, the agent's model calls go to agentest's scripted model server (a test
 * double that takes a step and then says done, and stalls the run that gets cancelled).
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { runCommandCheck, scriptedCheckModel } from '../src/agent-check/command-conformance.ts'
import { startModelServer, type ModelServer } from '../fixtures/model-server/index.ts'
import { ensureAgentImage } from '../src/agent-images/build.ts'
import { CANCEL_INSTRUCTION, checkConformance } from '../src/agent-check/conformance.ts'
import { AgentImageRegistry, loadAgentSpec, SPEC_SUFFIX, type LoadedAgentSpec } from '../src/agent-images/registry.ts'
import { InputError, loadConfig, type LoadedConfig } from '../src/config/index.ts'
import { insecureKeyMessage, insecureKeyTransport } from '../src/secrets/key-transport.ts'
import { dockerClient, dockerStatus, ensureImage, imageDir, imageExists, removeRunContainers, SANDBOX_IMAGES, type SandboxImageName } from '../src/docker/index.ts'

const USAGE = 'usage: npm run agent:check -- <name[:version] | path/to/x.agent.yaml> [--base-url <url> --model <name>] [--env KEY=VALUE]...\n       npm run agent:check -- --command "<program and its arguments>"'

function fail(message: string): never {
  process.stderr.write(`agent:check: ${message}\n`)
  process.exit(2)
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        'base-url': { type: 'string' },
        model: { type: 'string' },
        env: { type: 'string', multiple: true, default: [] },
        help: { type: 'boolean', short: 'h' },
        command: { type: 'string' },
      },
    })
  } catch (error) {
    return fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`)
  }
}

/**
 * The spec to check, held to the project's config like a run: its maxima, its build context inside
 * its folder, and only the secrets `agent_images.allow_secrets` lets through.
 */
function findSpec(root: string, reference: string, loaded: LoadedConfig): LoadedAgentSpec {
  const { folders, policy } = loaded.agentImages
  if (reference.endsWith(SPEC_SUFFIX)) return loadAgentSpec(resolve(reference), root, policy)
  return AgentImageRegistry.load(folders, root, policy).resolve(reference)
}

async function main(): Promise<void> {
  const { values, positionals } = parse()
  if (values.help) return void process.stdout.write(`${USAGE}\n`)
  // A command agent is checked by running it on a small served task.
  if (values.command !== undefined) return void (process.exitCode = await runCommandCheck(values.command))
  if (positionals.length !== 1) fail(USAGE)
  const root = process.cwd()
  let loaded: LoadedAgentSpec
  let project: LoadedConfig
  try {
    project = loadConfig(root, { ...process.env, AGENTEST_AGENT: undefined, AGENTEST_AGENT_SPEC: undefined })
    loaded = findSpec(root, positionals[0]!, project)
  } catch (error) {
    if (error instanceof InputError) fail(error.message)
    throw error
  }
  const extraEnv: Record<string, string> = {}
  for (const pair of values.env) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(pair)
    if (!match) fail(`--env: expected KEY=VALUE, got ${JSON.stringify(pair)}`)
    extraEnv[match[1]!] = match[2]!
  }
  if (Boolean(values['base-url']) !== Boolean(values.model)) fail('--base-url and --model go together')
  // The container gets the key and sends it to --base-url: never over plain HTTP to a third party.
  const insecure = values['base-url'] ? insecureKeyTransport(values['base-url']) : null
  if (insecure && loaded.spec.spec.secrets.includes('OPENAI_API_KEY') && process.env.OPENAI_API_KEY && project.config.agent.allow_insecure_key !== true) {
    fail(insecureKeyMessage('--base-url', 'OPENAI_API_KEY', insecure, 'agent.allow_insecure_key'))
  }

  const docker = dockerClient()
  const status = await dockerStatus(docker)
  if (!status.available) fail(`no Docker engine: ${status.reason}`)
  const log = (line: string) => process.stdout.write(`  ${line}\n`)
  const { spec } = loaded.spec
  const baseTag = !spec.base
    ? null
    : spec.base in SANDBOX_IMAGES
      ? await ensureImage(docker, spec.base, imageDir(root, spec.base as SandboxImageName), log)
      : `${spec.base}:latest`
  if (baseTag && !(await imageExists(docker, baseTag))) fail(`${loaded.shown}: spec.base: no image ${baseTag} here`)
  const tag = await ensureAgentImage(docker, loaded, baseTag, log).catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)))

  let server: ModelServer | null = null
  let model = { base_url: values['base-url'] ?? '', name: values.model ?? '', api_key_env: 'OPENAI_API_KEY' as string | null }
  if (!values['base-url']) {
    // On loopback only: the agent reaches it through the harness's relay, as it would reach Ollama.
    // One action, then done ("finish" where the served tools offer it); the cancelled run's call waits.
    server = await startModelServer({ policy: scriptedCheckModel(CANCEL_INSTRUCTION) })
    model = { base_url: server.url, name: 'scripted-model', api_key_env: 'OPENAI_API_KEY' }
    log(`model calls go to the scripted model server (a test double) at ${model.base_url}`)
  }
  const env: Record<string, string> = { ...spec.environment }
  for (const name of spec.secrets) {
    const value = process.env[name]
    if (value !== undefined) env[name] = value
    else if (server) env[name] = 'agentest-conformance-placeholder'
    else fail(`${loaded.shown}: spec.secrets: ${name} is not set in the environment`)
  }
  Object.assign(env, extraEnv)

  const runId = `agent-check-${Date.now()}`
  const cleanup = async () => {
    await removeRunContainers(docker, runId).catch(() => undefined)
    await server?.close()
  }
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)))
  process.stdout.write(`agent:check ${loaded.ref} (${tag})\n`)
  try {
    const { checks, stopped } = await checkConformance({
      docker,
      loaded,
      tag,
      model,
      env,
      runId,
      log: (check) => process.stdout.write(`${check.passed ? '✓' : '✗'} ${check.name}: ${check.detail}\n`),
    })
    const failed = checks.filter((c) => !c.passed)
    process.stdout.write(
      failed.length === 0
        ? `agent:check: ${loaded.ref} conforms to agentest/v1 (${checks.length} checks)\n`
        : `agent:check: ${loaded.ref} fails ${failed.length} of ${checks.length} checks: ${failed.map((c) => c.name).join(', ')}${stopped ? `; stopped: ${stopped}` : ''}\n`,
    )
    process.exitCode = failed.length === 0 ? 0 : 1
  } finally {
    await cleanup()
  }
}

await main()
