import { PUSH_KINDS, type PushKey, type PushKind, type PushSubscriptionState } from '@share-arts/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { forgetThisDevice, keepPushSubscription, subscribeThisDevice } from '../../../lib/pwa/push-device';
import { notificationKeys } from './notification-keys';

/** Web Push on this device (issue 44): the server's view of this session's subscription, and turning it on or off. */

const pushKey = [...notificationKeys.all, 'push'] as const;

export const pushStateQuery = () =>
  queryOptions({
    queryKey: pushKey,
    queryFn: ({ signal }) => apiClient.get<PushSubscriptionState>('/api/push/subscription', { signal }),
    staleTime: 60_000,
  });

export function usePushState() {
  return useQuery(pushStateQuery());
}

/** Asks the permission, subscribes the browser with the server's key, and tells the server (with the kinds). */
async function turnOn(kinds: PushKind[]): Promise<PushSubscriptionState> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') {
    throw new Error(
      permission === 'denied'
        ? 'Notifications are blocked for this site. Allow them in your browser’s site settings, then try again.'
        : 'Notifications were not allowed. Try again and choose Allow.',
    );
  }
  const { publicKey } = await apiClient.get<PushKey>('/api/push/key');
  const subscription = await subscribeThisDevice(publicKey);
  const state = await apiClient.put<PushSubscriptionState>('/api/push/subscription', { ...subscription, kinds });
  await keepPushSubscription(subscription, state.kinds);
  return state;
}

export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kinds: PushKind[] = [...PUSH_KINDS]) => turnOn(kinds),
    onSuccess: (state) => queryClient.setQueryData(pushKey, state),
  });
}

export function useTurnOffPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await forgetThisDevice();
      await apiClient.delete<null>('/api/push/subscription');
    },
    onSuccess: () =>
      queryClient.setQueryData<PushSubscriptionState>(pushKey, {
        subscribed: false,
        endpoint: null,
        kinds: [...PUSH_KINDS],
      }),
  });
}

export function usePushKinds() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kinds: PushKind[]) => apiClient.put<PushSubscriptionState>('/api/push/subscription', { kinds }),
    onSuccess: (state) => queryClient.setQueryData(pushKey, state),
  });
}
