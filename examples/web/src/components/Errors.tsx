import { useEffect, useState } from 'react';
import type { CombinedError } from 'urql';

export interface CodedError {
  message: string;
  path?: readonly (string | number)[];
  code: string;
  extensions: Record<string, unknown>;
}

/** Every GraphQL error of a result with its extensions.code (a network failure is NETWORK_ERROR). */
export function codedErrors(error: CombinedError | undefined): CodedError[] {
  if (!error) return [];
  if (error.networkError) return [{ message: error.networkError.message, code: 'NETWORK_ERROR', extensions: {} }];
  return error.graphQLErrors.map((e) => ({
    message: e.message,
    path: e.path,
    code: String(e.extensions?.code ?? 'UNKNOWN'),
    extensions: (e.extensions ?? {}) as Record<string, unknown>,
  }));
}

/** The errors at one path (e.g. ["company", "financialProfile"]), to render inline where the data would be. */
export function errorsAt(errors: CodedError[], ...path: (string | number)[]): CodedError[] {
  return errors.filter((e) => e.path && path.every((part, i) => e.path![i] === part) && e.path.length === path.length);
}

function Countdown({ seconds, onDone }: { seconds: number; onDone?: () => void }) {
  const [left, setLeft] = useState(seconds);
  useEffect(() => {
    setLeft(seconds);
    const timer = setInterval(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  useEffect(() => {
    if (left === 0) onDone?.();
  }, [left, onDone]);
  return left > 0 ? <span data-testid="retry-countdown">retry in {left} s</span> : <span data-testid="retry-ready">you can retry now</span>;
}

/** One error, rendered by its code. */
export function ErrorNote({ error, onRetry }: { error: CodedError; onRetry?: () => void }) {
  const { code, extensions } = error;
  let detail: React.ReactNode = error.message;
  if (code === 'NOT_FOUND') detail = 'Not found.';
  if (code === 'RATE_LIMITED') {
    const retryAfter = Number(extensions.retryAfter ?? 0);
    detail = (
      <>
        Too many requests — <Countdown seconds={retryAfter} />
        {onRetry && <button type="button" onClick={onRetry}>Retry</button>}
      </>
    );
  }
  if (code === 'COST_LIMIT_EXCEEDED' && extensions.cost !== undefined) {
    detail = `This would cost up to ${String(extensions.cost)} upstream calls; the budget is ${String(extensions.budget)}. Ask for less in one operation.`;
  }
  return (
    <div className={`error error-${code.toLowerCase()}`} data-testid="error" data-code={code}>
      <code>{code}</code> {detail}
    </div>
  );
}

/** The errors no inline place shows: the whole-request refusals, and any error outside `inline` paths. */
export function ErrorList({ errors, except = [], onRetry }: { errors: CodedError[]; except?: CodedError[]; onRetry?: () => void }) {
  const rest = errors.filter((e) => !except.includes(e));
  if (rest.length === 0) return null;
  return (
    <div className="errors">
      {rest.map((e, i) => (
        <ErrorNote key={i} error={e} onRetry={onRetry} />
      ))}
    </div>
  );
}
