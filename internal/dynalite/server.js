// Runs dynalite (a DynamoDB-compatible engine) for the local server and the
// tests. It prints {"port": N} once listening, and exits when the process
// that started it closes its stdin, so no engine outlives its parent.
'use strict'
const dynalite = require('dynalite')

const args = process.argv.slice(2)
const opt = (name) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const port = Number(opt('--port') || 0)
const path = opt('--path')

const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 })
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n')
})

const stop = () => server.close(() => process.exit(0))
process.stdin.on('end', stop)
process.stdin.on('close', stop)
process.stdin.resume()
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
