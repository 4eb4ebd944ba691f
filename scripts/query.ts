import { runQuery } from './query/run-query.js';
import { runCommand } from './run-command.js';

// The command's work is in scripts/query/run-query.ts.
runCommand('query', runQuery);
