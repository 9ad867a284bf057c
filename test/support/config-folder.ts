import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { stringify } from 'yaml'
import { InputError } from '../../src/config/index.ts'

/** A fresh folder holding `agentest.config.yaml` (YAML text, or an object to serialise), or none for null. */
export function folderWith(config: string | object | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-config-'))
  if (config !== null) {
    const text = typeof config === 'string' ? config : stringify(config)
    writeFileSync(join(dir, 'agentest.config.yaml'), text)
  }
  return dir
}

/** The message of the InputError that `work` throws; fails the test if it throws nothing or something else. */
export function errorOf(work: () => unknown): string {
  try {
    work()
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return (error as Error).message
  }
  throw new Error('expected an InputError')
}

/** Writes a minimal packaged-agent spec (and its Dockerfile) to `<dir>/agents/<name>/` that asks for `secrets`. */
export function writeAgentSpec(dir: string, name: string, secrets: string[]): string {
  const folder = join(dir, 'agents', name)
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'Dockerfile'), 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n')
  const spec = join(folder, `${name}.agent.yaml`)
  writeFileSync(
    spec,
    stringify({
      apiVersion: 'agentest/v1',
      kind: 'AgentImage',
      metadata: { name, version: '1.0.0' },
      spec: {
        description: `${name}: a test spec`,
        base: 'agentest/desktop',
        build: { context: '.' },
        secrets,
        ports: [{ name: 'agent', port: 8000 }],
        health: { path: '/health' },
      },
    }),
  )
  return spec
}
