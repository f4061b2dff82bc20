import net from 'node:net';

/**
 * A TCP proxy in front of a real server (Redis, PostgreSQL) that a test can take away without
 * touching the server others use: `freeze()` stops forwarding bytes both ways with the connections
 * kept open (a hung server, a black-holed link), `thaw()` forwards again, `close()` drops every
 * connection and stops listening (a crashed server: connection refused), `open()` listens again
 * on the same port.
 */
export class TcpProxy {
  private server: net.Server | null = null;
  private readonly pairs = new Set<[net.Socket, net.Socket]>();
  private frozen = false;
  port = 0;

  constructor(
    private readonly target: { host: string; port: number },
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      const pair: [net.Socket, net.Socket] = [client, upstream];
      this.pairs.add(pair);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.pairs.delete(pair);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
      if (this.frozen) this.pause(pair);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  freeze(): void {
    this.frozen = true;
    for (const pair of this.pairs) this.pause(pair);
  }

  thaw(): void {
    if (!this.frozen) return;
    this.frozen = false;
    for (const [client, upstream] of this.pairs) {
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
      upstream.resume();
    }
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const [client, upstream] of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    this.pairs.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private pause([client, upstream]: [net.Socket, net.Socket]): void {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  }
}
