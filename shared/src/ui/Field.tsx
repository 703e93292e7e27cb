import {
  useId,
  useState,
  type ChangeEvent,
  type DragEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
import styled, { css } from 'styled-components';
import { focusRing } from './Button.js';
import { theme } from './theme.js';

const Wrap = styled.div`
  display: grid;
  gap: ${theme.space.xs};
  > label {
    font-size: ${theme.text.small};
    font-weight: 600;
    color: ${theme.colors.text};
  }
  > .hint,
  > .error {
    margin: 0;
    font-size: ${theme.text.small};
  }
  > .hint {
    color: ${theme.colors.muted};
  }
  > .error {
    color: ${theme.colors.danger};
  }
`;

/** What a text box looks like: fields, the search box, the chat's message box. */
const textBox = css`
  width: 100%;
  min-height: ${theme.controlHeight};
  padding: ${theme.space.sm} ${theme.space.md};
  border: 1px solid ${theme.colors.control};
  border-radius: ${theme.controlRadius};
  background: ${theme.colors.background};
  color: ${theme.colors.text};
  font: inherit;
  ${focusRing}
  &:focus-visible {
    outline-offset: 0;
    border-color: ${theme.colors.primary};
  }
  &[aria-invalid='true'] {
    border-color: ${theme.colors.danger};
  }
  &:disabled {
    opacity: ${theme.disabledOpacity};
  }
  &::placeholder {
    color: ${theme.colors.muted};
  }
`;

const Input = styled.input`
  ${textBox}
`;

const TextArea = styled.textarea`
  ${textBox}
  resize: vertical;
`;

const Select = styled.select`
  ${textBox}
`;

/** `label` always names the box; `hideLabel` keeps the name for screen readers only (a search box). */
interface FieldBase {
  label: string;
  hideLabel?: boolean;
  /** Help under the box. */
  hint?: ReactNode;
  /** What is wrong with the value: shown under the box, read with it, and marks the box invalid. */
  error?: ReactNode;
}

export type TextFieldProps = FieldBase &
  (
    | ({ multiline?: false } & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> })
    | ({ multiline: true } & TextareaHTMLAttributes<HTMLTextAreaElement>)
  );

/** A field's box attributes (id, name, description, invalid) and its label, hint and error around the box. */
function useFieldParts({ label, hideLabel, hint, error, id: givenId }: FieldBase & { id?: string | undefined }) {
  const ownId = useId();
  const id = givenId ?? ownId;
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  // A hidden label still names the box, for screen readers.
  const a11y = {
    id,
    'aria-label': hideLabel ? label : undefined,
    'aria-describedby': described,
    'aria-invalid': error ? true : undefined,
  };
  const around = (box: ReactNode) => (
    <Wrap>
      {!hideLabel && <label htmlFor={id}>{label}</label>}
      {box}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </Wrap>
  );
  return { a11y, around };
}

/** A text field with its label, and its hint and error text tied to the box (aria-describedby). */
export function TextField(props: TextFieldProps) {
  const { label: _label, hideLabel: _hideLabel, hint: _hint, error: _error, id: _id, ...rest } = props;
  const { a11y, around } = useFieldParts(props);
  return around(
    'multiline' in rest && rest.multiline ? (
      <TextArea {...withoutMultiline(rest)} {...a11y} />
    ) : (
      <Input {...(withoutMultiline(rest) as InputHTMLAttributes<HTMLInputElement>)} {...a11y} />
    ),
  );
}

export type SelectFieldProps = FieldBase &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: readonly { value: string; label: string }[];
  };

/** A choice of a few options, with its label, hint and error tied to it as a text field's are. */
export function SelectField(props: SelectFieldProps) {
  const { label: _label, hideLabel: _hideLabel, hint: _hint, error: _error, id: _id, options, ...rest } = props;
  const { a11y, around } = useFieldParts(props);
  return around(
    <Select {...rest} {...a11y}>
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </Select>,
  );
}

function withoutMultiline<T extends { multiline?: boolean }>(props: T): Omit<T, 'multiline'> {
  const { multiline: _multiline, ...rest } = props;
  return rest;
}

const CheckLabel = styled.label`
  display: flex;
  align-items: center;
  gap: ${theme.space.sm};
  min-height: 32px;
  cursor: pointer;
  input {
    width: 18px;
    height: 18px;
    margin: 0;
    accent-color: ${theme.colors.primary};
    cursor: pointer;
    ${focusRing}
  }
`;

export interface CheckboxProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> {
  label: ReactNode;
}

/** A checkbox and its label, the whole row clickable. */
export function Checkbox({ label, ...rest }: CheckboxProps) {
  return (
    <CheckLabel>
      <input type="checkbox" {...rest} />
      {label}
    </CheckLabel>
  );
}

const FileLabel = styled.label`
  position: relative;
  display: inline-flex;
  align-items: center;
  min-height: ${theme.controlHeight};
  padding: 0 ${theme.space.lg};
  border: 1px dashed ${theme.colors.control};
  border-radius: ${theme.controlRadius};
  font-weight: 600;
  cursor: pointer;
  &:hover,
  &[data-dragover='true'] {
    background: ${theme.colors.surface};
  }
  &[data-dragover='true'] {
    border-style: solid;
    border-color: ${theme.colors.primary};
  }
  /* The native input stays in the page (keyboard, screen readers, file choosers) but unseen. */
  input {
    position: absolute;
    width: 1px;
    height: 1px;
    opacity: 0;
  }
  &:focus-within {
    outline: ${theme.focus.outline};
    outline-offset: ${theme.focus.offset};
  }
`;

export interface FileFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'onChange'> {
  label: string;
  /**
   * The chosen or dropped files; the input is cleared after, so choosing the same file again
   * works. Dropped files are not filtered by `accept` (only the chooser is): check their types.
   */
  onFiles: (files: File[]) => void;
}

/** Whether a drag carries files (not text or a link dragged from the page). */
const carriesFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

/**
 * A file chooser that looks like a button and names itself by `label`; its box is also a drop
 * zone (highlighted while files are dragged over it). Keyboard and screen reader users have the
 * chooser, which the box opens.
 */
export function FileField({ label, onFiles, ...rest }: FileFieldProps) {
  const [dragOver, setDragOver] = useState(false);
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = '';
    if (files.length) onFiles(files);
  };
  // Cancelling dragover is what lets the box take a drop (else the browser opens the file).
  const onDragOver = (e: DragEvent) => {
    if (rest.disabled || !carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragOver(true);
  };
  const onDragLeave = (e: DragEvent) => {
    // Moving onto the label's own text or input is not leaving it.
    if (!(e.relatedTarget instanceof Node && e.currentTarget.contains(e.relatedTarget))) setDragOver(false);
  };
  const onDrop = (e: DragEvent) => {
    setDragOver(false);
    if (rest.disabled || !carriesFiles(e)) return;
    e.preventDefault();
    const files = [...e.dataTransfer.files];
    if (files.length) onFiles(rest.multiple ? files : files.slice(0, 1));
  };
  return (
    <FileLabel
      data-dragover={dragOver || undefined}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {label}
      <input type="file" onChange={onChange} {...rest} />
    </FileLabel>
  );
}
