import styled from 'styled-components';

/**
 * SPEC.md section 2: a site-wide down page whose flag is never set. The flag is a constant so
 * an operator can flip it in one place and redeploy the shell alone.
 */
export const SITE_IS_DOWN = false;

const Page = styled.main`
  max-width: 560px;
  margin: 20vh auto;
  padding: 0 24px;
  text-align: center;
`;

export function DownPage() {
  return (
    <Page>
      <h1>We&apos;ll be right back</h1>
      <p>Website is currently down, we&apos;re working on getting it back up and running as quickly as possible.</p>
    </Page>
  );
}
