// A forward proxy on loopback for tests, as an enterprise network has: HTTP CONNECT tunnels only (undici tunnels
// every request), and only to 127.0.0.1, so nothing a test does leaves the machine. It records each tunnel, and can
// put a server behind it, at a port that leads to the server only through the proxy, as a firewall would.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type Socket } from 'node:net';
import { listenOnLoopback } from '../support/listen.ts';

export interface TestProxy {
  readonly url: string;
  /** `host:port` of every tunnel asked for, in order. */
  readonly tunnels: string[];
  /** Connections made straight to a port from `behind`, which the proxy was meant to carry. */
  readonly direct: () => number;
  /** An origin for `origin` that works only through the proxy: straight to it, a connection is counted and cut. */
  behind(origin: string): Promise<string>;
  close(): Promise<void>;
}

const listen = async (server: Server | ReturnType<typeof createTcpServer>): Promise<number> =>
  (await listenOnLoopback(server)).port;

export const startProxy = async (): Promise<TestProxy> => {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  /** Port behind the proxy -> the real server's port. */
  const hidden = new Map<number, number>();
  const traps: ReturnType<typeof createTcpServer>[] = [];
  let direct = 0;
  const server = createServer((_req, res) => {
    res.writeHead(405, { allow: 'CONNECT' });
    res.end();
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? '';
    tunnels.push(target);
    sockets.add(client);
    const match = /^127\.0\.0\.1:(\d+)$/.exec(target);
    if (match === null) {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const port = Number(match[1]);
    const upstream = connect(hidden.get(port) ?? port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n'));
    client.on('error', () => upstream.destroy());
    for (const socket of [client, upstream]) socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    direct: () => direct,
    behind: async (origin) => {
      const trap = createTcpServer((socket) => {
        direct++;
        socket.destroy();
      });
      traps.push(trap);
      const trapPort = await listen(trap);
      hidden.set(trapPort, Number(new URL(origin).port));
      return `${new URL(origin).protocol}//127.0.0.1:${trapPort}`;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(
        [server, ...traps].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
    },
  };
};
