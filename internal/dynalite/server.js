// Runs dynalite (a DynamoDB-compatible engine) for the local server and the
// tests. It prints {"port": N} once listening, or {"error": ..., "detail":
// ...} and exits 2 when it cannot start ("port-in-use", "data-dir-locked",
// "data-dir", "listen"), and exits when the process that started it closes
// its stdin, so no engine outlives its parent.
'use strict'
const nodePath = require('path')
const dynalite = require('dynalite')

const args = process.argv.slice(2)
const opt = (name) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const port = Number(opt('--port') || 0)
const path = opt('--path')

const fail = (error, detail) => {
  process.stdout.write(JSON.stringify({ error, detail: String(detail) }) + '\n')
  process.exit(2)
}

// LevelDB locks its directory, and dynalite opens it without waiting: a
// second engine on a directory in use would listen, then crash on its first
// request. Open it once here to find out first.
async function checkDataDir () {
  const levelPath = require.resolve('level', { paths: [nodePath.dirname(require.resolve('dynalite'))] })
  const { Level } = require(levelPath)
  const probe = new Level(path)
  try {
    await probe.open()
  } catch (e) {
    if (e.cause && e.cause.code === 'LEVEL_LOCKED') fail('data-dir-locked', path)
    fail('data-dir', (e.cause && e.cause.message) || e.message)
  }
  await probe.close()
}

// Whether the port is free, first: on a port another engine holds, that
// engine (and its data) is what the caller wants to hear about.
function checkPort () {
  return new Promise((resolve) => {
    if (!port) return resolve()
    const probe = require('net').createServer()
    probe.once('error', (e) => fail(e.code === 'EADDRINUSE' ? 'port-in-use' : 'listen', e.code === 'EADDRINUSE' ? port : e.message))
    probe.listen(port, '127.0.0.1', () => probe.close(resolve))
  })
}

async function main () {
  await checkPort()
  if (path) await checkDataDir()
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
  server.on('error', (e) => fail(e.code === 'EADDRINUSE' ? 'port-in-use' : 'listen', e.code === 'EADDRINUSE' ? port : e.message))
  server.listen(port, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n')
  })

  const stop = () => server.close(() => process.exit(0))
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main()
