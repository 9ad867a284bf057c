import { describe, expect, test } from 'vitest'
import { ROOT } from '../e2e/run-benchmark.ts'
import { folderCycles, importsUnder, type Import } from './import-graph.ts'

/**
 * The folders of src/ form layers: no folder imports one that imports it back, however far round.
 * A cycle is named with the imports that make it, so the fix is plain.
 */
describe('the layers of src/', () => {
  const imports = importsUnder(ROOT, 'src')

  test('the import graph is read: every folder of src/ is in it', () => {
    expect(imports.length).toBeGreaterThan(500)
    const folders = new Set(imports.map((i) => i.from.split('/')[1]))
    for (const folder of ['task', 'sandbox', 'schema', 'agents', 'grading', 'runs', 'report']) expect(folders).toContain(folder)
  })

  test('no two folders of src/ import each other, directly or round a loop', () => {
    const cycles = folderCycles(imports).map(({ folders, ties }) => `${folders.join(' <-> ')}: ${ties.map((t) => `${t.from} -> ${t.to}`).join('; ')}`)
    expect(cycles).toEqual([])
  })

  test('the core names no app: only src/index.ts (the package\'s front) imports an app\'s folder', () => {
    const intoApps = imports.filter((i) => i.to.startsWith('fixtures/apps/') && i.from !== 'src/index.ts')
    expect(intoApps.map((i) => `${i.from} -> ${i.to}`)).toEqual([])
  })

  test('a loop is found, however long, and named by its imports', () => {
    const planted: Import[] = [
      { from: 'src/schema/a.ts', to: 'src/files/b.ts' },
      { from: 'src/files/b.ts', to: 'src/task/c.ts' },
      { from: 'src/task/c.ts', to: 'src/schema/d.ts' },
      { from: 'src/report/e.ts', to: 'src/task/c.ts' },
    ]
    expect(folderCycles(planted)).toEqual([{ folders: ['files', 'schema', 'task'], ties: planted.slice(0, 3) }])
    expect(folderCycles(planted.slice(1))).toEqual([])
  })
})
