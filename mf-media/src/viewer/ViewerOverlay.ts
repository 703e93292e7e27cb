import styled from 'styled-components';
import { theme } from '@marketplace/shared';

/** The viewer's full-screen frame: its bar, the stage with previous and next, the item and its details. */
export const Overlay = styled.div`
  position: fixed;
  inset: 0;
  z-index: 1100;
  display: flex;
  flex-direction: column;
  /* Opaque: the page under it does not show through. */
  background: #000;
  color: #fff;
  font-family: ${theme.font};
  .bar {
    display: flex;
    align-items: center;
    justify-content: space-between;
    padding: 12px 16px;
  }
  .stage {
    flex: 1;
    min-height: 0;
    display: flex;
    align-items: center;
    justify-content: center;
    gap: 12px;
    padding: 0 12px;
  }
  /* Previous and next stay at the screen's sides, wherever the item's width puts its edges. */
  .nav {
    position: fixed;
    top: 50%;
    transform: translateY(-50%);
    z-index: 1;
  }
  .nav.previous {
    left: 12px;
  }
  .nav.next {
    right: 12px;
  }
  .media {
    /* A horizontal swipe is the viewer's (next, previous); vertical panning and zoom stay the browser's. */
    touch-action: pan-y pinch-zoom;
    max-width: min(1100px, calc(100vw - 140px));
    max-height: calc(100vh - 200px);
    display: flex;
    justify-content: center;
  }
  .media img,
  .media video {
    max-width: 100%;
    max-height: calc(100vh - 200px);
    object-fit: contain;
  }
  .media > div {
    width: min(900px, calc(100vw - 140px));
    aspect-ratio: 16 / 9;
  }
  .info {
    padding: 12px 16px 20px;
    text-align: center;
  }
  .info h2 {
    margin: 0 0 4px;
    font-size: 18px;
  }
  .info p {
    margin: 4px 0;
  }
  .info a {
    color: #9cc8ff;
  }
  .actions {
    display: flex;
    gap: 16px;
    justify-content: center;
    align-items: center;
    margin-top: 8px;
  }
  .actions [role='status'] {
    background: #fff;
    padding: 2px 8px;
    border-radius: 4px;
  }
`;
