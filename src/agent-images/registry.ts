import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import semver from 'semver'
import { LineCounter, parseDocument } from 'yaml'
import { describeZodError, InputError } from '../errors/input-error.ts'
import { agentImagePolicy, AgentImageSpec, refusals, type AgentImagePolicy } from '../schema/agent-image.ts'

export const SPEC_SUFFIX = '.agent.yaml'

/** A spec file read and checked: where it is, and what it says. */
export interface LoadedAgentSpec {
  /** Absolute path of the YAML file. */
  file: string
  /** The file as shown to users (relative to the project). */
  shown: string
  spec: AgentImageSpec
  /** `name:version`. */
  ref: string
}

/**
 * Reads and checks one spec file against the user's policy (maxima, allowed secrets; without
 * one: default maxima and no secrets). Every problem is one line naming the file and the field;
 * all of a file's problems are reported at once.
 */
export function loadAgentSpec(file: string, root: string, policy: AgentImagePolicy = agentImagePolicy()): LoadedAgentSpec {
  const shown = relative(root, file) || file
  const lineCounter = new LineCounter()
  const doc = parseDocument(readFileSync(file, 'utf8'), { prettyErrors: false, lineCounter })
  const yamlError = doc.errors[0]
  if (yamlError) {
    const { line, col } = lineCounter.linePos(yamlError.pos[0])
    throw InputError.bare(`${shown}:${line}:${col}: malformed YAML: ${yamlError.message.split('\n')[0]}`)
  }
  const parsed = AgentImageSpec.safeParse(doc.toJS() ?? {})
  if (!parsed.success) throw InputError.bare(describeZodError(shown, parsed.error))
  const refused = [...refusals(parsed.data, policy), ...buildRefusals(file, parsed.data)]
  if (refused.length > 0) throw InputError.bare(refused.map((r) => `${shown}: ${r.path}: ${r.message}`).join('\n'))
  const { name, version } = parsed.data.metadata
  return { file, shown, spec: parsed.data, ref: `${name}:${version}` }
}

function specFiles(folder: string): string[] {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith(SPEC_SUFFIX) && !path.split(/[\\/]/).includes('node_modules'))
    .sort()
    .map((path) => join(folder, path))
}

/** Every agent image spec under the configured folders, by `name:version`. */
export class AgentImageRegistry {
  private constructor(
    readonly specs: readonly LoadedAgentSpec[],
    /** The folders searched, as shown in messages (relative to the project). */
    private readonly searched: readonly string[] = [],
  ) {}

  /** Loads every `*.agent.yaml` under the folders (missing folders are skipped). */
  static load(folders: readonly string[], root: string, policy?: AgentImagePolicy): AgentImageRegistry {
    const specs: LoadedAgentSpec[] = []
    const problems: string[] = []
    const seen = new Map<string, string>()
    for (const folder of folders) {
      for (const file of specFiles(resolve(root, folder))) {
        try {
          const loaded = loadAgentSpec(file, root, policy)
          const earlier = seen.get(loaded.ref)
          if (earlier) {
            problems.push(`${loaded.shown}: metadata: ${loaded.ref} is already defined in ${earlier}`)
            continue
          }
          seen.set(loaded.ref, loaded.shown)
          specs.push(loaded)
        } catch (error) {
          problems.push(error instanceof Error ? error.message : String(error))
        }
      }
    }
    if (problems.length > 0) throw InputError.bare(problems.join('\n'))
    return new AgentImageRegistry(specs, folders.map((folder) => relative(root, resolve(root, folder)) || '.'))
  }

  /** `name:version`, or `name` (or `name:latest`) for the highest version. */
  resolve(reference: string): LoadedAgentSpec {
    const [name, version = 'latest'] = reference.split(':', 2) as [string, string?]
    const versions = this.specs.filter((s) => s.spec.metadata.name === name)
    if (versions.length === 0) {
      const known = [...new Set(this.specs.map((s) => s.spec.metadata.name))].sort()
      const where = this.searched.length ? this.searched.map((folder) => `${folder}/`).join(', ') : 'agents/'
      throw InputError.bare(`unknown agent image "${name}" (known: ${known.join(', ') || `none in ${where}; put specs there as <name>.agent.yaml (agent_images.folders, relative to the config file)`})`)
    }
    if (version === 'latest') {
      return versions.reduce((best, s) => (semver.gt(s.spec.metadata.version, best.spec.metadata.version) ? s : best))
    }
    const found = versions.find((s) => s.spec.metadata.version === version)
    if (!found) {
      const known = versions.map((s) => s.spec.metadata.version).sort(semver.compare)
      throw InputError.bare(`agent image "${name}" has no version ${version} (known: ${known.join(', ')})`)
    }
    return found
  }
}

/**
 * The build context of a spec, as an absolute folder with symlinks resolved. It is checked again
 * here, right before a build packs it: a context that has come to point outside the spec's
 * folder since the spec was loaded is refused, not sent.
 */
export function buildContext(loaded: LoadedAgentSpec): string {
  const problem = buildRefusals(loaded.file, loaded.spec)[0]
  if (problem) throw InputError.bare(`${loaded.shown}: ${problem.path}: ${problem.message}`)
  return realpathSync(resolve(dirname(loaded.file), loaded.spec.spec.build?.context ?? '.'))
}

/**
 * A build may pack only the spec's own folder or one inside it, after symlinks are resolved
 * (anything else would be a host mount by another name), and its Dockerfile must be inside the
 * context.
 */
function buildRefusals(file: string, spec: AgentImageSpec): Array<{ path: string; message: string }> {
  const build = spec.spec.build
  if (!build) return []
  const refuse = (field: string, message: string) => [{ path: `spec.build.${field}`, message }]
  if (isAbsolute(build.context)) return refuse('context', `${build.context} is an absolute path; the build context must be the spec's folder or one inside it`)
  const folder = realpathSync(dirname(file))
  const lexical = resolve(dirname(file), build.context)
  if (!existsSync(lexical)) return refuse('context', `no such folder: ${build.context}`)
  const context = realpathSync(lexical)
  if (!inside(context, folder)) {
    const how = inside(resolve(folder, build.context), folder) ? `resolves through a symlink to ${context}` : 'leaves the spec\'s folder'
    return refuse('context', `${build.context} ${how}; the build context must be the spec's folder or one inside it`)
  }
  if (!statSync(context).isDirectory()) return refuse('context', `${build.context} is not a folder`)
  if (isAbsolute(build.dockerfile)) return refuse('dockerfile', `${build.dockerfile} is an absolute path; give the Dockerfile's path inside the build context`)
  const dockerfile = resolve(context, build.dockerfile)
  const real = existsSync(dockerfile) ? realpathSync(dockerfile) : dockerfile
  if (!inside(real, context) || real === context) return refuse('dockerfile', `${build.dockerfile} is outside the build context ${build.context}`)
  return []
}

/** Whether `path` is `folder` or below it (both absolute, symlinks resolved). */
function inside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep)
}
