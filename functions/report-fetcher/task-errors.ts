import { StorageError } from '../../lib/aws/index.js';
import { HttpError, NetworkError, TimeoutError } from '../../lib/index.js';

/**
 * Whether a task that failed this way may succeed later in the same job: throttling, the
 * service or S3 having a bad minute, a timeout. Those go back to the job's queue and the day
 * finishes later; anything else (a refused request, an answer that breaks its schema) fails
 * the task at once, with its reason in the manifest.
 */
export function transient(error: unknown): boolean {
  if (error instanceof HttpError)
    return error.status === 408 || error.status === 429 || error.status >= 500;
  return (
    error instanceof TimeoutError || error instanceof NetworkError || error instanceof StorageError
  );
}
