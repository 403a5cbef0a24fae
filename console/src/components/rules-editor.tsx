import type { Rule } from '../api.js';
import { localDateTime } from '../format.js';
import {
  CHOICES,
  INSTANT_CONDITIONS,
  LIST_CONDITIONS,
  queryLines,
  rowField,
  type ChoiceCondition,
} from '../smart-body.js';
import { fieldIdentity, type FormErrors } from './field-errors.js';
import { ChoiceGroup, Field, GroupError } from './form-field.js';
import { useRows, type Row } from './use-rows.js';

/** At most this many rules (src/domain/smart/smart-options.ts MAX_RULES). */
const MAX_RULES = 20;

const CHOICE_LEGENDS: Readonly<Record<ChoiceCondition, string>> = {
  device: 'Device',
  os: 'Operating system',
  browser: 'Browser',
};
const LIST_LABELS = {
  language: ['Languages', 'Comma-separated tags: de, pt-BR (de also matches de-AT).'],
  country: ['Countries', 'Comma-separated ISO codes: DE, AT, CH.'],
  ip: ['IP addresses', 'Comma-separated addresses or CIDRs: 203.0.113.0/24, 2001:db8::/32.'],
} as const;
// Labels say none of the words the other forms' labels use ("To", "From", "Destination"
// alone): a test finds a field by a part of its label.
const INSTANT_LABELS = {
  after: ['Starts', 'Your local time; the rule holds from then on.'],
  before: ['Ends', 'Your local time; the rule holds until then.'],
} as const;

const STATUS_CHOICES = [
  ['', "The link's own"],
  ['301', '301'],
  ['302', '302'],
  ['307', '307'],
  ['308', '308'],
] as const;

/**
 * Redirect rules (issue 21): tried in order, the first whose conditions all hold sends the
 * visitor to its destination. Rules can be added, removed and moved up or down.
 */
export function RulesEditor(props: { prefix: string; rules: readonly Rule[]; errors: FormErrors }) {
  const { prefix, errors } = props;
  const { rows, add, remove, move } = useRows(props.rules);
  return (
    <fieldset class="smart-group">
      <legend>Rules</legend>
      <small>
        Tried in order; the first rule whose conditions all hold wins. A rule needs at least one
        condition.
      </small>
      <GroupError prefix={prefix} path="rules" errors={errors} />
      {rows.map((row, index) => (
        <RuleRow
          key={row.key}
          prefix={prefix}
          row={row}
          index={index}
          last={index === rows.length - 1}
          errors={errors}
          onMove={(by) => {
            move(row.key, by);
          }}
          onRemove={() => {
            remove(row.key);
          }}
        />
      ))}
      <button
        type="button"
        class="secondary small"
        onClick={add}
        disabled={rows.length >= MAX_RULES}
      >
        Add rule
      </button>
    </fieldset>
  );
}

function RuleRow(props: {
  prefix: string;
  row: Row<Rule>;
  index: number;
  last: boolean;
  errors: FormErrors;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const { prefix, row, index, errors } = props;
  const rule = row.initial;
  const when = rule?.when ?? {};
  const name = (field: string) => rowField('rule', row.key, field);
  const path = `rules[${index}]`;
  const number = index + 1;
  const whole = fieldIdentity(prefix, `${path}.when`, errors);
  return (
    <fieldset class="rule" {...whole.invalid}>
      <legend>Rule {number}</legend>
      <input type="hidden" name="rule" value={row.key} />
      <div class="row-buttons">
        <button
          type="button"
          class="secondary small"
          aria-label={`Move rule ${number} up`}
          disabled={index === 0}
          onClick={() => {
            props.onMove(-1);
          }}
        >
          ↑
        </button>
        <button
          type="button"
          class="secondary small"
          aria-label={`Move rule ${number} down`}
          disabled={props.last}
          onClick={() => {
            props.onMove(1);
          }}
        >
          ↓
        </button>
        <button
          type="button"
          class="danger small"
          aria-label={`Remove rule ${number}`}
          onClick={props.onRemove}
        >
          Remove
        </button>
      </div>
      <GroupError prefix={prefix} path={`${path}.when`} errors={errors} />
      <div class="rule-grid">
        <Field
          prefix={prefix}
          path={`${path}.destination`}
          errors={errors}
          label={
            <>
              <span class="visually-hidden">Rule {number} </span>Destination
            </>
          }
          input={(attributes) => (
            <input
              {...attributes}
              name={name('destination')}
              type="url"
              placeholder="https://"
              defaultValue={rule?.destination ?? ''}
            />
          )}
        />
        <Field
          prefix={prefix}
          path={`${path}.status_code`}
          errors={errors}
          label={
            <>
              <span class="visually-hidden">Rule {number} </span>Status
            </>
          }
          input={(attributes) => (
            <select {...attributes} name={name('status_code')}>
              {STATUS_CHOICES.map(([value, text]) => (
                <option
                  key={value}
                  value={value}
                  selected={value === String(rule?.status_code ?? '')}
                >
                  {text}
                </option>
              ))}
            </select>
          )}
        />
      </div>
      <div class="choice-grid">
        {(Object.keys(CHOICES) as ChoiceCondition[]).map((condition) => (
          <ChoiceGroup
            key={condition}
            prefix={prefix}
            path={`${path}.when.${condition}`}
            errors={errors}
            legend={CHOICE_LEGENDS[condition]}
            name={name(condition)}
            choices={CHOICES[condition]}
            checked={when[condition] ?? []}
          />
        ))}
      </div>
      <div class="rule-grid">
        {LIST_CONDITIONS.map((condition) => (
          <Field
            key={condition}
            prefix={prefix}
            path={`${path}.when.${condition}`}
            errors={errors}
            label={LIST_LABELS[condition][0]}
            hint={LIST_LABELS[condition][1]}
            input={(attributes) => (
              <input
                {...attributes}
                name={name(condition)}
                defaultValue={(when[condition] ?? []).join(', ')}
              />
            )}
          />
        ))}
        <Field
          prefix={prefix}
          path={`${path}.when.query`}
          errors={errors}
          label="Query parameters"
          hint="One per line: name=value, or name alone for any value."
          input={(attributes) => (
            <textarea
              {...attributes}
              name={name('query')}
              rows={2}
              defaultValue={queryLines(when.query)}
            />
          )}
        />
      </div>
      <div class="rule-grid instants">
        {INSTANT_CONDITIONS.map((condition) => (
          <Field
            key={condition}
            prefix={prefix}
            path={`${path}.when.${condition}`}
            errors={errors}
            label={INSTANT_LABELS[condition][0]}
            hint={INSTANT_LABELS[condition][1]}
            input={(attributes) => (
              <>
                <input
                  {...attributes}
                  type="datetime-local"
                  name={name(condition)}
                  defaultValue={localDateTime(when[condition] ?? null)}
                />
                <input
                  type="hidden"
                  name={name(`${condition}-was`)}
                  value={when[condition] ?? ''}
                />
              </>
            )}
          />
        ))}
      </div>
    </fieldset>
  );
}
