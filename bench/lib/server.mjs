// Waiting for a server the benchmarks start as a child process.

/**
 * Resolves, once `child` prints output matching `ready` (whose first group is
 * the server's URL), with `{ url, pid, stop }`. Rejects, killing the child,
 * when it exits first or does not get ready within `timeout` ms. `cleanup`
 * runs once the child has gone, whichever way.
 */
export function whenReady(child, ready, { name, timeout = 30_000, cleanup = () => {} }) {
  let output = ""
  child.stderr.on("data", (chunk) => (output += chunk))
  return new Promise((resolve, reject) => {
    let settled = false
    const fail = (message) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.kill("SIGKILL")
      cleanup()
      reject(new Error(`${name} ${message}:\n${output}`))
    }
    const timer = setTimeout(() => fail("did not start"), timeout)
    child.once("exit", (code) => fail(`exited (${code})`))
    child.stdout.on("data", (chunk) => {
      output += chunk
      const match = ready.exec(output)
      if (!match || settled) return
      settled = true
      clearTimeout(timer)
      child.removeAllListeners("exit")
      const gone = new Promise((done) => child.once("exit", done)).then(cleanup)
      resolve({
        url: match[1],
        pid: child.pid,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
          return gone
        },
      })
    })
  })
}
