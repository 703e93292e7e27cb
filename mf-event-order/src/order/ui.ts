import styled from 'styled-components';
import { theme } from '@marketplace/shared';

export const Panel = styled.section`
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  padding: 16px;
  h2 {
    margin-top: 0;
    font-size: 18px;
  }
  dt {
    color: ${theme.colors.muted};
    font-size: 13px;
  }
  dd {
    margin: 0 0 8px;
  }
`;
