import styled from 'styled-components';
import { theme } from '@marketplace/shared';

export const Grid = styled.ul`
  list-style: none;
  padding: 0;
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(220px, 1fr));
  gap: 16px;
  li {
    border: 1px solid ${theme.colors.border};
    border-radius: ${theme.radius};
    overflow: hidden;
    padding-bottom: 8px;
  }
  img {
    width: 100%;
    /* width/height attributes reserve the space; the card crops to 3:2. */
    height: auto;
    aspect-ratio: 3 / 2;
    object-fit: cover;
    display: block;
    background: ${theme.colors.surface};
  }
  h3,
  p {
    margin: 8px 12px 0;
  }
`;

