import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createWebApp, type WebAppOptions } from './create-web-app.js';

/** A running server. */
export type WebServer = {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Stops accepting requests and ends open connections. */
  close(): Promise<void>;
};

/**
 * Starts the web app on `127.0.0.1:port` (0 picks a free port).
 * @throws Error when the port is taken.
 */
export function startWebServer(options: WebAppOptions & { port?: number }): Promise<WebServer> {
  const { app, close } = createWebApp(options);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => {
              close();
              done();
            });
          }),
      });
    });
    server.once('error', (error) => {
      close();
      reject(error);
    });
  });
}
