import { Button, Group, Text } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What failed, for a person: "Order entry", "The preview". */
  label: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Keeps a failure in one part of the screen to that part (issue 22): the part says what failed and
 * offers to try again, while everything around it — a form's typed values above all — stays as it is.
 */
export class PartBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`${this.props.label} failed to render`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Group gap={6} role="alert" data-testid="part-error" wrap="nowrap">
        <Text size="xs" c="red">
          {this.props.label} could not be shown: {error.message}
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={() => this.setState({ error: null })}>
          Try again
        </Button>
      </Group>
    );
  }
}
