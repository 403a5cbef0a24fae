import { useState } from 'preact/hooks';
import type { Variant } from '../api.js';
import { rowField } from '../smart-body.js';
import type { FormErrors } from './field-errors.js';
import { Field, GroupError } from './form-field.js';
import { useRows } from './use-rows.js';

/** src/domain/smart/smart-options.ts: MAX_VARIANTS, MIN/MAX_VARIANT_WEIGHT. */
const MAX_VARIANTS = 10;

/** A weight as the API takes it (a whole number 1–100), else null. */
function weightOf(text: string): number | null {
  const weight = Number(text);
  return text.trim() !== '' && Number.isInteger(weight) && weight >= 1 && weight <= 100
    ? weight
    : null;
}

/** Each weight's share of the valid weights' sum, as shown: `25 %`, `33.3 %`; '—' if none. */
export function shares(weights: readonly (number | null)[]): string[] {
  const sum = weights.reduce<number>((total, weight) => total + (weight ?? 0), 0);
  return weights.map((weight) =>
    weight === null || sum === 0 ? '—' : `${Math.round((weight / sum) * 1000) / 10} %`,
  );
}

/**
 * Variants (issue 21): destinations drawn by weight when no rule matches, none or 2–10;
 * each row shows the share of visitors its weight gives it as the weights are typed.
 */
export function VariantsEditor(props: {
  prefix: string;
  variants: readonly Variant[];
  errors: FormErrors;
}) {
  const { prefix, errors } = props;
  const { rows, add, remove } = useRows(props.variants);
  // Only the weights are followed as typed: the shares need them.
  const [weights, setWeights] = useState<ReadonlyMap<string, string>>(
    () => new Map(props.variants.map((variant, i) => [String(i), String(variant.weight)])),
  );
  const shown = shares(rows.map((row) => weightOf(weights.get(row.key) ?? '')));
  return (
    <fieldset class="smart-group">
      <legend>Variants</legend>
      <small>
        None, or 2 to 10 destinations drawn by weight when no rule matches; a visitor keeps the one
        first drawn.
      </small>
      <GroupError prefix={prefix} path="variants" errors={errors} />
      {rows.map((row, index) => {
        const path = `variants[${index}]`;
        const number = index + 1;
        return (
          <div class="variant" key={row.key}>
            <input type="hidden" name="variant" value={row.key} />
            <Field
              prefix={prefix}
              path={`${path}.destination`}
              errors={errors}
              label={
                <>
                  <span class="visually-hidden">Variant {number} </span>Destination
                </>
              }
              input={(attributes) => (
                <input
                  {...attributes}
                  type="url"
                  placeholder="https://"
                  name={rowField('variant', row.key, 'destination')}
                  defaultValue={row.initial?.destination ?? ''}
                />
              )}
            />
            <Field
              prefix={prefix}
              path={`${path}.weight`}
              errors={errors}
              label={
                <>
                  <span class="visually-hidden">Variant {number} </span>Weight
                </>
              }
              input={(attributes) => (
                <input
                  {...attributes}
                  inputMode="numeric"
                  name={rowField('variant', row.key, 'weight')}
                  defaultValue={row.initial === undefined ? '' : String(row.initial.weight)}
                  onInput={(event) => {
                    const value = event.currentTarget.value;
                    setWeights((current) => new Map(current).set(row.key, value));
                  }}
                />
              )}
            />
            <output
              class="share"
              data-testid="variant-share"
              aria-label={`Variant ${number} share`}
            >
              {shown[index]}
            </output>
            <button
              type="button"
              class="danger small"
              aria-label={`Remove variant ${number}`}
              onClick={() => {
                remove(row.key);
              }}
            >
              Remove
            </button>
          </div>
        );
      })}
      <button
        type="button"
        class="secondary small"
        onClick={add}
        disabled={rows.length >= MAX_VARIANTS}
      >
        Add variant
      </button>
    </fieldset>
  );
}
