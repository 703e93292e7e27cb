import styled from 'styled-components';
import { theme } from '@marketplace/shared';

export const Form = styled.form`
  display: grid;
  gap: 12px;
  max-width: 420px;
  label {
    display: grid;
    gap: 4px;
    font-size: 14px;
  }
  input,
  textarea {
    padding: 8px;
    font: inherit;
    border: 1px solid ${theme.colors.border};
    border-radius: 6px;
  }
  [role='alert'] {
    color: ${theme.colors.danger};
  }
`;

/** Reads a form's named text fields. */
export function formFields<K extends string>(form: HTMLFormElement, names: readonly K[]): Record<K, string> {
  const data = new FormData(form);
  return Object.fromEntries(names.map((n) => [n, String(data.get(n) ?? '').trim()])) as Record<K, string>;
}
