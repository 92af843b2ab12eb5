// The yardstick for the reference server: node:http doing the least a transaction endpoint can do (read the body,
// answer 202 with a small JSON), so the ratio shows what auth and limiting cost.
import { createServer } from 'node:http';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(202, { 'content-type': 'application/json' });
    res.end('{"status":"accepted"}');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
