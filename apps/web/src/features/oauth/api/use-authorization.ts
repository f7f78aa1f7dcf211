import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** The authorization's parameters, as the app put them in /oauth/authorize's address (issue 45). */
export const AUTHORIZE_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>;

/** GET /api/oauth/authorizations/new: the app and what it asks (the server checked the link). */
export interface AuthorizationPreview {
  app: { name: string; website: string | null };
  scopes: string[];
  redirectUri: string;
  outOfBand: boolean;
}

/** POST /api/oauth/authorizations: where to send the person back, or the code to copy (out of band). */
export interface AuthorizationDecision {
  redirectUrl: string | null;
  code: string | null;
}

/** The parameters the server reads, from the page's query string (others, like force_login and lang, stay out). */
export function authorizeParamsOf(search: string): AuthorizeParams {
  const query = new URLSearchParams(search);
  const params: AuthorizeParams = {};
  for (const name of AUTHORIZE_PARAMS) {
    const value = query.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

export function useAuthorizationPreview(params: AuthorizeParams) {
  const query = new URLSearchParams(params as Record<string, string>).toString();
  return useQuery({
    queryKey: ['oauth', 'authorization', query],
    queryFn: ({ signal }) => apiClient.get<AuthorizationPreview>(`/api/oauth/authorizations/new?${query}`, { signal }),
    retry: false,
    staleTime: Infinity,
  });
}

export function useAuthorizationDecision(params: AuthorizeParams) {
  return useMutation({
    mutationFn: (approve: boolean) =>
      apiClient.post<AuthorizationDecision>('/api/oauth/authorizations', { ...params, approve }),
  });
}
