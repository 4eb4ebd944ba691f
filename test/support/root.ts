import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, for suites that read its files (without loading aws-cdk-lib). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
