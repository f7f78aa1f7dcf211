import { t } from '@lingui/core/macro';
import { useQuery } from '@tanstack/react-query';
import { isHttpMethod, type HttpMethod } from './request';

export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/** One route from our OpenAPI document, as the endpoint field suggests it. */
export interface EndpointSuggestion {
  method: HttpMethod;
  /** The path with `{id}` written as `:id`, a placeholder to replace before sending. */
  path: string;
  summary: string;
}

/** `{postId}` becomes `:postId`. */
export function toPlaceholderPath(path: string): string {
  return path.replace(/\{([^}/]+)\}/g, ':$1');
}

/** Reads `paths` of an OpenAPI 3 document into method + path + one-line summary, in document order. */
export function parseSuggestions(document: unknown): EndpointSuggestion[] {
  if (typeof document !== 'object' || document === null || !('paths' in document)) return [];
  const { paths } = document;
  if (typeof paths !== 'object' || paths === null) return [];
  const suggestions: EndpointSuggestion[] = [];
  for (const [path, operations] of Object.entries(paths)) {
    if (typeof operations !== 'object' || operations === null) continue;
    for (const [method, operation] of Object.entries(operations)) {
      const upper = method.toUpperCase();
      if (!isHttpMethod(upper)) continue;
      const summary =
        typeof operation === 'object' && operation !== null && 'summary' in operation
          ? String(operation.summary ?? '')
          : '';
      suggestions.push({ method: upper, path: toPlaceholderPath(path), summary: summary.split('\n')[0] ?? '' });
    }
  }
  return suggestions;
}

async function fetchSuggestions({ signal }: { signal: AbortSignal }): Promise<EndpointSuggestion[]> {
  const response = await fetch(OPENAPI_PATH, { headers: { accept: 'application/json' }, signal });
  if (!response.ok) {
    const status = response.status;
    throw new Error(t`The API description answered ${status}.`);
  }
  return parseSuggestions(await response.json());
}

/** The API's routes, for the endpoint field's suggestions. Loaded once per visit. */
export function useEndpointSuggestions() {
  return useQuery({
    queryKey: ['mockman', 'openapi'],
    queryFn: fetchSuggestions,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: 1,
  });
}

/** The datalist value of a suggestion, e.g. `POST /api/users/edit`. */
export function suggestionValue(suggestion: Pick<EndpointSuggestion, 'method' | 'path'>): string {
  return `${suggestion.method} ${suggestion.path}`;
}

/** Splits a picked suggestion (`POST /api/posts`) back into method and path; undefined for plain typing. */
export function parsePickedSuggestion(value: string): { method: HttpMethod; path: string } | undefined {
  const match = /^([A-Za-z]+)\s+(\/\S*)$/.exec(value.trim());
  const [, word = '', path = ''] = match ?? [];
  const method = word.toUpperCase();
  return match && isHttpMethod(method) ? { method, path } : undefined;
}
