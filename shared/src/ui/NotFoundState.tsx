import styled from 'styled-components';
import { NOT_FOUND_HEAD, usePageHead } from '../app/head.js';
import { PAGES } from '../platform/pages.js';
import { Link } from '../router.js';
import { theme } from './theme.js';

const Box = styled.div`
  padding: ${theme.space.xl} 0;
  text-align: center;
  p {
    color: ${theme.colors.muted};
  }
  nav {
    display: flex;
    gap: ${theme.space.lg};
    justify-content: center;
  }
`;

/**
 * What a page shows when the thing it is about does not exist (an unknown event, profile or
 * order, or an address with no page): not a failure to retry, but a way back. The tab says
 * "Page not found".
 */
export function NotFoundState({ text = NOT_FOUND_HEAD.description }: { text?: string }) {
  usePageHead(NOT_FOUND_HEAD);
  return (
    <Box data-not-found="">
      <h1>{NOT_FOUND_HEAD.title}</h1>
      <p>{text}</p>
      <nav aria-label="Ways back">
        <Link to={PAGES.events.href()}>Browse events</Link>
        <Link to={PAGES.home.href()}>Go to the home page</Link>
      </nav>
    </Box>
  );
}
