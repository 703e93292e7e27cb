import styled from 'styled-components';
import { Card, theme } from '@marketplace/shared';

/** An order page panel: a card whose facts are a list of terms (dt) and values (dd). */
export const Panel = styled(Card)`
  dt {
    color: ${theme.colors.muted};
    font-size: ${theme.text.small};
  }
  dd {
    margin: 0 0 ${theme.space.sm};
  }
`;
