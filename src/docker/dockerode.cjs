// dockerode, with the parts agentest rarely needs loaded on first use instead of up front.
// docker-modem requires ssh2 as it loads (for ssh:// engines) and dockerode requires gRPC and its
// proto loader (for BuildKit sessions): together about 0.1 CPU-s of every process that talks to
// Docker, and a desktop run starts several (its main process, each worker, the container reaper).
// Plain CommonJS so the reaper (plugin/container-reaper.mjs) loads it with `node` alone.
'use strict'
const Module = require('node:module')

const fromDockerode = Module.createRequire(require.resolve('dockerode'))
const fromModem = Module.createRequire(fromDockerode.resolve('docker-modem'))

/** Puts `exports` in Node's module cache where `request` resolves from `from`, unless it is loaded. */
function stand(from, request, makeExports) {
  const path = from.resolve(request)
  if (require.cache[path]) return
  let real = null
  const load = () => {
    if (!real) {
      delete require.cache[path]
      real = from(request)
    }
    return real
  }
  const stand = new Module(path)
  stand.filename = path
  stand.loaded = true
  stand.exports = makeExports(load)
  require.cache[path] = stand
}

/** A module whose members load it when first read: right for code that reads them only when used. */
const onFirstRead = (load) => new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() })

let Docker = null

/** The dockerode class (loaded once per process). */
function loadDockerode() {
  if (Docker) return Docker
  // docker-modem reads ssh2's Client as it loads and constructs one only for an ssh:// engine.
  stand(fromModem, 'ssh2', (load) => ({
    Client: function Client(...args) {
      return new (load().Client)(...args)
    },
  }))
  stand(fromDockerode, '@grpc/grpc-js', onFirstRead)
  stand(fromDockerode, '@grpc/proto-loader', onFirstRead)
  Docker = require('dockerode')
  return Docker
}

module.exports = { loadDockerode }
