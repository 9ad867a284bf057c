import { availableParallelism } from 'node:os'
import { describe, expect, test } from 'vitest'
import { browserScope } from '../../plugin/global-setup.ts'

describe('browser.scope: who launches the browser', () => {
  test('auto: a browser per worker up to one worker per core, one for the run beyond', () => {
    const cores = availableParallelism()
    expect(browserScope('auto', 1)).toBe('worker')
    expect(browserScope('auto', cores)).toBe('worker')
    expect(browserScope('auto', cores + 1)).toBe('run')
    expect(browserScope('auto', 64)).toBe('run')
  })

  test('a scope that is set is kept, whatever the worker count', () => {
    expect(browserScope('worker', 64)).toBe('worker')
    expect(browserScope('run', 1)).toBe('run')
  })
})
