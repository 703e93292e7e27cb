import { Component, type ErrorInfo, type ReactNode } from 'react';

interface SlotBoundaryProps {
  resetKey: string;
  fallback: ReactNode;
  onError: (error: Error) => void;
  children: ReactNode;
}

/**
 * Catches a remote that throws while rendering; a new resetKey (navigation, Retry) tries again.
 * It reports what it caught itself (onError: the slot's failure, against its remote), so the
 * root's handler leaves an error a SlotBoundary caught to it (shell/src/telemetry): counted once.
 */
export class SlotBoundary extends Component<SlotBoundaryProps, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.warn('[shell] a remote failed while rendering', error, info.componentStack);
    this.props.onError(error);
  }
  componentDidUpdate(prev: SlotBoundaryProps): void {
    if (this.state.failed && prev.resetKey !== this.props.resetKey) this.setState({ failed: false });
  }
  render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
