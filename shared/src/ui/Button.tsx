import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import styled, { css } from 'styled-components';
import { theme } from './theme.js';

/** The keyboard focus indicator every control shows (SPEC.md has none; WCAG 2.4.7). */
export const focusRing = css`
  &:focus-visible {
    outline: ${theme.focus.outline};
    outline-offset: ${theme.focus.offset};
  }
`;

/** What every button shares: the page's font, a pointer, the focus ring, and how it looks disabled. */
const buttonBase = css`
  font: inherit;
  color: inherit;
  cursor: pointer;
  ${focusRing}
  &:disabled {
    cursor: not-allowed;
    opacity: ${theme.disabledOpacity};
  }
`;

/** A control's background at rest, under the pointer and pressed (an enabled one only). */
const fill = (rest: string, hover: string, active: string) => css`
  background: ${rest};
  &:hover:not(:disabled) {
    background: ${hover};
  }
  &:active:not(:disabled) {
    background: ${active};
  }
`;

const VARIANTS = {
  /** The one main action of a form or dialog (Log in, Continue, Send). */
  primary: css`
    ${fill(theme.colors.primary, theme.colors.primaryHover, theme.colors.primaryActive)}
    border-color: ${theme.colors.primary};
    color: #fff;
  `,
  /** Every other action. */
  secondary: css`
    ${fill(theme.colors.background, theme.colors.surface, theme.colors.surfaceHover)}
    border-color: ${theme.colors.control};
    color: ${theme.colors.text};
  `,
  /** A quiet action inside a row or a bar (Edit, Remove). */
  ghost: css`
    ${fill('transparent', theme.colors.surface, theme.colors.surfaceHover)}
    border-color: transparent;
    color: ${theme.colors.primary};
  `,
  /** An action that reads like a link in running text or a footer (Contact Us). */
  link: css`
    min-height: 0;
    padding: 0;
    background: none;
    border-color: transparent;
    color: ${theme.colors.primary};
    font-weight: inherit;
    font-size: inherit;
    text-decoration: underline;
    &:hover:not(:disabled) {
      color: ${theme.colors.primaryHover};
    }
  `,
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

/** Button heights, paddings and text sizes; `responsive` is medium, and small on a phone (SPEC.md section 9). */
const SMALL = css`
  min-height: 30px;
  padding: 0 ${theme.space.md};
  font-size: ${theme.text.small};
`;
const MEDIUM = css`
  min-height: ${theme.controlHeight};
  padding: 0 ${theme.space.lg};
  font-size: ${theme.text.body};
`;
const SIZES = {
  small: SMALL,
  medium: MEDIUM,
  // In CSS rather than by script, so a page rendered on the server has the phone's size at once.
  responsive: css`
    ${MEDIUM}
    ${theme.mobile} {
      ${SMALL}
    }
  `,
} as const;

export type ButtonSize = keyof typeof SIZES;

const StyledButton = styled.button<{ $variant: ButtonVariant; $size: ButtonSize }>`
  ${buttonBase}
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${theme.space.sm};
  ${(p) => SIZES[p.$size]}
  border: 1px solid;
  border-radius: ${theme.controlRadius};
  font-weight: 600;
  white-space: nowrap;
  transition: background-color 0.12s;
  ${(p) => VARIANTS[p.$variant]}
`;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  ref?: Ref<HTMLButtonElement>;
}

/** The platform's button. It is `type="button"` unless told otherwise, so it never submits by accident. */
export function Button({ variant = 'secondary', size = 'medium', type = 'button', ...rest }: ButtonProps) {
  return <StyledButton $variant={variant} $size={size} type={type} {...rest} />;
}

/** Icon buttons on the page's light surfaces, and on dark ones (the media viewer). */
const TONES = {
  default: css`
    ${fill('transparent', theme.colors.surface, theme.colors.surfaceHover)}
    color: ${theme.colors.text};
  `,
  inverse: css`
    ${fill('rgba(255, 255, 255, 0.15)', 'rgba(255, 255, 255, 0.3)', 'rgba(255, 255, 255, 0.4)')}
    color: #fff;
    &:focus-visible {
      outline-color: #fff;
    }
  `,
} as const;

const StyledIconButton = styled.button<{ $tone: keyof typeof TONES; $size: number }>`
  ${buttonBase}
  position: relative;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  flex: none;
  width: ${(p) => p.$size}px;
  height: ${(p) => p.$size}px;
  padding: 0;
  border: none;
  border-radius: 50%;
  font-size: ${(p) => Math.round(p.$size / 2)}px;
  line-height: 1;
  ${(p) => TONES[p.$tone]}
`;

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'children'> {
  /** The accessible name: an icon alone says nothing to a screen reader. */
  label: string;
  children: ReactNode;
  /** 'inverse' for dark surfaces (the media viewer). */
  tone?: keyof typeof TONES;
  /** The round target's width and height in px. */
  size?: number;
  ref?: Ref<HTMLButtonElement>;
}

/** A round button showing an icon, named by `label`. */
export function IconButton({ label, tone = 'default', size = 36, type = 'button', ...rest }: IconButtonProps) {
  return <StyledIconButton aria-label={label} $tone={tone} $size={size} type={type} {...rest} />;
}

/**
 * A button with no look of its own, for a clickable area that is laid out by what it holds (a
 * gallery card's picture, a feed entry, a menu item): the reset and the focus ring, nothing else.
 */
export const PlainButton = styled.button.attrs((p) => ({ type: p.type ?? 'button' }))`
  ${buttonBase}
  padding: 0;
  border: none;
  background: none;
  text-align: left;
`;
