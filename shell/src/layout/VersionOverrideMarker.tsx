import { useSyncExternalStore } from 'react';
import styled from 'styled-components';
import { theme } from '@marketplace/shared';
import { appliedOverrides, OVERRIDE_PARAM } from '../remotes/overrides.js';

const Bar = styled.div`
  position: fixed;
  bottom: 12px;
  right: 12px;
  z-index: 900;
  display: flex;
  gap: 8px;
  align-items: center;
  padding: 6px 10px;
  border-radius: ${theme.radius};
  background: ${theme.colors.text};
  color: #fff;
  font-size: 13px;
  a {
    color: #fff;
  }
`;

const NONE = {};

/**
 * Says, on every page of a tab that loads a tester's version of a remote, which versions those
 * are, with the way back to what everyone gets.
 */
export function VersionOverrideMarker() {
  // A page's server shows none: the tab's overrides are the browser's to apply.
  const overrides = useSyncExternalStore(appliedOverrides.subscribe, appliedOverrides.get, () => NONE);
  const entries = Object.entries(overrides);
  if (entries.length === 0) return null;
  return (
    <Bar role="status" aria-label="Testing remote versions">
      <span>Testing {entries.map(([remote, version]) => `${remote} ${version}`).join(', ')}</span>
      <a href={`?${OVERRIDE_PARAM}=clear`}>Stop testing</a>
    </Bar>
  );
}
