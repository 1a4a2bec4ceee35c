import { errorMessage } from '@/lib/api-client';
import { Phrases } from './phrases';

/** A failed read's Japanese error where its content would be, announced, broken between phrases. */
export function ErrorNote({ error, className }: { error: unknown; className?: string }) {
  return (
    <p role="alert" className={className}>
      <Phrases text={errorMessage(error)} />
    </p>
  );
}
