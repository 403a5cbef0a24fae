import type { ComponentChildren } from 'preact';
import { FieldError, fieldIdentity, type FormErrors } from './field-errors.js';

/** What ties an input to its label, its hint and the API's error about it. */
export interface InputAttributes {
  readonly id: string;
  readonly 'aria-invalid': true | undefined;
  readonly 'aria-describedby': string | undefined;
}

/**
 * A label, one input (drawn by `input`), an optional hint, and the API's error for `path`
 * (its field path, `rules[0].destination`) under it, tied by aria-describedby.
 */
export function Field(props: {
  prefix: string;
  path: string;
  errors: FormErrors;
  label: ComponentChildren;
  hint?: string;
  input: (attributes: InputAttributes) => ComponentChildren;
}) {
  const { id, message, errorId, invalid } = fieldIdentity(props.prefix, props.path, props.errors);
  const hintId = `${id}-hint`;
  const described = [props.hint === undefined ? '' : hintId, invalid['aria-describedby'] ?? '']
    .filter((part) => part !== '')
    .join(' ');
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.input({
        id,
        'aria-invalid': invalid['aria-invalid'],
        'aria-describedby': described === '' ? undefined : described,
      })}
      {props.hint !== undefined && <small id={hintId}>{props.hint}</small>}
      <FieldError id={errorId} message={message} />
    </div>
  );
}

/** Checkboxes of one name in a fieldset, the API's error for `path` under them. */
export function ChoiceGroup(props: {
  prefix: string;
  path: string;
  errors: FormErrors;
  legend: string;
  name: string;
  choices: readonly string[];
  checked: readonly string[];
}) {
  const { id, message, errorId, invalid } = fieldIdentity(props.prefix, props.path, props.errors);
  return (
    <fieldset class="choices" id={id} {...invalid}>
      <legend>{props.legend}</legend>
      {props.choices.map((choice) => (
        <label class="inline" key={choice}>
          <input
            type="checkbox"
            name={props.name}
            value={choice}
            defaultChecked={props.checked.includes(choice)}
          />{' '}
          {choice}
        </label>
      ))}
      <FieldError id={errorId} message={message} />
    </fieldset>
  );
}

/** The API's error about a whole group (`rules[0].when`, `variants`), where it is shown. */
export function GroupError(props: { prefix: string; path: string; errors: FormErrors }) {
  const { message, errorId } = fieldIdentity(props.prefix, props.path, props.errors);
  return <FieldError id={errorId} message={message} />;
}
