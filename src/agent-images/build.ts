import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type Docker from 'dockerode'
import { buildImage, contentHash, imageExists } from '../docker/images.ts'
import { buildContext, type LoadedAgentSpec } from './registry.ts'

/** The agent image failed to build, or does not extend its base. */
export class AgentImageError extends Error {
  override name = 'AgentImageError'
}

/**
 * Makes the spec's image ready to run on `baseTag` (the exact build of its base image) and
 * returns its tag. A `build:` spec is built once per change of its context, its Dockerfile
 * arguments or its base; an `image:` spec must be present (or pullable). Either way the image's
 * layers must start with the base's: an agent runs on the task's own image, so the test is fair.
 * A served agent without a base (`baseTag` null) is built as its Dockerfile says: it acts only
 * through the served Computer, so what it runs on is its own business.
 */
export async function ensureAgentImage(
  docker: Docker,
  loaded: LoadedAgentSpec,
  baseTag: string | null,
  log: (line: string) => void,
): Promise<string> {
  const { spec } = loaded.spec
  let tag: string
  if (spec.build) {
    const context = buildContext(loaded)
    const buildargs = { ...hostBuildArgs(context, spec.build.dockerfile), ...spec.build.args, ...(baseTag ? { BASE_IMAGE: baseTag } : {}) }
    const hash = contentHash(context, [spec.build.dockerfile, JSON.stringify(buildargs)])
    tag = `agentest-agent/${loaded.spec.metadata.name}:${loaded.spec.metadata.version}-${hash}`
    if (!(await imageExists(docker, tag))) {
      log(`building agent image ${loaded.ref} as ${tag} from ${join(loaded.shown, '..')} (once; later runs reuse it)`)
      try {
        await buildImage(
          docker,
          {
            tag,
            context,
            dockerfile: spec.build.dockerfile,
            buildargs,
            labels: { 'dev.agentest.agent-image': loaded.ref, ...(baseTag ? { 'dev.agentest.base': baseTag } : {}) },
          },
          log,
        )
      } catch (error) {
        throw new AgentImageError(`${loaded.shown}: spec.build: ${error instanceof Error ? error.message : String(error)}`)
      }
      log(`built agent image ${tag}`)
    }
  } else {
    tag = spec.image!
    if (!(await imageExists(docker, tag))) {
      log(`pulling agent image ${tag}`)
      await pull(docker, tag).catch((error: unknown) => {
        throw new AgentImageError(`${loaded.shown}: spec.image: ${tag} is not here and could not be pulled: ${error instanceof Error ? error.message : String(error)}`)
      })
    }
  }
  if (baseTag) await assertExtends(docker, tag, baseTag, loaded)
  return tag
}

/**
 * What the host lends a build: behind a TLS-inspecting proxy the host trusts extra CAs, which a
 * build fetching packages over HTTPS needs too. A Dockerfile that declares `ARG EXTRA_CA_CERTS`
 * gets them as PEM text; others get nothing extra.
 */
function hostBuildArgs(context: string, dockerfile: string): Record<string, string> {
  try {
    if (!/^\s*ARG\s+EXTRA_CA_CERTS\b/m.test(readFileSync(join(context, dockerfile), 'utf8'))) return {}
  } catch {
    return {}
  }
  const pem = hostExtraCertificates()
  return pem ? { EXTRA_CA_CERTS: pem } : {}
}

/** Debian's folder of locally added CAs, plus NODE_EXTRA_CA_CERTS unless it is a whole system bundle. */
const LOCAL_CA_DIR = '/usr/local/share/ca-certificates'
const MAX_PEM_BYTES = 64 * 1024

function hostExtraCertificates(): string {
  const files = existsSync(LOCAL_CA_DIR)
    ? readdirSync(LOCAL_CA_DIR).filter((f) => /\.(crt|pem)$/.test(f)).map((f) => join(LOCAL_CA_DIR, f))
    : []
  const nodeExtra = process.env.NODE_EXTRA_CA_CERTS
  if (nodeExtra && existsSync(nodeExtra) && statSync(nodeExtra).size <= MAX_PEM_BYTES) files.push(nodeExtra)
  const certificates = new Set<string>()
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    for (const cert of text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) certificates.add(cert)
  }
  const pem = [...certificates].join('\n')
  return pem.length <= MAX_PEM_BYTES ? pem : ''
}

async function pull(docker: Docker, tag: string): Promise<void> {
  const stream = await docker.pull(tag)
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (error: Error | null) => (error ? reject(error) : resolve())),
  )
}

/** The agent image's filesystem layers must begin with every layer of the base image. */
async function assertExtends(docker: Docker, tag: string, baseTag: string, loaded: LoadedAgentSpec): Promise<void> {
  const [image, base] = await Promise.all([docker.getImage(tag).inspect(), docker.getImage(baseTag).inspect()])
  const layers = image.RootFS?.Layers ?? []
  const baseLayers = base.RootFS?.Layers ?? []
  const extendsBase = baseLayers.length > 0 && baseLayers.every((layer, i) => layers[i] === layer)
  if (!extendsBase) {
    throw new AgentImageError(
      `${loaded.shown}: spec.base: ${tag} does not extend ${loaded.spec.spec.base} (${baseTag}); build it FROM the base image (ARG BASE_IMAGE / FROM \${BASE_IMAGE})`,
    )
  }
}
