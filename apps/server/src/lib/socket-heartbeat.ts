/** A socket that answers pings: `alive` is set again by its 'pong' handler. */
export interface HeartbeatSocket {
  alive: boolean;
  socket: { ping(): void; terminate(): void };
}

/**
 * Pings every socket of `connections` each `intervalMs`; one that did not answer the ping before is ended (missed a
 * whole heartbeat: the peer is gone or stuck; terminate() frees it without a handshake). Answers the function that
 * stops it. The live socket and the Mastodon API's streaming socket share it.
 */
export function startHeartbeat(connections: Iterable<HeartbeatSocket>, intervalMs: number): () => void {
  const heartbeat = setInterval(() => {
    for (const connection of connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }, intervalMs);
  heartbeat.unref();
  return () => clearInterval(heartbeat);
}
