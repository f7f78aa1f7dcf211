import { format, SOURCE_LOCALE } from './i18n.js';

/** The values a message written with placeholders is filled with: names, counts, limits. */
export type MessageValues = Record<string, string | number>;

/** An error whose message is safe to show the client, with the HTTP status it answers with. */
export class HttpError extends Error {
  /**
   * A message written with placeholders (`We found nobody at {query}.`, `Please try again in {seconds} s.`, issue
   * 43): its template, as its catalogue has it; the answer fills it with `values` in the reader's language, and
   * `message` is the English filled in (what a caller that does not translate, the Mastodon API, sends).
   */
  readonly template: string | undefined;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The values of `message` when it is written with placeholders (an ICU message). */
    readonly values?: MessageValues,
  ) {
    super(values ? format(SOURCE_LOCALE, message, values) : message);
    this.template = values ? message : undefined;
    this.name = 'HttpError';
  }
}

/** A refusal whose message has placeholders, filled with `values` in the reader's language (issue 43). */
export const refusal = (
  statusCode: number,
  template: string,
  values: MessageValues,
  headers: Record<string, string> = {},
) => new HttpError(statusCode, template, headers, values);

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const notFound = (message: string) => new HttpError(404, message);
export const unprocessable = (message: string) => new HttpError(422, message);
