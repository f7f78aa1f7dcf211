import type {
  CreateInquiryBody,
  Inquiry,
  InquiryMessage,
  InquiryMessagePage,
  InquiryPage,
  InquiryPolicy,
  InquiryReferenceResponse,
  InquiryResponse,
  InquirySettings,
  InquirySettingsResponse,
  InquiryStateBody,
} from '@share-arts/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient, ApiError, fetchPrivatePicture } from '../../../lib/api-client';
import { uploadForm } from '../../../lib/upload';
import { inquiryKeys } from './inquiry-keys';

const enc = encodeURIComponent;
const withCursor = (path: string, cursor: string | null) =>
  cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${enc(cursor)}` : path;

export const inquiryPaths = {
  list: (as: 'artist' | 'client', cursor: string | null = null) => withCursor(`/api/inquiries?as=${as}`, cursor),
  one: (id: string) => `/api/inquiries/${enc(id)}`,
  messages: (id: string, cursor: string | null = null) => withCursor(`/api/inquiries/${enc(id)}/messages`, cursor),
  state: (id: string) => `/api/inquiries/${enc(id)}/state`,
  references: (id: string) => `/api/inquiries/${enc(id)}/references`,
  settings: '/api/inquiries/settings',
  policy: (username: string) => `/api/inquiries/to/${enc(username)}`,
};

/** The inbox (as the artist) or the sent list (as the client), the latest activity first. */
export function useInquiries(as: 'artist' | 'client') {
  const query = useInfiniteQuery({
    queryKey: inquiryKeys.list(as),
    queryFn: ({ pageParam, signal }) => apiClient.get<InquiryPage>(inquiryPaths.list(as, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
  const inquiries: Inquiry[] = query.data?.pages.flatMap((page) => page.inquiries) ?? [];
  return { ...query, inquiries };
}

export function useInquiry(id: string) {
  return useQuery({
    queryKey: inquiryKeys.detail(id),
    queryFn: async ({ signal }) => (await apiClient.get<InquiryResponse>(inquiryPaths.one(id), { signal })).inquiry,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 2,
  });
}

/** A thread's messages, oldest first, one keyset page at a time. */
export function useInquiryMessages(id: string) {
  const query = useInfiniteQuery({
    queryKey: inquiryKeys.messages(id),
    queryFn: ({ pageParam, signal }) =>
      apiClient.get<InquiryMessagePage>(inquiryPaths.messages(id, pageParam), { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage) => lastPage.nextCursor ?? undefined,
  });
  const messages: InquiryMessage[] = query.data?.pages.flatMap((page) => page.messages) ?? [];
  return { ...query, messages };
}

export function useInquirySettings() {
  return useQuery({
    queryKey: inquiryKeys.settings(),
    queryFn: async ({ signal }) =>
      (await apiClient.get<InquirySettingsResponse>(inquiryPaths.settings, { signal })).settings,
  });
}

export function useChangeInquirySettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (change: Partial<InquirySettings>) =>
      (await apiClient.put<InquirySettingsResponse>(inquiryPaths.settings, change)).settings,
    onSuccess: (settings) => queryClient.setQueryData(inquiryKeys.settings(), settings),
  });
}

/** Whether the signed-in viewer may send `username` an inquiry now. */
export function useInquiryPolicy(username: string, enabled = true) {
  return useQuery({
    queryKey: inquiryKeys.policy(username),
    queryFn: ({ signal }) => apiClient.get<InquiryPolicy>(inquiryPaths.policy(username), { signal }),
    enabled,
    retry: false,
  });
}

/** Sends an inquiry, then its reference pictures one by one; answers the inquiry as the server has it last. */
export function useSendInquiry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ body, files }: { body: CreateInquiryBody; files: File[] }) => {
      const { inquiry } = await apiClient.post<InquiryResponse>('/api/inquiries', body);
      for (const file of files) {
        const form = new FormData();
        form.append('file', file);
        await uploadForm<InquiryReferenceResponse>(inquiryPaths.references(inquiry._id), form);
      }
      return inquiry;
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: inquiryKeys.all }),
  });
}

export function useAnswerInquiry(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: string) =>
      (await apiClient.post<{ message: InquiryMessage }>(inquiryPaths.messages(id), { body })).message,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: inquiryKeys.messages(id) });
      void queryClient.invalidateQueries({ queryKey: inquiryKeys.detail(id) });
    },
  });
}

export function useChangeInquiryState(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: InquiryStateBody) =>
      (await apiClient.post<InquiryResponse>(inquiryPaths.state(id), body)).inquiry,
    onSuccess: (inquiry) => {
      queryClient.setQueryData(inquiryKeys.detail(id), inquiry);
      void queryClient.invalidateQueries({ queryKey: ['inquiries', 'list'] });
    },
  });
}

export function useDeleteInquiry(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.delete<void>(inquiryPaths.one(id)),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: inquiryKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: ['inquiries', 'list'] });
    },
  });
}

/**
 * A reference picture's bytes, fetched with the token (the route answers only the inquiry's two people, and an
 * <img> sends no token), as an object URL the caller revokes.
 */
export async function fetchReference(url: string, signal: AbortSignal): Promise<string> {
  return fetchPrivatePicture(url, signal);
}
