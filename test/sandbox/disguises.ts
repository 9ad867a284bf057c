/** Shared by the UrlPolicy unit test and the browser test: one list of disguised endpoint URLs. */

/**
 * Ways to write a clone's harness endpoint that a browser loads, or a server routes, as that
 * endpoint, none of which contains the blocklist's `http://127.0.0.1:PORT/finish` as written.
 */
export function disguises(port: number, path: '/finish' | '/config'): string[] {
  const rest = path.slice(1)
  const escaped = `%${rest.charCodeAt(0).toString(16)}${rest.slice(1)}`
  const host = `127.0.0.1:${port}`
  return [
    `http://x@${host}${path}`,
    `http://x:y@${host}${path}`,
    `http://:y@${host}${path}`,
    `HTTP://127.0.0.1:${port}${path}`,
    `http://${host}${path.toUpperCase()}`,
    `http://${host}/${escaped}`,
    `http://${host}/%25${escaped.slice(1)}`,
    `http://${host}/x/../${rest}`,
    `http://${host}/./${rest}`,
    `http://${host}/x/%2e%2e/${rest}`,
    `http://${host}/x%2f..%2f${rest}`,
    `http://${host}${path}/`,
    `http://${host}/${path}`,
    `http://${host}\\${rest}`,
    `http://127.0.0.1.:${port}${path}`,
    `http://127.0.0.%31:${port}${path}`,
    `http://2130706433:${port}${path}`,
    `http://0x7f.1:${port}${path}`,
    `http://0177.0.0.1:${port}${path}`,
    `http://127.1:${port}${path}`,
    `http://[::ffff:127.0.0.1]:${port}${path}`,
    `http://localhost:${port}${path}`,
  ]
}
