/** An error whose message is safe to show the client, with the HTTP status it answers with. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /**
     * The values of a message written with placeholders (`We found nobody at {query}.`, issue 43): the answer
     * fills them in, in the reader's language; `message` is then the template, as its catalogue has it.
     */
    readonly values?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** A refusal whose message has placeholders, filled with `values` in the reader's language (issue 43). */
export const refusal = (statusCode: number, template: string, values: Record<string, string>) =>
  new HttpError(statusCode, template, {}, values);

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const notFound = (message: string) => new HttpError(404, message);
export const unprocessable = (message: string) => new HttpError(422, message);
