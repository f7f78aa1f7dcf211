/**
 * Counts the live sockets of each client address that have not signed in yet. Until its hello frame a
 * socket costs the server a WebSocket, a timer and a place in every fan-out loop, for anyone who can
 * open a TCP connection: 3,000 from one address in 0.7 s were accepted (issue 18).
 */
export function createLiveAdmission(perAddress: number) {
  const waiting = new Map<string, number>();
  return {
    /**
     * Takes a place for a socket of `address` (an addressKey) and answers the function that gives it
     * back (once; call it when the socket signs in or closes), or null when `perAddress` already wait.
     */
    enter(address: string): (() => void) | null {
      const count = waiting.get(address) ?? 0;
      if (count >= perAddress) return null;
      waiting.set(address, count + 1);
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        const left = waiting.get(address)! - 1;
        if (left > 0) waiting.set(address, left);
        else waiting.delete(address);
      };
    },
  };
}
