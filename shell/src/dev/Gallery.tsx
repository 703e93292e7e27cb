import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import {
  Avatar,
  Badge,
  BellIcon,
  Button,
  Card,
  Checkbox,
  Dropdown,
  EmptyState,
  FileField,
  IconButton,
  Link,
  MenuItem,
  MenuList,
  Modal,
  PageLayout,
  popupSurface,
  QueryState,
  Skeleton,
  TextField,
  theme,
  Time,
  type ButtonVariant,
} from '@marketplace/shared';

/**
 * The visual system's gallery (issue 19): every shared component in its states, on one page of
 * the shell's development build (`pnpm --filter shell dev`, then /__ui). Hover, pressed and
 * keyboard focus are there to try with the pointer and Tab.
 */
const Section = styled.section`
  margin-bottom: ${theme.space.xxl};
  h2 {
    font-size: ${theme.text.large};
    margin: 0 0 ${theme.space.md};
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: ${theme.space.md};
    margin-bottom: ${theme.space.md};
  }
  .dark {
    padding: ${theme.space.md};
    background: #000;
    border-radius: ${theme.radius};
  }
  .swatch {
    width: 96px;
    font-size: ${theme.text.small};
  }
  .swatch span {
    display: block;
    height: 40px;
    border: 1px solid ${theme.colors.border};
    border-radius: 4px;
  }
  .menu {
    width: 220px;
    ${popupSurface}
  }
`;

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Section aria-label={title}>
      <h2>{title}</h2>
      {children}
    </Section>
  );
}

const VARIANTS: ButtonVariant[] = ['primary', 'secondary', 'ghost', 'link'];
const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

export default function Gallery() {
  const [dialog, setDialog] = useState(false);
  const [checked, setChecked] = useState(true);
  return (
    <PageLayout>
      <h1>Visual system</h1>
      <Part title="Colours">
        <div className="row">
          {Object.entries(theme.colors).map(([name, value]) => (
            <div className="swatch" key={name}>
              <span style={{ background: value }} />
              {name}
            </div>
          ))}
        </div>
      </Part>
      <Part title="Spacing and type">
        <div className="row">
          {Object.entries(theme.space).map(([name, value]) => (
            <span
              key={name}
              title={value}
              style={{ display: 'inline-block', width: value, height: value, background: theme.colors.primary }}
            />
          ))}
        </div>
        {Object.entries(theme.text).map(([name, value]) => (
          <p key={name} style={{ fontSize: value, margin: '4px 0' }}>
            {name}: {value}
          </p>
        ))}
      </Part>
      <Part title="Buttons">
        {VARIANTS.map((variant) => (
          <div className="row" key={variant}>
            <Button variant={variant}>{variant}</Button>
            <Button variant={variant} size="small">
              {variant} small
            </Button>
            <Button variant={variant} disabled>
              {variant} disabled
            </Button>
          </div>
        ))}
        <div className="row">
          <IconButton label="Open menu">☰</IconButton>
          <IconButton label="More options" size={28}>
            ⋯
          </IconButton>
          <IconButton label="Disabled" disabled>
            ×
          </IconButton>
          <span className="dark">
            <IconButton label="Previous" tone="inverse" size={44}>
              ‹
            </IconButton>
          </span>
        </div>
      </Part>
      <Part title="Fields">
        <div style={{ display: 'grid', gap: theme.space.lg, maxWidth: 420 }}>
          <TextField label="Empty" name="empty" />
          <TextField label="With a hint" hint="At least 8 characters." defaultValue="secret" />
          <TextField label="With an error" error="Email is invalid" defaultValue="ann@" />
          <TextField label="Disabled" disabled defaultValue="Cannot change" />
          <TextField label="Multiline" multiline rows={3} />
          <TextField label="Search" hideLabel type="search" placeholder="A field named for screen readers only" />
          <Checkbox label="Checked" checked={checked} onChange={(e) => setChecked(e.target.checked)} />
          <Checkbox label="Unchecked" defaultChecked={false} />
          <Checkbox label="Disabled" disabled />
          <FileField label="Add images" accept="image/*" multiple onFiles={() => undefined} />
        </div>
      </Part>
      <Part title="Card, badge and avatar">
        <div className="row">
          <Card style={{ width: 260 }}>
            <h3>A card</h3>
            <p>A bordered block: gallery cards, order panels.</p>
          </Card>
          <span style={{ position: 'relative', fontSize: 24 }}>
            <BellIcon />
            <Badge count={3} label="new notifications" />
          </span>
          <span style={{ position: 'relative', fontSize: 24 }}>
            <BellIcon />
            <Badge count={12} label="new notifications" />
          </span>
          <Avatar src={null} name="No picture" size={40} />
          <Avatar src="/broken-picture.png" name="Broken picture" size={40} />
        </div>
      </Part>
      <Part title="Menu and dialog surfaces">
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <MenuList className="menu" aria-label="A menu">
            <li>
              <Link to="/__ui">A link entry</Link>
            </li>
            <li>
              <MenuItem>An action entry</MenuItem>
            </li>
          </MenuList>
          <Dropdown label="A dropdown" trigger="▾">
            {(close) => (
              <MenuList>
                <li>
                  <MenuItem onClick={close}>Close me</MenuItem>
                </li>
              </MenuList>
            )}
          </Dropdown>
          <Button onClick={() => setDialog(true)}>Open a dialog</Button>
        </div>
        {dialog && (
          <Modal title="A dialog" onClose={() => setDialog(false)}>
            <p>Escape, the backdrop or the button closes it.</p>
            <Button variant="primary" onClick={() => setDialog(false)}>
              Close
            </Button>
          </Modal>
        )}
      </Part>
      <Part title="Loading, empty and times">
        <div className="row" style={{ alignItems: 'flex-start' }}>
          <div style={{ width: 260 }}>
            <QueryState isLoading error={null}>
              {null}
            </QueryState>
          </div>
          <Skeleton shape="circle" width={40} height={40} />
          <Skeleton shape="block" width={160} height={100} />
        </div>
        <EmptyState title="No notifications" icon={<BellIcon />}>
          Something to do next.
        </EmptyState>
        <div className="row">
          <Time iso={minutesAgo(0)} />
          <Time iso={minutesAgo(5)} />
          <Time iso={minutesAgo(3 * 24 * 60)} />
          <Time iso={minutesAgo(30 * 24 * 60)} />
        </div>
      </Part>
    </PageLayout>
  );
}
