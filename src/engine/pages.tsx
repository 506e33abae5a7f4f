/** The engine's own pages: 404, 403, the error page and the render error boundary (spec §2, §8). */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Box, Heading, Link, Text } from '@chakra-ui/react';
import { useEngine } from './services.ts';
import { resolveTarget } from './routing.ts';
import { tr } from '../../core/current-language.ts';

function homeHref(services: ReturnType<typeof useEngine>): string {
  try {
    const resolved = resolveTarget(services.descriptors.routes.home, {}, services.descriptors.table);
    return resolved.kind === 'route' ? `#${resolved.path}` : resolved.href;
  } catch {
    return '#/';
  }
}

export function NotFoundContent() {
  const services = useEngine();
  const { notFound } = services.descriptors.routes;
  return (
    <Box py="10" data-page="not-found">
      <Heading as="h1" size="2xl" mb="4">
        {tr(notFound.message)}
      </Heading>
      <Link href={homeHref(services)} color="brand.fg" textDecoration="underline">
        {tr(notFound.link)}
      </Link>
    </Box>
  );
}

export function ForbiddenContent() {
  const { descriptors } = useEngine();
  return (
    <Box py="10" data-page="forbidden">
      <Heading as="h1" size="2xl" mb="2">
        403
      </Heading>
      <Text fontSize="lg">{tr(descriptors.routes.forbidden.message)}</Text>
    </Box>
  );
}

/** The error page: the message (or 'Error') and the status (default 500). */
export function ErrorContent({ message, status }: { message?: string; status?: number }) {
  return (
    <Box py="10" data-page="error" role="alert">
      <Heading as="h1" size="2xl" mb="2">
        {tr(message || 'Error')}
      </Heading>
      <Text color="fg.muted">{tr('Status')} {status ?? 500}</Text>
      <Link href="#/" color="brand.fg" textDecoration="underline" mt="4" display="inline-block">
        {tr('Go back to home')}
      </Link>
    </Box>
  );
}

/** Plain markup only: shown when even the error page failed. */
function ErrorPageFailed() {
  return (
    <main style={{ padding: 32, fontFamily: 'system-ui, sans-serif' }}>
      <h1 style={{ fontSize: 24 }}>An error occurred while showing the error page</h1>
      <a href="#/" style={{ color: '#1f5ad1' }}>
        {tr('Go back to home')}
      </a>
    </main>
  );
}

class InnerBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ErrorPageFailed /> : this.props.children;
  }
}

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called with errors of failed code-split chunks; answers true when it takes care (reloads the page). */
  onChunkError?: (error: Error) => boolean;
  /** Something that changes on navigation, to leave the error page. */
  resetKey?: string;
  /** Told of each error a page's render ends in (the studio's render check, decision 0228). */
  onRenderError?: (error: Error) => void;
}

/** Render errors become the error page; if that fails too, a plain fallback (spec §8). */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { error: Error | null; key: string | undefined }> {
  override state: { error: Error | null; key: string | undefined } = { error: null, key: undefined };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: { error: Error | null; key: string | undefined }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }
  override componentDidCatch(error: Error, info: ErrorInfo) {
    if (this.props.onChunkError?.(error)) return;
    this.props.onRenderError?.(error);
    console.error(error, info.componentStack);
  }
  override render() {
    if (!this.state.error) return this.props.children;
    const status = (this.state.error as Error & { status?: number }).status;
    return (
      <InnerBoundary>
        <Box as="main" p="8">
          <ErrorContent message={this.state.error.message} status={status} />
        </Box>
      </InnerBoundary>
    );
  }
}
