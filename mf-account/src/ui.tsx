import { useId, type ReactNode } from 'react';
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

/**
 * Reads a form's named text fields, without the spaces around them, except passwords: a space
 * there is part of what the user chose, and trimming it would store a weaker password than typed.
 */
export function formFields<K extends string>(form: HTMLFormElement, names: readonly K[]): Record<K, string> {
  const data = new FormData(form);
  return Object.fromEntries(
    names.map((n) => {
      const value = String(data.get(n) ?? '');
      const field = form.elements.namedItem(n);
      return [n, field instanceof HTMLInputElement && field.type === 'password' ? value : value.trim()];
    }),
  ) as Record<K, string>;
}

const TableBox = styled.div`
  /* A table wider than the column (a phone's 390 px) scrolls inside its box, not the page. */
  max-width: 100%;
  overflow-x: auto;
  margin-bottom: ${theme.space.xl};
  &:focus-visible {
    outline: ${theme.focus.outline};
    outline-offset: ${theme.focus.offset};
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    padding: ${theme.space.sm} ${theme.space.md};
    border-bottom: 1px solid ${theme.colors.border};
    text-align: left;
    white-space: nowrap;
  }
  thead th {
    font-size: ${theme.text.small};
    color: ${theme.colors.muted};
  }
  /* Names wrap rather than push the figures out of sight. */
  .name {
    white-space: normal;
    min-width: 8em;
  }
  .money {
    text-align: right;
  }
  tfoot th,
  tfoot td {
    border-bottom: none;
  }
  tfoot tr:last-child {
    font-weight: 700;
  }
`;

/**
 * A table under its heading, in a box that scrolls sideways when the table is wider than the
 * screen; the box is a named region and takes focus, so it scrolls from the keyboard too.
 */
export function TableSection({
  title,
  columns,
  children,
}: {
  title: string;
  /** The header row: each column's label, and whether it holds money (right-aligned). */
  columns: readonly { label: string; money?: boolean }[];
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <h2 id={id}>{title}</h2>
      <TableBox role="region" aria-labelledby={id} tabIndex={0}>
        <table aria-labelledby={id}>
          <thead>
            <tr>
              {columns.map(({ label, money }) => (
                <th key={label} scope="col" className={money ? 'money' : undefined}>
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          {children}
        </table>
      </TableBox>
    </>
  );
}
