/** An error said aloud to screen readers (role=alert); nothing when there is none. */
export function Alert({ message }: { message: string }) {
  if (message === '') return null;
  return (
    <p role="alert" class="error">
      {message}
    </p>
  );
}
