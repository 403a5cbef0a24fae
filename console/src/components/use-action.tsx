import { useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { Alert } from './alert.js';

/**
 * A list page's actions (delete, revoke, rename): one at a time, its outcome said once,
 * a success in the status line and a refusal (the API's detail: a 409's reason) as an
 * alert, then the list loaded again.
 */
export function useAction(reload: () => void) {
  const [status, setStatus] = useState('');
  const [failure, setFailure] = useState('');
  const said = (message: string) => {
    setFailure('');
    setStatus(message);
    reload();
  };
  const run = (action: () => Promise<unknown>, done: string) => {
    setStatus('');
    setFailure('');
    action().then(
      () => {
        said(done);
      },
      (e: unknown) => {
        setFailure(e instanceof ApiError ? e.message : 'That did not work.');
      },
    );
  };
  return { status, failure, said, run };
}

/** Where `useAction` says what happened. */
export function ActionStatus(props: { status: string; failure: string; testId: string }) {
  return (
    <>
      <Alert message={props.failure} />
      <p role="status" class="message" data-testid={props.testId}>
        {props.status}
      </p>
    </>
  );
}
