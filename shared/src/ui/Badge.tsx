import styled from 'styled-components';
import { BADGE_CAP } from '../constants.js';
import { theme } from './theme.js';

/** SPEC.md section 4: a badge shows '10+' above nine; nothing at zero. */
export function formatBadgeCount(count: number): string {
  if (count <= 0) return '';
  return count > BADGE_CAP ? `${BADGE_CAP + 1}+` : String(count);
}

const Dot = styled.span`
  position: absolute;
  top: -6px;
  right: -8px;
  min-width: 18px;
  padding: 0 4px;
  border-radius: 9px;
  background: ${theme.colors.danger};
  color: #fff;
  font-size: 11px;
  line-height: 18px;
  text-align: center;
  font-weight: 600;
`;

export function Badge({ count, label }: { count: number; label: string }) {
  const text = formatBadgeCount(count);
  if (!text) return null;
  return (
    <Dot role="status" aria-label={`${text} ${label}`} data-testid="badge">
      {text}
    </Dot>
  );
}
