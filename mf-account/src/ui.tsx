import styled from 'styled-components';
import { theme } from '@marketplace/shared';

export const Form = styled.form`
  display: grid;
  gap: ${theme.space.lg};
  max-width: 420px;
  > button {
    justify-self: start;
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
