/** A text field's trimmed value; '' when absent (file inputs never occur in these forms). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.trim() : '';
}
