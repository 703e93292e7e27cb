import styled from 'styled-components';
import {
  isStep,
  stepLabel,
  theme,
  type EventOrderStep,
  type EventOrderView,
  type ProgressStatus,
  type StatusType,
} from '@marketplace/shared';

export const STATUS_COLORS: Record<StatusType, string> = {
  COMPLETED: theme.colors.success,
  CURRENT: theme.colors.warning,
  LOCKED: theme.colors.locked,
};

const Bar = styled.ol`
  display: flex;
  align-items: center;
  list-style: none;
  padding: 0;
  margin: 24px 0;
  /* A phone lists the steps down the screen: side by side, the later ones would be cut off. */
  ${theme.mobile} {
    flex-direction: column;
    align-items: flex-start;
  }
`;

/** How a step is drawn: its status type, or the end of an order that stopped there. */
type Look = StatusType | 'ENDED';
const LOOK_COLORS: Record<Look, string> = { ...STATUS_COLORS, ENDED: theme.colors.danger };

const Step = styled.li<{ $type: Look }>`
  display: flex;
  align-items: center;
  gap: 6px;
  white-space: nowrap;
  color: ${(p) => LOOK_COLORS[p.$type]};
  font-weight: ${(p) => (p.$type === 'CURRENT' ? 700 : 400)};
`;

const Dot = styled.span<{ $type: Look }>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 22px;
  height: 22px;
  border-radius: 50%;
  color: #fff;
  font-size: 13px;
  background: ${(p) => LOOK_COLORS[p.$type]};
`;

const Connector = styled.li<{ $type: StatusType }>`
  flex: 1;
  min-width: 24px;
  height: 3px;
  margin: 0 8px;
  background: ${(p) => STATUS_COLORS[p.$type]};
  ${theme.mobile} {
    flex: none;
    width: 3px;
    min-width: 0;
    height: 14px;
    margin: 4px 0 4px 10px;
  }
`;

/**
 * The horizontal status bar (SPEC.md section 4): COMPLETED green with a check mark, CURRENT orange
 * and bold, LOCKED grey; each connector takes the colour of the step after it. An order that ended
 * outside the workflow (`ended`: "Cancelled") shows that end, in red, where it stopped.
 */
export function ProgressBar({
  statuses: listed,
  view,
  ended,
}: {
  statuses: ProgressStatus[];
  view: EventOrderView;
  ended?: string | undefined;
}) {
  // APPROVED and DECLINED have no step of their own (SPEC.md section 4: no label is shown).
  const statuses = listed.filter((s): s is ProgressStatus & { statusName: EventOrderStep } => isStep(s.statusName));
  return (
    <Bar aria-label="Order progress">
      {statuses.flatMap((s, i) => {
        const end = ended !== undefined && s.statusType === 'CURRENT';
        const look: Look = end ? 'ENDED' : s.statusType;
        const step = (
          <Step
            key={s.statusName}
            $type={look}
            data-status-type={look}
            aria-current={s.statusType === 'CURRENT' ? 'step' : undefined}
          >
            <Dot $type={look} aria-hidden="true">
              {s.statusType === 'COMPLETED' ? '✓' : end ? '✕' : i + 1}
            </Dot>
            {end ? ended : stepLabel(s.statusName, view)}
          </Step>
        );
        const next = statuses[i + 1];
        return next
          ? [
              step,
              <Connector
                key={`${s.statusName}-to-next`}
                $type={next.statusType}
                data-testid="connector"
                aria-hidden="true"
              />,
            ]
          : [step];
      })}
    </Bar>
  );
}
