// How every test server starts: on loopback (the network rule), on a port the system picks, so tests running side by
// side never collide. One helper instead of listen(0) and a cast of address() in each file.
import type { AddressInfo, Server } from 'node:net';

export const listenOnLoopback = async (server: Server): Promise<{ port: number; origin: string }> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return { port, origin: `http://127.0.0.1:${port}` };
};
