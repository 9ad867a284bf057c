import type Docker from 'dockerode'
import type { Config } from '../schema/config.ts'
import { startCommand } from './command.ts'
import { startImage } from './image.ts'
import { waitReady } from './ready.ts'
import { OMNIZON_ENVIRONMENT, type EnvironmentSpec } from '../schema/environment.ts'

export interface RunningEnvironment {
  url: string
  close(): Promise<void>
}

/** How the run starts environments: the built-in apps in-process, images on the engine. */
export interface StartContext {
  /** Where commands run (the config file's folder). */
  cwd: string
  runId: string
  /** The engine, or null without one; the run's reaper watches what is created on it. */
  docker: () => Promise<Docker | null>
  /** Starts a web clone that ships with agentest (Omnizon), in-process. */
  builtin: (name: string) => Promise<RunningEnvironment>
  log: (line: string) => void
}

/**
 * Every environment the run can use: those declared under `environments:`, plus Omnizon unless
 * one is declared under its name (`apps.omnizon.url` points it at a running one).
 */
export function declaredEnvironments(config: Pick<Config, 'environments' | 'apps'>): Record<string, EnvironmentSpec> {
  const omnizonUrl = config.apps.omnizon.url
  const omnizon = omnizonUrl ? { ...OMNIZON_ENVIRONMENT, url: omnizonUrl } : OMNIZON_ENVIRONMENT
  return { omnizon, ...config.environments }
}

/** Starts one environment; built-in ones have neither url, command nor image. */
export async function startEnvironment(name: string, spec: EnvironmentSpec, context: StartContext): Promise<RunningEnvironment> {
  const ready = { readyPath: spec.ready_path, timeoutMs: spec.ready_timeout_ms }
  if (spec.url) {
    const url = spec.url.replace(/\/$/, '')
    await waitReady(`${url}${spec.ready_path}`, spec.ready_timeout_ms).catch((error: unknown) => {
      throw new Error(`the ${name} environment at ${url} does not answer: ${error instanceof Error ? error.message : String(error)}`)
    })
    return { url, close: async () => {} }
  }
  if (spec.command) return startCommand(name, spec.command, { ...ready, port: spec.port, cwd: context.cwd })
  if (spec.image) {
    const docker = await context.docker()
    if (!docker) throw new Error(`the ${name} environment runs the image ${spec.image}, but Docker is not available`)
    return startImage(docker, name, spec.image, { ...ready, port: spec.port!, runId: context.runId, log: context.log })
  }
  return context.builtin(name)
}
