import { setProofAsker } from '@/lib/api-client';

/**
 * Answers the API client's requests for fresh proof (product.md §11.8): a sensitive change refused for want of
 * it waits for the re-auth dialog, which loads with the first such request (no first load carries it), and is
 * sent again once the person proved themselves. Returns the undoing, for an effect's cleanup.
 */
export function answerProofRequests(): () => void {
  setProofAsker(async () => (await import('./ask-proof')).askForProof());
  return () => setProofAsker(undefined);
}
