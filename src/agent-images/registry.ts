import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import semver from 'semver'
import { LineCounter, parseDocument } from 'yaml'
import { describeZodError, InputError } from '../config/errors.ts'
import { AgentImageMaxima, AgentImageSpec, refusals } from './spec.ts'

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
 * Reads and checks one spec file. Every problem is one line naming the file and the field;
 * all of a file's problems are reported at once.
 */
export function loadAgentSpec(file: string, root: string, max: AgentImageMaxima = AgentImageMaxima.parse({})): LoadedAgentSpec {
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
  const refused = refusals(parsed.data, max)
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
  private constructor(readonly specs: readonly LoadedAgentSpec[]) {}

  /** Loads every `*.agent.yaml` under the folders (missing folders are skipped). */
  static load(folders: readonly string[], root: string, max?: AgentImageMaxima): AgentImageRegistry {
    const specs: LoadedAgentSpec[] = []
    const problems: string[] = []
    const seen = new Map<string, string>()
    for (const folder of folders) {
      for (const file of specFiles(resolve(root, folder))) {
        try {
          const loaded = loadAgentSpec(file, root, max)
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
    return new AgentImageRegistry(specs)
  }

  /** `name:version`, or `name` (or `name:latest`) for the highest version. */
  resolve(reference: string): LoadedAgentSpec {
    const [name, version = 'latest'] = reference.split(':', 2) as [string, string?]
    const versions = this.specs.filter((s) => s.spec.metadata.name === name)
    if (versions.length === 0) {
      const known = [...new Set(this.specs.map((s) => s.spec.metadata.name))].sort()
      throw InputError.bare(`unknown agent image "${name}" (known: ${known.join(', ') || 'none; put specs in agents/<name>.agent.yaml'})`)
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

/** The build context of a spec, as an absolute folder. */
export function buildContext(loaded: LoadedAgentSpec): string {
  return resolve(dirname(loaded.file), loaded.spec.spec.build?.context ?? '.')
}
