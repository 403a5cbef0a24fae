import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive action asked twice: the button, then "confirm" and "keep" in its place.
 * Focus follows the question: onto the confirming button when asked, back after "keep".
 */
export function ConfirmButton(props: {
  /** The button's text, and its accessible name (`name`) when the text alone is ambiguous. */
  label: string;
  name?: string;
  confirm: string;
  keep: string;
  small?: boolean;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useLayoutEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (asked.current) askRef.current?.focus();
    asked.current ||= confirming;
  }, [confirming]);
  const size = props.small === true ? ' small' : '';
  if (!confirming) {
    return (
      <button
        type="button"
        class={`danger${size}`}
        ref={askRef}
        aria-label={props.name}
        disabled={props.disabled}
        onClick={() => {
          setConfirming(true);
        }}
      >
        {props.label}
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        class={`danger${size}`}
        ref={confirmRef}
        onClick={() => {
          setConfirming(false);
          props.onConfirm();
        }}
      >
        {props.confirm}
      </button>
      <button
        type="button"
        class={`secondary${size}`}
        onClick={() => {
          setConfirming(false);
        }}
      >
        {props.keep}
      </button>
    </>
  );
}

/** A row's change and delete buttons, each named with the row's `subject` for screen readers. */
export function ChangeOrDelete(props: {
  subject: string;
  change: string;
  confirm: string;
  /** False: no Delete (the default domain cannot be deleted). */
  deletable?: boolean;
  onChange: () => void;
  onDelete: () => void;
}) {
  return (
    <span class="row-actions">
      <button
        type="button"
        class="secondary small"
        aria-label={`${props.change} ${props.subject}`}
        onClick={props.onChange}
      >
        {props.change}
      </button>
      {props.deletable !== false && (
        <ConfirmButton
          small
          label="Delete"
          name={`Delete ${props.subject}`}
          confirm={props.confirm}
          keep="Keep it"
          onConfirm={props.onDelete}
        />
      )}
    </span>
  );
}
