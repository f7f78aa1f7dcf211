import { ErrorBody } from '@share-arts/contract';
import { Type } from 'typebox';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is not valid; the message says which field and what is allowed',
  401: 'Missing or invalid token',
  403: 'Not yours: the message says what you may use instead',
  404: 'Not found',
  409: 'Conflict: it is already so, as the message says (a second open report of the same thing)',
  413: 'Too large',
  415: 'Unsupported Content-Type or file type',
  422: 'Unprocessable',
  426: 'Upgrade Required: open it as a WebSocket',
  429: 'Too many requests; see Retry-After',
  502: 'Another server did not answer; the message says which',
  503: 'The database cannot be reached right now',
};

/** Response schemas for the error statuses a route can answer, each `{ errors: [message] }`. */
export function errorResponses(...statuses: number[]) {
  return Object.fromEntries(
    statuses.map((status) => [status, Type.Object(ErrorBody.properties, { description: ERROR_DESCRIPTIONS[status] })]),
  );
}

export const bearerAuth = [{ bearerAuth: [] }];
