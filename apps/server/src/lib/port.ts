/**
 * A call one module makes that a module wired after it answers: the few arrows of the composition that go
 * up. The users module mails a changed address through the auth module, but auth imports users, so it is
 * wired after it; the users module's wiring hands its service `emailSent.call` and returns the port, and the
 * auth module's wiring connects `accountEmail.addressChanged` to it. Every port is connected while app.ts
 * wires the modules, before the server answers anything: a call of one left unconnected throws rather than
 * skip what it stands for (a second factor, say).
 */
export interface Port<F extends (...args: never[]) => unknown> {
  /** What the calling module's service is handed. */
  readonly call: F;
  /** The answering module's wiring gives its function, once. */
  connect(answer: F): void;
}

export function port<F extends (...args: never[]) => unknown>(name: string): Port<F> {
  let answer: F | undefined;
  return {
    call: ((...args: never[]) => {
      if (!answer) throw new Error(`The ${name} port was called before a module connected it.`);
      return answer(...args);
    }) as F,
    connect(next) {
      if (answer) throw new Error(`The ${name} port is connected already: one module answers it.`);
      answer = next;
    },
  };
}
