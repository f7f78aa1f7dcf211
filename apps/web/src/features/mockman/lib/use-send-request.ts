import { useEffect, useRef, useState } from 'react';
import { toast } from '../../../ui/toast';
import { sendRequest, type MockmanResult, type PreparedRequest } from './request';
import { toastText } from '../../../lib/spec-toasts';

/** One request at a time: sends it, keeps its answer, and stops it on Cancel or when the page is left. */
export function useSendRequest() {
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<MockmanResult>();
  const controllerRef = useRef<AbortController | null>(null);

  // Leaving the page stops a request still running.
  useEffect(() => () => controllerRef.current?.abort(), []);

  /** Whether a request is under way; known at once, where `pending` waits for the next render. */
  const busy = () => controllerRef.current !== null;

  const send = async (request: PreparedRequest) => {
    const controller = new AbortController();
    controllerRef.current = controller;
    setPending(true);
    const answer = await sendRequest(request, controller.signal);
    controllerRef.current = null;
    setPending(false);
    setResult(answer);
    if (answer.kind === 'none' && answer.reason === 'network') {
      toast.error(toastText('responseUndefined'), { toastId: 'mockman-no-response' });
    }
  };

  const cancel = () => controllerRef.current?.abort();

  return { pending, result, busy, send, cancel };
}
