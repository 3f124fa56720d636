/**
 * A port free on 127.0.0.1 right now, for a server started by a test that takes a port number
 * rather than 0 (nginx, squid, tinyproxy, `coachbench serve` as the README writes it).
 */
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
