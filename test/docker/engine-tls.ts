import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, type TLSSocket } from 'node:tls'
import { pipeToEngine } from './engine-proxy.ts'

/**
 * A TLS front for the local engine's socket, as a remote engine over `tcp://` with TLS looks: it
 * presents a server certificate for 127.0.0.1 and accepts only clients with a certificate signed
 * by its CA (Docker's --tlsverify). `certPath` holds what DOCKER_CERT_PATH needs (ca.pem,
 * cert.pem, key.pem); every request line it carried, decrypted, is kept.
 */
export interface TlsEngine {
  dockerHost: string
  certPath: string
  requests: string[]
  /** Connections refused for want of a client certificate signed by the CA. */
  refused: number
  close(): Promise<void>
}

export async function startTlsEngine(socketPath = '/var/run/docker.sock'): Promise<TlsEngine> {
  const dir = mkdtempSync(join(tmpdir(), 'agentest-engine-tls-'))
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=agentest-test-ca', '-keyout', 'ca-key.pem', '-out', 'ca.pem')
  for (const [name, extension] of [['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth'], ['client', 'extendedKeyUsage=clientAuth']] as const) {
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=agentest-test-${name}`, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`)
    writeFileSync(join(dir, `${name}.ext`), `${extension}\n`)
    openssl('x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-days', '1', '-extfile', `${name}.ext`, '-out', `${name}.pem`)
  }
  // DOCKER_CERT_PATH's names: the CA, and the client's certificate and key.
  writeFileSync(join(dir, 'cert.pem'), readFileSync(join(dir, 'client.pem')))
  writeFileSync(join(dir, 'key.pem'), readFileSync(join(dir, 'client-key.pem')))
  const requests: string[] = []
  let refused = 0
  const read = (name: string) => readFileSync(join(dir, name))
  const server = createServer({ key: read('server-key.pem'), cert: read('server.pem'), ca: read('ca.pem'), requestCert: true, rejectUnauthorized: true }, (client: TLSSocket) => pipeToEngine(client, socketPath, requests))
  server.on('tlsClientError', () => void (refused += 1))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    dockerHost: `tcp://127.0.0.1:${port}`,
    certPath: dir,
    requests,
    get refused() {
      return refused
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
